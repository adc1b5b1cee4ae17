"""The base of every raw-result model (bench.records): a field not declared is refused, and each
field's docstring is its description in raw-result.schema.json."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)
