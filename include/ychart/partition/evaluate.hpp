// ychart/partition/evaluate.hpp
// The cost of one partition of a sequential graph: which node ranges run on
// the FPGA, the rest on the CPU. Sequential schedule (study 004's Eq. 3.1):
// one frame passes the CPU parts, the transfers and the FPGA parts one after
// another, and the latency is their sum. Pipelined: frames stream through
// the CPU, the link and the FPGA at once, and the interval between frames is
// the slowest of the three (the FPGA's is its slowest node, as FINN's
// dataflow pipeline runs every node at once).
#pragma once

#include "../config.hpp"
#include "sequential_graph.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace ychart::partition {

enum class Schedule { sequential, pipelined };

struct PartitionCost {
  std::vector<NodeRange> fpga;  // empty: everything on the CPU
  Constant<dim::time> cpu{0.0}, fpga_compute{0.0}, to_fpga{0.0}, from_fpga{0.0};
  Constant<dim::time> latency{0.0};   // one frame, start to end: the sum
  Constant<dim::time> interval{0.0};  // between frames: the latency (sequential) or the slowest stage (pipelined)
  double fpga_max_node_cycles = 0;
  FpgaFootprint used;
  bool fits = true;
  std::string over_budget;  // the first resource over budget, if any

  double frames_per_second() const { return 1.0 / interval.value(); }
};

namespace detail {

/// The segment index that starts at `node`, or -1.
inline int segment_starting_at(const SequentialGraph& g, int node) {
  for (std::size_t i = 0; i < g.segments.size(); ++i)
    if (g.segments[i].first_node == node) return static_cast<int>(i);
  return node == g.node_count() ? static_cast<int>(g.segments.size()) : -1;
}

/// The segment flags on the FPGA for `ranges`; graph_error for a range that
/// is empty, overlaps another or does not lie on cut points.
inline std::vector<char> segments_on_fpga(const SequentialGraph& g, const std::vector<NodeRange>& ranges) {
  std::vector<char> on(g.segments.size(), 0);
  for (const auto& r : ranges) {
    const std::string text = "[" + std::to_string(r.begin) + ", " + std::to_string(r.end) + ")";
    if (r.end <= r.begin) throw graph_error("ychart: FPGA range " + text + " is empty or reversed");
    const int a = segment_starting_at(g, r.begin), b = segment_starting_at(g, r.end);
    if (a < 0 || b < 0)
      throw graph_error("ychart: FPGA range " + text + " of graph `" + g.name +
                        "` does not start and end at cut points (segment boundaries)", g.name);
    for (int i = a; i < b; ++i) {
      if (on[std::size_t(i)])
        throw graph_error("ychart: FPGA range " + text + " overlaps another range at segment `" +
                          g.segments[std::size_t(i)].name + "`", g.segments[std::size_t(i)].name);
      on[std::size_t(i)] = 1;
    }
  }
  return on;
}

/// Maximal runs of consecutive FPGA segments, as [first, last] segment indices.
inline std::vector<std::pair<int, int>> runs_of(const std::vector<char>& on) {
  std::vector<std::pair<int, int>> runs;
  for (int i = 0; i < int(on.size()); ++i)
    if (on[std::size_t(i)] && (i == 0 || !on[std::size_t(i - 1)])) {
      int j = i;
      while (j + 1 < int(on.size()) && on[std::size_t(j + 1)]) ++j;
      runs.push_back({i, j});
    }
  return runs;
}

}  // namespace detail

/// The tensor crossing the boundary before segment i (i = 0: the graph's
/// input; i = size: the last segment's output).
YCHART_DECL Constant<dim::data> boundary_tensor(const SequentialGraph& g, std::size_t i);

/// The cost of running `ranges` on the FPGA and the rest on the CPU.
/// Adjacent ranges are one run (one transfer in, one out).
YCHART_DECL PartitionCost evaluate(const SequentialGraph& g, const Platform& p, const std::vector<NodeRange>& ranges,
                                   Schedule schedule = Schedule::sequential);

}  // namespace ychart::partition

#if YCHART_HEADER_ONLY
#include "impl/evaluate.ipp"
#endif
