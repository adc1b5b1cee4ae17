"""The machine the stacks are measured on, as `./bench run` reads it: the roles' CPU sets and
memory caps, and what their processes spend and hold.

cgroups       CPU sets and memory caps of the roles, with cgroup v1 or v2; CPU time, memory peak, OOM kills
roles         the cgroups (or taskset pinning) of the app, PostgreSQL, the load generator and the stock upstream
resources     what the app holds while a step runs: threads, PostgreSQL sessions, a JVM's pauses and heap
hsperf        a JVM's performance counters, read from its hsperfdata file
environment   what a result was measured on: machine, versions, git commit
"""
