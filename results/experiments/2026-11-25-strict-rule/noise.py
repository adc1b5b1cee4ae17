"""The scatter of go-gin's steady-state windows (3 s each) once past its first six: the spread of
every three consecutive windows, max / min - 1. go-gin compiles nothing at run time, so this is
the machine's noise, the floor for the steady-state rule's spread. Run from loadtests/:

    ../.bench/venv/bin/python ../results/experiments/2026-11-25-strict-rule/noise.py
"""

import glob, statistics as st
from pathlib import Path
from bench.records import RawResult
sp=[]
for p in glob.glob(str(Path(__file__).parent / "raw/quick/go-gin--*.json")):
    r=RawResult.read(Path(p)); w=r.steady_state.windows_cpu_ms_per_request
    for i in range(6, len(w)-2):
        t=w[i:i+3]; sp.append(max(t)/min(t)-1)
sp.sort(); print(len(sp), "median %.0f%% p75 %.0f%% p90 %.0f%% max %.0f%%" % (100*st.median(sp), 100*sp[int(.75*len(sp))], 100*sp[int(.9*len(sp))], 100*sp[-1]))
