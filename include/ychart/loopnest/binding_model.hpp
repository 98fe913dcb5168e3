// ychart/loopnest/binding_model.hpp
// Exact binding of a CNN's layers to a heterogeneous platform's processors,
// where ALOHA only evaluates a given schedule (study 002, issue 19 (a)):
// x_ij = 1 when layer i runs on processor j, sum_j x_ij = 1, x_ij = 0 where
// the cost table forbids the pair, and one of
//   latency:    min sum_ij t_ij x_ij (sequential; Algorithm 1 is optimal
//               here, since the paper charges no transfer between layers);
//   throughput: min tau, tau >= sum_i t_ij x_ij for every j, with each
//               processor's layers one contiguous stage (entry indicators
//               e_ij >= x_ij - x_{i-1,j}, sum_i e_ij <= 1), as in the
//               pipeline of ALOHA's ref. [39]; ties go to the least latency;
//   energy:     min Eq. 12 with the frame period T = the latency limit:
//               sum_ij x_ij (E_ij - P_idle,j t_ij) + T sum_j P_idle,j,
//               subject to the sequential latency (or, pipelined, the stage
//               interval) <= T.
// GLPK proves the optimum through the MIGP engine, or, for pipelines, a
// dynamic program over the stages (detail/stage_dp.hpp, the default there);
// evaluate_schedule() gives the metrics of the binding either returns.
#pragma once

#include "cnn.hpp"
#include "detail/stage_dp.hpp"

#include "../model/model.hpp"
#include "../solve/solve.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace ychart::loopnest {

enum class BindingGoal { latency, throughput, energy };

struct BindingOptions {
  BindingGoal goal = BindingGoal::latency;
  /// Pipelined execution (Eq. 11's first case) with contiguous stages;
  /// implied by goal == throughput.
  bool pipeline = false;
  /// For goal == energy: the latency constraint (the stage interval when
  /// pipelined), which is also Eq. 12's frame period.
  std::optional<Constant<dim::time>> latency_limit;
  /// Pipelined bindings: dynamic programming over the stages (automatic up
  /// to 10 processors; on request up to 16) or the MILP through the MIGP engine.
  enum class Method { automatic, milp, dynamic_programming } method = Method::automatic;
};

struct BindingResult {
  Status status = Status::numerical_error;
  std::string message;
  Binding binding;
  CnnMetrics metrics;  // evaluate_schedule() on the binding
  double objective = std::numeric_limits<double>::quiet_NaN();  // the model's (s or J)
  double seconds = 0;
};

inline BindingResult solve_binding(const CostTable& t, const Platform& platform, const BindingOptions& o = {},
                                   const SolveOptions& solve_options = {}) {
  const auto t0 = std::chrono::steady_clock::now();
  const bool pipeline = o.pipeline || o.goal == BindingGoal::throughput;
  if (o.goal == BindingGoal::energy) {
    if (!o.latency_limit || !(o.latency_limit->value() > 0) || !std::isfinite(o.latency_limit->value()))
      throw loopnest_error("ychart: binding for least energy needs a positive latency_limit (Eq. 12's frame period)");
    for (std::size_t i = 0; i < t.layers; ++i)
      for (std::size_t j = 0; j < t.processors; ++j)
        if (t.allowed(i, j) && std::isnan(t.energy(i, j)))
          throw loopnest_error("ychart: binding for least energy: processor `" + platform.processors[j].id +
                               "` has no active power, so layer `" + t.layer_names[i] + "`'s energy there is unknown");
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
      if (!tau.binding.empty()) plan = detail::best_stages(t, false, tau.value * (1 + 1e-12), time);
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
    case BindingGoal::throughput: m.minimize(*tau + 1e-6 * latency); break;
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
  const auto sol = m.solve(solve_options);
  BindingResult r;
  r.status = sol.status();
  r.message = sol.message();
  if (sol.has_values()) {
    r.objective = sol.objective();
    r.binding.assign(t.layers, 0);
    for (std::size_t i = 0; i < t.layers; ++i)
      for (std::size_t j = 0; j < t.processors; ++j)
        if (x[i][j] && sol[*x[i][j]] > 0.5) r.binding[i] = j;
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
