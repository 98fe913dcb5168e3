#!/usr/bin/env python3
"""Checks one compile-fail case against the log of the grouped compile.

The group source (group.cmake) puts each case under `#line 1 "<case.cpp>"`,
so the compiler names the case's file wherever an error comes from it. An
error belongs to a case when the case's file is where the error is, or where
the instantiation that failed was asked for: GCC prints that context
("required from here") before the error, Clang ("note: in instantiation ...
requested here") after it. The case passes when at least one error that
belongs to it matches its `// expect:` regex.

A compiler reports a failed instantiation once per translation unit: two
cases that break the same rule through the same template (two
`posynomial >= constant` constraints) leave one error, attributed to the
first. A case with no error of its own in the group's log is therefore
compiled again on its own (--alone, a command that builds just that case),
and checked against that output.
"""
import subprocess
import argparse
import re
import sys

ERROR = re.compile(r"\berror\b:")
# GCC: a new diagnostic begins with its context (file: In function / In
# instantiation / In file included from ...); its error line comes last.
GCC_CONTEXT_START = re.compile(r"(: In (function|member function|static member function|instantiation|lambda|constructor|destructor)|^In file included from|: In substitution)")


def diagnostics_gcc(lines):
    """Groups GCC's output: context lines, then the error line and its notes."""
    blocks, current, seen_error = [], [], False
    for line in lines:
        if seen_error and (GCC_CONTEXT_START.search(line) or ERROR.search(line)):
            blocks.append(current)
            current, seen_error = [], False
        current.append(line)
        if ERROR.search(line):
            seen_error = True
    if current:
        blocks.append(current)
    return blocks


def diagnostics_clang(lines):
    """Groups Clang's output: the error line, then its notes."""
    blocks, current = [], []
    for line in lines:
        if ERROR.search(line) and current:
            blocks.append(current)
            current = []
        current.append(line)
    if current:
        blocks.append(current)
    return blocks


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--log", required=True)
    p.add_argument("--case", required=True, help="the case's source path, as in the #line directive")
    p.add_argument("--expect", required=True)
    p.add_argument("--compiler", default="GNU")
    p.add_argument("--alone", nargs=argparse.REMAINDER, default=[],
                   help="a command that compiles this case on its own (the rest of the command line)")
    a = p.parse_args()
    with open(a.log, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    group = diagnostics_clang if "Clang" in a.compiler else diagnostics_gcc

    def errors_of_case(lines):
        return [b for b in group(lines) if any(ERROR.search(l) for l in b) and any(a.case + ":" in l for l in b)]

    mine = errors_of_case(lines)
    if not mine and a.alone:
        alone = subprocess.run(a.alone, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
        if alone.returncode == 0:
            print(f"{a.case}: compiles on its own; it must not", file=sys.stderr)
            return 1
        print("no error of its own in the group's log (an instantiation another case failed first): compiled alone")
        mine = errors_of_case(alone.stdout.splitlines())
    expect = re.compile(a.expect)
    name = a.case.rsplit("/", 1)[-1]
    for block in mine:
        text = "\n".join(block)
        if expect.search(text):
            print(f"{name}: fails to compile as expected:")
            print(next(l for l in block if expect.search(l) or ERROR.search(l)))
            return 0
    if not mine:
        print(f"{name}: no compiler error belongs to this case (did it compile?)", file=sys.stderr)
    else:
        print(f"{name}: {len(mine)} error(s) belong to this case, none matches `{a.expect}`:", file=sys.stderr)
        for block in mine:
            print("\n".join(block), file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
