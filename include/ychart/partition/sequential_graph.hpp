// ychart/partition/sequential_graph.hpp
// A sequential (chain) graph cut into segments at its cut points, and the
// CPU + FPGA platform it is partitioned on (study 004: a quantised CNN as an
// ONNX chain, cut at its MultiThreshold nodes, on a Kria KV260). Every cost
// carries its unit: CPU time as a time, FPGA work as clock cycles with the
// clock as a frequency, tensors as data, transfers as data -> time fits, and
// resources as BRAM_18K, LUT, URAM and DSP counts (units/fpga_resources.hpp).
// A malformed graph throws graph_error naming the segment and the field.
#pragma once

#include "../error.hpp"
#include "../expr/expression.hpp"
#include "../expr/operators.hpp"
#include "../model/tolerances.hpp"
#include "../units/dimension.hpp"
#include "../units/fpga_resources.hpp"
#include "../units/unit.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace ychart::partition {

/// What a segment occupies on the FPGA (or what a device offers).
struct FpgaFootprint {
  Constant<dim::bram> bram{0.0};
  Constant<dim::lut> lut{0.0};
  Constant<dim::uram> uram{0.0};
  Constant<dim::dsp> dsp{0.0};

  FpgaFootprint& operator+=(const FpgaFootprint& o) {
    bram = Constant<dim::bram>(bram.value() + o.bram.value());
    lut = Constant<dim::lut>(lut.value() + o.lut.value());
    uram = Constant<dim::uram>(uram.value() + o.uram.value());
    dsp = Constant<dim::dsp>(dsp.value() + o.dsp.value());
    return *this;
  }
  /// The counts in a fixed order (BRAM_18K, LUT, URAM, DSP), for loops.
  std::vector<double> counts() const { return {bram.value(), lut.value(), uram.value(), dsp.value()}; }
  static constexpr const char* kind_name(std::size_t k) {
    constexpr const char* names[] = {"BRAM_18K", "LUT", "URAM", "DSP"};
    return names[k];
  }
};

/// The nodes between two consecutive cut points.
struct Segment {
  std::string name;
  int first_node = 0, end_node = 0;  // nodes [first_node, end_node) of the graph
  Constant<dim::time> cpu_time{0.0};
  /// FINN's estimate for the segment's nodes: their cycles summed (its
  /// critical path, one node after another) and its slowest node (the
  /// streaming interval).
  double fpga_cycles = 0, fpga_max_node_cycles = 0;
  Constant<dim::data> output{0.0};  // the tensor the segment hands on
  FpgaFootprint fpga;
  /// FINN needs a MultiThreshold in every FPGA range (study 004's is_valid).
  bool has_threshold = true;

  int node_count() const { return end_node - first_node; }
};

/// A chain of segments; segment i + 1 starts where segment i ends.
struct SequentialGraph {
  std::string name;
  Constant<dim::data> input{0.0};  // the graph's input tensor
  std::vector<Segment> segments;

  int node_count() const { return segments.empty() ? 0 : segments.back().end_node; }

  /// Throws graph_error for an empty graph, a segment with no nodes, a gap
  /// or overlap between segments, or a negative or non-finite cost.
  void validate() const {
    if (segments.empty()) throw graph_error("ychart: graph `" + name + "` has no segments", name);
    if (!(input.value() > 0) || !std::isfinite(input.value()))
      throw graph_error("ychart: graph `" + name + "`: the input tensor must have a positive size", name);
    int expected = 0;
    for (std::size_t i = 0; i < segments.size(); ++i) {
      const auto& s = segments[i];
      const std::string where = "ychart: graph `" + name + "`, segment " + std::to_string(i) + " (`" + s.name + "`)";
      if (s.first_node != expected)
        throw graph_error(where + " starts at node " + std::to_string(s.first_node) + ", not at node " +
                          std::to_string(expected) + " where the previous one ends: segments must be contiguous", s.name);
      if (s.end_node <= s.first_node)
        throw graph_error(where + ": nodes [" + std::to_string(s.first_node) + ", " + std::to_string(s.end_node) +
                          ") is empty; a segment needs a positive node count", s.name);
      auto non_negative = [&](double v, const char* field) {
        if (!(v >= 0) || !std::isfinite(v))
          throw graph_error(where + ": " + field + " = " + std::to_string(v) + " must be finite and not negative", s.name);
      };
      auto positive = [&](double v, const char* field) {
        if (!(v > 0) || !std::isfinite(v))
          throw graph_error(where + ": " + field + " = " + std::to_string(v) + " must be positive", s.name);
      };
      positive(s.cpu_time.value(), "cpu_time");
      positive(s.fpga_cycles, "fpga_cycles");
      positive(s.fpga_max_node_cycles, "fpga_max_node_cycles");
      if (s.fpga_max_node_cycles > s.fpga_cycles * (1 + tolerances::ulps))
        throw graph_error(where + ": its slowest node (" + std::to_string(s.fpga_max_node_cycles) +
                          " cycles) cannot take longer than all its nodes (" + std::to_string(s.fpga_cycles) + ")", s.name);
      positive(s.output.value(), "output");
      const auto c = s.fpga.counts();
      for (std::size_t k = 0; k < c.size(); ++k) non_negative(c[k], FpgaFootprint::kind_name(k));
      expected = s.end_node;
    }
  }
};

/// The time to move a tensor: slope * size + offset (study 004, Eqs. 4.1 and 4.2).
struct AffineTransfer {
  Constant<units::dimension_quotient<dim::time, dim::data>> slope{0.0};
  Constant<dim::time> offset{0.0};

  Constant<dim::time> operator()(Constant<dim::data> size) const { return slope * size + offset; }
};

struct FpgaTarget {
  std::string name;
  Constant<dim::frequency> clock{0.0};
  FpgaFootprint budget;
};

/// A CPU and an FPGA joined by a link. cpu_speedup divides every CPU time
/// (study 004's Eq. 5.2: a CPU n times faster).
struct Platform {
  FpgaTarget fpga;
  AffineTransfer to_fpga, from_fpga;
  double cpu_speedup = 1.0;

  void validate() const {
    if (!(fpga.clock.value() > 0) || !std::isfinite(fpga.clock.value()))
      throw graph_error("ychart: platform `" + fpga.name + "`: the FPGA clock must be positive and finite", fpga.name);
    const auto b = fpga.budget.counts();
    for (std::size_t k = 0; k < b.size(); ++k)
      if (!(b[k] >= 0) || !std::isfinite(b[k]))
        throw graph_error(std::string("ychart: platform `") + fpga.name + "`: the " + FpgaFootprint::kind_name(k) +
                          " budget must be finite and not negative");
    for (const auto* t : {&to_fpga, &from_fpga})
      if (!(t->slope.value() >= 0) || !(t->offset.value() >= 0) || !std::isfinite(t->slope.value()) ||
          !std::isfinite(t->offset.value()))
        throw graph_error("ychart: platform `" + fpga.name + "`: transfer fits must be finite and not negative", fpga.name);
    if (!(cpu_speedup > 0) || !std::isfinite(cpu_speedup))
      throw graph_error("ychart: platform `" + fpga.name + "`: cpu_speedup must be positive and finite", fpga.name);
  }
};

/// Nodes [begin, end) on the FPGA; both ends must be cut points.
struct NodeRange {
  int begin = 0, end = 0;
  friend bool operator==(const NodeRange&, const NodeRange&) = default;
};

}  // namespace ychart::partition
