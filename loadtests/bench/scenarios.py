"""The scenarios of the method (docs/method.md), each defined once: one entry per scenario that
every other part of the runner reads (the plan and its estimate, the load generators, the
database ceiling, the records' schema, results.md and the results page). Adding a scenario is an
entry here and its scripts (CONTRIBUTING.md, Adding a scenario).

The scripts stay usable by hand: a k6 script (loadtests/k6/) picks its requests with the entry's
weights (tests keep the two equal, and equal to what oha and vegeta send), an oha script
(loadtests/oha/) sends a scenario that oha sends, and the SQL files of its database ceiling
(loadtests/pgbench/) are one per endpoint of its mix. The runner's profiles (how long each part
runs) are bench.profiles.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Scenario:
    name: str
    short_name: str
    """Its name where every scenario's is a column head (results.md's summary)."""
    tool: str  # "k6" or "oha"
    """What sends its closed-model stages."""
    stages: tuple[int, ...]
    """The original study's closed-model stages (VUs, or oha connections): the replication."""
    mix: tuple[tuple[str, int], ...]
    """Its endpoints and their weights, as its k6 script picks them."""
    writes: bool = False
    rates: tuple[int, ...] = ()
    """The fixed-rate ladder's offered rates, requests/s, the same for every stack."""
    objective_ms: float = 100.0
    """The latency objective: a ladder step is held only with p99 at or under it."""
    warm_rate: int = 0
    """The fixed rate of the steady-state warm-up, requests/s (0: the ladder's first). Higher than
    the ladder's first: a JIT compiles a method once it has run so many times, so a JVM warms in
    fewer seconds the more requests it gets (every JVM stack's mixed warm-up at 100 req/s ran to
    the cap, its avatar at 2,000 settled within 32 s; results/experiments/2026-11-25-suite). A
    stack whose own core stays full at it steps down the ladder's rates (bench.measure.phases.steady)."""
    first_minute_rate: int = 0
    """The fixed rate of the first minute of a fresh process (0: not measured in this scenario),
    requests/s, one that every stack serves at steady state with its core not full: the first
    minute of every stack is then measured at the same rate (docs/method.md, The first minute).
    Lower than the warm rate, which the slowest stacks cannot serve."""
    first_minute_of_variants: bool = True
    """False: the first minute here is measured for a stack itself, not for its variants. A
    publication's 15 hours do not hold every variant's first minute in every such scenario
    (docs/method.md, Profiles); join-filter's shows what a variant changes in a cold process."""
    url_list: bool = False
    """A read-only scenario whose steady state and ladder oha sends from a URL list of its mix
    (bench.measure.load.urls), which costs the CPU it shares with PostgreSQL a fraction of what
    k6 does."""
    upstream: bool = False
    """Its stacks call the stock upstream (bench.upstream): the runner starts it for this
    scenario's jobs, on the load generator's CPUs, and measures its CPU like a role's."""
    k6_script: str | None = None
    """In loadtests/k6/: what k6 runs for it, the runner and a person alike."""
    oha_scripts: tuple[str, ...] = ()
    """In loadtests/oha/: how a person sends it with oha (the runner builds oha's command itself)."""
    pgbench_scripts: tuple[str, ...] = ()
    """In loadtests/pgbench/: its database ceiling's SQL, one file per endpoint of its mix and in
    its order, replayed with the mix's weights; none where nginx is its ceiling."""

    def __post_init__(self) -> None:
        if not self.warm_rate and self.rates:
            object.__setattr__(self, "warm_rate", self.rates[0])
        if self.pgbench_scripts and len(self.pgbench_scripts) != len(self.mix):
            raise ValueError(f"{self.name}: one pgbench script per endpoint of the mix, in its order")

    def measures_first_minute(self, *, variant: bool) -> bool:
        """Whether a job of this scenario starts with the first minute, for a variant or a stack."""
        return bool(self.first_minute_rate) and (self.first_minute_of_variants or not variant)

    @property
    def endpoints(self) -> tuple[str, ...]:
        return tuple(endpoint for endpoint, _ in self.mix)

    @property
    def read_mix(self) -> tuple[tuple[str, int], ...]:
        """The mix of oha's URL list (`url_list`); empty where k6, or oha at one URL, sends it."""
        return self.mix if self.url_list else ()

    @property
    def ladder_tool(self) -> str:
        """What sends the steady state and the ladder: oha for the avatar and a read mix's URL
        list, vegeta for any other mix (the writes: requests prepared ahead,
        bench.measure.load.step_requests)."""
        return "oha" if self.tool == "oha" or self.url_list else "vegeta"

    @property
    def pgbench_mix(self) -> tuple[tuple[str, int], ...]:
        """Its database ceiling's SQL files with the mix's weights; empty where nginx is its ceiling."""
        if not self.pgbench_scripts:
            return ()
        return tuple((script, weight) for script, (_, weight) in zip(self.pgbench_scripts, self.mix, strict=True))


# Each ladder starts at about half the lowest capacity any stack showed in the published quick run
# (results/raw/quick: read-heavy 120, join-filter 250, mixed 160, heavy-body 200, avatar 800
# req/s): a step below that tells nothing the first one does not, and the common rate, the highest
# of these rates every stack holds, lies above it. Each tops out above the highest capacity seen
# (join-filter's pgbench ceiling held 4,000), so that a stack stops before its ladder does.
SCENARIOS: dict[str, Scenario] = {
    s.name: s
    for s in (
        Scenario(
            "read-heavy",
            short_name="read",
            tool="k6",
            stages=(50, 100, 200),
            mix=(("items_page", 50), ("items_by_category", 20), ("category_items", 20), ("categories_page", 10)),
            rates=(80, 120, 180, 270, 400, 600),
            objective_ms=500.0,
            warm_rate=120,
            url_list=True,
            k6_script="read-heavy.js",
            oha_scripts=("read-mix.sh",),
            pgbench_scripts=("items_page.sql", "items_by_category.sql", "category_items.sql", "categories_page.sql"),
        ),
        Scenario(
            "join-filter",
            short_name="join",
            tool="k6",
            stages=(60, 120),
            mix=(("items_by_category", 70), ("item_by_id", 30)),
            # go-gin held 6,300 with oha, its core at 77% and CPU 1 at 89% (PostgreSQL 70%, oha 19%):
            # 10,000 is past what CPU 1 can give any stack, so the bisection finds the limit below it.
            rates=(160, 250, 400, 630, 1000, 1600, 2500, 4000, 6300, 10_000),
            objective_ms=100.0,
            warm_rate=400,
            # python-fastapi and java-spring-data-rest used 95-100% of their core at 160 req/s in
            # the publication at 72fa9f4 (their steady-state windows): at 100 about 60%.
            first_minute_rate=100,
            url_list=True,
            k6_script="join-filter.js",
            oha_scripts=("read-mix.sh",),
            pgbench_scripts=("items_by_category.sql", "item_by_id.sql"),
        ),
        Scenario(
            "mixed",
            short_name="mixed",
            tool="k6",
            stages=(50, 100),
            mix=(
                ("item_by_id", 35),
                ("items_page", 15),
                ("item_create", 15),
                ("item_replace", 10),
                ("item_delete", 10),
                ("category_by_id", 10),
                ("category_create", 5),
            ),
            writes=True,
            rates=(100, 160, 250, 400, 630, 1000),
            objective_ms=250.0,
            warm_rate=160,
            k6_script="mixed.js",
            pgbench_scripts=(
                "item_by_id.sql",
                "items_page.sql",
                "item_create.sql",
                "item_replace.sql",
                "item_delete.sql",
                "category_by_id.sql",
                "category_create.sql",
            ),
        ),
        Scenario(
            "heavy-body",
            short_name="heavy",
            tool="k6",
            stages=(30, 60),
            mix=(("item_create", 50), ("item_replace", 50)),
            writes=True,
            rates=(125, 200, 320, 500, 800, 1250, 2000, 3200),
            objective_ms=100.0,
            warm_rate=320,
            k6_script="heavy-body.js",
            # Its 5 KB descriptions, where the mixed scenario's items carry 1 KB.
            pgbench_scripts=("heavy_create.sql", "heavy_replace.sql"),
        ),
        Scenario(
            "avatar",
            short_name="avatar",
            tool="oha",
            stages=(10,),
            mix=(("avatar", 100),),
            rates=(800, 2_000, 5_000, 12_000, 30_000, 75_000),
            objective_ms=10.0,
            warm_rate=2_000,
            # python-fastapi stepped its warm-up down from 2,000 to 800 req/s, where it used
            # 63-76% of its core (the publication at 72fa9f4); every other stack used less.
            first_minute_rate=800,
            first_minute_of_variants=False,
            oha_scripts=("avatar.sh", "avatar-open.sh"),
        ),
        # HTTP in, HTTP out, no PostgreSQL: each request waits 1-50 ms on the stock upstream, so
        # at rate r about r × 26 ms requests are in flight (520 at 20,000 req/s), and what a
        # stack's concurrency model costs per request waiting shows. The p99 objective leaves room
        # for the upstream's own 50 ms. The top: go-gin and rust-axum held 8,000 with 56% and 32%
        # of their core, and oha with the upstream then used about half of CPU 1
        # (results/experiments/2026-11-26-outbound-top). The closed stage: the REST-client
        # write-up's 200 users, without its think time (oha has none), so 200 requests always in
        # flight.
        Scenario(
            "outbound",
            short_name="outbound",
            tool="oha",
            stages=(200,),
            mix=(("item_stock", 100),),
            rates=(125, 200, 320, 500, 800, 1250, 2000, 3200, 5000, 8000, 12_500, 20_000),
            objective_ms=100.0,
            warm_rate=800,
            url_list=True,
            upstream=True,
            k6_script="outbound.js",
            oha_scripts=("read-mix.sh",),
        ),
    )
}
