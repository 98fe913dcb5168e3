#!/usr/bin/env python3
"""Runs `study004 --json` and checks the part of the document issue 18 fixes:
{"mobilenet_v1": {"ranges", "cpu_only_s", "as_reported": {"fpga_nodes", "total", "speedup"},
 "consistent": {"fpga_nodes", "total_s", "speedup"}, "fpga_0_81": {"bram18k", "fps"}}}
with the thesis's numbers where they are its own (406 ranges, range(0, 81), 126.6101, 2.82x, 138 BRAM,
1.94627 FPS) and the consistent-units answer (all on the CPU). Usage: check_study004_json.py STUDY004 SVG_DIR"""
import json
import subprocess
import sys

exe, svg_dir = sys.argv[1], sys.argv[2]
run = subprocess.run([exe, "--json", "--svg-dir", svg_dir], capture_output=True, text=True, timeout=600)
if run.returncode != 0:
    sys.exit(f"study004 exited {run.returncode}: {run.stderr[-2000:]}")
m = json.loads(run.stdout)["mobilenet_v1"]
assert m["ranges"] == 406, m["ranges"]
assert abs(m["cpu_only_s"] - 0.35646) < 1e-9, m["cpu_only_s"]
a = m["as_reported"]
assert a["fpga_nodes"] == [0, 81], a
assert abs(a["total"] - 126.6101) < 1e-9, a
assert abs(a["speedup"] - 2.8154) < 1e-3, a
assert a["ours"]["fpga_nodes"] == [0, 81], a
assert abs(a["ours"]["total"] - 126.6101) < 1e-3, a
c = m["consistent"]
assert c["status"] == "optimal" and c["fpga_nodes"] is None, c
assert abs(c["total_s"] - 0.35646) < 1e-9 and abs(c["speedup"] - 1.0) < 1e-12, c
assert 3.1 < c["thesis_choice_s"] < 3.2, c
f = m["fpga_0_81"]
assert f["bram18k"] == 138, f
assert abs(f["fps"] - 1.94627) < 1e-5, f
fo = m["folded"]
assert fo["status"] == "optimal", fo["status"]
assert fo["fps"] > 1e3 / 356.46, fo["fps"]  # folded, the FPGA part raises the frame rate
assert fo["fpga_nodes"] is not None and fo["fpga_nodes"][0] < fo["fpga_nodes"][1], fo["fpga_nodes"]
assert fo["bram18k"] <= 144 and fo["budget_bram18k"] == 144 and fo["lut"] <= 117120 and fo["uram"] <= 64 and fo["dsp"] <= 1248, fo
for entry in fo["folding"]:
    assert entry["pe"] >= 1 and entry["simd"] >= 1 and entry["cycles"] > 0, entry
assert fo["least_latency"]["speedup"] > 1, fo["least_latency"]
print("study004 --json: as reported, consistent units, folded and range(0, 81) check out")
