// ychart/partition/folding_model.hpp
// The partition of a sequential graph and the folding of its FPGA part,
// solved together and exactly (study 004, part (c)). Each segment's FPGA
// side is a list of dataflow nodes, each with its legal foldings (FINN's PE
// and SIMD, a memory style): an option costs cycles and resources. A
// segment on the FPGA runs every node in exactly one option; on the CPU, in
// none. With z_n,o the option binaries and x_g the segment binaries of
// partition_model.hpp:
//   sum_o z_n,o = x_g(n)           (one folding per node, only on the FPGA)
//   resources   sum_n,o z_n,o R_n,o,k <= budget_k
//   sequential: latency = CPU + sum z_n,o cycles_n,o / f + transfers
//   pipelined:  tau >= CPU, tau >= link, tau >= sum_o z_n,o cycles_n,o / f per node;
//               the least tau, then the least latency at it (two stages)
// Options that another option of the same node beats in cycles and in every
// resource are dropped first (exact). The cycles are monomials in PE and
// SIMD (FINN: MH / PE x MW / SIMD x pixels) and the resources posynomials
// with ceilings, so the folding alone is an integer GP; on divisor lists it
// is this multiple-choice model, which GLPK solves through the MIGP engine.
// finn_folding.hpp writes the chosen folding as FINN's folding configuration.
#pragma once

#include "../config.hpp"
#include "partition_model.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace ychart::partition {

/// One way to build a node: its folding, cycles and resources.
struct NodeOption {
  std::string label;  // e.g. "PE=8 SIMD=4 block"
  double pe = 1, simd = 1;
  double cycles = 0;
  FpgaFootprint fpga;
  /// FINN's ram_style for this option ("auto", "block", "distributed" or
  /// "ultra"); read only for a node whose FinnAttributes has ram_style.
  std::string ram_style;
};

/// Which of FINN's folding attributes a node has, so which ones its entry
/// in a folding configuration sets. FINN rejects an attribute its node type
/// lacks: an MVAU has PE, SIMD and ram_style; a VVAU PE and SIMD; a
/// Thresholding node PE; FMPadding and ConvolutionInputGenerator SIMD. A
/// node with none (a fixed-cost node) is not written.
struct FinnAttributes {
  bool pe = false, simd = false, ram_style = false;
  bool any() const { return pe || simd || ram_style; }
};

/// A dataflow node with its legal options (at least one). Its name is the
/// key of its entry in a FINN folding configuration, so it must be the name
/// FINN gives the node when the configuration is to be applied.
struct FoldableNode {
  std::string name;
  std::vector<NodeOption> options;
  FinnAttributes finn;
};

/// Per segment of the graph, its FPGA nodes.
using FoldableGraph = std::vector<std::vector<FoldableNode>>;

/// objective: the model's, in seconds (the tests compare it with cost).
struct FoldedPartition : SolveReport {
  /// Per segment, per node: the chosen option (index into the node's
  /// options, as given), or -1 for a segment on the CPU.
  std::vector<std::vector<int>> choice;
  PartitionCost cost;      // evaluate() of the graph with the chosen options
  SequentialGraph folded;  // that graph: each FPGA segment's cycles and resources at its folding
  std::size_t options = 0, kept = 0;  // node options before and after dropping dominated ones
  std::string binding;
};

/// The graph with each segment's FPGA costs at the given options (choice
/// per segment per node; segments with -1 keep their costs).
YCHART_DECL SequentialGraph with_folding(const SequentialGraph& g, const FoldableGraph& nodes,
                                         const std::vector<std::vector<int>>& choice);

YCHART_DECL FoldedPartition solve_folded_partition(const SequentialGraph& g, const FoldableGraph& nodes, const Platform& p,
                                                   const PartitionOptions& o = {}, const SolveOptions& solve_options = {});

}  // namespace ychart::partition

#if YCHART_HEADER_ONLY
#include "impl/folding_model.ipp"
#endif
