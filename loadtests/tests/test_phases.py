"""`./bench test` ends with the time each phase took (bench.phases)."""

import pytest
from rich.console import Console

from bench import phases


def rendered(table) -> str:
    console = Console(width=200, record=True)
    console.print(table)
    return console.export_text()


def test_a_block_is_timed_even_when_it_fails():
    phases.clear()
    with pytest.raises(RuntimeError), phases.timed("go-gin", "build"):
        raise RuntimeError("the build broke")
    (timing,) = phases.recorded()
    assert (timing.who, timing.phase) == ("go-gin", "build") and timing.seconds >= 0
    phases.clear()


def test_the_table_sums_each_phase_over_stacks_and_names_the_longest():
    timings = [
        phases.Timing("go-gin", "build", 20.0),
        phases.Timing("java-spring", "build", 160.0),
        phases.Timing("go-gin", "fuzz", 60.0),
        phases.Timing("java-spring", "fuzz", 60.0),
    ]
    text = rendered(phases.table(timings))
    assert "time per phase (5.0 min in all)" in text
    build = next(line for line in text.splitlines() if "build" in line and "java-spring" in line)
    # Under 90 s in seconds, above in minutes; a tie names the stack met first.
    assert "3.0 min" in build and "60%" in build and "java-spring (2.7 min)" in build
    fuzz = next(line for line in text.splitlines() if "fuzz" in line)
    assert "2.0 min" in fuzz and "40%" in fuzz and "go-gin (60 s)" in fuzz
