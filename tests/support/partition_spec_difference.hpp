// tests/support/partition_spec_difference.hpp
// The first field in which two partition::Specifications differ, or "" when
// they are the same: what a loader test and the loader's fuzzer check after
// writing a problem and reading it back. No gtest, so the fuzzer can use it.
// Numbers compare to 1e-14 relative: unit conversions (ms <-> s, MB <-> B)
// may move the last bit.
#pragma once

#include <ychart/partition/load.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

namespace test_support {

inline bool same_number(double a, double b) {
  return a == b || std::abs(a - b) <= 1e-14 * std::max(std::abs(a), std::abs(b));
}

inline std::string first_difference(const ychart::partition::Specification& a,
                                    const ychart::partition::Specification& b) {
  using ychart::partition::Platform;
  auto number = [](double x, double y, const std::string& what) {
    return same_number(x, y) ? std::string() : what + ": " + std::to_string(x) + " against " + std::to_string(y);
  };
  auto first = [](std::initializer_list<std::string> differences) {
    for (const auto& d : differences)
      if (!d.empty()) return d;
    return std::string();
  };
  if (a.graph.name != b.graph.name) return "graph name";
  if (auto d = number(a.graph.input.value(), b.graph.input.value(), "input"); !d.empty()) return d;
  if (a.graph.segments.size() != b.graph.segments.size()) return "segment count";
  for (std::size_t i = 0; i < a.graph.segments.size(); ++i) {
    const auto &x = a.graph.segments[i], &y = b.graph.segments[i];
    const std::string at = "segment " + std::to_string(i);
    if (x.name != y.name || x.first_node != y.first_node || x.end_node != y.end_node) return at + " name or nodes";
    if (x.has_threshold != y.has_threshold) return at + " threshold";
    auto d = first({number(x.cpu_time.value(), y.cpu_time.value(), at + " cpu"),
                    number(x.fpga_cycles, y.fpga_cycles, at + " cycles"),
                    number(x.fpga_max_node_cycles, y.fpga_max_node_cycles, at + " max cycles"),
                    number(x.output.value(), y.output.value(), at + " output")});
    for (std::size_t k = 0; k < 4 && d.empty(); ++k)
      d = number(x.fpga.counts()[k], y.fpga.counts()[k], at + " resource " + std::to_string(k));
    if (!d.empty()) return d;
  }
  if (a.platform.fpga.name != b.platform.fpga.name) return "FPGA name";
  auto d = first({number(a.platform.fpga.clock.value(), b.platform.fpga.clock.value(), "clock"),
                  number(a.platform.cpu_speedup, b.platform.cpu_speedup, "cpu speedup")});
  for (std::size_t k = 0; k < 4 && d.empty(); ++k)
    d = number(a.platform.fpga.budget.counts()[k], b.platform.fpga.budget.counts()[k], "budget " + std::to_string(k));
  for (auto t : {&Platform::to_fpga, &Platform::from_fpga})
    if (d.empty())
      d = first({number((a.platform.*t).slope.value(), (b.platform.*t).slope.value(), "transfer slope"),
                 number((a.platform.*t).offset.value(), (b.platform.*t).offset.value(), "transfer offset")});
  return d;
}

}  // namespace test_support
