#!/usr/bin/env python3
"""Reads the SVG files test_io_svg wrote (SvgFiles.*) with Python's own XML
parser, independent of ychart and of tests/support/xml_check.hpp, and checks
them against the <file>.expect.json written next to each: the root is <svg>
in the SVG namespace, the series groups and bars appear with the expected
names in order, and the number of stacked segments matches.

Usage: check_svg.py <directory>
"""
import json
import pathlib
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def with_class(root, tag, class_name):
    return [e for e in root.iter(SVG + tag) if e.get("class") == class_name]


def check(expect_path):
    expect = json.loads(expect_path.read_text(encoding="utf-8"))
    svg_path = expect_path.parent / expect["file"]
    root = ET.parse(svg_path).getroot()  # raises on malformed XML
    problems = []
    if root.tag != SVG + "svg":
        problems.append(f"root element is {root.tag}, not an SVG <svg>")
    series = [g.get("data-name") for g in with_class(root, "g", "series")]
    if series != expect["series"]:
        problems.append(f"series {series!r}, expected {expect['series']!r}")
    bars = [g.get("data-category") for g in with_class(root, "g", "bar")]
    if bars != expect["bars"]:
        problems.append(f"bars {bars!r}, expected {expect['bars']!r}")
    segments = with_class(root, "rect", "segment")
    if len(segments) != expect["segments"]:
        problems.append(f"{len(segments)} segments, expected {expect['segments']}")
    for segment in segments:
        if float(segment.get("data-value")) < 0 or float(segment.get("height")) < 0:
            problems.append(f"negative segment {segment.get('data-name')!r}")
    return [f"{svg_path}: {p}" for p in problems]


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    expectations = sorted(pathlib.Path(sys.argv[1]).glob("*.expect.json"))
    if len(expectations) < 2:
        print(f"expected at least 2 *.expect.json files in {sys.argv[1]}, found {len(expectations)}", file=sys.stderr)
        return 1
    problems = []
    for expect_path in expectations:
        try:
            problems += check(expect_path)
        except (ET.ParseError, OSError, KeyError, ValueError) as e:
            problems.append(f"{expect_path}: {e}")
    for p in problems:
        print(p, file=sys.stderr)
    if not problems:
        print(f"{len(expectations)} SVG files checked")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
