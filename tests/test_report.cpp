// ychart::report::Report: the HTML it writes is self-contained, escapes
// user text, keeps exact numbers in data-value, gives tables unique ids,
// tallies the statuses of tables and solutions, and summarises a model.
// (tests/report/check_report.py loads a real report in headless Chromium.)
#include <ychart/ychart.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace {

using ychart::io::Table;
using ychart::report::Report;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

TEST(Report, TablesKeepExactValuesAndEscapeText) {
  Table t({{"case <a>", "", 1}, {"II", "ms", 3}, {"status", "", 1}, {"nodes", "", 1}});
  t.add_row({std::string("x & \"y\""), 1.0 / 3.0, std::string("optimal"), 12L});
  t.add_row({std::string("z"), std::nan(""), std::string("infeasible"), std::monostate{}});
  Report r("Sweep <1>");
  r.table("grid", t).table("grid", t);
  const std::string html = r.html();
  EXPECT_TRUE(contains(html, "<title>Sweep &lt;1&gt;</title>"));
  EXPECT_TRUE(contains(html, "data-value=\"0.3333333333333333\">0.333</td>"));  // exact and printed
  EXPECT_TRUE(contains(html, "x &amp; &quot;y&quot;"));
  EXPECT_TRUE(contains(html, "data-column=\"case &lt;a&gt;\""));
  EXPECT_TRUE(contains(html, "data-value=\"12\">12</td>"));
  EXPECT_EQ(count(html, "class=\"empty\""), 4u);  // NaN and the empty cell, twice
  EXPECT_TRUE(contains(html, "id=\"table-grid\""));
  EXPECT_TRUE(contains(html, "id=\"table-grid-2\""));  // ids stay unique
  EXPECT_EQ(r.status_tally().at("optimal"), 2);
  EXPECT_EQ(r.status_tally().at("infeasible"), 2);
  EXPECT_FALSE(contains(html, "<link"));  // self-contained: no external files
  EXPECT_FALSE(contains(html, "src=\""));
}

TEST(Report, SolutionsModelsAndFigures) {
  ychart::Model m;
  auto x = m.positive("x");
  auto n = m.integer("n", 1, 5);
  m.subject_to(x >= 2.5 * pow(n, -1.0));
  m.subject_to(n <= 3);
  m.minimize(x + 0.1 * n);
  const auto s = m.solve();
  ASSERT_EQ(s.status(), ychart::Status::optimal);
  const auto summary = ychart::report::summarize(m, "toy");
  EXPECT_EQ(summary.positive, 1u);
  EXPECT_EQ(summary.discrete, 1u);
  EXPECT_EQ(summary.constraints, 2u);
  EXPECT_EQ(summary.sense, "minimise");

  ychart::io::LineChart chart;
  chart.title = "a <chart>";
  chart.series.push_back({"s", {1, 2, 3}, {3, 1, 2}});
  Report r("toy");
  r.section("Model").model(summary).solution("toy solve", s).figure("the chart", chart);
  const std::string html = r.html();
  EXPECT_TRUE(contains(html, "<dd data-key=\"discrete\">1</dd>"));
  EXPECT_TRUE(contains(html, "<h2>Model</h2>"));
  EXPECT_EQ(r.status_tally().at("optimal"), 1);
  EXPECT_TRUE(contains(html, "<figure id=\"figure-1\"><svg"));  // inline, without the XML declaration
  EXPECT_FALSE(contains(html, "<?xml"));
  // Oracle for the objective: enumeration over n (x at its bound).
  double best = 1e300;
  for (int k = 1; k <= 3; ++k) best = std::min(best, 2.5 / k + 0.1 * k);
  EXPECT_NEAR(s.objective(), best, 1e-7);
  const std::string value = ychart::io::detail::round_trip_text(s.objective());
  EXPECT_TRUE(contains(html, "data-column=\"objective\" data-value=\"" + value + "\"")) << value;
}

}  // namespace
