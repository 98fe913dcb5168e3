// ychart/partition/impl/partition_model.ipp
// The implementation of ychart/partition/partition_model.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../../model/tolerances.hpp"
#include "../partition_model.hpp"

namespace ychart::partition {


namespace detail {

/// For an infeasible `min_fpga_ranges >= 1`: the resources that even the
/// smallest valid range exceeds, or a note that only their combination does.
inline std::string binding_resources(const SequentialGraph& g, const Platform& p) {
  const std::size_t kinds = 4;
  std::vector<double> least(kinds, std::numeric_limits<double>::infinity());
  const auto budget = p.fpga.budget.counts();
  const int n = static_cast<int>(g.segments.size());
  for (int first = 0; first < n; ++first) {
    FpgaFootprint need;
    for (int last = first; last < n; ++last) {
      need += g.segments[std::size_t(last)].fpga;
      if (!valid_fpga_run(g, first, last)) continue;
      const auto c = need.counts();
      for (std::size_t k = 0; k < kinds; ++k) least[k] = std::min(least[k], c[k]);
    }
  }
  std::string out;
  for (std::size_t k = 0; k < kinds; ++k)
    if (least[k] > budget[k] * (1 + tolerances::ulps)) {
      if (!out.empty()) out += ", ";
      out += std::string(FpgaFootprint::kind_name(k)) + " (the smallest valid range needs " +
             ychart::detail::format_number(least[k]) + ", the budget is " + ychart::detail::format_number(budget[k]) +
             ")";
    }
  return out.empty() ? "no single resource: each fits alone in some range, but no range fits all at once" : out;
}

/// x_g = 1 inside the given ranges and 0 outside (nothing when `ranges` is empty).
inline void fix_segments(Model& m, const SequentialGraph& g, const std::vector<Discrete<>>& x,
                         const std::vector<NodeRange>& ranges) {
  if (ranges.empty()) return;
  const auto on = segments_on_fpga(g, ranges);
  for (std::size_t i = 0; i < x.size(); ++i) m.subject_to(x[i] == (on[i] ? 1.0 : 0.0), "fixed " + g.segments[i].name);
}

/// The rows every partition model shares: x_g fixed where asked; entries
/// u_j and exits v_j pinned to max(0, +-(x_j - x_{j-1})) by four rows each,
/// so that sum u counts the FPGA ranges; the count's bounds; FINN's rule
/// (a segment without a threshold, or of one node, needs an FPGA
/// neighbour). Returns the link's cost in seconds (the transfers at every
/// boundary), or throws graph_error for a transfer time that overflows.
struct RangeRows {
  std::vector<Real<>> enter, leave;
  Affine<> link;
};

inline RangeRows add_range_rows(Model& m, const SequentialGraph& g, const Platform& p, const std::vector<Discrete<>>& x,
                                const PartitionOptions& o) {
  const std::size_t n = x.size();
  for (std::size_t i = 0; i + 1 < n; ++i)
    if (!g.segments[i].has_threshold && !g.segments[i + 1].has_threshold)
      throw graph_error("ychart: graph `" + g.name + "`: segments `" + g.segments[i].name + "` and `" +
                        g.segments[i + 1].name + "` both lack a MultiThreshold; cut the graph at its thresholds", g.name);
  fix_segments(m, g, x, o.fixed_fpga);
  RangeRows r;
  Affine<> entries;
  for (std::size_t j = 0; j <= n; ++j) {
    r.enter.push_back(m.real("enter_" + std::to_string(j), 0.0, 1.0));
    r.leave.push_back(m.real("leave_" + std::to_string(j), 0.0, 1.0));
    const auto &u = r.enter.back(), &v = r.leave.back();
    Affine<> now, before;
    if (j < n) now += x[j];
    if (j > 0) before += x[j - 1];
    m.subject_to(u >= now - before);
    m.subject_to(v >= before - now);
    m.subject_to(u <= now);
    m.subject_to(v <= before);
    m.subject_to(u + before <= 1.0);
    m.subject_to(v + now <= 1.0);
    entries += u;
    const auto tensor = boundary_tensor(g, j);
    const double in = p.to_fpga(tensor).value(), out = p.from_fpga(tensor).value();
    if (!std::isfinite(in) || !std::isfinite(out))
      throw graph_error("ychart: the transfer time at boundary " + std::to_string(j) + " of graph `" + g.name +
                        "` overflows (tensor size times the fit's slope)", g.name);
    if (j < n) r.link += in * u;
    if (j > 0) r.link += out * v;
  }
  m.subject_to(entries <= double(o.max_fpga_ranges), "FPGA ranges");
  if (o.min_fpga_ranges > 0) m.subject_to(entries >= double(o.min_fpga_ranges), "FPGA ranges used");
  for (std::size_t i = 0; i < n; ++i) {
    if (g.segments[i].has_threshold && g.segments[i].node_count() >= 2) continue;
    Affine<> neighbours;
    if (i > 0) neighbours += x[i - 1];
    if (i + 1 < n) neighbours += x[i + 1];
    m.subject_to(x[i] <= neighbours, "FINN range rule at " + g.segments[i].name);
  }
  return r;
}

/// The CPU's time in seconds: each segment's, unless it runs on the FPGA.
inline Affine<> cpu_cost(const SequentialGraph& g, const Platform& p, const std::vector<Discrete<>>& x) {
  Affine<> cpu;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double t = g.segments[i].cpu_time.value() / p.cpu_speedup;
    cpu += t - t * x[i];
  }
  return cpu;
}

/// Sequential: minimise the latency, CPU + FPGA + link. Pipelined: minimise
/// the interval tau >= the CPU's time, the link's and every FPGA stage's
/// (named); returns the objectives in priority order for solve(): the
/// interval, then the latency (empty when sequential).
inline std::vector<Affine<>> minimize_schedule(Model& m, Schedule schedule, const Affine<>& cpu, const Affine<>& fpga,
                                               const Affine<>& link,
                                               const std::vector<std::pair<Affine<>, std::string>>& stages) {
  if (schedule == Schedule::sequential) {
    m.minimize(cpu + fpga + link);
    return {};
  }
  auto tau = m.real("interval", 0.0, std::numeric_limits<double>::infinity());
  m.subject_to(tau >= cpu, "CPU stage");
  m.subject_to(tau >= link, "link stage");
  for (const auto& [time, name] : stages) m.subject_to(tau >= time, name);
  m.minimize(tau);
  return {Affine<>(tau), cpu + fpga + link};
}

/// A schedule's model solved: with `objectives` (pipelined), the least
/// interval and then the least latency at it, as two stages
/// (solve_lexicographic; a weight on latency would sit below GLPK's gap);
/// without, the model's own objective. status and objective are the
/// first stage's; a second stage that is not proven is said in message.
struct ScheduleOutcome {
  Solution solution;
  Status status;
  double objective;
  std::string message;
};

inline ScheduleOutcome solve_schedule(Model& m, const std::vector<Affine<>>& objectives, const SolveOptions& options,
                                      const LexicographicOptions& lexicographic = {}) {
  if (objectives.empty()) {
    auto sol = m.solve(options);
    const Status status = sol.status();
    const double objective = sol.has_values() ? sol.objective() : std::numeric_limits<double>::quiet_NaN();
    std::string message = sol.message();
    return {std::move(sol), status, objective, std::move(message)};
  }
  auto lex = solve_lexicographic(m, objectives, options, lexicographic);
  const Status status = lex.stages.front();
  const double objective = !lex.optima.empty() ? lex.optima.front()
                           : lex.solution.has_values() ? lex.solution.objective()
                                                       : std::numeric_limits<double>::quiet_NaN();
  std::string message = lex.message_with_later_stages("the least latency at that interval");
  return {std::move(lex.solution), status, objective, std::move(message)};
}

/// The FPGA ranges that the segment flags at a solution make.
inline std::vector<NodeRange> ranges_of(const SequentialGraph& g, const std::vector<char>& on) {
  std::vector<NodeRange> ranges;
  for (const auto& [first, last] : runs_of(on))
    ranges.push_back({g.segments[std::size_t(first)].first_node, g.segments[std::size_t(last)].end_node});
  return ranges;
}

}  // namespace detail

YCHART_DECL PartitionModel build_partition_model(const SequentialGraph& g, const Platform& p, const PartitionOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  g.validate();
  p.validate();
  if (o.max_fpga_ranges < 0 || o.min_fpga_ranges < 0 || o.min_fpga_ranges > o.max_fpga_ranges)
    throw graph_error("ychart: PartitionOptions: need 0 <= min_fpga_ranges <= max_fpga_ranges");
  PartitionModel pm(g, p, o);
  const std::size_t n = g.segments.size();
  Model& m = pm.model_;
  auto& x = pm.on_fpga_;
  for (std::size_t i = 0; i < n; ++i) x.push_back(m.binary("fpga_" + g.segments[i].name));
  const auto rows = detail::add_range_rows(m, g, p, x, o);
  if (o.check_resources) {
    const auto budget = p.fpga.budget.counts();
    for (std::size_t k = 0; k < budget.size(); ++k) {
      Affine<> used;
      bool any = false;
      for (std::size_t i = 0; i < n; ++i)
        if (const double c = g.segments[i].fpga.counts()[k]; c > 0) used += c * x[i], any = true;
      if (any) m.subject_to(used <= budget[k], FpgaFootprint::kind_name(k));
    }
  }
  // Costs in seconds.
  const double f = p.fpga.clock.value();
  Affine<> fpga;
  std::vector<std::pair<Affine<>, std::string>> stages;
  for (std::size_t i = 0; i < n; ++i) {
    fpga += (g.segments[i].fpga_cycles / f) * x[i];
    stages.push_back({(g.segments[i].fpga_max_node_cycles / f) * x[i], "FPGA stage " + g.segments[i].name});
  }
  pm.lexicographic_ = detail::minimize_schedule(m, o.schedule, detail::cpu_cost(g, p, x), fpga, rows.link, stages);
  pm.built_objective_ = ychart::detail::ModelEditor::objective_of(m);
  pm.built_rows_ = m.constraints().size();
  pm.build_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return pm;
}

YCHART_DECL Discrete<> PartitionModel::on_fpga(std::size_t segment) const {
  if (segment >= on_fpga_.size())
    throw model_error("ychart: PartitionModel::on_fpga: graph `" + graph_.name + "` has no segment " +
                      std::to_string(segment) + " (it has " + std::to_string(on_fpga_.size()) + ")", graph_.name);
  return on_fpga_[segment];
}

YCHART_DECL PartitionResult PartitionModel::solve(const SolveOptions& solve_options) {
  const auto t0 = std::chrono::steady_clock::now();
  // Pipelined, with the objective as built: two stages; a changed
  // objective is the user's, solved alone.
  const bool as_built = ychart::detail::ModelEditor::objective_of(model_) == built_objective_;
  auto run = detail::solve_schedule(model_, as_built ? lexicographic_ : std::vector<Affine<>>{}, solve_options);
  const Solution& sol = run.solution;
  PartitionResult r;
  r.status = run.status;
  r.message = run.message;
  if (sol.has_values()) {
    r.objective = run.objective;
    std::vector<char> on(on_fpga_.size());
    for (std::size_t i = 0; i < on.size(); ++i) on[i] = sol[on_fpga_[i]] > 0.5;
    r.cost = evaluate(graph_, platform_, detail::ranges_of(graph_, on), options_.schedule);
  } else if (sol.status() == Status::infeasible && model_.constraints().size() == built_rows_) {
    r.binding = detail::binding_resources(graph_, platform_);
    r.message = "no valid FPGA range fits the " + platform_.fpga.name + ": " + r.binding;
  }
  r.seconds = build_seconds_ + std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

YCHART_DECL PartitionResult solve_partition(const SequentialGraph& g, const Platform& p, const PartitionOptions& o,
                                            const SolveOptions& solve_options) {
  return build_partition_model(g, p, o).solve(solve_options);
}

}  // namespace ychart::partition
