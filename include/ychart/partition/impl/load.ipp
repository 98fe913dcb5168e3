// ychart/partition/impl/load.ipp
// The implementation of ychart/partition/load.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../load.hpp"

#include "../../expr/operators.hpp"

#include <cmath>
#include <string>

namespace ychart::partition {

namespace detail {

/// A whole number of nodes, not negative.
inline int node_at(const io::JsonValue& v) {
  const double x = v.number();
  if (!(x >= 0) || x != std::floor(x) || x > 1e9) io::fail_at(v, "must be a whole number of nodes, not negative");
  return static_cast<int>(x);
}

inline FpgaFootprint footprint_at(const io::JsonValue& object, bool optional) {
  FpgaFootprint f;
  auto count = [&](const char* key) { return optional ? io::non_negative_or(object, key, 0.0) : io::non_negative(object.at(key)); };
  f.bram = count("bram_18k") * units::BRAM_18K;
  f.lut = count("lut") * units::LUT;
  f.uram = count("uram") * units::URAM;
  f.dsp = count("dsp") * units::DSP;
  return f;
}

inline Segment segment_at(const io::JsonValue& s, int expected_first) {
  io::check_keys(s, {"name", "nodes", "cpu_ms", "fpga_cycles", "fpga_max_node_cycles", "output_bytes", "bram_18k",
                     "lut", "uram", "dsp", "has_threshold"});
  Segment seg;
  seg.name = s.at("name").string();
  const auto& nodes = s.at("nodes");
  if (nodes.elements().size() != 2) io::fail_at(nodes, "must be [first, end): two node numbers");
  seg.first_node = node_at(nodes.elements()[0]);
  seg.end_node = node_at(nodes.elements()[1]);
  if (seg.first_node != expected_first)
    io::fail_at(nodes, "starts at node " + std::to_string(seg.first_node) + ", not at node " +
                           std::to_string(expected_first) + " where the previous segment ends");
  if (seg.end_node <= seg.first_node) io::fail_at(nodes, "is empty: a segment needs at least one node");
  seg.cpu_time = io::positive(s, "cpu_ms") * units::ms;
  seg.fpga_cycles = io::positive(s, "fpga_cycles");
  seg.fpga_max_node_cycles = io::positive(s, "fpga_max_node_cycles");
  if (seg.fpga_max_node_cycles > seg.fpga_cycles)
    io::fail_at(s.at("fpga_max_node_cycles"), "the slowest node cannot take more cycles than the whole segment");
  seg.output = io::positive(s, "output_bytes") * units::B;
  seg.fpga = footprint_at(s, true);
  if (const auto* t = s.find("has_threshold")) seg.has_threshold = t->boolean();
  return seg;
}

inline AffineTransfer transfer_at(const io::JsonValue& t) {
  io::check_keys(t, {"ms_per_mb", "ms"});
  return {io::non_negative(t.at("ms_per_mb")) * (units::ms / units::MB), io::non_negative(t.at("ms")) * units::ms};
}

inline void write_footprint(io::JsonWriter& w, const FpgaFootprint& f) {
  w.key("bram_18k").value(f.bram.in(units::BRAM_18K));
  w.key("lut").value(f.lut.in(units::LUT));
  w.key("uram").value(f.uram.in(units::URAM));
  w.key("dsp").value(f.dsp.in(units::DSP));
}

inline void write_transfer(io::JsonWriter& w, const char* key, const AffineTransfer& t) {
  w.key(key).begin_object();
  w.key("ms_per_mb").value(t.slope.in(units::ms / units::MB));
  w.key("ms").value(t.offset.in(units::ms));
  w.end_object();
}

}  // namespace detail

YCHART_DECL Specification parse_specification(const io::JsonValue& root) {
  io::check_keys(root, {"graph", "platform"});
  Specification spec;
  const auto& g = root.at("graph");
  io::check_keys(g, {"name", "input_bytes", "segments"});
  spec.graph.name = g.at("name").string();
  spec.graph.input = io::positive(g, "input_bytes") * units::B;
  const auto& segments = g.at("segments");
  if (segments.elements().empty()) io::fail_at(segments, "a graph needs at least one segment");
  for (const auto& s : segments.elements())
    spec.graph.segments.push_back(detail::segment_at(s, spec.graph.segments.empty() ? 0 : spec.graph.segments.back().end_node));

  const auto& p = root.at("platform");
  io::check_keys(p, {"name", "clock_mhz", "budget", "to_fpga", "from_fpga", "cpu_speedup"});
  spec.platform.fpga.name = p.at("name").string();
  spec.platform.fpga.clock = io::positive(p, "clock_mhz") * units::MHz;
  const auto& budget = p.at("budget");
  io::check_keys(budget, {"bram_18k", "lut", "uram", "dsp"});
  spec.platform.fpga.budget = detail::footprint_at(budget, false);
  spec.platform.to_fpga = detail::transfer_at(p.at("to_fpga"));
  spec.platform.from_fpga = detail::transfer_at(p.at("from_fpga"));
  if (p.find("cpu_speedup")) spec.platform.cpu_speedup = io::positive(p, "cpu_speedup");
  // The field checks above cover validate()'s rules, except where a unit
  // conversion overflows (a clock of 1e308 MHz); validate() stays the one
  // definition of a well-formed graph and platform, its errors placed at
  // the graph or the platform.
  io::placed_at(g, [&] { spec.graph.validate(); });
  io::placed_at(p, [&] { spec.platform.validate(); });
  return spec;
}

YCHART_DECL Specification load_specification(const std::filesystem::path& file) {
  return parse_specification(io::JsonValue::read(file));
}

YCHART_DECL void write_specification(std::ostream& out, const Specification& spec, std::string_view source) {
  io::JsonWriter w(out);
  w.begin_object();
  if (!source.empty()) w.key("_source").value(source);
  w.key("graph").begin_object();
  w.key("name").value(spec.graph.name);
  w.key("input_bytes").value(spec.graph.input.in(units::B));
  w.key("segments").begin_array();
  for (const auto& s : spec.graph.segments) {
    w.begin_object();
    w.key("name").value(s.name);
    w.key("nodes").begin_array().value(s.first_node).value(s.end_node).end_array();
    w.key("cpu_ms").value(s.cpu_time.in(units::ms));
    w.key("fpga_cycles").value(s.fpga_cycles);
    w.key("fpga_max_node_cycles").value(s.fpga_max_node_cycles);
    w.key("output_bytes").value(s.output.in(units::B));
    detail::write_footprint(w, s.fpga);
    w.key("has_threshold").value(s.has_threshold);
    w.end_object();
  }
  w.end_array().end_object();
  const auto& p = spec.platform;
  w.key("platform").begin_object();
  w.key("name").value(p.fpga.name);
  w.key("clock_mhz").value(p.fpga.clock.in(units::MHz));
  w.key("budget").begin_object();
  detail::write_footprint(w, p.fpga.budget);
  w.end_object();
  detail::write_transfer(w, "to_fpga", p.to_fpga);
  detail::write_transfer(w, "from_fpga", p.from_fpga);
  w.key("cpu_speedup").value(p.cpu_speedup);
  w.end_object().end_object();
}

}  // namespace ychart::partition
