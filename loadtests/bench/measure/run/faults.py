"""The faults a run can inject (`./bench run --fault`)."""

from __future__ import annotations

import threading
import time

import httpx

from bench.measure.host.roles import Roles
from bench.postgres import Cluster
from bench.records import Fault

# How long the stack may take to serve again before the fault counts it as not recovered.
RECOVERY_WAIT_S = 60


class DatabaseRestart:
    """The db-restart fault: stops PostgreSQL partway into a stage, starts it again after an
    outage, and times how long the stack takes to answer a data request again."""

    def __init__(self, cluster: Cluster, roles: Roles, base_url: str, *, at_s: float, outage_s: float) -> None:
        self.cluster, self.roles, self.base_url = cluster, roles, base_url
        self.at_s, self.outage_s = at_s, outage_s
        self.recovered_within_s: float | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        time.sleep(self.at_s)
        self.cluster.stop()
        time.sleep(self.outage_s)
        self.cluster.start()
        self.roles.place_postgres(self.cluster)
        back = time.monotonic()
        with httpx.Client(base_url=self.base_url, timeout=10) as client:
            while time.monotonic() - back < RECOVERY_WAIT_S:
                try:
                    if client.get("/items/1").status_code == 200:
                        self.recovered_within_s = round(time.monotonic() - back, 2)
                        return
                except httpx.HTTPError:
                    pass
                time.sleep(0.1)

    def finish(self) -> Fault:
        self.thread.join()
        if not self.cluster.running():
            self.cluster.start()  # never leave the cluster down, whatever happened
        return Fault(stopped_at_s=self.at_s, outage_s=self.outage_s, recovered_within_s=self.recovered_within_s)
