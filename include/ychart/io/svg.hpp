// ychart/io/svg.hpp
// SVG charts drawn by ychart itself, so results can be plotted without a
// plotting dependency: LineChart (series against x, optional log y axis,
// non-finite points leave gaps) and StackedBarChart (one bar per category,
// e.g. resources per FPGA, with a dashed reference line such as the cap).
// Output is deterministic (fixed number formatting, no time stamps) and
// marked up for lookup: every series is a <g class="series" data-name="...">,
// every bar a <g class="bar" data-category="...">, every stacked piece a
// <rect class="segment" data-name="..." data-value="...">.
#pragma once

#include "../config.hpp"
#include "../error.hpp"
#include "file.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ychart::io {

struct Series {
  std::string name;
  std::vector<double> x, y;
  bool markers = true;
  bool line = true;
  bool dashed = false;
};

struct LineChart {
  std::string title, x_label, y_label;
  std::vector<Series> series;
  bool log_y = false;  // decades; points with y <= 0 are left out like NaN
  bool log_x = false;  // the same for x (grids that grow geometrically: II_max, budgets)
  std::optional<double> y_min, y_max;
};

struct StackedBarChart {
  std::string title, y_label;
  std::vector<std::string> categories;  // one bar each, e.g. "FPGA 1" .. "FPGA 8"
  struct Segment {
    std::string name;
    std::vector<double> values;  // one per category; >= 0, NaN for "not present"
  };
  std::vector<Segment> segments;  // stacked bottom to top in this order
  std::optional<double> reference_line;
  std::string reference_label;
};

/// The chart as an SVG document. Throws ychart::error for a series whose x
/// and y differ in length, bad axis limits, or a size below 200x150.
YCHART_DECL std::string to_svg(const LineChart& chart, int width = 640, int height = 420);

/// One bar per category; throws ychart::error for a segment without one value
/// per category, a negative value, a non-finite reference line, or a size
/// below 200x150. NaN values are left out (nothing drawn).
YCHART_DECL std::string to_svg(const StackedBarChart& chart, int width = 640, int height = 420);

/// Writes to_svg(chart) to `path`; ychart::error naming the path on failure.
YCHART_DECL void write_svg(const std::filesystem::path& path, const LineChart& chart, int width = 640,
                           int height = 420);
YCHART_DECL void write_svg(const std::filesystem::path& path, const StackedBarChart& chart, int width = 640,
                           int height = 420);

}  // namespace ychart::io

#if YCHART_HEADER_ONLY
#include "impl/svg.ipp"
#endif
