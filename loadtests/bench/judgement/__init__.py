"""The rules that judge what `./bench run` measured, written once: `./bench run` applies them as
it measures (bench.measure), and `./bench report` reads the same ones (bench.report). Pure
functions of the records and readings, for the tests.

bounds    what bound a stage or a ladder step: every role's CPU as a share of its CPU set
ladder    when a ladder step is held, the capacity and the step that stopped it, the bisection
steady    when the steady-state warm-up's windows have settled
verdict   what a run must not have, and the one line printed per record
"""
