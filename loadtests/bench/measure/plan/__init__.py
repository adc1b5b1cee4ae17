"""What a `./bench run` is to do, before anything runs: its plan and how long it takes.

plan       the stacks, scenarios, profile, repeats and CPU split (Plan); the earlier records it follows
estimate   how long each stack × scenario (and ceiling) takes, from earlier runs where there are any
ceilings   the ceiling that stands beside the stacks in each scenario
inputs     the fingerprints of what records follow from, which --resume compares (Inputs)
"""
