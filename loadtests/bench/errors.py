class BenchError(Exception):
    """An expected failure: printed as one line that says what to do, without a traceback."""
