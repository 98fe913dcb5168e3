// ychart/partition/impl/folding_model.ipp
// The implementation of ychart/partition/folding_model.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../folding_model.hpp"

namespace ychart::partition {


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

YCHART_DECL SequentialGraph with_folding(const SequentialGraph& g, const FoldableGraph& nodes,
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

YCHART_DECL FoldedPartition solve_folded_partition(const SequentialGraph& g, const FoldableGraph& nodes, const Platform& p,
                                                   const PartitionOptions& o, const SolveOptions& solve_options) {
  const auto t0 = std::chrono::steady_clock::now();
  g.validate();
  p.validate();
  const std::size_t n = g.segments.size();
  if (nodes.size() != n)
    throw graph_error("ychart: solve_folded_partition: " + std::to_string(nodes.size()) + " node lists for " +
                      std::to_string(n) + " segments");
  for (std::size_t s = 0; s < n; ++s) {
    if (nodes[s].empty()) throw graph_error("ychart: segment `" + g.segments[s].name + "` has no FPGA nodes", g.segments[s].name);
    for (const auto& node : nodes[s]) {
      if (node.options.empty())
        throw graph_error("ychart: node `" + node.name + "` of segment `" + g.segments[s].name + "` has no options", node.name);
      for (const auto& opt : node.options) {
        const auto c = opt.fpga.counts();
        if (!(opt.cycles > 0) || !std::isfinite(opt.cycles) ||
            std::any_of(c.begin(), c.end(), [](double v) { return !(v >= 0) || !std::isfinite(v); }))
          throw graph_error("ychart: node `" + node.name + "`, option `" + opt.label +
                            "`: cycles must be positive and resources not negative, all finite", node.name);
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
  const auto objectives = detail::minimize_schedule(m, o.schedule, detail::cpu_cost(g, p, x), fpga, rows.link, node_time);
  // Pipelined: the least interval, then the least latency at it. Held at
  // the interval, a folding slower than it cannot be chosen, nor a segment
  // slower than it on the CPU, but the LP relaxation would still mix them
  // (tau >= sum_o z_o t_o; x fractional). Fixing both takes MobileNet-v1's
  // second stage from 25-30 s to 6-9 s (docs/performance.md).
  LexicographicOptions lexicographic;
  lexicographic.implied_rows = [&](Model& model, std::size_t, double interval) {
    for (std::size_t s = 0; s < n; ++s)  // a segment too slow on the CPU alone for the interval
      if (g.segments[s].cpu_time.value() / p.cpu_speedup > interval * (1 + tolerances::roundoff))
        model.subject_to(x[s] >= 1.0, "segment too slow on the CPU for the interval");
    for (std::size_t s = 0; s < n; ++s)
      for (std::size_t k = 0; k < nodes[s].size(); ++k)
        for (const auto& [oi, b] : z[s][k])
          if (nodes[s][k].options[std::size_t(oi)].cycles / f > interval * (1 + tolerances::roundoff))
            model.subject_to(b <= 0.0, "folding too slow for the interval");
  };
  auto run = detail::solve_schedule(m, objectives, solve_options, lexicographic);
  const Solution& sol = run.solution;
  r.status = run.status;
  r.message = run.message;
  r.choice.assign(n, {});
  if (sol.has_values()) {
    r.objective = run.objective;
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
