"""Medians and runs of the before/after raw files beside this script: python3 table.py"""
import json, glob, os, statistics
ROOT = os.path.dirname(os.path.abspath(__file__))
rows = {}
for side in ("before", "after"):
    for d in sorted(glob.glob(f"{ROOT}/{side}/run*")):
        if not os.path.isdir(d):
            continue
        for f in sorted(glob.glob(f"{d}/*.json")):
            r = json.load(open(f))
            stack, scen = (r["stack"]["name"] if isinstance(r["stack"], dict) else r["stack"]), (r["scenario"]["name"] if isinstance(r["scenario"], dict) else r["scenario"])
            for st in r["stages"]:
                key = (stack, scen, st.get("vus"))
                rows.setdefault(key, {}).setdefault(side, []).append((st.get("rps"), st.get("cpu_ms_per_request"), os.path.relpath(f, ROOT)))
for key in sorted(rows):
    for side in ("before", "after"):
        vals = rows[key].get(side, [])
        print(key, side, [(round(a or 0), round(b or 0, 3), p) for a, b, p in vals])
