"""The benchmark runner: builds, tests, serves and measures the stacks of this repository."""
