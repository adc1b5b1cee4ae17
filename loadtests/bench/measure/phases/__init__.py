"""The phases of one job against a running server: the steady-state warm-up, the fixed-rate
ladder and the closed-model stages, each sent by its load generator and metered; what the jobs
share. When a step is held and when the warm-up has settled is bench.judgement's to say.

context                   what the jobs of one run share (Context), and where their logs go
display                   the live line
steady                    the steady-state warm-up's windows
ladder                    the fixed-rate ladder: its probes, bisection and full-length steps
k6_runs, oha_runs, pgbench_runs   a scenario's runs by each load generator
probes                    what is measured around a stage: app CPU and memory, SQL statement counts
writes                    the writes k6 logs, and the lost-write check after a write scenario
"""
