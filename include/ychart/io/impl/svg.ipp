// ychart/io/impl/svg.ipp
// The implementation of ychart/io/svg.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../../model/tolerances.hpp"
#include "../svg.hpp"

namespace ychart::io {

namespace detail {

/// Okabe & Ito's colour-blind-safe palette, yellow last (weakest on white).
inline constexpr std::array<std::string_view, 8> chart_palette = {
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"};

/// Escapes the five XML special characters; control characters XML 1.0
/// forbids become U+FFFD so the file stays well-formed.
inline std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') out += "\xEF\xBF\xBD";
        else out += c;
    }
  }
  return out;
}

/// Coordinates with two decimals, trailing zeros dropped: stable files.
inline std::string svg_number(double value) {
  if (!std::isfinite(value)) value = 0;
  value = std::clamp(value, -1e6, 1e6);  // far-off points are clipped anyway
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, 2);
  std::string text(buffer, result.ptr);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text == "-0" ? "0" : text;
}

/// Data values in attributes: the shortest text that reads back exactly.
inline std::string data_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

inline std::size_t character_count(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

/// Width of a text in sans-serif: about 0.6 em per character.
inline double text_width(std::string_view text, double font_size) {
  return static_cast<double>(character_count(text)) * font_size * 0.6;
}

/// The first `max_characters` characters (not splitting UTF-8), with an
/// ellipsis when cut.
inline std::string shorten(std::string_view text, std::size_t max_characters) {
  if (character_count(text) <= max_characters) return std::string(text);
  if (max_characters == 0) return "";
  std::size_t kept = 0, end = 0;
  for (; end < text.size(); ++end) {
    if ((static_cast<unsigned char>(text[end]) & 0xC0) != 0x80) {
      if (kept == max_characters - 1) break;
      ++kept;
    }
  }
  return std::string(text.substr(0, end)) + "\xE2\x80\xA6";
}

/// Ids must be unique when several charts are inlined into one HTML page:
/// derive them from the chart's content (FNV-1a), which keeps files stable.
inline std::string content_id(std::string_view prefix, std::string_view content) {
  std::uint64_t hash = 14695981039346656037ull;
  for (char c : content) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  constexpr char hex[] = "0123456789abcdef";
  std::string id(prefix);
  for (int shift = 60; shift >= 32; shift -= 4) id += hex[(hash >> shift) & 0xF];
  return id;
}

struct Axis {
  double lo = 0, hi = 1;
  bool log = false;
  std::vector<double> ticks;
  std::vector<std::string> labels;

  /// The pixel of `value` when lo maps to pixel_lo and hi to pixel_hi.
  double to_pixel(double value, double pixel_lo, double pixel_hi) const {
    const double t = log ? (std::log10(value) - std::log10(lo)) / (std::log10(hi) - std::log10(lo))
                         : (value - lo) / (hi - lo);
    return pixel_lo + t * (pixel_hi - pixel_lo);
  }
};

/// 1, 2 or 5 times a power of ten, giving about `target_ticks` intervals.
inline double nice_step(double span, int target_ticks) {
  const double raw = span / target_ticks;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double normalised = raw / magnitude;
  const double factor = normalised <= 1 ? 1 : normalised <= 2 ? 2 : normalised <= 5 ? 5 : 10;
  return factor * magnitude;
}

/// As many decimals as the step needs; scientific for very large or small.
inline std::string linear_tick_label(double value, double step) {
  constexpr double zero_fraction = 1e-6;  // of a tick step
  if (std::abs(value) < step * zero_fraction) value = 0;  // k * step rounding: no "-0.0" or "1e-17"
  const int step_exponent = static_cast<int>(std::floor(std::log10(step) + tolerances::roundoff));
  char buffer[64];
  if (std::abs(value) >= 1e6 || step < 1e-4) {
    if (value == 0) return "0";
    const int value_exponent = static_cast<int>(std::floor(std::log10(std::abs(value))));
    const int digits = std::clamp(value_exponent - step_exponent, 0, 12);
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific, digits);
    std::string text(buffer, result.ptr);
    // "1.50e+06" -> "1.5e+06"
    const std::size_t e = text.find('e');
    std::string mantissa = text.substr(0, e);
    if (mantissa.find('.') != std::string::npos) {
      while (mantissa.back() == '0') mantissa.pop_back();
      if (mantissa.back() == '.') mantissa.pop_back();
    }
    return mantissa + text.substr(e);
  }
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, std::max(0, -step_exponent));
  return std::string(buffer, result.ptr);
}

/// An axis over [data_lo, data_hi] (data_lo > data_hi: no data), widened to
/// whole steps except at an end the caller fixes.
inline Axis linear_axis(double data_lo, double data_hi, std::optional<double> fixed_lo, std::optional<double> fixed_hi,
                        int target_ticks) {
  const bool have_data = data_lo <= data_hi;
  double lo = fixed_lo ? *fixed_lo : have_data ? data_lo : fixed_hi ? *fixed_hi - 1 : 0;
  double hi = fixed_hi ? *fixed_hi : have_data ? data_hi : lo + 1;
  if (!(std::isfinite(lo) && std::isfinite(hi))) throw ychart::error("ychart: chart axis limits must be finite");
  if (hi <= lo) {
    if (fixed_lo && fixed_hi) throw ychart::error("ychart: chart y_min must be below y_max");
    const auto pad = [](double v) { return v == 0 ? 1 : std::abs(v) * 0.1; };
    if (fixed_lo) {
      hi = lo + pad(lo);
    } else if (fixed_hi) {
      lo = hi - pad(hi);
    } else {
      const double both = pad(lo);
      lo -= both;
      hi += both;
    }
  }
  const double step = nice_step(hi - lo, target_ticks);
  if (!(std::isfinite(step) && step > 0 && std::isfinite(lo / step) && std::isfinite(hi / step)))
    throw ychart::error("ychart: chart data range too wide or too narrow to draw");
  if (!fixed_lo) lo = std::floor(lo / step) * step;
  if (!fixed_hi) hi = std::ceil(hi / step) * step;
  Axis axis;
  axis.lo = lo;
  axis.hi = hi;
  const long first = static_cast<long>(std::ceil(lo / step - tolerances::roundoff));
  const long last = static_cast<long>(std::floor(hi / step + tolerances::roundoff));
  for (long k = first; k <= last; ++k) {
    axis.ticks.push_back(static_cast<double>(k) * step);
    axis.labels.push_back(linear_tick_label(axis.ticks.back(), step));
  }
  return axis;
}

inline std::string decade_label(int exponent) {
  if (exponent >= 0 && exponent <= 5) return "1" + std::string(static_cast<std::size_t>(exponent), '0');
  if (exponent < 0 && exponent >= -3) return "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + "1";
  return "1e" + std::to_string(exponent);
}

/// A log axis from decade to decade around the positive data; ticks on
/// decades (every n-th decade when there are many).
inline Axis log_axis(double data_lo, double data_hi, std::optional<double> fixed_lo, std::optional<double> fixed_hi) {
  if ((fixed_lo && !(*fixed_lo > 0)) || (fixed_hi && !(*fixed_hi > 0)))
    throw ychart::error("ychart: chart y_min and y_max must be > 0 on a log axis");
  const bool have_data = data_lo <= data_hi;
  double lo = fixed_lo ? *fixed_lo
              : have_data ? std::pow(10.0, std::floor(std::log10(data_lo)))
              : fixed_hi  ? *fixed_hi / 10
                          : 1;
  double hi = fixed_hi ? *fixed_hi : have_data ? std::pow(10.0, std::ceil(std::log10(data_hi))) : lo * 10;
  if (!(lo > 0 && std::isfinite(hi))) throw ychart::error("ychart: chart data range too wide to draw on a log axis");
  if (hi <= lo) {
    if (fixed_lo && fixed_hi) throw ychart::error("ychart: chart y_min must be below y_max");
    if (fixed_hi) lo = hi / 10;
    else hi = lo * 10;
  }
  Axis axis;
  axis.lo = lo;
  axis.hi = hi;
  axis.log = true;
  const int first = static_cast<int>(std::ceil(std::log10(lo) - tolerances::roundoff));
  const int last = static_cast<int>(std::floor(std::log10(hi) + tolerances::roundoff));
  const int stride = std::max(1, (last - first + 8) / 8);
  for (int k = first; k <= last; k += stride) {
    axis.ticks.push_back(std::pow(10.0, k));
    axis.labels.push_back(decade_label(k));
  }
  if (axis.ticks.empty()) {  // fixed limits inside one decade: label the ends
    for (double end : {lo, hi}) {
      axis.ticks.push_back(end);
      axis.labels.push_back(data_number(end));
    }
  }
  return axis;
}

struct PlotArea {
  double left, top, right, bottom;
  double width() const { return right - left; }
  double height() const { return bottom - top; }
};

/// Entries flow down, then into further columns when the plot is too short.
struct LegendLayout {
  static constexpr double entry_height = 18;
  static constexpr double font_size = 11;
  static constexpr double swatch_width = 30;  // sample line or box plus a gap
  std::size_t rows = 1;
  std::size_t columns = 0;
  double column_width = 0;
  std::size_t max_characters = 0;

  LegendLayout(const std::vector<std::string>& names, double available_height, double chart_width) {
    if (names.empty()) return;
    rows = std::max<std::size_t>(1, static_cast<std::size_t>(available_height / entry_height));
    columns = (names.size() + rows - 1) / rows;
    rows = (names.size() + columns - 1) / columns;  // balance the columns
    double widest = 0;
    for (const auto& name : names) widest = std::max(widest, text_width(name, font_size));
    const double budget = std::max(70.0, chart_width * 0.4 / static_cast<double>(columns));
    column_width = std::min(swatch_width + widest + 12, budget);
    max_characters = static_cast<std::size_t>(std::max(1.0, (column_width - swatch_width - 12) / (font_size * 0.6)));
  }

  double width() const { return static_cast<double>(columns) * column_width; }
  double x(std::size_t index, double left) const { return left + static_cast<double>(index / rows) * column_width; }
  double y(std::size_t index, double top) const { return top + static_cast<double>(index % rows) * entry_height; }
};

inline void check_chart_size(int width, int height) {
  if (width < 200 || height < 150)
    throw ychart::error("ychart: chart size " + std::to_string(width) + "x" + std::to_string(height) +
                        " is too small (at least 200x150)");
}

inline void open_svg(std::string& out, int width, int height, const std::string& title) {
  const std::string w = std::to_string(width), h = std::to_string(height);
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + w + "\" height=\"" + h + "\" viewBox=\"0 0 " + w +
         " " + h + "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  if (!title.empty()) out += "<title>" + xml_escape(title) + "</title>\n";
  out += "<rect class=\"background\" width=\"" + w + "\" height=\"" + h + "\" fill=\"white\"/>\n";
  if (!title.empty())
    out += "<text class=\"title\" x=\"" + svg_number(width / 2.0) +
           "\" y=\"24\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">" + xml_escape(title) + "</text>\n";
}

/// Grid lines, ticks, tick labels and the rotated axis label.
inline void draw_y_axis(std::string& out, const Axis& axis, const PlotArea& plot, const std::string& label,
                        double label_x) {
  out += "<g class=\"y-axis\">\n";
  for (std::size_t i = 0; i < axis.ticks.size(); ++i) {
    const std::string y = svg_number(axis.to_pixel(axis.ticks[i], plot.bottom, plot.top));
    out += "<line class=\"grid\" x1=\"" + svg_number(plot.left) + "\" y1=\"" + y + "\" x2=\"" + svg_number(plot.right) +
           "\" y2=\"" + y + "\" stroke=\"#e6e6e6\"/>\n";
    out += "<line x1=\"" + svg_number(plot.left - 4) + "\" y1=\"" + y + "\" x2=\"" + svg_number(plot.left) + "\" y2=\"" +
           y + "\" stroke=\"#333\"/>\n";
    out += "<text x=\"" + svg_number(plot.left - 7) + "\" y=\"" + y +
           "\" dy=\"0.32em\" text-anchor=\"end\" font-size=\"11\" fill=\"#333\">" + xml_escape(axis.labels[i]) + "</text>\n";
  }
  out += "<line x1=\"" + svg_number(plot.left) + "\" y1=\"" + svg_number(plot.top) + "\" x2=\"" + svg_number(plot.left) +
         "\" y2=\"" + svg_number(plot.bottom) + "\" stroke=\"#333\"/>\n";
  if (!label.empty()) {
    const std::string x = svg_number(label_x), y = svg_number((plot.top + plot.bottom) / 2);
    out += "<text class=\"axis-label\" x=\"" + x + "\" y=\"" + y + "\" transform=\"rotate(-90 " + x + " " + y +
           ")\" text-anchor=\"middle\">" + xml_escape(label) + "</text>\n";
  }
  out += "</g>\n";
}

inline double widest_label(const Axis& axis, double font_size) {
  double widest = 0;
  for (const auto& label : axis.labels) widest = std::max(widest, text_width(label, font_size));
  return widest;
}

enum class MarkerShape { circle, square, triangle, diamond };

/// Colour and marker shape of series i: the shape changes with each pass
/// through the palette, so series 0 and 8 still differ.
inline MarkerShape marker_shape(std::size_t index) {
  return static_cast<MarkerShape>((index + index / chart_palette.size()) % 4);
}

inline std::string marker(MarkerShape shape, double x, double y, std::string_view css_class = "marker") {
  constexpr double r = 3.5;
  const std::string tag_class = " class=\"" + std::string(css_class) + "\"";
  switch (shape) {
    case MarkerShape::circle:
      return "<circle" + tag_class + " cx=\"" + svg_number(x) + "\" cy=\"" + svg_number(y) + "\" r=\"" + svg_number(r) +
             "\"/>";
    case MarkerShape::square:
      return "<rect" + tag_class + " x=\"" + svg_number(x - r) + "\" y=\"" + svg_number(y - r) + "\" width=\"" +
             svg_number(2 * r) + "\" height=\"" + svg_number(2 * r) + "\"/>";
    case MarkerShape::triangle:
      return "<path" + tag_class + " d=\"M" + svg_number(x) + " " + svg_number(y - r - 0.5) + "L" + svg_number(x + r + 0.5) +
             " " + svg_number(y + r) + "L" + svg_number(x - r - 0.5) + " " + svg_number(y + r) + "Z\"/>";
    case MarkerShape::diamond:
      return "<path" + tag_class + " d=\"M" + svg_number(x) + " " + svg_number(y - r - 0.5) + "L" + svg_number(x + r + 0.5) +
             " " + svg_number(y) + "L" + svg_number(x) + " " + svg_number(y + r + 0.5) + "L" + svg_number(x - r - 0.5) + " " +
             svg_number(y) + "Z\"/>";
  }
  return "";
}

/// Fill of segment style i: the palette first, then the palette with hatch,
/// dot and cross-hatch patterns, then all of those in lighter shades.
struct SegmentStyle {
  std::string colour;
  int pattern;  // 0 solid, 1 diagonal hatch, 2 dots, 3 cross-hatch
};

inline std::string lighten(std::string_view colour, double towards_white) {
  const auto channel = [&](std::size_t at) {
    const int value = std::stoi(std::string(colour.substr(at, 2)), nullptr, 16);
    return static_cast<int>(std::lround(value + (255 - value) * towards_white));
  };
  constexpr char hex[] = "0123456789ABCDEF";
  std::string out = "#";
  for (std::size_t at : {1, 3, 5}) {
    const int value = channel(at);
    out += hex[value >> 4];
    out += hex[value & 0xF];
  }
  return out;
}

inline SegmentStyle segment_style(std::size_t index) {
  const std::size_t n = chart_palette.size();
  const std::size_t shade = index / (4 * n);
  const double towards_white = std::min(0.7, 0.35 * static_cast<double>(shade));
  return {lighten(chart_palette[index % n], towards_white), static_cast<int>((index / n) % 4)};
}

inline std::string pattern_definition(const std::string& id, const SegmentStyle& style) {
  std::string out = "<pattern id=\"" + id + "\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\">";
  out += "<rect width=\"6\" height=\"6\" fill=\"" + style.colour + "\" fill-opacity=\"0.3\"/>";
  const std::string stroke = "\" stroke=\"" + style.colour + "\" stroke-width=\"1.4\"/>";
  if (style.pattern == 1) out += "<path d=\"M0 6L6 0M-1 1L1 -1M5 7L7 5" + stroke;
  if (style.pattern == 2) out += "<circle cx=\"3\" cy=\"3\" r=\"1.6\" fill=\"" + style.colour + "\"/>";
  if (style.pattern == 3) out += "<path d=\"M0 0L6 6M6 0L0 6" + stroke;
  return out + "</pattern>\n";
}

}  // namespace detail

/// The chart as an SVG document. Throws ychart::error for a series whose x
/// and y differ in length, bad axis limits, or a size below 200x150.
YCHART_DECL std::string to_svg(const LineChart& chart, int width, int height) {
  using namespace detail;
  check_chart_size(width, height);
  const auto drawable = [&](double x, double y) {
    return std::isfinite(x) && std::isfinite(y) && (!chart.log_y || y > 0) && (!chart.log_x || x > 0);
  };
  double x_lo = std::numeric_limits<double>::infinity(), x_hi = -x_lo, y_lo = x_lo, y_hi = -x_lo;
  std::vector<std::string> names;
  std::string id_seed = chart.title + '\n' + std::to_string(width) + 'x' + std::to_string(height);
  for (const Series& series : chart.series) {
    if (series.x.size() != series.y.size())
      throw ychart::error("ychart: series `" + series.name + "` has " + std::to_string(series.x.size()) +
                          " x values and " + std::to_string(series.y.size()) + " y values");
    for (std::size_t i = 0; i < series.x.size(); ++i) {
      if (!drawable(series.x[i], series.y[i])) continue;
      x_lo = std::min(x_lo, series.x[i]);
      x_hi = std::max(x_hi, series.x[i]);
      y_lo = std::min(y_lo, series.y[i]);
      y_hi = std::max(y_hi, series.y[i]);
    }
    names.push_back(series.name);
    id_seed += '\n' + series.name + ' ' + std::to_string(series.x.size());
  }
  const Axis x_axis = chart.log_x ? log_axis(x_lo, x_hi, std::nullopt, std::nullopt)
                                  : linear_axis(x_lo, x_hi, std::nullopt, std::nullopt, 6);
  const Axis y_axis =
      chart.log_y ? log_axis(y_lo, y_hi, chart.y_min, chart.y_max) : linear_axis(y_lo, y_hi, chart.y_min, chart.y_max, 5);

  const double top = chart.title.empty() ? 16 : 40;
  const double bottom = height - (chart.x_label.empty() ? 30.0 : 48.0);
  const double left = 10 + (chart.y_label.empty() ? 0 : 20) + widest_label(y_axis, 11) + 10;
  const LegendLayout legend(names, bottom - top, width);
  // Without a legend the last x tick label, centred on the frame, needs room.
  const double last_label_half = x_axis.labels.empty() ? 0 : text_width(x_axis.labels.back(), 11) / 2;
  const double right = width - (names.empty() ? std::max(20.0, last_label_half + 10) : legend.width() + 24);
  if (right - left < 60) throw ychart::error("ychart: chart too narrow for its axis labels and legend");
  const PlotArea plot{left, top, right, bottom};
  const auto px = [&](double x) { return x_axis.to_pixel(x, plot.left, plot.right); };
  const auto py = [&](double y) { return y_axis.to_pixel(y, plot.bottom, plot.top); };

  std::string out;
  open_svg(out, width, height, chart.title);
  const std::string clip_id = content_id("ychart-plot-", id_seed);
  // A little wider than the plot so markers on the frame are not cut in half.
  out += "<defs><clipPath id=\"" + clip_id + "\"><rect x=\"" + svg_number(plot.left - 5) + "\" y=\"" +
         svg_number(plot.top - 5) + "\" width=\"" + svg_number(plot.width() + 10) + "\" height=\"" +
         svg_number(plot.height() + 10) + "\"/></clipPath></defs>\n";

  draw_y_axis(out, y_axis, plot, chart.y_label, 18);
  out += "<g class=\"x-axis\">\n";
  for (std::size_t i = 0; i < x_axis.ticks.size(); ++i) {
    const std::string x = svg_number(px(x_axis.ticks[i]));
    out += "<line class=\"grid\" x1=\"" + x + "\" y1=\"" + svg_number(plot.top) + "\" x2=\"" + x + "\" y2=\"" +
           svg_number(plot.bottom) + "\" stroke=\"#e6e6e6\"/>\n";
    out += "<line x1=\"" + x + "\" y1=\"" + svg_number(plot.bottom) + "\" x2=\"" + x + "\" y2=\"" +
           svg_number(plot.bottom + 4) + "\" stroke=\"#333\"/>\n";
    out += "<text x=\"" + x + "\" y=\"" + svg_number(plot.bottom + 17) +
           "\" text-anchor=\"middle\" font-size=\"11\" fill=\"#333\">" + xml_escape(x_axis.labels[i]) + "</text>\n";
  }
  out += "<line x1=\"" + svg_number(plot.left) + "\" y1=\"" + svg_number(plot.bottom) + "\" x2=\"" +
         svg_number(plot.right) + "\" y2=\"" + svg_number(plot.bottom) + "\" stroke=\"#333\"/>\n";
  if (!chart.x_label.empty())
    out += "<text class=\"axis-label\" x=\"" + svg_number((plot.left + plot.right) / 2) + "\" y=\"" +
           svg_number(height - 12.0) + "\" text-anchor=\"middle\">" + xml_escape(chart.x_label) + "</text>\n";
  out += "</g>\n";

  for (std::size_t s = 0; s < chart.series.size(); ++s) {
    const Series& series = chart.series[s];
    const std::string colour(chart_palette[s % chart_palette.size()]);
    out += "<g class=\"series\" data-name=\"" + xml_escape(series.name) + "\" clip-path=\"url(#" + clip_id + ")\">\n";
    if (series.line) {
      // A point that cannot be drawn ends the current piece: the gap shows it.
      std::string path;
      bool in_piece = false;
      for (std::size_t i = 0; i < series.x.size(); ++i) {
        if (!drawable(series.x[i], series.y[i])) {
          in_piece = false;
          continue;
        }
        const std::string point = svg_number(px(series.x[i])) + " " + svg_number(py(series.y[i]));
        const bool isolated = !in_piece && (i + 1 == series.x.size() || !drawable(series.x[i + 1], series.y[i + 1]));
        // "h0" with round caps draws a lone point as a dot when markers are off.
        path += (in_piece ? "L" : "M") + point + (isolated ? "h0" : "");
        in_piece = true;
      }
      if (!path.empty())
        out += "<path class=\"line\" d=\"" + path + "\" fill=\"none\" stroke=\"" + colour +
               "\" stroke-width=\"2\" stroke-linejoin=\"round\" stroke-linecap=\"round\"" +
               (series.dashed ? " stroke-dasharray=\"6 4\"" : "") + "/>\n";
    }
    if (series.markers) {
      out += "<g class=\"markers\" fill=\"" + colour + "\">\n";
      for (std::size_t i = 0; i < series.x.size(); ++i)
        if (drawable(series.x[i], series.y[i]))
          out += marker(marker_shape(s), px(series.x[i]), py(series.y[i])) + "\n";
      out += "</g>\n";
    }
    out += "</g>\n";
  }

  if (!names.empty()) {
    out += "<g class=\"legend\" font-size=\"11\">\n";
    const double legend_left = plot.right + 16;
    for (std::size_t s = 0; s < chart.series.size(); ++s) {
      const Series& series = chart.series[s];
      const std::string colour(chart_palette[s % chart_palette.size()]);
      const double x = legend.x(s, legend_left), y = legend.y(s, plot.top) + LegendLayout::entry_height / 2;
      out += "<g class=\"legend-entry\" data-name=\"" + xml_escape(series.name) + "\">";
      if (series.line || !series.markers)
        out += "<line x1=\"" + svg_number(x) + "\" y1=\"" + svg_number(y) + "\" x2=\"" + svg_number(x + 22) + "\" y2=\"" +
               svg_number(y) + "\" stroke=\"" + colour + "\" stroke-width=\"2\"" +
               (series.dashed ? " stroke-dasharray=\"6 4\"" : "") + "/>";
      if (series.markers) out += "<g fill=\"" + colour + "\">" + marker(marker_shape(s), x + 11, y, "legend-marker") + "</g>";
      out += "<text x=\"" + svg_number(x + LegendLayout::swatch_width) + "\" y=\"" + svg_number(y) + "\" dy=\"0.32em\">" +
             xml_escape(shorten(series.name, legend.max_characters)) + "</text></g>\n";
    }
    out += "</g>\n";
  }
  out += "</svg>\n";
  return out;
}

/// One bar per category; throws ychart::error for a segment without one value
/// per category, a negative value, a non-finite reference line, or a size
/// below 200x150. NaN values are left out (nothing drawn).
YCHART_DECL std::string to_svg(const StackedBarChart& chart, int width, int height) {
  using namespace detail;
  check_chart_size(width, height);
  const std::size_t category_count = chart.categories.size();
  std::vector<double> totals(category_count, 0.0);
  // Segments sharing a name share a colour and a legend entry.
  std::vector<std::string> style_names;
  std::vector<std::size_t> style_of_segment;
  std::string id_seed = chart.title + '\n' + std::to_string(width) + 'x' + std::to_string(height);
  for (const auto& segment : chart.segments) {
    if (segment.values.size() != category_count)
      throw ychart::error("ychart: bar segment `" + segment.name + "` has " + std::to_string(segment.values.size()) +
                          " values for " + std::to_string(category_count) + " categories");
    for (std::size_t c = 0; c < category_count; ++c) {
      const double value = segment.values[c];
      if (value < 0 || std::isinf(value))
        throw ychart::error("ychart: bar segment `" + segment.name + "` has the value " + data_number(value) +
                            " for `" + chart.categories[c] + "` (stacked bars need finite values >= 0)");
      if (!std::isnan(value)) totals[c] += value;
    }
    const auto known = std::find(style_names.begin(), style_names.end(), segment.name);
    style_of_segment.push_back(static_cast<std::size_t>(known - style_names.begin()));
    if (known == style_names.end()) style_names.push_back(segment.name);
    id_seed += '\n' + segment.name;
  }
  if (chart.reference_line && !std::isfinite(*chart.reference_line))
    throw ychart::error("ychart: the bar chart's reference line must be finite");

  double highest = 0;
  for (double total : totals) highest = std::max(highest, total);
  if (chart.reference_line) highest = std::max(highest, *chart.reference_line);
  const Axis y_axis = linear_axis(0, highest, 0.0, std::nullopt, 5);

  // Long or many category names are turned 45 degrees to fit under the bars.
  double widest_category = 0;
  for (const auto& category : chart.categories) widest_category = std::max(widest_category, text_width(category, 11));
  const double top = chart.title.empty() ? 16 : 40;
  double left = 10 + (chart.y_label.empty() ? 0 : 20) + widest_label(y_axis, 11) + 10;
  // The legend lists the top segment first, like the stack it describes.
  const std::vector<std::string> legend_names(style_names.rbegin(), style_names.rend());
  const double provisional_bottom = height - 30.0;
  const LegendLayout legend(legend_names, provisional_bottom - top, width);
  const double right = width - (legend_names.empty() ? 16 : legend.width() + 24);
  if (right - left < 60) throw ychart::error("ychart: chart too narrow for its axis labels and legend");
  double slot = category_count ? (right - left) / static_cast<double>(category_count) : 0;
  const bool rotate_labels = category_count > 0 && widest_category > slot * 0.9;
  if (rotate_labels) {
    // The first label, turned 45 degrees, reaches left of its bar: keep it on the canvas.
    const double overhang = text_width(chart.categories.front(), 11) * 0.71 - slot / 2 + 6;
    if (overhang > left && right - overhang >= 60) {
      left = overhang;
      slot = (right - left) / static_cast<double>(category_count);
    }
  }
  const double label_depth = rotate_labels ? std::min(widest_category * 0.71 + 12, height * 0.3) : 20;
  const PlotArea plot{left, top, right, height - 10 - label_depth};
  if (plot.height() < 40) throw ychart::error("ychart: chart too short for its category labels");
  const auto py = [&](double y) { return y_axis.to_pixel(y, plot.bottom, plot.top); };

  std::string out;
  open_svg(out, width, height, chart.title);
  const std::string pattern_prefix = content_id("ychart-fill-", id_seed) + "-";
  std::vector<std::string> fills;
  std::string definitions;
  for (std::size_t i = 0; i < style_names.size(); ++i) {
    const SegmentStyle style = segment_style(i);
    if (style.pattern == 0) {
      fills.push_back(style.colour);
    } else {
      const std::string id = pattern_prefix + std::to_string(i);
      definitions += pattern_definition(id, style);
      fills.push_back("url(#" + id + ")");
    }
  }
  if (!definitions.empty()) out += "<defs>\n" + definitions + "</defs>\n";

  draw_y_axis(out, y_axis, plot, chart.y_label, 18);

  const double bar_width = std::min(slot * 0.7, 90.0);
  for (std::size_t c = 0; c < category_count; ++c) {
    const double centre = plot.left + slot * (static_cast<double>(c) + 0.5);
    out += "<g class=\"bar\" data-category=\"" + xml_escape(chart.categories[c]) + "\">\n";
    double stacked = 0;
    for (std::size_t s = 0; s < chart.segments.size(); ++s) {
      const auto& segment = chart.segments[s];
      const double value = segment.values[c];
      if (std::isnan(value)) continue;
      const double y_top = py(stacked + value), y_bottom = py(stacked);
      stacked += value;
      const std::size_t style = style_of_segment[s];
      out += "<rect class=\"segment\" data-name=\"" + xml_escape(segment.name) + "\" data-value=\"" + data_number(value) +
             "\" x=\"" + svg_number(centre - bar_width / 2) + "\" y=\"" + svg_number(y_top) + "\" width=\"" +
             svg_number(bar_width) + "\" height=\"" + svg_number(y_bottom - y_top) + "\" fill=\"" + fills[style] +
             "\" stroke=\"white\" stroke-width=\"0.5\"><title>" + xml_escape(segment.name) + ": " + data_number(value) +
             "</title></rect>\n";
    }
    const std::string label_y = svg_number(plot.bottom + 16);
    out += "<text class=\"category\" x=\"" + svg_number(centre) + "\" y=\"" + label_y + "\" font-size=\"11\" fill=\"#333\"";
    out += rotate_labels ? " text-anchor=\"end\" transform=\"rotate(-45 " + svg_number(centre) + " " + label_y + ")\""
                         : std::string(" text-anchor=\"middle\"");
    out += ">" + xml_escape(chart.categories[c]) + "</text>\n</g>\n";
  }
  out += "<line class=\"baseline\" x1=\"" + svg_number(plot.left) + "\" y1=\"" + svg_number(plot.bottom) + "\" x2=\"" +
         svg_number(plot.right) + "\" y2=\"" + svg_number(plot.bottom) + "\" stroke=\"#333\"/>\n";

  if (chart.reference_line) {
    const std::string y = svg_number(py(*chart.reference_line));
    out += "<g class=\"reference\" data-value=\"" + data_number(*chart.reference_line) + "\">";
    out += "<line class=\"reference-line\" x1=\"" + svg_number(plot.left) + "\" y1=\"" + y + "\" x2=\"" +
           svg_number(plot.right) + "\" y2=\"" + y + "\" stroke=\"#333\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>";
    if (!chart.reference_label.empty())
      out += "<text class=\"reference-label\" x=\"" + svg_number(plot.right - 4) + "\" y=\"" +
             svg_number(py(*chart.reference_line) - 5) + "\" text-anchor=\"end\" font-size=\"11\" fill=\"#333\">" +
             xml_escape(chart.reference_label) + "</text>";
    out += "</g>\n";
  }

  if (!legend_names.empty()) {
    out += "<g class=\"legend\" font-size=\"11\">\n";
    const double legend_left = plot.right + 16;
    for (std::size_t i = 0; i < legend_names.size(); ++i) {
      const std::size_t style = style_names.size() - 1 - i;
      const double x = legend.x(i, legend_left), y = legend.y(i, plot.top) + LegendLayout::entry_height / 2;
      out += "<g class=\"legend-entry\" data-name=\"" + xml_escape(legend_names[i]) + "\"><rect x=\"" + svg_number(x) +
             "\" y=\"" + svg_number(y - 6) + "\" width=\"18\" height=\"12\" fill=\"" + fills[style] +
             "\" stroke=\"#555\" stroke-width=\"0.5\"/><text x=\"" + svg_number(x + LegendLayout::swatch_width - 6) +
             "\" y=\"" + svg_number(y) + "\" dy=\"0.32em\">" + xml_escape(shorten(legend_names[i], legend.max_characters)) +
             "</text></g>\n";
    }
    out += "</g>\n";
  }
  out += "</svg>\n";
  return out;
}

/// Writes to_svg(chart) to `path`; ychart::error naming the path on failure.
YCHART_DECL void write_svg(const std::filesystem::path& path, const LineChart& chart, int width, int height) {
  write_text_file(path, to_svg(chart, width, height));
}

YCHART_DECL void write_svg(const std::filesystem::path& path, const StackedBarChart& chart, int width, int height) {
  write_text_file(path, to_svg(chart, width, height));
}

}  // namespace ychart::io
