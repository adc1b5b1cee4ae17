"""`./bench run` carried out: its options made into a plan, then the plan job by job, each job a
stack's, a ceiling's or a stack's elsewhere (--target), one raw record each.

request       `./bench run`'s options made into a plan, and the plan carried out (plan_run)
orchestrate   runs a plan job by job and writes one raw record per job (execute, execute_ladder)
stack_run     one stack × scenario × run: start it, steady state, ladder, stages, checks, stop it
ceiling_run   the ceilings of a scenario, measured like a stack
nginx         nginx as the HTTP and proxy ceilings' server
target_run    a stack that runs elsewhere (--target): the load from here, the rest not measured
faults        faults injected during a stage (PostgreSQL restarted)
"""
