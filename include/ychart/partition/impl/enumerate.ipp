// ychart/partition/impl/enumerate.ipp
// The implementation of ychart/partition/enumerate.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../enumerate.hpp"

namespace ychart::partition {


YCHART_DECL bool valid_fpga_run(const SequentialGraph& g, int first, int last) {
  bool threshold = false;
  int nodes = 0;
  for (int i = first; i <= last; ++i) {
    threshold = threshold || g.segments[std::size_t(i)].has_threshold;
    nodes += g.segments[std::size_t(i)].node_count();
  }
  return threshold && nodes > 1;
}

YCHART_DECL std::vector<PartitionCost> enumerate_partitions(const SequentialGraph& g, const Platform& p,
                                                            const EnumerateOptions& o) {
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
