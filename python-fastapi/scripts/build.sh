#!/usr/bin/env bash
# Creates .venv from the locked requirements, or does nothing when it already matches them.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

python=${PYTHON:-python3}
stamp=.venv/.requirements-sha256
wanted=$({ "$python" --version; cat requirements.txt requirements-dev.txt; } | sha256sum | cut -d' ' -f1)

if [[ -x .venv/bin/python && "$(cat "$stamp" 2>/dev/null)" == "$wanted" ]]; then
  echo "python-fastapi: .venv is up to date"
  exit 0
fi

rm -f "$stamp"
# --clear: a changed lock leaves no package of the old one behind.
"$python" -m venv --clear .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check --require-hashes \
  -r requirements.txt -r requirements-dev.txt
echo "$wanted" > "$stamp"
echo "python-fastapi: .venv built with $(.venv/bin/python --version)"
