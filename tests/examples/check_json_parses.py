#!/usr/bin/env python3
"""Runs `<example> --json <args...>` and checks that stdout is exactly one
JSON document (nothing printed before or after it) with the members every
example writes: `example` and at least one table with rows. Issue 31 found
study001_ch4 printing a text line before its JSON; this keeps it out."""
import json
import subprocess
import sys

if len(sys.argv) < 2:
    sys.exit("usage: check_json_parses.py EXAMPLE [ARGS...]")
run = subprocess.run([sys.argv[1], "--json", *sys.argv[2:]], capture_output=True, text=True, timeout=600)
if run.returncode != 0:
    sys.exit(f"exit code {run.returncode}; stderr:\n{run.stderr[-2000:]}")
try:
    document = json.loads(run.stdout)
except json.JSONDecodeError as e:
    sys.exit(f"stdout is not one JSON document ({e}); it starts with:\n{run.stdout[:300]}")
if not isinstance(document, dict) or "example" not in document:
    sys.exit("the document has no `example` member")
tables = document.get("tables", {})
if not tables or not any(t.get("rows") for t in tables.values()):
    sys.exit("the document has no table with rows")
print(f"{document['example']}: one JSON document, tables {', '.join(tables)}")
