import sys
from pathlib import Path

# The runner's package lives beside this folder; ./bench puts it on the path, pytest alone does not.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
