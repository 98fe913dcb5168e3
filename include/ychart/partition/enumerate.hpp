// ychart/partition/enumerate.hpp
// Every partition of a sequential graph with at most K FPGA ranges, costed
// one by one: study 004's exhaustive search (its Algorithm 1 without the
// resource check, Algorithm 2 with it), kept as the oracle that the exact
// model (partition_model.hpp) is tested against. With G segments there are
// G (G + 1) / 2 single ranges (406 for MobileNetV1's 28) and O(G^2K) sets.
#pragma once

#include "evaluate.hpp"

#include <functional>
#include <vector>

namespace ychart::partition {

/// FINN's rule for an FPGA range (study 004's is_valid): it holds a
/// MultiThreshold and more than one node.
inline bool valid_fpga_run(const SequentialGraph& g, int first, int last) {
  bool threshold = false;
  int nodes = 0;
  for (int i = first; i <= last; ++i) {
    threshold = threshold || g.segments[std::size_t(i)].has_threshold;
    nodes += g.segments[std::size_t(i)].node_count();
  }
  return threshold && nodes > 1;
}

struct EnumerateOptions {
  int max_fpga_ranges = 1;
  Schedule schedule = Schedule::sequential;
  bool check_resources = true;  // false: Algorithm 1, every range whatever it needs
  bool include_all_cpu = true;  // the baseline, which the thesis kept apart
};

/// Every valid partition with 1..max_fpga_ranges separate FPGA ranges (and
/// the all-CPU one), in no particular order.
inline std::vector<PartitionCost> enumerate_partitions(const SequentialGraph& g, const Platform& p,
                                                       const EnumerateOptions& o = {}) {
  g.validate();
  p.validate();
  if (o.max_fpga_ranges < 0 || o.max_fpga_ranges > 3)
    throw graph_error("ychart: enumerate_partitions: max_fpga_ranges must be 0..3 (the count grows as G^(2K))");
  const int n = static_cast<int>(g.segments.size());
  std::vector<PartitionCost> out;
  std::vector<NodeRange> chosen;
  if (o.include_all_cpu) out.push_back(evaluate(g, p, {}, o.schedule));
  // Runs in increasing order, separated by at least one CPU segment.
  std::function<void(int)> next = [&](int from) {
    if (int(chosen.size()) == o.max_fpga_ranges) return;
    for (int first = from; first < n; ++first)
      for (int last = first; last < n; ++last) {
        if (!valid_fpga_run(g, first, last)) continue;
        chosen.push_back({g.segments[std::size_t(first)].first_node, g.segments[std::size_t(last)].end_node});
        auto c = evaluate(g, p, chosen, o.schedule);
        // Resources only grow as runs are added: a set over budget stays so.
        const bool keep = c.fits || !o.check_resources;
        if (keep) {
          out.push_back(std::move(c));
          next(last + 2);
        }
        chosen.pop_back();
      }
  };
  next(0);
  return out;
}

}  // namespace ychart::partition
