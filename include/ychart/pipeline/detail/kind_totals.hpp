// ychart/pipeline/detail/kind_totals.hpp
// A task of a heterogeneous application runs on each device kind with one
// implementation, so its time and energy depend on its CUs only through its
// total c_g on each kind: T = 1 / sum_g c_g / WCET_g, E = T sum_g c_g P_g.
// The platform models tabulate (T, E) over the totals, one binary per
// entry, which makes both linear; this builds the tables, pruned.
#pragma once

#include "../../error.hpp"
#include "../../expr/operators.hpp"
#include "../../model/model.hpp"
#include "../../model/tolerances.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace ychart::pipeline::detail {

/// The per-kind totals c of one task with their time (ms) and energy per
/// run (mJ): every c whose time is at most `slowest_ms`, except those that
/// `dominated_by_fewer(t_fewer, e_fewer, t, e)` says one CU fewer of some
/// kind (time t_fewer, energy e_fewer) can replace.
struct KindTotals {
  std::vector<std::vector<int>> totals;
  std::vector<double> time_ms, energy_mj;
};

template <class Dominated>
KindTotals tabulate_kind_totals(const std::vector<int>& most, const std::vector<double>& wcet_ms,
                                const std::vector<double>& power_w, double slowest_ms, const Dominated& dominated_by_fewer) {
  const std::size_t G = most.size();
  auto time_energy = [&](const std::vector<int>& c, double& t, double& e) {
    double rate = 0.0, draw = 0.0;
    for (std::size_t g = 0; g < G; ++g)
      if (c[g] > 0) rate += c[g] / wcet_ms[g], draw += c[g] * power_w[g];
    if (rate <= 0) return false;
    t = 1.0 / rate;
    e = draw * t;
    return t <= slowest_ms * (1 + tolerances::roundoff);
  };
  KindTotals out;
  std::vector<int> c(G, 0);
  while (true) {
    double t = 0, e = 0;
    if (time_energy(c, t, e)) {
      bool dominated = false;
      for (std::size_t g = 0; g < G && !dominated; ++g) {
        if (c[g] == 0) continue;
        auto fewer = c;
        --fewer[g];
        double tf = 0, ef = 0;
        dominated = time_energy(fewer, tf, ef) && dominated_by_fewer(tf, ef, t, e);
      }
      if (!dominated) {
        out.totals.push_back(c);
        out.time_ms.push_back(t);
        out.energy_mj.push_back(e);
      }
    }
    std::size_t g = 0;  // next c, mixed radix
    while (g < G && c[g] == most[g]) c[g++] = 0;
    if (g == G) break;
    ++c[g];
  }
  return out;
}

/// Refuses a task whose table would have more than `limit` entries.
inline void check_table_size(const std::vector<int>& most_of_kind, long limit, const std::string& task) {
  double entries = 1.0;
  for (int c : most_of_kind) entries *= c + 1.0;
  if (entries > double(limit))
    throw model_error("ychart: task '" + task + "' would tabulate " + std::to_string(long(entries)) +
                      " per-kind CU totals (max_table " + std::to_string(limit) + "); lower the caps or max_cus", task);
}

/// One binary per entry of `tab` picks task `id`'s totals: sum_c z_c = 1 and
/// on_kind[g] (its CUs on the devices of kind g) = sum_c c_g z_c. Returns
/// the binaries, and the task's time and energy per run as affine terms.
struct KindTotalChoice {
  std::vector<Discrete<>> choice;
  Affine<dim::time> time;
  Affine<> energy_mj;
};

inline KindTotalChoice add_kind_total_choice(Model& m, const std::string& id, const KindTotals& tab,
                                             const std::vector<Affine<>>& on_kind) {
  KindTotalChoice out;
  const std::size_t G = on_kind.size();
  Affine<> one;
  std::vector<Affine<>> picked(G);
  for (std::size_t c = 0; c < tab.totals.size(); ++c) {
    auto z = m.binary("z_" + id + "_" + std::to_string(c));
    out.choice.push_back(z);
    one += z;
    for (std::size_t g = 0; g < G; ++g)
      if (tab.totals[c][g] > 0) picked[g] += double(tab.totals[c][g]) * z;
    if (tab.energy_mj[c] != 0.0) out.energy_mj += tab.energy_mj[c] * z;
    out.time += z * Constant<dim::time>(tab.time_ms[c] * 1e-3);
  }
  m.subject_to(one == 1.0, "totals_of_" + id);
  for (std::size_t g = 0; g < G; ++g) m.subject_to(on_kind[g] == picked[g], "kind_" + std::to_string(g + 1) + "_" + id);
  return out;
}

}  // namespace ychart::pipeline::detail
