#!/usr/bin/env python3
"""Runs `study003 --json` (fewer EA runs and random graphs than the default) and checks the
document issue 20 fixes:
{"example13": {"process_tasks", "design_space", "design_space_with_shaves",
 "optimum": {"status", "cost", "shaves", "binding", "routes"}, "pareto": [{"cost", "shaves"}],
 "ea": {"runs", "hit_rate_100", "hit_rate_400", "best_cost"}, "exact_seconds"}}
against the thesis (13 process tasks, footnote 4's 3^13 and x12, Fig. 7.2's binding, the
routability of the optimum) and the invariants of an exact front and an EA that never beats it.
Usage: check_study003_json.py STUDY003 SVG_DIR"""
import json
import os
import subprocess
import sys

exe, svg_dir = sys.argv[1], sys.argv[2]
args = [exe, "--json", "--svg-dir", svg_dir, "--ea-runs", "40", "--mobilenet-runs", "3",
        "--random-sizes", "200", "--random-processors", "4", "--time-limit", "30"]
run = subprocess.run(args, capture_output=True, text=True, timeout=600)
if run.returncode != 0:
    sys.exit(f"study003 exited {run.returncode}: {run.stderr[-2000:]}")
doc = json.loads(run.stdout)
e = doc["example13"]
assert e["process_tasks"] == 13, e["process_tasks"]
assert e["design_space"] == 3 ** 13 == 1594323, e["design_space"]
assert e["design_space_with_shaves"] == 19131876, e["design_space_with_shaves"]
o = e["optimum"]
assert o["status"] == "optimal", o
assert abs(o["cost"] - 582.2) < 1e-9, o["cost"]
assert o["shaves"] == 12, o["shaves"]
ncs = {"model/add_1", "model/add_2", "model/conv2d_1", "model/maximum_1", "model/relu", "model/relu6"}
for task, resource in o["binding"].items():
    assert resource == ("NCS" if task in ncs else "Desktop(CPU+GPU)"), (task, resource)
assert len(o["binding"]) == 13
for comm, route in o["routes"].items():
    links = {(a["link"], a["from"], a["to"]) for a in route}
    assert all(l in ("l1", "l2") for l, _, _ in links), (comm, route)  # nothing over bus23
    assert len(route) in (0, 2), (comm, route)
assert ("l2", "Desktop(CPU+GPU)", "bus12") in {(a["link"], a["from"], a["to"]) for a in o["routes"]["input:0"]}
assert set(o["allocated"]) == {"NCS", "bus12", "Desktop(CPU+GPU)"}, o["allocated"]
assert o["host_to_ncs_via_bus12"] is True
for row in e["table71"]:
    assert abs(row["thesis"] - row["ychart"]) < 1e-9, row
front = e["pareto"]
assert e["pareto_proven"] is True
assert front[-1] == {"cost": o["cost"], "shaves": 12}, front[-1]
assert front[0]["shaves"] == 0, front[0]  # no NCS at all is a Pareto point
for a, b in zip(front, front[1:]):
    assert b["shaves"] > a["shaves"] and b["cost"] < a["cost"], front
ea = e["ea"]
assert ea["runs"] == 40, ea
assert 0 <= ea["hit_rate_100"] <= ea["hit_rate_400"] <= 1, ea
assert ea["best_cost"] >= o["cost"] - 1e-9, ea  # the EA never beats a proven optimum
assert e["exact_seconds"] > 0
m = doc["mobilenet"]
assert m["process_tasks"] >= 80 and m["status"] == "optimal", m
assert m["ea_best_cost"] >= m["cost"] - 1e-6, m
for r in doc["random"]:
    assert r["status"] == "optimal", r
for name in ("cost_vs_shaves.svg", "cost_vs_power.svg", "cost_vs_processors.svg"):
    assert os.path.getsize(os.path.join(svg_dir, name)) > 500, name
print("study003 --json: the 13-node optimum, its routes, the exact front and the EA baseline check out")
