"""The raw result records: the published files load into the model, the committed schema is
the one generated from it, and results.md is rendered from them unchanged."""

import json
import shutil
from pathlib import Path
from typing import get_args

import pytest

from bench import profiles, report, scenarios, schema
from bench.records import Profile, RawResult

ROOT = Path(__file__).resolve().parents[2]
RAW_FILES = sorted((ROOT / "results" / "raw").glob("**/*.json"))


def test_there_are_published_raw_files():
    assert len(RAW_FILES) > 100


@pytest.mark.parametrize("path", RAW_FILES, ids=lambda p: str(p.relative_to(ROOT / "results" / "raw")))
def test_every_published_file_loads_validates_and_is_written_back_the_same(path):
    text = path.read_text()
    record = RawResult.read(path)
    assert json.loads(record.to_json()) == json.loads(text)
    assert schema.validate_raw(json.loads(text)) == []


def test_the_committed_schema_is_the_generated_one():
    assert schema.SCHEMA_PATH.read_text() == schema.render(), "run `python -m bench.schema` and commit the schema"


def test_the_models_name_every_scenario_and_profile():
    names = schema.generate()["properties"]["scenario"]["enum"]
    assert names == list(scenarios.SCENARIOS)
    assert set(get_args(Profile)) == set(profiles.PROFILES)


def test_a_record_of_a_scenario_the_runner_does_not_know_does_not_read():
    record = json.loads(RAW_FILES[0].read_text())
    with pytest.raises(ValueError, match="unknown scenario 'read-light'"):
        RawResult.model_validate({**record, "scenario": "read-light"})


def test_a_run_that_did_not_fail_must_say_how_it_went():
    record = json.loads(RAW_FILES[0].read_text())
    del record["startup_s"]
    with pytest.raises(ValueError, match="startup_s"):
        RawResult.model_validate(record)
    assert any("startup_s" in p for p in schema.validate_raw(record))
    RawResult.model_validate(dict(record, failed="it did not start"))


def test_optional_fields_never_set_stay_out_of_the_file():
    record = RawResult.read(next(p for p in RAW_FILES if "ceiling-http" not in p.name and "quick/" in p.as_posix()))
    written = json.loads(record.to_json())
    assert "failed" not in written and "fault" not in written and "mem_ladder_mib" not in written


def test_results_md_is_rendered_from_the_raw_files_unchanged(tmp_path):
    """./bench report on today's raw files gives today's results.md, figure for figure."""
    shutil.copytree(ROOT / "results" / "raw", tmp_path / "results" / "raw")
    rendered = report.render(
        tmp_path / "results" / "raw" / "quick",
        tmp_path / "results.md",
        tmp_path / "results",
        analysis=ROOT / "results" / "analysis.md",
    )
    assert rendered.read_text() == (ROOT / "results.md").read_text()
