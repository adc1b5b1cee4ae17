"""The profiles of `./bench run` (docs/method.md, Profiles): how long each closed-model stage and
warm-up runs, and the open model's steps, probes and steady-state windows. A scenario's entry
(bench.scenarios) says what is sent; its profile, for how long."""

from __future__ import annotations

import math
from dataclasses import dataclass

from bench.scenarios import Scenario

PROFILES = ("smoke", "quick", "full", "soak")

# Seconds; mirrors PROFILES in loadtests/k6/lib/common.js (the scripts are the source of truth
# for k6; these are for the time estimate and the oha runs).
TIMING = {
    "smoke": {"warmup": 3, "ramp": 1, "stage": 4},
    "quick": {"warmup": 10, "ramp": 2, "stage": 12},
    "full": {"warmup": 60, "ramp": 60, "stage": 600},
    "soak": {"warmup": 30, "ramp": 1, "stage": 600},
}
# The soak profile: the mixed scenario at its first stage's concurrency, one long stage.
SOAK_SCENARIO = "mixed"


@dataclass(frozen=True)
class OpenTiming:
    """The open model's seconds: each full-length ladder step's least seconds and least requests
    (a step lasts until both are reached, `step_seconds`), a probe step's seconds, the
    steady-state warm-up's windows and cap, and the closed-model stages run after the ladder (the
    replication, without ramps: the stack is warm, and the ladder already measured what matters,
    so they are short outside the full profile)."""

    step_s: int
    step_requests: int
    probe_s: int
    window_s: int
    cap_s: int
    replication_stage_s: int
    first_minute_s: int
    """The first minute of a fresh process (the scenarios with a `first_minute_rate`): windows of
    `window_s` at that rate for this many seconds of load, before the warm-up."""
    jvm_cap_s: int = 0
    """The warm-up's cap for a HotSpot JVM, which also waits for its JIT; `cap_s` where unset."""

    def warmup_cap_s(self, *, jvm: bool) -> int:
        return max(self.jvm_cap_s, self.cap_s) if jvm else self.cap_s


# A p99 from 2,000 requests is their 20th slowest: the published quick run's 5 s steps of 600 to
# 1,250 requests put it on the 6th to 13th, and three runs of a stack spanned one or two steps
# (issue 31). Only full-length steps decide a capacity; the probes that find where to put them are
# short, as a probe's error costs one more full-length step, not a wrong capacity (the quick
# profile's 3 s probes cut its ladders from about 11 full steps a scenario to about 8 probes and 2
# full steps). Smoke only checks that the runner works.
# The quick cap is 120 s since method v4 gives every scenario a fresh process, and 200 s for a
# HotSpot JVM, which also waits for its compiler threads to fall under 5% of the core: over the
# 21 JVM records of results/experiments/2026-11-29-time-to-steady that rule settled 20, the 90th
# percentile at 186 s (docs/rationale.md, Steady state). A record that reaches the cap is measured
# anyway and says so.
# The smoke's warm-up cap is 10 s: go-gin, the stack it runs, has nothing to warm up. With 20 s
# it settled after 9-18 s of 1 s windows on a busy machine, the later ones only noise falling
# within the spread; with 10 s, two or three of its six scenarios settle and the others end at
# the cap, marked (`reached: false`), which the smoke shows as well as a settled one.
# The first minute lasts 60 s in the published profiles; smoke's 10 s only show that it runs.
# Its p99 is also given per FIRST_MINUTE_BIN_S of load (six in a minute), from each request's
# scheduled start (oha's per-request log), as a 3 s window's p99 rests on a few hundred requests.
FIRST_MINUTE_BIN_S = 10
OPEN_TIMING = {
    "smoke": OpenTiming(
        step_s=3, step_requests=0, probe_s=2, window_s=1, cap_s=10, replication_stage_s=3, first_minute_s=10
    ),
    "quick": OpenTiming(
        step_s=10,
        step_requests=2_000,
        probe_s=3,
        window_s=3,
        cap_s=120,
        replication_stage_s=3,
        first_minute_s=60,
        jvm_cap_s=200,
    ),
    "full": OpenTiming(
        step_s=60, step_requests=2_000, probe_s=10, window_s=5, cap_s=600, replication_stage_s=600, first_minute_s=60
    ),
}


def step_seconds(timing: OpenTiming, rate: float) -> int:
    """A ladder step at `rate`: its least seconds, longer if it needs them for its least requests."""
    return max(timing.step_s, math.ceil(timing.step_requests / rate))


def replication_stages(scenario: Scenario, profile: str) -> tuple[int, ...]:
    """The closed-model stages run after a ladder (the replication of the original study): all of
    them in the full profile; in the shorter ones only the highest, as the ladder's capacity at
    objective already says what the lower ones would."""
    return scenario.stages if profile == "full" else scenario.stages[-1:]


def closed_timing(profile: str, open_model: bool) -> tuple[int, int]:
    """The warm-up and stage seconds of the closed-model stages (and of the ceilings): after the
    open model, shorter (OPEN_TIMING) and without ramps."""
    timing = TIMING[profile]
    if open_model and profile in OPEN_TIMING:
        stage = OPEN_TIMING[profile].replication_stage_s
        return min(timing["warmup"], stage), stage
    return timing["warmup"], timing["stage"]
