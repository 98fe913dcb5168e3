#!/usr/bin/env python3
"""Runs `study002 --json` and checks the document issue 19 fixes:
{"l1_neuraghe": {"ops_th", "ops_re", "trip_counts": {"IF", "OF", "FW"}, "tiles", "of_per_tile",
 "traffic_bytes": {channel: bytes}, "latency_s", "energy_j", "bottleneck"},
 "rounding_effect": {"max_underestimation", "mean_underestimation"}}
against the paper's Listings 4-6 and footnote 3, and the digest's derived latency (1.864 ms) and
energy (8.46 mJ); plus the binding and design sections' invariants.
Usage: check_study002_json.py STUDY002 SVG_DIR"""
import json
import subprocess
import sys

exe, svg_dir = sys.argv[1], sys.argv[2]
run = subprocess.run([exe, "--json", "--svg-dir", svg_dir], capture_output=True, text=True, timeout=600)
if run.returncode != 0:
    sys.exit(f"study002 exited {run.returncode}: {run.stderr[-2000:]}")
doc = json.loads(run.stdout)
l1 = doc["l1_neuraghe"]
assert l1["ops_th"] == 102760448, l1
assert l1["ops_re"] == 110073600, l1
assert l1["trip_counts"] == {"IF": 15, "OF": 52, "FW": 7}, l1["trip_counts"]
assert l1["tiles"] == 6 and l1["of_per_tile"] == 9, l1
assert l1["traffic_bytes"] == {"ch0": 1270080, "ch1": 846720, "ch2": 291600}, l1["traffic_bytes"]
assert abs(l1["latency_s"] - 1.864e-3) < 1e-12, l1["latency_s"]
assert abs(l1["energy_j"] - 8.46e-3) < 0.01e-3, l1["energy_j"]
assert l1["bottleneck"] == "ch0", l1["bottleneck"]
r = doc["rounding_effect"]
assert r["max_underestimation"] > 0.85 and abs(r["max_underestimation"] - 0.8667) < 1e-3, r
assert abs(r["mean_underestimation"] - 0.199) < 1e-3, r
b = doc["binding"]
assert b["status"] == "optimal", b
assert abs(b["latency_s"] - b["algorithm1_latency_s"]) < 1e-12, b  # Algorithm 1 is optimal sequentially
assert b["pipelined_fps"] >= b["algorithm1_pipelined_fps"] * (1 - 1e-9), b
d = doc["design"]
assert d["status"] == "optimal", d
assert d["relaxation_s"] <= d["latency_s"] * (1 + 1e-6), d
assert abs(d["model_latency_s"] - d["latency_s"]) < 1e-6 * d["latency_s"], d
# Every tile count (TileSpace::every_count) holds ALOHA's rule's tilings, so
# its optima are never worse.
assert d["every_count_status"] == "optimal", d
assert d["every_count_latency_s"] <= d["latency_s"] * (1 + 1e-9), d
assert d["every_count_energy_j"] <= d["least_energy_j"] * (1 + 1e-9), d
front = d["front"]
assert len(front) >= 2, front
for a, c in zip(front, front[1:]):
    assert c["energy_j"] <= a["energy_j"] * (1 + 1e-9), front  # a looser latency limit never costs energy
print("study002 --json: l1 on NEURAghe, the rounding effect, the binding and the design check out")
