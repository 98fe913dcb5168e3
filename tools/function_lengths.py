#!/usr/bin/env python3
"""Lists the library's functions longer than a limit (issue 30: none over 150 lines).

  function_lengths.py [--max N] [--top K] [ROOT]

ROOT defaults to include/ychart. Functions are found by universal-ctags
(Debian: universal-ctags), which reports where each function starts and
ends; .ipp files are read as C++. Exits 1 when a function is longer than
--max lines (default 150), listing them; --top K prints the K longest
whatever their length.
"""
import argparse
import shutil
import subprocess
import sys
from pathlib import Path


def functions(root: Path):
    """(lines, name, file, first line) for every function ctags finds under root."""
    if shutil.which("ctags") is None:
        raise SystemExit("function_lengths: universal-ctags is not installed (apt-get install universal-ctags)")
    out = subprocess.run(
        ["ctags", "-R", "--languages=C++", "--langmap=C++:+.ipp", "--kinds-C++=f", "--fields=+ne", "-f", "-",
         str(root)],
        capture_output=True, text=True, check=True).stdout
    for row in out.splitlines():
        cols = row.split("\t")
        fields = dict(c.split(":", 1) for c in cols[3:] if ":" in c)
        if "line" in fields and "end" in fields:
            first, last = int(fields["line"]), int(fields["end"])
            yield last - first + 1, cols[0], cols[1], first


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("root", nargs="?", default="include/ychart")
    parser.add_argument("--max", type=int, default=150)
    parser.add_argument("--top", type=int, default=0)
    args = parser.parse_args()
    found = sorted(functions(Path(args.root)), reverse=True)
    for lines, name, file, first in found[: args.top]:
        print(f"{lines:5d}  {name}  {file}:{first}")
    too_long = [f for f in found if f[0] > args.max]
    for lines, name, file, first in too_long:
        print(f"function_lengths: {file}:{first}: {name} has {lines} lines (at most {args.max})", file=sys.stderr)
    return 1 if too_long else 0


if __name__ == "__main__":
    sys.exit(main())
