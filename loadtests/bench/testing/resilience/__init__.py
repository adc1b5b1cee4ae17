"""The resilience case of `./bench test` (spec/README.md, "The resilience case of `./bench test`";
spec/API.md, "Overload and slow clients"), a step of each stack's row.

The stack is started natively under compose.yaml's cap, in a cgroup made as the benchmark makes
the app's (bench.measure.host.cgroups: the memory cap and the CPU set in place before its first
instruction), and sent, in this order:

- one 64 MiB body with a declared length: a 413, and the process alive;
- bursts of 2,000 and 4,000 bodies just under 1 MiB at once (.burst), each a JSON object whose
  `name` breaks its rule: only the dialect's field-rule status or a 503, no OOM kill, and
  `/health` and a read served again within a few seconds after each;
- 1,500 connections that never finish their headers (a line every 5 s) while ordinary requests
  go on: each slow one closed 10 s after its first byte (and a margin), each ordinary one
  answered 200 within 2 s.

step      the step: the stack under its cap, the parts in turn, the step's summary and log
clients   the case's own clients: the oversized body, ordinary requests, the slow clients
verdict   what passes: the readings of each part and the judgements on them
"""
