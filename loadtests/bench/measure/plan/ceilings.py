"""The ceilings a plan measures beside the stacks, one per scenario: pgbench replaying the scenario's
SQL from the app's CPU set, PostgreSQL's CPUs left to it (database), nginx answering `return 302`
on the app's CPU set (HTTP), and for the outbound scenario nginx passing GET /items/{id}/stock on
to the stock upstream (proxy). A stack's efficiency is its throughput divided by the ceiling of the
same scenario and stage; they are measured by bench.measure.run.ceiling_run."""

from __future__ import annotations

from bench.records import StackInfo
from bench.scenarios import Scenario

CEILING_DB = StackInfo(
    name="ceiling-db",
    display="database ceiling (pgbench, as many connections as DB_POOL_SIZE)",
    language="SQL",
    language_version="",
    framework="pgbench",
    framework_version="",
    server="PostgreSQL",
    data_access="the scenario's SQL, prepared",
)
CEILING_HTTP = StackInfo(
    name="ceiling-http",
    display="HTTP ceiling (nginx return 302)",
    language="C",
    language_version="",
    framework="nginx",
    framework_version="",
    server="nginx",
    data_access="none",
)


CEILING_PROXY = StackInfo(
    name="ceiling-proxy",
    display="proxy ceiling (nginx proxy_pass to the stock upstream)",
    language="C",
    language_version="",
    framework="nginx",
    framework_version="",
    server="nginx",
    data_access="none: the stock upstream over kept-alive HTTP/1.1",
)


def ceiling_of(scenario: Scenario) -> StackInfo:
    """nginx as a proxy for a scenario that calls the stock upstream (outbound), the database's for
    a scenario that names the SQL of its endpoints (bench.scenarios), else nginx's (the avatar)."""
    if scenario.upstream:
        return CEILING_PROXY
    return CEILING_DB if scenario.pgbench_scripts else CEILING_HTTP
