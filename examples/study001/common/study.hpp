// examples/study001/common/study.hpp
// Shared by the study-001 examples: where the transcribed tables live, the
// AWS F1 platform, and a helper to time a call.
#pragma once

#include <ychart/pipeline.hpp>
#include <ychart/io/svg.hpp>

#include <chrono>
#include <filesystem>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef YCHART_EXAMPLES_DATA_DIR
#define YCHART_EXAMPLES_DATA_DIR "examples/data"
#endif

namespace study001 {

using ychart::pipeline::FpgaResources;
using App = ychart::pipeline::Application<FpgaResources>;
using Arch = ychart::pipeline::Platform<FpgaResources>;

/// A result a method did not produce (infeasible, or no allocation found): a
/// gap in the plots, "-" in the tables.
inline constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

/// examples/data/shan2021 in the source tree, or --data DIR.
inline std::filesystem::path data_dir(const std::string& override_dir = "") {
  return override_dir.empty() ? std::filesystem::path(YCHART_EXAMPLES_DATA_DIR) / "shan2021"
                              : std::filesystem::path(override_dir);
}

/// `fpgas` xcvu9p FPGAs on one AWS F1 host; resources in % of one device.
inline Arch aws_f1(int fpgas) {
  Arch a;
  a.name = "AWS F1, " + std::to_string(fpgas) + " FPGAs";
  a.kind().name = "xcvu9p";
  a.group().devices = fpgas;
  return a;
}

/// A resource record from one value per type, in resource_names order.
inline FpgaResources resources_from(const std::vector<double>& values) {
  const auto names = ychart::pipeline::resource_names<FpgaResources>();
  if (values.size() != names.size())
    throw std::invalid_argument("study001: " + std::to_string(values.size()) + " values for " +
                                std::to_string(names.size()) + " resource types");
  FpgaResources r;
  for (std::size_t t = 0; t < names.size(); ++t) ychart::pipeline::set_resource(r, names[t], values[t]);
  return r;
}

/// "a,b,c" from a command line, split at the commas.
inline std::vector<std::string> parse_names(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

/// "30,40,50" from a command line, as numbers.
inline std::vector<double> parse_list(const std::string& s) {
  std::vector<double> out;
  for (const auto& item : parse_names(s)) out.push_back(std::stod(item));
  return out;
}

/// Seconds taken by f().
template <class F>
double seconds(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// DSP use of each kernel on each FPGA as stacked bars, the cap as a line
/// (the thesis's Figures 3.6, 4.9, 4.11, 4.13).
inline ychart::io::StackedBarChart dsp_bars(const App& app, const ychart::pipeline::Mapping& m, double cap,
                                            const std::string& title) {
  ychart::io::StackedBarChart chart;
  chart.title = title;
  chart.y_label = "DSP use (% of one FPGA)";
  const std::size_t F = m.devices();
  for (std::size_t f = 0; f < F; ++f) chart.categories.push_back("FPGA " + std::to_string(f + 1));
  for (std::size_t k = 0; k < app.size(); ++k) {
    ychart::io::StackedBarChart::Segment s;
    s.name = app.kernel(k).name;
    for (std::size_t f = 0; f < F; ++f) s.values.push_back(m.cus[k][f] * app.kernel(k).implementation().use.dsp);
    chart.segments.push_back(std::move(s));
  }
  chart.reference_line = cap;
  chart.reference_label = "cap " + std::to_string(int(cap)) + " %";
  return chart;
}

}  // namespace study001
