"""The fuzz pass of one stack as a step of its row: bounded in `./bench test`, longer in
`./bench fuzz`."""

from __future__ import annotations

from bench import fuzz, paths, ports, stacks, training, upstream
from bench.conformance import Step
from bench.console import console
from bench.errors import BenchError
from bench.manifest import Stack
from bench.postgres import Cluster
from bench.testing import StackResult

# The bounded pass that ./bench test makes per stack; `./bench fuzz` goes further.
TEST_FUZZ_EXAMPLES = 15
# Seconds of sending, loading the spec on top. In CI most stacks sent their 15 examples per
# operation within 12-26 s of pass, loading included, so 30 s cuts none of theirs; the two whose
# HAL or reactive answers are slowest (java-spring-data-rest 51-75 s, java-spring-webflux 55 s
# under 60) stop at it with fewer examples, which is a pass that says "time budget reached"
# (bench.fuzz: the budget is not a failure), and `./bench fuzz` gives them 300 s.
TEST_FUZZ_SECONDS = 30


def run_fuzz(
    stack: Stack,
    cluster: Cluster,
    *,
    max_examples: int,
    seconds: float,
    verbose: bool = False,
    result: StackResult | None = None,
) -> StackResult:
    """Fuzzes one stack on a fresh database; its findings become a failed step."""
    result = result or StackResult(stack.name)
    spec = fuzz.spec_for(stack.dialect)
    try:
        training.build(stack)
        # GET /items/{id}/stock asks the real stock service, without its delay: every fuzzed id
        # is answered at once (200, or 404 past the seed's items), never with the 502 of an
        # upstream that is not there nor after a timeout.
        with upstream.running(ports.free_port(), delay_ms="0") as stock:
            for attempt in (1, 2):
                with console.status(
                    f"[bold]{stack.name}[/]: fuzzing from {spec.name} "
                    f"({max_examples} examples per operation, at most {seconds:.0f} s)"
                ):
                    cluster.reset()
                    running = stacks.start(
                        stack,
                        port=ports.free_port(),
                        database_url=cluster.url(),
                        stock_url=stock.url,
                        log_name=f"fuzz/{stack.name}-server.log",
                    )
                    try:
                        outcome = fuzz.fuzz_stack(
                            running.base_url,
                            max_examples=max_examples,
                            seconds=seconds,
                            log=paths.LOGS / "fuzz" / f"{stack.name}.log",
                            spec=spec,
                        )
                        if not running.alive():
                            fuzz.note_exit(outcome, running.proc.returncode, running.log)
                    finally:
                        running.stop()
                if not outcome.fuzzer_crashed or attempt == 2:
                    break
                # A crash of the fuzzer proves nothing about the stack; once more with a new seed.
                # Twice in a row stays a failure: a pass that could not test is no pass.
                console.print(
                    f"{stack.name}: fuzz {outcome.summary()}, "
                    + "; ".join(f"{f.title}: {f.message}" for f in outcome.failures)
                    + " — fuzzing again with a new seed",
                    markup=False,
                )
    except BenchError as error:
        result.steps["fuzz"] = Step(False, str(error).splitlines()[0])
        result.failed += 1
        console.print(f"[red]{error}[/]")
        return result
    result.steps["fuzz"] = Step(outcome.ok, f"{spec.name}: {outcome.summary()}", outcome.log)
    if outcome.ok:
        result.passed += 1
    else:
        result.failed += len(outcome.failures) or 1
    console.print(f"{stack.name}: fuzz ({spec.relative_to(paths.ROOT)}) {outcome.summary()}")
    if not outcome.ok or verbose:
        console.print(outcome.render(), markup=False)
    return result
