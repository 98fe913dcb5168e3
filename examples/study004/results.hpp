// examples/study004/results.hpp
// What study 004 reports, as data: each struct is declared with
// BOOST_HANA_DEFINE_STRUCT, so `--json` writes it member by member
// (ychart/io/reflect.hpp). An FPGA range is [begin, end) as a two-element
// array, null when everything runs on the CPU.
#pragma once

#include <ychart/io/reflect.hpp>
#include <ychart/partition/partition_model.hpp>

#include <optional>
#include <string>
#include <vector>

namespace study004 {

using FpgaNodes = std::optional<std::vector<long>>;

/// The first FPGA range as [begin, end), or null for the CPU alone.
inline FpgaNodes fpga_nodes(const std::vector<ychart::partition::NodeRange>& r) {
  if (r.empty()) return std::nullopt;
  return std::vector<long>{static_cast<long>(r.front().begin), static_cast<long>(r.front().end)};
}

struct OursAsReported {
  BOOST_HANA_DEFINE_STRUCT(OursAsReported, (FpgaNodes, fpga_nodes), (double, total));
};

/// (a) The thesis's argmin under its own arithmetic, and ours.
struct AsReported {
  BOOST_HANA_DEFINE_STRUCT(AsReported, (FpgaNodes, fpga_nodes), (double, total), (std::string, unit),
                           (double, speedup), (OursAsReported, ours));
};

/// (b) The exact optimum in consistent units.
struct Consistent {
  BOOST_HANA_DEFINE_STRUCT(Consistent, (std::string, status), (FpgaNodes, fpga_nodes), (double, total_s),
                           (double, speedup), (double, thesis_choice_s));
};

/// One FPGA node's folding in the most-frames/s optimum.
struct NodeFolding {
  BOOST_HANA_DEFINE_STRUCT(NodeFolding, (std::string, segment), (std::string, node), (double, pe), (double, simd),
                           (std::string, option), (double, cycles));
};

/// A folded optimum in brief.
struct FoldedBrief {
  BOOST_HANA_DEFINE_STRUCT(FoldedBrief, (std::string, status), (FpgaNodes, fpga_nodes), (double, total_s),
                           (double, fps), (double, speedup), (double, bram18k));
};

/// (c) Folding and partition together: the most frames/s under the
/// thesis's budget in full, the other objectives and budgets in brief.
struct Folded {
  BOOST_HANA_DEFINE_STRUCT(Folded, (std::string, status), (FpgaNodes, fpga_nodes), (double, total_s), (double, fps),
                           (double, bram18k), (double, lut), (double, uram), (double, dsp),
                           (std::vector<NodeFolding>, folding), (double, budget_bram18k),
                           (FoldedBrief, least_latency), (FoldedBrief, device_288_bram18k),
                           (FoldedBrief, device_288_bram18k_least_latency));
};

/// range(0, 81) at PE = SIMD = 1, beside the thesis's synthesis report.
struct Range81 {
  BOOST_HANA_DEFINE_STRUCT(Range81, (double, bram18k), (double, lut), (double, fps));
};

struct MobileNetV1 {
  BOOST_HANA_DEFINE_STRUCT(MobileNetV1, (long, ranges), (long, valid_ranges), (double, cpu_only_s),
                           (AsReported, as_reported), (Consistent, consistent), (Folded, folded),
                           (Range81, fpga_0_81));
};

}  // namespace study004
