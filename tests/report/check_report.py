#!/usr/bin/env python3
"""Checks an HTML report in headless Chromium.

usage: check_report.py CHROMIUM REPORT.html RESULTS.csv

Loads the page with Chromium's --dump-dom, then checks:
* the page's script ran to its end (body data-ready="true") and nothing was
  logged to the console (no "CONSOLE" lines in Chromium's log);
* the results table in the DOM holds the same rows and numbers as the CSV
  the same run wrote (two independent writers of one table);
* the status tally counts the statuses of the CSV;
* every figure has an inline SVG with drawn data;
* the numbers a reader checks first: Alex-16 on 2 FPGAs at a 61 % cap has a
  relaxed II of 1.268 ms (study 001 digest, section 10.2).
"""
import csv
import html.parser
import math
import subprocess
import sys
import tempfile


class Dom(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.body = {}
        self.rows = {}        # table id -> list of {column: data-value}
        self.tally = {}       # status -> count
        self.figures = 0
        self.figure_svgs = 0
        self.drawn = 0
        self._table = None
        self._row = None
        self._in_figure = False
        self._tally_row = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body = a
        elif tag == "table":
            self._table = a.get("id")
            if self._table and self._table.startswith("table-"):
                self.rows.setdefault(self._table, [])
        elif tag == "tr" and self._table:
            self._row = {}
            if self._table == "status-tally":
                self._tally_row = a.get("data-status")
        elif tag == "td" and self._row is not None:
            if self._table == "status-tally" and self._tally_row is not None and "data-value" in a:
                self.tally[self._tally_row] = int(a["data-value"])
            elif "data-column" in a:
                self._row[a["data-column"]] = a.get("data-value", "")
        elif tag == "figure":
            self.figures += 1
            self._in_figure = True
        elif tag == "svg" and self._in_figure:
            self.figure_svgs += 1
        elif tag in ("polyline", "path", "circle") and self._in_figure:
            self.drawn += 1

    def handle_endtag(self, tag):
        if tag == "tr" and self._row is not None:
            if self._table in self.rows and self._row:
                self.rows[self._table].append(self._row)
            self._row = None
            self._tally_row = None
        elif tag == "table":
            self._table = None
        elif tag == "figure":
            self._in_figure = False


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def main():
    chromium, report, results = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as profile:
        run = subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
             "--user-data-dir=" + profile, "--dump-dom", "file://" + report],
            capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        fail("chromium exited with %d:\n%s" % (run.returncode, run.stderr[-2000:]))
    console = [line for line in run.stderr.splitlines() if "CONSOLE" in line]
    if console:
        fail("console messages:\n" + "\n".join(console))
    dom = Dom()
    dom.feed(run.stdout)
    if dom.body.get("data-ready") != "true":
        fail("the page's script did not run to its end (body data-ready is %r)" % dom.body.get("data-ready"))

    with open(results, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        csv_rows = [row for row in reader]
    names = [h.split(" [")[0] for h in header]  # "II ychart [ms]" -> "II ychart"
    table = dom.rows.get("table-relaxation")
    if table is None:
        fail("no table-relaxation in the DOM; tables: %s" % sorted(dom.rows))
    if len(table) != len(csv_rows):
        fail("%d rows in the DOM, %d in the CSV" % (len(table), len(csv_rows)))
    for i, (html_row, csv_row) in enumerate(zip(table, csv_rows)):
        for name, text in zip(names, csv_row):
            value = html_row.get(name)
            if value is None:
                fail("row %d has no cell for column %r" % (i, name))
            try:
                a, b = float(text), float(value)
                if not math.isclose(a, b, rel_tol=1e-12, abs_tol=0.0):
                    fail("row %d, %s: CSV %s, DOM %s" % (i, name, text, value))
            except ValueError:
                if text != value:
                    fail("row %d, %s: CSV %r, DOM %r" % (i, name, text, value))

    statuses = {}
    status_column = names.index("status")
    for row in csv_rows:
        statuses[row[status_column]] = statuses.get(row[status_column], 0) + 1
    if dom.tally != statuses:
        fail("status tally %s, CSV statuses %s" % (dom.tally, statuses))

    if dom.figures == 0 or dom.figure_svgs != dom.figures or dom.drawn == 0:
        fail("figures %d, inline SVGs %d, drawn elements %d" % (dom.figures, dom.figure_svgs, dom.drawn))

    point = [r for r in table if r["case"] == "alex16" and float(r["cap"]) == 61]
    if len(point) != 1 or abs(float(point[0]["II ychart"]) - 1.268) > 0.0005:
        fail("Alex-16 at 61 %%: %s (digest: II 1.268 ms)" % point)
    print("report OK: %d rows, statuses %s, %d figures" % (len(table), dom.tally, dom.figures))


main()
