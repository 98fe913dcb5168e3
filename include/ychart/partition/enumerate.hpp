// ychart/partition/enumerate.hpp
// Every partition of a sequential graph with at most K FPGA ranges, costed
// one by one: study 004's exhaustive search (its Algorithm 1 without the
// resource check, Algorithm 2 with it), kept as the oracle that the exact
// model (partition_model.hpp) is tested against. With G segments there are
// G (G + 1) / 2 single ranges (406 for MobileNetV1's 28) and O(G^2K) sets.
#pragma once

#include "../config.hpp"
#include "evaluate.hpp"

#include <functional>
#include <vector>

namespace ychart::partition {

/// FINN's rule for an FPGA range (study 004's is_valid): it holds a
/// MultiThreshold and more than one node.
YCHART_DECL bool valid_fpga_run(const SequentialGraph& g, int first, int last);

struct EnumerateOptions {
  int max_fpga_ranges = 1;
  Schedule schedule = Schedule::sequential;
  bool check_resources = true;  // false: Algorithm 1, every range whatever it needs
  bool include_all_cpu = true;  // the baseline, which the thesis kept apart
};

/// Every valid partition with 1..max_fpga_ranges separate FPGA ranges (and
/// the all-CPU one), in no particular order.
YCHART_DECL std::vector<PartitionCost> enumerate_partitions(const SequentialGraph& g, const Platform& p,
                                                            const EnumerateOptions& o = {});

}  // namespace ychart::partition

#if YCHART_HEADER_ONLY
#include "impl/enumerate.ipp"
#endif
