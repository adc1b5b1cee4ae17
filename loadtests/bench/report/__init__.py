"""`./bench report`: results.md and its charts, generated from the raw JSON files only.

render     reads results/raw/PROFILE/ (and the ladder, soak and fault runs beside it)
tables     environment, stacks, one table per scenario, memory and start-up
sections   the memory ladder, the soak, PostgreSQL restarted under load
charts     the PNG charts
figures    medians and ranges, number formats, one stack × scenario (Cell)
"""

from bench.report.render import load, render

__all__ = ["load", "render"]
