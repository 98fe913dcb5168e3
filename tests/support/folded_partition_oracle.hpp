// tests/support/folded_partition_oracle.hpp
// The brute-force oracle for partition::solve_folded_partition: every set
// of between min_ranges and max_ranges valid FPGA ranges, and for each
// segment on the FPGA every combination of its nodes' folding options,
// priced by partition::evaluate. Returns the least interval among the
// choices that fit, in seconds (infinity when none fits), and the least
// latency among the choices at that interval (within 1e-9 relative): the
// folded model's secondary objective. Shared by test_partition.cpp,
// test_finn_folding.cpp and fuzz/fuzz_partition.cpp.
#pragma once

#include <ychart/partition/folding_model.hpp>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

struct FoldedOptimum {
  double interval, latency;  // seconds
};

inline FoldedOptimum brute_force_folded(const ychart::partition::SequentialGraph& g,
                                          const ychart::partition::FoldableGraph& nodes,
                                          const ychart::partition::Platform& p, int min_ranges, int max_ranges,
                                          ychart::partition::Schedule schedule) {
  using namespace ychart::partition;
  const int n = int(g.segments.size());
  // Every fitting choice's (interval, latency); the secondary pass below.
  std::vector<std::pair<double, double>> priced;
  double best = std::numeric_limits<double>::infinity();
  std::vector<std::vector<int>> choice(static_cast<std::size_t>(n));
  for (int mask = 0; mask < (1 << n); ++mask) {
    std::vector<char> on(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) on[std::size_t(i)] = (mask >> i) & 1;
    const auto runs = detail::runs_of(on);
    if (int(runs.size()) > max_ranges || int(runs.size()) < min_ranges) continue;
    std::vector<NodeRange> ranges;
    bool valid = true;
    for (const auto& [a, b] : runs) {
      valid = valid && valid_fpga_run(g, a, b);
      ranges.push_back({g.segments[std::size_t(a)].first_node, g.segments[std::size_t(b)].end_node});
    }
    if (!valid) continue;
    // Segment s, node k of it: every option of every node of every FPGA segment.
    std::function<void(int, int)> next = [&](int s, int k) {
      if (s == n) {
        const auto c = evaluate(with_folding(g, nodes, choice), p, ranges, schedule);
        if (c.fits) {
          best = std::min(best, c.interval.value());
          priced.emplace_back(c.interval.value(), c.latency.value());
        }
        return;
      }
      auto& pick = choice[std::size_t(s)];
      if (!on[std::size_t(s)]) {
        pick.assign(nodes[std::size_t(s)].size(), -1);
        next(s + 1, 0);
        return;
      }
      if (k == int(nodes[std::size_t(s)].size())) {
        next(s + 1, 0);
        return;
      }
      pick.resize(nodes[std::size_t(s)].size());
      for (int q = 0; q < int(nodes[std::size_t(s)][std::size_t(k)].options.size()); ++q) {
        pick[std::size_t(k)] = q;
        next(s, k + 1);
      }
    };
    next(0, 0);
  }
  double latency = std::numeric_limits<double>::infinity();
  for (const auto& [interval, l] : priced)
    if (interval <= best * (1 + 1e-9)) latency = std::min(latency, l);
  return {best, latency};
}

inline double brute_force_folded_interval(const ychart::partition::SequentialGraph& g,
                                          const ychart::partition::FoldableGraph& nodes,
                                          const ychart::partition::Platform& p, int min_ranges, int max_ranges,
                                          ychart::partition::Schedule schedule) {
  return brute_force_folded(g, nodes, p, min_ranges, max_ranges, schedule).interval;
}
