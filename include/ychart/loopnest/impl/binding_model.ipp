// ychart/loopnest/impl/binding_model.ipp
// The implementation of ychart/loopnest/binding_model.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../../model/tolerances.hpp"
#include "../binding_model.hpp"

namespace ychart::loopnest {

namespace detail {

/// The binding a solution chose: layer i on the processor j whose x[i][j]
/// is set.
inline Binding binding_of(const Solution& sol, const std::vector<std::vector<std::optional<Discrete<>>>>& x,
                          const CostTable& t) {
  Binding b(t.layers, 0);
  for (std::size_t i = 0; i < t.layers; ++i)
    for (std::size_t j = 0; j < t.processors; ++j)
      if (x[i][j] && sol[*x[i][j]] > 0.5) b[i] = j;
  return b;
}

/// The throughput goal as two stages (solve_lexicographic): the least
/// interval, then the least latency among the bindings that reach it. The
/// interval is held at the first binding's exact interval, evaluated, not
/// at the solver's value; a second binding whose exact interval is longer
/// (admitted within the solver's feasibility tolerance) or whose latency is
/// no shorter is refused, and the first binding kept. A weight on latency
/// beside the interval would sit below the solver's gap tolerance and break
/// ties at random.
inline void solve_throughput(Model& m, const Real<>& tau, const Affine<>& latency, const CostTable& t,
                             const Platform& platform, const std::vector<std::vector<std::optional<Discrete<>>>>& x,
                             const SolveOptions& solve_options, BindingResult& r) {
  // A stage's solution read back: its binding, priced exactly.
  auto result_of = [&](const Solution& sol) {
    BindingResult b;
    b.status = sol.status();
    b.message = sol.message();
    if (!sol.has_values()) return b;
    b.objective = sol.objective();
    b.binding = binding_of(sol, x, t);
    b.metrics = evaluate_schedule(t, platform, b.binding, true);
    return b;
  };
  std::optional<BindingResult> first;
  LexicographicOptions lexicographic;
  lexicographic.hold_at = [&](std::size_t, const Solution& sol) {
    first = result_of(sol);
    return 1.0 / first->metrics.throughput.value();
  };
  const auto stages = solve_lexicographic(m, {Affine<>(tau), latency}, solve_options, lexicographic);
  if (!first) {  // the interval is not proven: the first stage's outcome
    r = result_of(stages.solution);
    return;
  }
  r = std::move(*first);
  if (!stages.all_proven(2)) {
    r.message = stages.message_with_later_stages("the least latency at that interval");
    return;
  }
  auto second = result_of(stages.solution);
  const double interval = 1.0 / r.metrics.throughput.value();
  if (1.0 / second.metrics.throughput.value() > interval * (1 + tolerances::roundoff) ||
      second.metrics.latency.value() >= r.metrics.latency.value())
    return;
  r.binding = std::move(second.binding);
  r.metrics = second.metrics;
}

}  // namespace detail


YCHART_DECL BindingResult solve_binding(const CostTable& t, const Platform& platform, const BindingOptions& o,
                                        const SolveOptions& solve_options) {
  const auto t0 = std::chrono::steady_clock::now();
  const bool pipeline = o.pipeline || o.goal == BindingGoal::throughput;
  if (o.goal == BindingGoal::energy) {
    if (!o.latency_limit || !(o.latency_limit->value() > 0) || !std::isfinite(o.latency_limit->value()))
      throw loopnest_error("ychart: binding for least energy needs a positive latency_limit (Eq. 12's frame period)");
    for (std::size_t i = 0; i < t.layers; ++i)
      for (std::size_t j = 0; j < t.processors; ++j)
        if (t.allowed(i, j) && std::isnan(t.energy(i, j)))
          throw loopnest_error("ychart: binding for least energy: processor `" + platform.processors[j].id +
                               "` has no active power, so layer `" + t.layer_names[i] + "`'s energy there is unknown", platform.processors[j].id);
  }
  // The program's work grows as 2^P: automatic up to 10 processors, on request up to 16.
  const bool dynamic = pipeline && ((o.method == BindingOptions::Method::automatic && t.processors <= 10) ||
                                    (o.method == BindingOptions::Method::dynamic_programming && t.processors <= 16));
  if (o.method == BindingOptions::Method::dynamic_programming && !dynamic)
    throw loopnest_error("ychart: dynamic programming binds pipelines of at most 16 processors");
  if (dynamic) {
    BindingResult r;
    auto time = [&](std::size_t i, std::size_t j) { return t.time(i, j); };
    detail::StagePlan plan;
    double idle = 0;
    if (o.goal == BindingGoal::throughput) {
      const auto tau = detail::best_stages(t, true, 0.0, time);
      if (!tau.binding.empty()) plan = detail::best_stages(t, false, tau.value * (1 + tolerances::ulps), time);
      plan.value = tau.value;
    } else if (o.goal == BindingGoal::latency) {
      plan = detail::best_stages(t, false, std::numeric_limits<double>::infinity(), time);
    } else {
      const double period = o.latency_limit->value();
      auto p_idle = [&](std::size_t j) {
        return platform.processors[j].idle_power ? platform.processors[j].idle_power->value() : 0.0;
      };
      for (std::size_t j = 0; j < t.processors; ++j) idle += p_idle(j) * period;
      plan = detail::best_stages(t, false, period,
                                 [&](std::size_t i, std::size_t j) { return t.energy(i, j) - p_idle(j) * t.time(i, j); });
    }
    if (plan.binding.empty()) {
      r.status = Status::infeasible;
      r.message = o.goal == BindingGoal::energy
                      ? "no contiguous binding keeps every stage within the latency limit of " +
                            ychart::detail::format_number(o.latency_limit->value()) + " s"
                      : "no contiguous binding: some layer runs on no processor";
    } else {
      r.status = Status::optimal;
      r.message = "dynamic programming over contiguous stages";
      r.binding = plan.binding;
      r.objective = plan.value + idle;
      std::optional<Constant<dim::time>> frame;
      if (o.goal == BindingGoal::energy) frame = o.latency_limit;
      r.metrics = evaluate_schedule(t, platform, r.binding, true, frame);
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  }
  Model m;
  std::vector<std::vector<std::optional<Discrete<>>>> x(t.layers, std::vector<std::optional<Discrete<>>>(t.processors));
  Affine<> latency;
  std::vector<Affine<>> busy(t.processors);
  for (std::size_t i = 0; i < t.layers; ++i) {
    Affine<> one;
    for (std::size_t j = 0; j < t.processors; ++j) {
      if (!t.allowed(i, j)) continue;
      x[i][j] = m.binary("x_" + t.layer_names[i] + "_" + platform.processors[j].id);
      one += *x[i][j];
      latency += t.time(i, j) * *x[i][j];
      busy[j] += t.time(i, j) * *x[i][j];
    }
    m.subject_to(one == 1.0, "layer " + t.layer_names[i] + " on one processor");
  }
  std::optional<Real<>> tau;
  if (pipeline) {
    for (std::size_t j = 0; j < t.processors; ++j) {
      Affine<> entries;
      for (std::size_t i = 0; i < t.layers; ++i) {
        if (!x[i][j]) continue;
        auto e = m.real("enter_" + t.layer_names[i] + "_" + platform.processors[j].id, 0.0, 1.0);
        if (i > 0 && x[i - 1][j]) m.subject_to(e >= *x[i][j] - *x[i - 1][j]);
        else m.subject_to(e >= *x[i][j]);
        entries += e;
      }
      m.subject_to(entries <= 1.0, "one stage on " + platform.processors[j].id);
    }
    tau = m.real("interval", 0.0, std::numeric_limits<double>::infinity());
    for (std::size_t j = 0; j < t.processors; ++j) m.subject_to(*tau >= busy[j], "stage " + platform.processors[j].id);
  }
  switch (o.goal) {
    case BindingGoal::latency: m.minimize(latency); break;
    case BindingGoal::throughput: break;  // two stages, in solve_throughput
    case BindingGoal::energy: {
      const double period = o.latency_limit->value();
      Affine<> energy;
      double idle = 0;
      for (std::size_t j = 0; j < t.processors; ++j) {
        const double p_idle = platform.processors[j].idle_power ? platform.processors[j].idle_power->value() : 0.0;
        idle += p_idle * period;
        for (std::size_t i = 0; i < t.layers; ++i)
          if (x[i][j]) energy += (t.energy(i, j) - p_idle * t.time(i, j)) * *x[i][j];
      }
      m.subject_to((pipeline ? Affine<>(*tau) : latency) <= period, "latency limit");
      m.minimize(energy + idle);
      break;
    }
  }
  BindingResult r;
  if (o.goal == BindingGoal::throughput) {
    detail::solve_throughput(m, *tau, latency, t, platform, x, solve_options, r);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  }
  const auto sol = m.solve(solve_options);
  r.status = sol.status();
  r.message = sol.message();
  if (sol.has_values()) {
    r.objective = sol.objective();
    r.binding = detail::binding_of(sol, x, t);
    std::optional<Constant<dim::time>> frame;
    if (o.goal == BindingGoal::energy) frame = o.latency_limit;
    r.metrics = evaluate_schedule(t, platform, r.binding, pipeline, frame);
  } else if (r.status == Status::infeasible) {
    r.message = "no binding meets the latency limit of " + ychart::detail::format_number(o.latency_limit->value()) +
                " s";
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace ychart::loopnest
