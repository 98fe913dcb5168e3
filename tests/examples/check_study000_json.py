#!/usr/bin/env python3
"""Runs `study000 --json` and checks the document the issue specifies:
{"setup1": {"alpha_sweep": {"iterations", "alpha", "channels", "latency_s"},
            "sp": {...}, "exact": {"status", "channels", "latency_s"}},
 "setup2": {"alexnet": {"speedup_min", "speedup_max", ...}, "vgg16": ..., "resnet18": ...}}
and that the numbers hang together (channels add up, the exact split is
proven and no slower than the others). Usage: check_study000_json.py STUDY000 SVG_DIR"""
import json
import subprocess
import sys

exe, svg_dir = sys.argv[1], sys.argv[2]
run = subprocess.run([exe, "--json", "--svg-dir", svg_dir], capture_output=True, text=True, timeout=600)
if run.returncode != 0:
    sys.exit(f"study000 exited {run.returncode}: {run.stderr[-2000:]}")
doc = json.loads(run.stdout)  # stdout holds only JSON

s1 = doc["setup1"]
for key in ("iterations", "alpha", "channels", "latency_s"):
    assert key in s1["alpha_sweep"], key
assert s1["exact"]["status"] == "optimal", s1["exact"]
assert abs(sum(s1["exact"]["channels"].values()) - 16) < 1e-9, s1["exact"]
assert s1["sp"]["status"] == "local_optimum", s1["sp"]

layers = {"alexnet": 5, "vgg16": 16, "resnet18": 20}
for net, count in layers.items():
    r = doc["setup2"][net]
    assert r["layers"] == count, (net, r["layers"])
    assert 1 <= r["speedup_min"] <= r["speedup_max"], (net, r)
    exact, sp, alpha = r["exact"], r["sp"], r["alpha"]
    assert exact["status"] == "optimal", (net, exact["status"])
    assert sp["status"] == "local_optimum", (net, sp["status"])
    assert alpha["status"] == "accepted", (net, alpha["status"])
    assert len(exact["channels"]) == count
    for row in exact["channels"]:
        for d in ("cpu", "gpu", "fpga"):
            assert row[d] == int(row[d]) and row[d] >= 0, row
    # The exact integer split is proven: neither continuous answer beats it
    # by more than the continuous model's smallest shares could explain.
    assert exact["latency_s"] <= sp["latency_s"] * (1 + 1e-9), (net, exact, sp)
    assert exact["latency_s"] <= alpha["latency_s"] * (1 + 1e-9), (net, exact, alpha)
    assert r["fused"]["exact"]["latency_s"] <= exact["latency_s"] * (1 + 1e-12), net
    assert len(r["thesis_speedup"]) == 2
print("study000 --json: setup1 and setup2 (alexnet, vgg16, resnet18) check out")
