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
//   pipelined:  tau >= CPU, tau >= link, tau >= sum_o z_n,o cycles_n,o / f per node
// Options that another option of the same node beats in cycles and in every
// resource are dropped first (exact). The cycles are monomials in PE and
// SIMD (FINN: MH / PE x MW / SIMD x pixels) and the resources posynomials
// with ceilings, so the folding alone is an integer GP; on divisor lists it
// is this multiple-choice model, which GLPK solves through the MIGP engine.
#pragma once

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
};

/// A dataflow node with its legal options (at least one).
struct FoldableNode {
  std::string name;
  std::vector<NodeOption> options;
};

/// Per segment of the graph, its FPGA nodes.
using FoldableGraph = std::vector<std::vector<FoldableNode>>;

struct FoldedPartition {
  Status status = Status::numerical_error;
  std::string message;
  /// Per segment, per node: the chosen option (index into the node's
  /// options, as given), or -1 for a segment on the CPU.
  std::vector<std::vector<int>> choice;
  PartitionCost cost;      // evaluate() of the graph with the chosen options
  SequentialGraph folded;  // that graph: each FPGA segment's cycles and resources at its folding
  double objective_seconds = std::numeric_limits<double>::quiet_NaN();
  std::size_t options = 0, kept = 0;  // node options before and after dropping dominated ones
  double seconds = 0;
  std::string binding;
};

namespace detail {

inline bool dominates(const NodeOption& a, const NodeOption& b) {
  const auto ra = a.fpga.counts(), rb = b.fpga.counts();
  bool strict = a.cycles < b.cycles;
  if (a.cycles > b.cycles) return false;
  for (std::size_t k = 0; k < ra.size(); ++k) {
    if (ra[k] > rb[k]) return false;
    strict = strict || ra[k] < rb[k];
  }
  return strict;
}

/// Indices of the options no other option of the node dominates (ties: the first).
inline std::vector<int> undominated(const FoldableNode& n) {
  std::vector<int> keep;
  for (int i = 0; i < int(n.options.size()); ++i) {
    bool beaten = false;
    for (int j = 0; j < int(n.options.size()) && !beaten; ++j) {
      if (i == j) continue;
      const auto &a = n.options[std::size_t(j)], &b = n.options[std::size_t(i)];
      beaten = dominates(a, b) || (j < i && a.cycles == b.cycles && a.fpga.counts() == b.fpga.counts());
    }
    if (!beaten) keep.push_back(i);
  }
  return keep;
}

}  // namespace detail

/// The graph with each segment's FPGA costs at the given options (choice
/// per segment per node; segments with -1 keep their costs).
inline SequentialGraph with_folding(const SequentialGraph& g, const FoldableGraph& nodes,
                                    const std::vector<std::vector<int>>& choice) {
  SequentialGraph out = g;
  for (std::size_t s = 0; s < g.segments.size(); ++s) {
    if (choice[s].empty() || choice[s][0] < 0) continue;
    auto& seg = out.segments[s];
    seg.fpga_cycles = 0, seg.fpga_max_node_cycles = 0, seg.fpga = FpgaFootprint{};
    for (std::size_t n = 0; n < nodes[s].size(); ++n) {
      const auto& o = nodes[s][n].options.at(std::size_t(choice[s][n]));
      seg.fpga_cycles += o.cycles;
      seg.fpga_max_node_cycles = std::max(seg.fpga_max_node_cycles, o.cycles);
      seg.fpga += o.fpga;
    }
  }
  return out;
}

inline FoldedPartition solve_folded_partition(const SequentialGraph& g, const FoldableGraph& nodes, const Platform& p,
                                              const PartitionOptions& o = {}, const SolveOptions& solve_options = {}) {
  const auto t0 = std::chrono::steady_clock::now();
  g.validate();
  p.validate();
  const std::size_t n = g.segments.size();
  if (nodes.size() != n)
    throw graph_error("ychart: solve_folded_partition: " + std::to_string(nodes.size()) + " node lists for " +
                      std::to_string(n) + " segments");
  for (std::size_t s = 0; s < n; ++s) {
    if (nodes[s].empty()) throw graph_error("ychart: segment `" + g.segments[s].name + "` has no FPGA nodes");
    for (const auto& node : nodes[s]) {
      if (node.options.empty())
        throw graph_error("ychart: node `" + node.name + "` of segment `" + g.segments[s].name + "` has no options");
      for (const auto& opt : node.options) {
        const auto c = opt.fpga.counts();
        if (!(opt.cycles > 0) || !std::isfinite(opt.cycles) ||
            std::any_of(c.begin(), c.end(), [](double v) { return !(v >= 0) || !std::isfinite(v); }))
          throw graph_error("ychart: node `" + node.name + "`, option `" + opt.label +
                            "`: cycles must be positive and resources not negative, all finite");
      }
    }
  }
  if (o.max_fpga_ranges < 0 || o.min_fpga_ranges < 0 || o.min_fpga_ranges > o.max_fpga_ranges)
    throw graph_error("ychart: PartitionOptions: need 0 <= min_fpga_ranges <= max_fpga_ranges");

  FoldedPartition r;
  Model m;
  std::vector<Discrete<>> x;
  for (std::size_t i = 0; i < n; ++i) x.push_back(m.binary("fpga_" + g.segments[i].name));
  const auto rows = detail::add_range_rows(m, g, p, x, o);
  // Options: one binary each, after dropping dominated ones.
  const double f = p.fpga.clock.value();
  std::vector<std::vector<std::vector<std::pair<int, Discrete<>>>>> z(n);  // segment, node, (option index, binary)
  std::vector<Affine<>> used(4);
  std::vector<char> any_use(4, 0);
  Affine<> fpga;
  std::vector<std::pair<Affine<>, std::string>> node_time;
  for (std::size_t s = 0; s < n; ++s) {
    z[s].resize(nodes[s].size());
    for (std::size_t k = 0; k < nodes[s].size(); ++k) {
      const auto& node = nodes[s][k];
      r.options += node.options.size();
      Affine<> one, time;
      for (int oi : detail::undominated(node)) {
        const auto& opt = node.options[std::size_t(oi)];
        auto b = m.binary("fold_" + g.segments[s].name + "_" + node.name + "_" + std::to_string(oi));
        z[s][k].push_back({oi, b});
        one += b;
        time += (opt.cycles / f) * b;
        const auto c = opt.fpga.counts();
        for (std::size_t q = 0; q < 4; ++q)
          if (c[q] > 0) used[q] += c[q] * b, any_use[q] = 1;
        ++r.kept;
      }
      m.subject_to(one == x[s], "one folding of " + node.name);
      fpga += time;
      node_time.push_back({time, "FPGA node " + node.name});
    }
  }
  if (o.check_resources) {
    const auto budget = p.fpga.budget.counts();
    for (std::size_t q = 0; q < 4; ++q)
      if (any_use[q]) m.subject_to(used[q] <= budget[q], FpgaFootprint::kind_name(q));
  }
  detail::minimize_schedule(m, o.schedule, detail::cpu_cost(g, p, x), fpga, rows.link, node_time);
  const auto sol = m.solve(solve_options);
  r.status = sol.status();
  r.message = sol.message();
  r.choice.assign(n, {});
  if (sol.has_values()) {
    r.objective_seconds = sol.objective();
    std::vector<char> on(n);
    for (std::size_t s = 0; s < n; ++s) {
      on[s] = sol[x[s]] > 0.5;
      r.choice[s].assign(nodes[s].size(), -1);
      if (!on[s]) continue;
      for (std::size_t k = 0; k < nodes[s].size(); ++k)
        for (const auto& [oi, b] : z[s][k])
          if (sol[b] > 0.5) r.choice[s][k] = oi;
    }
    r.folded = with_folding(g, nodes, r.choice);
    r.cost = evaluate(r.folded, p, detail::ranges_of(g, on), o.schedule);
  } else if (sol.status() == Status::infeasible) {
    // The smallest footprint of each segment, over its nodes' cheapest options per resource.
    SequentialGraph least = g;
    for (std::size_t s = 0; s < n; ++s) {
      FpgaFootprint fp;
      for (const auto& node : nodes[s]) {
        std::vector<double> lo(4, std::numeric_limits<double>::infinity());
        for (const auto& opt : node.options) {
          const auto c = opt.fpga.counts();
          for (std::size_t q = 0; q < 4; ++q) lo[q] = std::min(lo[q], c[q]);
        }
        FpgaFootprint add;
        add.bram = Constant<dim::bram>(lo[0]), add.lut = Constant<dim::lut>(lo[1]);
        add.uram = Constant<dim::uram>(lo[2]), add.dsp = Constant<dim::dsp>(lo[3]);
        fp += add;
      }
      least.segments[s].fpga = fp;
    }
    r.binding = detail::binding_resources(least, p);
    r.message = "no valid FPGA range fits the " + p.fpga.name + " at any folding: " + r.binding;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace ychart::partition
