// SVG charts: well-formed XML (checked by tests/support/xml_check.hpp), one
// group per series or bar with the right names, gaps at non-finite points,
// escaped text, deterministic output. SvgFiles.* also writes files for the
// CTest io.svg_python_check, which reads them with Python's own XML parser.
#include <ychart/io/json.hpp>
#include <ychart/io/svg.hpp>

#include "support/xml_check.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace ychart::io;

namespace {

constexpr double nan_value = std::numeric_limits<double>::quiet_NaN();
const std::string awkward_name = "a<b & \"c\" 'd'";

LineChart three_series_chart() {
  LineChart chart;
  chart.title = "II <versus> FPGAs & \"cap\"";
  chart.x_label = "FPGAs";
  chart.y_label = "II [ms]";
  chart.series.push_back({"exact", {1, 2, 3, 4, 5, 6}, {9, 5, 3.5, 2.5, 2, 1.8}});
  // Infeasible points (NaN) at x = 2 and x = 5..6, an infinite x at 4: three
  // drawable pieces {1}, {3}, {7, 8}.
  chart.series.push_back({"relaxation", {1, 2, 3, std::numeric_limits<double>::infinity(), 5, 6, 7, 8},
                          {8, nan_value, 3, 2.2, nan_value, nan_value, 1.5, 1.4}});
  Series dashed{awkward_name, {1, 8}, {1, 1}};
  dashed.markers = false;
  dashed.dashed = true;
  chart.series.push_back(dashed);
  return chart;
}

StackedBarChart fpga_bar_chart() {
  StackedBarChart chart;
  chart.title = "DSP per FPGA";
  chart.y_label = "DSP [%]";
  for (int f = 1; f <= 8; ++f) chart.categories.push_back("FPGA " + std::to_string(f));
  chart.segments.push_back({"gemm", {30, 25, 20, 10, 0, 5, 15, 30}});
  chart.segments.push_back({"conv", {20, nan_value, 30, 40, 50, 10, 5, 0}});
  chart.segments.push_back({awkward_name, {10, 10, 10, 10, 10, 10, 10, 10}});
  chart.reference_line = 70;
  chart.reference_label = "cap 70% <max>";
  return chart;
}

std::vector<std::string> data_names(const std::vector<const xml_check::Element*>& elements,
                                    const char* attribute = "data-name") {
  std::vector<std::string> names;
  for (const auto* e : elements) names.push_back(e->attribute_or(attribute, "<missing>"));
  return names;
}

double attr(const xml_check::Element& e, const char* name) { return std::stod(e.attribute_or(name, "nan")); }

std::filesystem::path output_dir() {
  if (const char* configured = std::getenv("YCHART_SVG_OUT"); configured && *configured) return configured;
  return std::filesystem::temp_directory_path() / "ychart_test_io_svg";
}

}  // namespace

TEST(SvgCheck, RejectsMalformedXml) {
  // The checker itself must catch what it is there to catch.
  const std::string ns = "<svg xmlns=\"http://www.w3.org/2000/svg\">";
  EXPECT_NO_THROW(xml_check::check_svg(ns + "<g a=\"1 &amp; 2\">x &lt; y</g></svg>"));
  EXPECT_THROW(xml_check::check_svg(ns + "<g></svg>"), xml_check::Error);
  EXPECT_THROW(xml_check::check_svg(ns + "<g a=1/></svg>"), xml_check::Error);
  EXPECT_THROW(xml_check::check_svg(ns + "<g a=\"x<y\"/></svg>"), xml_check::Error);
  EXPECT_THROW(xml_check::check_svg(ns + "<g a=\"x & y\"/></svg>"), xml_check::Error);
  EXPECT_THROW(xml_check::check_svg(ns + "a & b</svg>"), xml_check::Error);
  EXPECT_THROW(xml_check::check_svg(ns + "<g a=\"1\" a=\"2\"/></svg>"), xml_check::Error);
  EXPECT_THROW(xml_check::check_svg(ns + "</svg><svg/>"), xml_check::Error);
  EXPECT_THROW(xml_check::check_svg("<svg></svg>"), xml_check::Error);  // no namespace
  EXPECT_THROW(xml_check::check_svg("<html xmlns=\"http://www.w3.org/2000/svg\"/>"), xml_check::Error);
}

TEST(SvgLineChart, SeriesGroupsGapsAndEscaping) {
  const LineChart chart = three_series_chart();
  const std::string svg = to_svg(chart);
  const xml_check::Element root = xml_check::check_svg(svg);

  const auto series = xml_check::with_class(root, "series");
  ASSERT_EQ(series.size(), 3u);
  EXPECT_EQ(data_names(series), (std::vector<std::string>{"exact", "relaxation", awkward_name}));
  const auto legend = xml_check::with_class(root, "legend-entry");
  EXPECT_EQ(data_names(legend), data_names(series));

  // Markers only at drawable points: 6, 4 (1, 3, 7, 8), none for the dashed line.
  EXPECT_EQ(xml_check::with_class(*series[0], "marker").size(), 6u);
  EXPECT_EQ(xml_check::with_class(*series[1], "marker").size(), 4u);
  EXPECT_EQ(xml_check::with_class(*series[2], "marker").size(), 0u);

  // The NaN series is drawn as three pieces: one "M" per piece.
  const auto lines = xml_check::with_class(*series[1], "line");
  ASSERT_EQ(lines.size(), 1u);
  const std::string d = lines[0]->attribute_or("d");
  EXPECT_EQ(std::count(d.begin(), d.end(), 'M'), 3) << d;
  EXPECT_EQ(std::count(d.begin(), d.end(), 'L'), 1) << d;
  EXPECT_EQ(d.find("nan"), std::string::npos);
  EXPECT_EQ(xml_check::with_class(*series[2], "line")[0]->attribute_or("stroke-dasharray"), "6 4");

  // Each series its own colour.
  std::set<std::string> colours;
  for (const auto* s : series) colours.insert(xml_check::with_class(*s, "line")[0]->attribute_or("stroke"));
  EXPECT_EQ(colours.size(), 3u);

  // Text escaped in the file and intact after unescaping.
  EXPECT_EQ(svg.find(awkward_name), std::string::npos);
  EXPECT_NE(svg.find("a&lt;b &amp; &quot;c&quot; &apos;d&apos;"), std::string::npos);
  const auto titles = xml_check::with_class(root, "title");
  ASSERT_EQ(titles.size(), 1u);
  EXPECT_EQ(titles[0]->text, chart.title);

  // y ticks on a 1-2-5 grid covering the data (1 .. 9): 0, 2, ..., 10.
  const auto y_axis = xml_check::with_class(root, "y-axis");
  ASSERT_EQ(y_axis.size(), 1u);
  std::vector<std::string> labels;
  for (const auto& child : y_axis[0]->children)
    if (child.name == "text" && child.attribute_or("class").empty()) labels.push_back(child.text);
  EXPECT_EQ(labels, (std::vector<std::string>{"0", "2", "4", "6", "8", "10"}));
}

TEST(SvgLineChart, PointsLandOnTheirPixels) {
  LineChart chart;
  chart.series.push_back({"s", {0, 10}, {0, 100}});
  const xml_check::Element root = xml_check::check_svg(to_svg(chart, 640, 420));
  const auto markers = xml_check::with_class(root, "marker");
  ASSERT_EQ(markers.size(), 2u);
  // The axes are exactly [0, 10] and [0, 100]: the points sit on opposite
  // corners of the plot frame, and the first is lower-left.
  const double x0 = attr(*markers[0], "cx"), y0 = attr(*markers[0], "cy");
  const double x1 = attr(*markers[1], "cx"), y1 = attr(*markers[1], "cy");
  EXPECT_LT(x0, x1);
  EXPECT_GT(y0, y1);
  const auto grid_lines = xml_check::with_class(root, "grid");
  double grid_top = 1e9, grid_bottom = -1e9, grid_left = 1e9, grid_right = -1e9;
  for (const auto* g : grid_lines) {
    grid_top = std::min(grid_top, attr(*g, "y1"));
    grid_bottom = std::max(grid_bottom, attr(*g, "y2"));
    grid_left = std::min(grid_left, attr(*g, "x1"));
    grid_right = std::max(grid_right, attr(*g, "x2"));
  }
  EXPECT_NEAR(x0, grid_left, 0.01);
  EXPECT_NEAR(x1, grid_right, 0.01);
  EXPECT_NEAR(y0, grid_bottom, 0.01);
  EXPECT_NEAR(y1, grid_top, 0.01);
}

TEST(SvgLineChart, LogAxisUsesDecadesAndDropsNonPositive) {
  LineChart chart;
  chart.log_y = true;
  chart.series.push_back({"runtime", {1, 2, 3, 4}, {0.05, 3, 0, 700}});
  const xml_check::Element root = xml_check::check_svg(to_svg(chart));
  std::vector<std::string> labels;
  for (const auto& child : xml_check::with_class(root, "y-axis")[0]->children)
    if (child.name == "text") labels.push_back(child.text);
  EXPECT_EQ(labels, (std::vector<std::string>{"0.01", "0.1", "1", "10", "100", "1000"}));
  EXPECT_EQ(xml_check::with_class(root, "marker").size(), 3u);  // y = 0 has no place on a log axis
  const std::string d = xml_check::with_class(root, "line")[0]->attribute_or("d");
  EXPECT_EQ(std::count(d.begin(), d.end(), 'M'), 2) << d;
}

TEST(SvgLineChart, LogXAxisSpacesDecadesEqually) {
  LineChart chart;
  chart.log_x = true;
  chart.series.push_back({"power", {0.4, 1, 5, 0, -2}, {10, 20, 30, 40, 50}});
  const xml_check::Element root = xml_check::check_svg(to_svg(chart));
  std::vector<std::string> labels;
  for (const auto& child : xml_check::with_class(root, "x-axis")[0]->children)
    if (child.name == "text") labels.push_back(child.text);
  EXPECT_EQ(labels, (std::vector<std::string>{"0.1", "1", "10"}));
  const auto markers = xml_check::with_class(root, "marker");
  ASSERT_EQ(markers.size(), 3u);  // x <= 0 has no place on a log axis
  // 0.1 -> 1 -> 10 are equal steps: x = 1 sits halfway, 0.4 at log10(4) of a decade left of it.
  const double at_1 = attr(*markers[1], "cx"), at_5 = attr(*markers[2], "cx"), at_04 = attr(*markers[0], "cx");
  EXPECT_NEAR((at_5 - at_1) / (at_1 - at_04), std::log10(5.0) / std::log10(2.5), 1e-2);
}

TEST(SvgLineChart, EmptyAndAllNanChartsDrawAxesOnly) {
  LineChart empty;
  const xml_check::Element a = xml_check::check_svg(to_svg(empty));
  EXPECT_TRUE(xml_check::with_class(a, "series").empty());
  EXPECT_EQ(xml_check::with_class(a, "y-axis").size(), 1u);
  EXPECT_EQ(xml_check::with_class(a, "x-axis").size(), 1u);

  LineChart all_nan;
  all_nan.series.push_back({"nothing", {nan_value, 1}, {2, nan_value}});
  all_nan.series.push_back({"none", {}, {}});
  const xml_check::Element b = xml_check::check_svg(to_svg(all_nan));
  const auto series = xml_check::with_class(b, "series");
  ASSERT_EQ(series.size(), 2u);
  EXPECT_TRUE(xml_check::with_class(b, "marker").empty());
  EXPECT_TRUE(xml_check::with_class(b, "line").empty());
}

TEST(SvgLineChart, InvalidInputIsAnError) {
  LineChart chart;
  chart.series.push_back({"bad", {1, 2, 3}, {1, 2}});
  EXPECT_THROW(to_svg(chart), ychart::error);
  LineChart limits;
  limits.y_min = 5;
  limits.y_max = 1;
  EXPECT_THROW(to_svg(limits), ychart::error);
  LineChart log_limits;
  log_limits.log_y = true;
  log_limits.y_min = 0;
  EXPECT_THROW(to_svg(log_limits), ychart::error);
  EXPECT_THROW(to_svg(LineChart{}, 50, 50), ychart::error);
}

TEST(SvgLineChart, OutputIsDeterministic) {
  EXPECT_EQ(to_svg(three_series_chart()), to_svg(three_series_chart()));
  EXPECT_EQ(to_svg(fpga_bar_chart()), to_svg(fpga_bar_chart()));
}

TEST(SvgBarChart, BarsSegmentsStackingAndReference) {
  const StackedBarChart chart = fpga_bar_chart();
  const std::string svg = to_svg(chart);
  const xml_check::Element root = xml_check::check_svg(svg);

  const auto bars = xml_check::with_class(root, "bar");
  ASSERT_EQ(bars.size(), 8u);
  EXPECT_EQ(data_names(bars, "data-category"), chart.categories);
  // 24 values minus the NaN one.
  EXPECT_EQ(xml_check::with_class(root, "segment").size(), 23u);

  for (std::size_t c = 0; c < bars.size(); ++c) {
    const auto segments = xml_check::with_class(*bars[c], "segment");
    double total = 0;
    for (std::size_t s = 0; s + 1 < segments.size(); ++s) {
      // Stacked: each segment's top is the next one's bottom.
      EXPECT_NEAR(attr(*segments[s], "y"), attr(*segments[s + 1], "y") + attr(*segments[s + 1], "height"), 0.011);
    }
    for (const auto* s : segments) total += attr(*s, "data-value");
    double expected_total = 0;
    for (const auto& segment : chart.segments)
      if (!std::isnan(segment.values[c])) expected_total += segment.values[c];
    EXPECT_EQ(total, expected_total) << c;
  }
  const auto first = xml_check::with_class(*bars[0], "segment");
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(data_names(first), (std::vector<std::string>{"gemm", "conv", awkward_name}));
  // Heights proportional to values: gemm 30 vs the third segment 10.
  EXPECT_NEAR(attr(*first[0], "height") / attr(*first[2], "height"), 3.0, 0.01);
  EXPECT_EQ(xml_check::with_class(*bars[1], "segment").size(), 2u);  // conv is NaN there

  const auto reference = xml_check::with_class(root, "reference-line");
  ASSERT_EQ(reference.size(), 1u);
  EXPECT_EQ(reference[0]->attribute_or("stroke-dasharray"), "6 4");
  const auto label = xml_check::with_class(root, "reference-label");
  ASSERT_EQ(label.size(), 1u);
  EXPECT_EQ(label[0]->text, chart.reference_label);
  // The reference line sits at 70 on the same scale as the bars: bar 1 holds
  // 30 + 20 + 10 = 60, so the line is 70/60 as high above the baseline.
  const double baseline = attr(*first[0], "y") + attr(*first[0], "height");
  const double top_of_60 = attr(*first[2], "y");
  const double y70 = attr(*reference[0], "y1");
  EXPECT_NEAR((baseline - y70) / (baseline - top_of_60), 70.0 / 60.0, 1e-3);

  EXPECT_EQ(data_names(xml_check::with_class(root, "legend-entry")),
            (std::vector<std::string>{awkward_name, "conv", "gemm"}));  // top of the stack first
  EXPECT_EQ(svg.find(awkward_name), std::string::npos);
}

TEST(SvgBarChart, ManySegmentsStayDistinct) {
  StackedBarChart chart;
  chart.categories = {"a", "b"};
  for (int s = 0; s < 40; ++s) chart.segments.push_back({"kernel " + std::to_string(s), {1, 2}});
  const xml_check::Element root = xml_check::check_svg(to_svg(chart, 900, 420));
  const auto legend = xml_check::with_class(root, "legend-entry");
  ASSERT_EQ(legend.size(), 40u);
  std::set<std::string> fills;
  for (const auto* entry : legend) fills.insert(entry->children.at(0).attribute_or("fill"));
  EXPECT_EQ(fills.size(), 40u);
  // Every pattern a fill refers to is defined.
  std::set<std::string> ids;
  for (const auto* p : xml_check::find_all(root, [](const auto& e) { return e.name == "pattern"; }))
    ids.insert("url(#" + p->attribute_or("id") + ")");
  for (const auto& fill : fills)
    if (fill.rfind("url(", 0) == 0) {
      EXPECT_TRUE(ids.count(fill)) << fill;
    }
  // The legend wraps into columns instead of running off the chart.
  std::set<std::string> columns;
  for (const auto* entry : legend) columns.insert(entry->children.at(0).attribute_or("x"));
  EXPECT_GT(columns.size(), 1u);
  for (const auto* entry : legend) EXPECT_LT(attr(entry->children.at(0), "y"), 420.0);
}

TEST(SvgBarChart, InvalidInputIsAnError) {
  StackedBarChart chart;
  chart.categories = {"a", "b"};
  chart.segments.push_back({"short", {1}});
  EXPECT_THROW(to_svg(chart), ychart::error);
  chart.segments = {{"negative", {1, -2}}};
  EXPECT_THROW(to_svg(chart), ychart::error);
  chart.segments = {{"ok", {1, 2}}};
  chart.reference_line = nan_value;
  EXPECT_THROW(to_svg(chart), ychart::error);
  StackedBarChart empty;
  EXPECT_NO_THROW(xml_check::check_svg(to_svg(empty)));
}

TEST(SvgFiles, WriteFilesForTheIndependentCheck) {
  const auto dir = output_dir();
  std::filesystem::create_directories(dir);
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() == ".svg" || name.find(".expect.json") != std::string::npos)
      std::filesystem::remove(entry.path());
  }

  const auto write_expectations = [&](const std::string& file, const std::vector<std::string>& series,
                                      const std::vector<std::string>& bars, int segments) {
    std::ofstream out(dir / (file + ".expect.json"));
    JsonWriter json(out);
    json.begin_object().key("file").value(file).key("series").begin_array();
    for (const auto& name : series) json.value(name);
    json.end_array().key("bars").begin_array();
    for (const auto& name : bars) json.value(name);
    json.end_array().key("segments").value(segments).end_object();
  };

  const LineChart line_chart = three_series_chart();
  write_svg(dir / "line_chart.svg", line_chart);
  write_expectations("line_chart.svg", {"exact", "relaxation", awkward_name}, {}, 0);

  const StackedBarChart bar_chart = fpga_bar_chart();
  write_svg(dir / "bar_chart.svg", bar_chart);
  write_expectations("bar_chart.svg", {}, bar_chart.categories, 23);

  for (const char* file : {"line_chart.svg", "bar_chart.svg"}) {
    std::ifstream in(dir / file);
    std::stringstream content;
    content << in.rdbuf();
    EXPECT_NO_THROW(xml_check::check_svg(content.str())) << file;
  }
  EXPECT_EQ(xml_check::with_class(xml_check::check_svg(to_svg(line_chart)), "series").size(), 3u);
}

TEST(SvgFiles, UnwritablePathIsAnErrorNamingIt) {
  const auto bad = output_dir() / "missing_directory" / "chart.svg";
  try {
    write_svg(bad, three_series_chart());
    ADD_FAILURE() << "expected ychart::error";
  } catch (const ychart::error& e) {
    EXPECT_NE(std::string(e.what()).find(bad.string()), std::string::npos) << e.what();
  }
}
