"""The JSON schema of the raw result files, generated from bench.records.

raw-result.schema.json beside this file is that schema, committed so that readers of the raw
files need no Python; `python -m bench.schema` writes it again after a model changes (a test
fails while the committed one is stale).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker

from bench.records import SCHEMA_VERSION, RawResult

SCHEMA_PATH = Path(__file__).with_name("raw-result.schema.json")


def generate() -> dict[str, Any]:
    schema = RawResult.model_json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:bench:raw-result:{SCHEMA_VERSION}",
        **schema,
    }


def render() -> str:
    return json.dumps(generate(), indent=2, ensure_ascii=False) + "\n"


def write(path: Path = SCHEMA_PATH) -> Path:
    path.write_text(render())
    return path


@cache
def _validator() -> Draft202012Validator:
    schema = json.loads(SCHEMA_PATH.read_text())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=FormatChecker())


def validate_raw(record: dict[str, Any]) -> list[str]:
    """Problems of one raw result against the committed schema, as `path: message` lines;
    empty when it conforms."""
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}"
        for e in sorted(_validator().iter_errors(record), key=lambda e: list(e.absolute_path))
    ]


if __name__ == "__main__":
    print(f"wrote {write()}")
