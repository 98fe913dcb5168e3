// ychart/baselines/impl/shan2021.ipp
// The implementation of ychart/baselines/shan2021.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../shan2021.hpp"

#include "../../expr/operators.hpp"  // number * unit
#include "../../model/tolerances.hpp"
#include "../../pipeline/minimum_counts.hpp"

namespace ychart::baselines::shan2021::detail {

YCHART_DECL bool fits(const std::vector<double>& use, long long count, const std::vector<double>& slack) {
  for (std::size_t t = 0; t < use.size(); ++t)
    if (static_cast<double>(count) * use[t] > slack[t] + tolerances::allowance(slack[t])) return false;
  return true;
}

YCHART_DECL long long fit_count(const std::vector<double>& use, const std::vector<double>& slack) {
  long long best = unbounded;
  for (std::size_t t = 0; t < use.size(); ++t) {
    if (use[t] <= 0) continue;
    const double q = std::floor((slack[t] + tolerances::allowance(slack[t])) / use[t]);
    const long long d = q <= 0 ? 0 : (q >= static_cast<double>(unbounded) ? unbounded : static_cast<long long>(q));
    best = std::min(best, d);
  }
  return best;
}

YCHART_DECL void take(std::vector<double>& slack, const std::vector<double>& use, long long count) {
  for (std::size_t t = 0; t < use.size(); ++t) slack[t] -= static_cast<double>(count) * use[t];
}

YCHART_DECL bool is_empty(const std::vector<double>& slack, const std::vector<double>& bound) {
  for (std::size_t t = 0; t < slack.size(); ++t)
    if (std::abs(slack[t] - bound[t]) > tolerances::allowance(bound[t])) return false;
  return true;
}

YCHART_DECL std::vector<int> by_ascending_slack(const std::vector<std::vector<double>>& slack,
                                    const std::vector<double>& bound) {
  std::vector<std::pair<double, int>> keyed;
  for (std::size_t f = 0; f < slack.size(); ++f) {
    double key = 0;
    for (std::size_t t = 0; t < bound.size(); ++t)
      if (bound[t] > 0) key += slack[f][t] / bound[t];
    keyed.emplace_back(std::round(key * 1e9) / 1e9, static_cast<int>(f));
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<int> order;
  for (const auto& [key, f] : keyed) order.push_back(f);
  return order;
}

YCHART_DECL std::vector<int> by_descending(const std::vector<double>& key, const std::vector<double>& tie) {
  std::vector<int> order(key.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    if (key[a] != key[b]) return key[a] > key[b];
    if (!tie.empty() && tie[a] != tie[b]) return tie[a] > tie[b];
    return false;
  });
  return order;
}

YCHART_DECL void require(bool condition, const char* what) {
  if (!condition) throw std::invalid_argument(std::string("shan2021: ") + what);
}

YCHART_DECL void check_items(const std::vector<PackItem>& items, const std::vector<double>& cap) {
  require(!cap.empty(), "cap must name at least one resource type");
  for (double c : cap) require(std::isfinite(c) && c >= 0, "cap must be finite and >= 0");
  for (const auto& item : items) {
    require(item.use.size() == cap.size(), "every PackItem::use must have one entry per resource type of cap");
    for (double u : item.use) require(std::isfinite(u) && u >= 0, "resource use must be finite and >= 0");
  }
}

YCHART_DECL long long soft_bound_passes(double T, double delta) {
  require(std::isfinite(T) && T >= 0, "T must be finite and >= 0");
  if (T == 0) return 1;
  require(std::isfinite(delta) && delta > 0, "delta must be > 0 when T > 0");
  const double passes = std::floor(T / delta + tolerances::roundoff) + 1;
  require(passes <= 1e6, "T / delta exceeds 10^6 soft-bound passes");
  return static_cast<long long>(passes);
}

YCHART_DECL bool cu_exceeds(const PackItem& item, const std::vector<double>& cap, double T) {
  for (std::size_t t = 0; t < cap.size(); ++t)
    if (item.use[t] > cap[t] + T + tolerances::allowance(cap[t] + T)) return true;
  return false;
}

YCHART_DECL std::optional<Allocation> allocate_kernels_core(const std::vector<int>& cu0,
                                                const std::vector<std::vector<double>>& slack0,
                                                const Allocation& n0, const std::vector<PackItem>& items,
                                                const std::vector<double>& cap, double T, double delta,
                                                const std::vector<int>& order) {
  const std::size_t K = items.size();
  const int F = static_cast<int>(slack0.size());
  const long long passes = soft_bound_passes(T, delta);
  for (long long pass = 0; pass < passes; ++pass) {
    const double s = static_cast<double>(pass) * delta;  // R_c = R + s
    std::vector<double> rc(cap.size());
    for (std::size_t t = 0; t < cap.size(); ++t) rc[t] = cap[t] + s;
    std::vector<int> cu = cu0;
    Allocation n = n0;
    std::vector<std::vector<double>> slack = slack0;
    for (auto& row : slack)
      for (double& v : row) v += s;

    // Phase 1: kernels whose remaining CUs exceed one FPGA fill EMPTY FPGAs,
    // floor(R_c / R_k) CUs each (physical FPGA order, bounded by F).
    for (int k : order) {
      for (int f = 0; f < F && cu[k] > 0; ++f) {
        if (fits(items[k].use, cu[k], rc)) break;  // the rest fits one FPGA
        if (!is_empty(slack[f], rc)) continue;
        const long long d = std::min<long long>(fit_count(items[k].use, rc), cu[k]);
        if (d == 0) break;  // one CU exceeds R_c: nothing to place at this bound
        cu[k] -= static_cast<int>(d);
        take(slack[f], items[k].use, d);
        n[k][f] += static_cast<int>(d);
      }
    }

    // Phase 2: all remaining CUs of a kernel on the most occupied FPGA that
    // takes them; otherwise as many as fit on the least occupied one. (That
    // fallback never completes a kernel: it runs only when no FPGA takes all
    // of its CUs. So a pass that reaches it fails; it only shapes the partial
    // state, as in the listing.)
    std::vector<int> pi = by_ascending_slack(slack, rc);
    for (int k : order) {
      if (cu[k] == 0) continue;
      bool placed = false;
      for (int f : pi) {
        if (fits(items[k].use, cu[k], slack[f])) {
          take(slack[f], items[k].use, cu[k]);
          n[k][f] += cu[k];
          cu[k] = 0;
          placed = true;
          break;
        }
      }
      if (!placed) {
        const int f = pi.back();
        const long long d = std::min<long long>(fit_count(items[k].use, slack[f]), cu[k]);
        cu[k] -= static_cast<int>(d);
        take(slack[f], items[k].use, d);
        n[k][f] += static_cast<int>(d);
      }
      pi = by_ascending_slack(slack, rc);
    }

    bool done = true;
    for (std::size_t k = 0; k < K; ++k) done = done && cu[k] == 0;
    if (done) return n;
  }
  return std::nullopt;
}

YCHART_DECL std::vector<int> rounding_candidates(double x) {
  require(std::isfinite(x) && x > 0, "GP CU counts must be finite and > 0");
  const double r = std::round(x);
  if (std::abs(x - r) <= tolerances::allowance(x)) return {std::max(1, static_cast<int>(r))};
  const int lo = std::max(1, static_cast<int>(std::floor(x)));
  const int hi = std::max(1, static_cast<int>(std::ceil(x)));
  if (lo == hi) return {lo};
  return {hi, lo};  // ceil first: lower II first, so the cost bound prunes sooner
}

}  // namespace ychart::baselines::shan2021::detail

namespace ychart::baselines::shan2021 {

YCHART_DECL double ii_ch3(const std::vector<double>& wcet, const std::vector<int>& N) {
  detail::require(wcet.size() == N.size(), "wcet and N must have one entry per stage");
  double ii = 0;
  for (std::size_t k = 0; k < N.size(); ++k) {
    detail::require(N[k] >= 1, "N_k must be >= 1");
    ii = std::max(ii, wcet[k] / N[k]);
  }
  return ii;
}

YCHART_DECL double spreading(const Allocation& n) {
  double phi = 0;
  for (const auto& row : n) {
    double phi_k = 0;
    for (int v : row) phi_k += static_cast<double>(v) / (1.0 + v);
    phi = std::max(phi, phi_k);
  }
  return phi;
}

YCHART_DECL std::optional<Allocation> allocate_cus(const std::vector<PackItem>& items, const std::vector<int>& N,
                                       const std::vector<double>& cap, int F, double T, double delta,
                                       const std::vector<double>& criticality,
                                       const std::vector<double>& tie_break) {
  detail::check_items(items, cap);
  detail::require(N.size() == items.size(), "N must have one entry per stage");
  detail::require(criticality.size() == items.size(), "criticality must have one entry per stage");
  detail::require(tie_break.empty() || tie_break.size() == items.size(), "tie_break must be empty or one per stage");
  detail::require(F >= 1, "F must be >= 1");
  for (std::size_t k = 0; k < N.size(); ++k) {
    detail::require(N[k] >= 0, "N_k must be >= 0");
    if (N[k] > 0 && detail::cu_exceeds(items[k], cap, T)) return std::nullopt;
  }
  const Allocation n0(items.size(), std::vector<int>(static_cast<std::size_t>(F), 0));
  const std::vector<std::vector<double>> slack0(static_cast<std::size_t>(F), cap);
  return detail::allocate_kernels_core(N, slack0, n0, items, cap, T, delta,
                                       detail::by_descending(criticality, tie_break));
}

YCHART_DECL std::optional<Ch3Result> gp_plus_a_ch3(const std::vector<PackItem>& items, const std::vector<double>& wcet,
                                       const std::vector<double>& n_hat, const std::vector<double>& cap,
                                       int F, double T, double delta) {
  detail::check_items(items, cap);
  const std::size_t K = items.size();
  detail::require(wcet.size() == K && n_hat.size() == K, "wcet and n_hat must have one entry per stage");
  detail::require(F >= 1, "F must be >= 1");
  std::vector<std::vector<int>> candidates(K);
  std::vector<double> criticality(K);
  for (std::size_t k = 0; k < K; ++k) {
    detail::require(std::isfinite(wcet[k]) && wcet[k] > 0, "wcet must be finite and > 0");
    candidates[k] = detail::rounding_candidates(n_hat[k]);
    criticality[k] = wcet[k] / n_hat[k];
  }
  std::optional<Ch3Result> best;
  std::vector<int> N(K, 0);
  std::vector<double> used(cap.size(), 0.0);
  long long tried = 0;

  const auto leaf = [&] {
    const double ii = ii_ch3(wcet, N);
    std::vector<double> tie(K);
    for (std::size_t k = 0; k < K; ++k) tie[k] = wcet[k] / N[k];
    ++tried;
    auto n = allocate_cus(items, N, cap, F, T, delta, criticality, tie);
    if (!n) return;
    const double phi = spreading(*n);
    const double tol = tolerances::allowance(ii);
    if (!best || ii < best->ii - tol || (std::abs(ii - best->ii) <= tol && phi < best->phi))
      best = Ch3Result{std::move(*n), N, ii, phi, 0, 0, {}};
  };
  // Depth-first, bounded by the stage count (recursion depth K).
  std::function<void(std::size_t, double)> visit = [&](std::size_t k, double partial_ii) {
    if (best && partial_ii > best->ii + tolerances::allowance(best->ii)) return;  // cost bound
    if (k == K) return leaf();
    for (int c : candidates[k]) {
      bool over = false;
      for (std::size_t t = 0; t < cap.size(); ++t) {
        used[t] += c * items[k].use[t];
        over = over || used[t] > F * cap[t] + tolerances::allowance(F * cap[t]);
      }
      N[k] = c;
      if (!over) visit(k + 1, std::max(partial_ii, wcet[k] / c));
      for (std::size_t t = 0; t < cap.size(); ++t) used[t] -= c * items[k].use[t];
    }
  };
  visit(0, 0.0);
  if (best) best->allocations_tried = tried;
  return best;
}

YCHART_DECL std::vector<KernelGroup> kernel_groups(const std::vector<PackItem>& items, const std::vector<int>& N,
                                       const std::vector<double>& cap, const std::vector<double>& di) {
  detail::check_items(items, cap);
  const int K = static_cast<int>(items.size());
  detail::require(N.size() == items.size() && di.size() == items.size(), "N and di must have one entry per stage");
  std::vector<KernelGroup> groups;
  for (int i = 0; i < K; ++i) {
    KernelGroup g{i, i, 0.0, std::vector<double>(cap.size(), 0.0)};
    for (std::size_t t = 0; t < cap.size(); ++t) g.use[t] = N[i] * items[i].use[t];
    for (int j = i + 1; j < K; ++j) {
      g.last = j;
      g.data += di[j];
      for (std::size_t t = 0; t < cap.size(); ++t) g.use[t] += N[j] * items[j].use[t];
      if (detail::fits(g.use, 1, cap)) groups.push_back(g);
    }
  }
  std::stable_sort(groups.begin(), groups.end(), [](const KernelGroup& a, const KernelGroup& b) {
    if (a.data != b.data) return a.data > b.data;
    return (a.last - a.first) > (b.last - b.first);
  });
  return groups;
}

YCHART_DECL GroupAllocation allocate_groups(const std::vector<PackItem>& items, const std::vector<int>& N,
                                const std::vector<double>& cap, int F, const std::vector<double>& di) {
  detail::require(F >= 1, "F must be >= 1");
  for (int v : N) detail::require(v >= 0, "N_k must be >= 0");
  const std::vector<KernelGroup> groups = kernel_groups(items, N, cap, di);
  GroupAllocation out{N, std::vector<std::vector<double>>(static_cast<std::size_t>(F), cap),
                      Allocation(items.size(), std::vector<int>(static_cast<std::size_t>(F), 0)), {}, {}};
  std::vector<bool> placed(items.size(), false);
  std::vector<int> pi = detail::by_ascending_slack(out.slack, cap);
  for (const KernelGroup& g : groups) {
    bool clash = false;
    for (int k = g.first; k <= g.last; ++k) clash = clash || placed[k];
    if (clash) continue;
    for (int f : pi) {
      if (!detail::fits(g.use, 1, out.slack[f])) continue;
      detail::take(out.slack[f], g.use, 1);
      for (int k = g.first; k <= g.last; ++k) {
        out.n[k][f] = out.cu[k];
        out.cu[k] = 0;
        placed[k] = true;
      }
      out.placed.push_back(g);
      out.placed_on.push_back(f);
      pi = detail::by_ascending_slack(out.slack, cap);
      break;
    }
  }
  return out;
}

YCHART_DECL std::optional<Allocation> allocate_kernels(const GroupAllocation& groups, const std::vector<PackItem>& items,
                                           const std::vector<double>& cap, double T, double delta,
                                           const std::vector<double>& criticality,
                                           const std::vector<double>& tie_break) {
  detail::check_items(items, cap);
  detail::require(groups.cu.size() == items.size() && groups.n.size() == items.size(),
                  "the group allocation must have one entry per stage");
  detail::require(criticality.size() == items.size(), "criticality must have one entry per stage");
  detail::require(tie_break.empty() || tie_break.size() == items.size(), "tie_break must be empty or one per stage");
  detail::require(!groups.slack.empty(), "F must be >= 1");
  for (std::size_t k = 0; k < items.size(); ++k)
    if (groups.cu[k] > 0 && detail::cu_exceeds(items[k], cap, T)) return std::nullopt;
  return detail::allocate_kernels_core(groups.cu, groups.slack, groups.n, items, cap, T, delta,
                                       detail::by_descending(criticality, tie_break));
}

YCHART_DECL std::optional<Ch4Result> gp_plus_a_ch4(const std::vector<PackItem>& items, const std::vector<double>& tc1,
                                       const std::vector<double>& di, const std::vector<int>& type_of_stage,
                                       const std::vector<double>& n_hat_of_type, const std::vector<double>& cap,
                                       int F, double T, double delta,
                                       const std::function<double(const Allocation&)>& ii_of) {
  detail::check_items(items, cap);
  const std::size_t K = items.size();
  const std::size_t M = n_hat_of_type.size();
  detail::require(tc1.size() == K && di.size() == K && type_of_stage.size() == K,
                  "tc1, di and type_of_stage must have one entry per stage");
  detail::require(F >= 1, "F must be >= 1");
  detail::require(static_cast<bool>(ii_of), "ii_of must be callable");
  std::vector<std::vector<double>> type_use(M, std::vector<double>(cap.size(), 0.0));
  for (std::size_t k = 0; k < K; ++k) {
    detail::require(type_of_stage[k] >= 0 && static_cast<std::size_t>(type_of_stage[k]) < M,
                    "type_of_stage must index n_hat_of_type");
    for (std::size_t t = 0; t < cap.size(); ++t) type_use[type_of_stage[k]][t] += items[k].use[t];
  }
  std::vector<std::vector<int>> candidates(M);
  for (std::size_t m = 0; m < M; ++m) candidates[m] = detail::rounding_candidates(n_hat_of_type[m]);
  std::vector<double> criticality(K);
  for (std::size_t k = 0; k < K; ++k) criticality[k] = tc1[k] / n_hat_of_type[type_of_stage[k]];

  std::optional<Ch4Result> best;
  std::vector<int> N_type(M, 0);
  std::vector<double> used(cap.size(), 0.0);
  long long leaves = 0, allocations = 0;
  const auto leaf = [&] {
    ++leaves;
    std::vector<int> N(K);
    std::vector<double> tie(K);
    for (std::size_t k = 0; k < K; ++k) {
      N[k] = N_type[type_of_stage[k]];
      tie[k] = tc1[k] / N[k];
    }
    const GroupAllocation g = allocate_groups(items, N, cap, F, di);
    auto n = allocate_kernels(g, items, cap, T, delta, criticality, tie);
    if (!n) return;
    ++allocations;
    const double ii = ii_of(*n);
    if (!best || ii < best->ii) best = Ch4Result{std::move(*n), N, ii, 0, 0, 0, {}};
  };
  std::function<void(std::size_t)> visit = [&](std::size_t m) {
    if (m == M) return leaf();
    for (int c : candidates[m]) {
      bool over = false;
      for (std::size_t t = 0; t < cap.size(); ++t) {
        used[t] += c * type_use[m][t];
        over = over || used[t] > F * cap[t] + tolerances::allowance(F * cap[t]);
      }
      N_type[m] = c;
      if (!over) visit(m + 1);
      for (std::size_t t = 0; t < cap.size(); ++t) used[t] -= c * type_use[m][t];
    }
  };
  visit(0);
  if (best) {
    best->leaves = leaves;
    best->allocations = allocations;
  }
  return best;
}

YCHART_DECL std::optional<Ch3Result> gp_plus_a_ch3(const std::vector<PackItem>& items, const std::vector<double>& wcet,
                                       const GpOfCap& gp, const std::vector<double>& cap, int F, double T,
                                       double delta, const Rerun& rerun) {
  detail::require(static_cast<bool>(gp), "gp must be callable");
  return detail::with_reruns<Ch3Result>(cap, rerun, [&](const std::vector<double>& level) -> std::optional<Ch3Result> {
    const auto n_hat = gp(level);
    if (!n_hat) return std::nullopt;
    return gp_plus_a_ch3(items, wcet, *n_hat, level, F, T, delta);
  });
}

YCHART_DECL std::optional<Ch4Result> gp_plus_a_ch4(const std::vector<PackItem>& items, const std::vector<double>& tc1,
                                       const std::vector<double>& di, const std::vector<int>& type_of_stage,
                                       const GpOfCap& gp, const std::vector<double>& cap, int F, double T,
                                       double delta, const std::function<double(const Allocation&)>& ii_of,
                                       const Rerun& rerun) {
  detail::require(static_cast<bool>(gp), "gp must be callable");
  return detail::with_reruns<Ch4Result>(cap, rerun, [&](const std::vector<double>& level) -> std::optional<Ch4Result> {
    const auto n_hat = gp(level);
    if (!n_hat) return std::nullopt;
    return gp_plus_a_ch4(items, tc1, di, type_of_stage, *n_hat, level, F, T, delta, ii_of);
  });
}

namespace detail {

YCHART_DECL int cu_min(double twc, double ii_max) {
  require(std::isfinite(twc) && twc >= 0, "Twc must be finite and >= 0");
  require(std::isfinite(ii_max) && ii_max > 0, "II_max must be finite and > 0");
  require(twc / ii_max < 1e9, "CU_min too large");
  return pipeline::minimum_cus(twc * units::ms, ii_max * units::ms);
}

YCHART_DECL std::vector<int> cu_min(const std::vector<double>& twc, double ii_max) {
  std::vector<int> out;
  for (double w : twc) out.push_back(cu_min(w, ii_max));
  return out;
}

YCHART_DECL int f_min(const std::vector<PackItem>& items, const std::vector<int>& cu_min_k,
          const std::vector<double>& cap) {
  detail::check_items(items, cap);
  require(cu_min_k.size() == items.size(), "cu_min must have one entry per stage");
  std::vector<double> need(cap.size(), 0.0);
  for (std::size_t t = 0; t < cap.size(); ++t) {
    for (std::size_t k = 0; k < items.size(); ++k) need[t] += items[k].use[t] * cu_min_k[k];
    require(need[t] == 0 || cap[t] > 0, "a resource type with cap 0 is used");
    require(need[t] == 0 || need[t] / cap[t] < 1e9, "F_min too large");
  }
  return pipeline::devices_to_hold(need, cap);
}

}  // namespace detail

YCHART_DECL std::optional<H2Result> h2_allocate(const std::vector<double>& twc, const std::vector<PackItem>& items,
                                    std::size_t pack_type, const std::vector<double>& cap, double ii_max,
                                    int f_max, const std::function<double(const Allocation&)>& transfer_time,
                                    const std::function<double(const Allocation&)>& power) {
  detail::check_items(items, cap);
  const std::size_t K = items.size();
  detail::require(twc.size() == K, "twc must have one entry per stage");
  detail::require(K >= 1 && K <= 40, "h2_allocate enumerates 2^K combinations: K must be in 1..40");
  detail::require(pack_type < cap.size(), "pack_type must index a resource type");
  detail::require(static_cast<bool>(transfer_time) && static_cast<bool>(power), "callbacks must be callable");
  const std::vector<int> cumin = detail::cu_min(twc, ii_max);
  const int fmin = detail::f_min(items, cumin, cap);
  std::vector<double> speed(K);
  for (std::size_t k = 0; k < K; ++k) speed[k] = twc[k] / cumin[k];
  const std::vector<int> order = detail::by_descending(speed, {});
  const double R = cap[pack_type];
  std::vector<double> rk(K);
  for (std::size_t k = 0; k < K; ++k) rk[k] = items[k].use[pack_type];

  // floor(s / r): how many CUs of per-CU use r fit in slack s (unbounded if r = 0).
  const auto fit = [](double r, double s) -> int {
    if (r <= 0) return std::numeric_limits<int>::max();
    const double q = std::floor((s + tolerances::allowance(s)) / r);
    return q <= 0 ? 0 : static_cast<int>(std::min(q, 1e9));
  };

  std::optional<H2Result> best;
  long long tried = 0, accepted = 0;
  for (int F = fmin; F <= f_max && !best; ++F) {
    const std::uint64_t masks = std::uint64_t{1} << K;
    for (std::uint64_t mask = 0; mask < masks; ++mask) {
      ++tried;
      std::vector<int> N(K), cu(K);
      double total = 0;
      for (std::size_t k = 0; k < K; ++k) {
        N[k] = cumin[k] + static_cast<int>((mask >> k) & 1U);
        cu[k] = N[k];
        total += N[k] * rk[k];
      }
      if (!(total < F * R - tolerances::allowance(F * R))) continue;  // line 9, strict

      Allocation n(K, std::vector<int>(static_cast<std::size_t>(F), 0));
      std::vector<double> S(static_cast<std::size_t>(F), R);
      const auto place = [&](std::size_t k, int f, int d) {
        n[k][f] += d;
        cu[k] -= d;
        S[f] -= d * rk[k];
      };
      // Forward fill: FPGA 0, 1, ... in order; a kernel that does not fit
      // whole leaves floor(S_f / R_k) CUs here and continues on f + 1.
      std::size_t i = 0;
      for (int f = 0; f < F; ++f) {
        while (i < K) {
          const std::size_t k = static_cast<std::size_t>(order[i]);
          if (cu[k] * rk[k] <= S[f] + tolerances::allowance(S[f])) {
            place(k, f, cu[k]);
            ++i;
          } else {
            place(k, f, std::min(cu[k], fit(rk[k], S[f])));
            break;
          }
        }
      }
      // Backward fill of the unplaced tail (at most one partly placed kernel
      // plus the unplaced ones), smallest execution time first, from FPGA F-1 down.
      bool left = false;
      for (std::size_t k = 0; k < K; ++k) left = left || cu[k] > 0;
      if (left) {
        long long j = static_cast<long long>(K) - 1;
        for (int f = F - 1; f >= 0; --f) {
          while (j >= 0 && cu[static_cast<std::size_t>(order[j])] > 0) {
            const std::size_t k = static_cast<std::size_t>(order[j]);
            if (cu[k] * rk[k] <= S[f] + tolerances::allowance(S[f])) {
              place(k, f, cu[k]);
              --j;
            } else {
              place(k, f, std::min(cu[k], fit(rk[k], S[f])));
              break;
            }
          }
        }
        left = false;
        for (std::size_t k = 0; k < K; ++k) left = left || cu[k] > 0;
        if (left) continue;
      }
      const double tx = transfer_time(n);
      if (!(tx < ii_max)) continue;  // line 54
      const double p = power(n);
      ++accepted;
      if (!best || p < best->power) best = H2Result{n, N, p, tx, F, fmin, 0, 0};
    }
  }
  if (best) {
    best->combinations_tried = tried;
    best->combinations_accepted = accepted;
  }
  return best;
}

}  // namespace ychart::baselines::shan2021
