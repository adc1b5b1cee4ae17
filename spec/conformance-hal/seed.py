"""The seed of db/seed.sql, exactly as spec/conformance/seed.py computes it (loaded from there,
so that both suites hold the same knowledge of it)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_SOURCE = Path(__file__).resolve().parent.parent / "conformance" / "seed.py"
_spec = importlib.util.spec_from_file_location("conformance_seed", _SOURCE)
assert _spec is not None and _spec.loader is not None, _SOURCE
_seed = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_seed)

CATEGORIES: int = _seed.CATEGORIES
ITEMS: int = _seed.ITEMS
category = _seed.category
item = _seed.item
items_of_category = _seed.items_of_category
