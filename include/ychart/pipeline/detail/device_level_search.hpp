// ychart/pipeline/detail/device_level_search.hpp
// solve_power_optimal()'s exact search for one number F of identical
// devices, clocks scaled to II_max, double-buffered or compute-only
// schedule. Why not the MILP of identical_devices_power_model.hpp: its LP
// drops the CU rounding ceil(Twc_k / M_f), so on several devices its bound
// stays at the power floor and no point is proven. Here the rounding is
// exact because device LEVELS are enumerated instead.
//
// A device's level M_f is the time Twc_k / N_k of its slowest kernel, so it
// is one of finitely many values. A kernel's home is the lowest level among
// its devices; at home level L it needs at least n = ceil(Twc_k / L) CUs and
// spends at least (P_k + c_k) n L per run (c_k: its CUs' DDR power; T_exe is
// the top level, at least L). The relaxation R (a MILP):
//   z_kl = 1: kernel k's home is level l (one per kernel);
//   o_lc = 1: at least c+1 devices are at level l (o_lc >= o_l,c+1),
//   Y_l = sum_c o_lc, sum_l Y_l = F, z_kl <= o_l0;
//   a level is only used if a kernel whose time is exactly L_l is homed
//   there (the device's slowest kernel has no lower home);
//   capacity, per resource, for every level l: the CUs of kernels homed at
//   levels >= L_l fit on the Y devices at those levels;
//   copies: n CUs span ceil(n / U_k) devices at levels >= L_l, each receiving
//   the input (energy and time of the extra copies);
//   objective F (P_static + P_DDR) + sum cost z + transfer energy, / II.
// Every mapping on F devices is feasible in R at no more than its power, so
// R's optimum is a lower bound. R's solution names a multiset of levels;
// the leaf MILP with those levels fixed (N_k >= ceil(Twc_k / M_f) on every
// device holding k, cost (P_k M_f + c_k M_1) n_kf / II) contains every
// mapping with exactly those levels, priced exactly, and overprices the
// rest, so after it the multiset is excluded from R (a no-good on the o's)
// and R solved again. The search ends when R has nothing better than the
// incumbent: proven. Levels far below II_max are many and rarely used;
// they are pooled into one level (cost (P_k + c_k) Twc_k, CUs at the pool's
// top) until R picks the pool, which then halves.
#pragma once

#include "../application.hpp"
#include "../architecture.hpp"
#include "../mapping.hpp"
#include "../minimum_counts.hpp"
#include "../resources.hpp"
#include "device_table.hpp"
#include "memory_energy.hpp"
#include "resource_rows.hpp"
#include "transfer_rows.hpp"

#include "../../expr/operators.hpp"
#include "../../model/model.hpp"
#include "../../model/tolerances.hpp"
#include "../../result/solution.hpp"
#include "../../solve/solve.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace ychart::pipeline::detail {

/// One kernel as the level search sees it (times ms, powers W, energies mJ).
struct LevelKernel {
  double wcet = 0, power = 0;
  double execution_ddr = 0;  // c_k: one CU's DDR power while executing
  double per_copy = 0;       // a_k: energy of one more copy of the input
  double fixed_energy = 0;   // the transfer energy with no copy (the output read back)
  double to_device = 0;      // one copy of the input (ms)
  int fewest = 1, most = 1;  // bounds on N_k
  int per_device = 1;        // U_k: CUs one device holds under the cap
  std::vector<double> use;   // per CU, per resource
};

/// The problem for one device count F.
struct LevelProblem {
  std::vector<LevelKernel> kernels;
  std::vector<double> cap;  // per resource, per device
  double ii = 0;            // ms
  double device_static = 0; // W per device in use
  double to_host = 0;       // ms: every output once
  bool transfers = true;    // the transfer-time row (not compute-only)
  int devices = 0;          // F
  int columns = 0;          // the mapping's columns (the architecture's devices)

  /// W: static power of F devices plus what every mapping spends.
  double floor() const {
    double e = 0;
    for (const auto& k : kernels) e += (k.power + k.execution_ddr) * k.wcet + k.per_copy + k.fixed_energy;
    return devices * device_static + e / ii;
  }
  /// n CUs of kernel k and the fewest of every other kernel fit the F devices' pooled capacity.
  bool fits_with(std::size_t k, int n) const {
    if (n > kernels[k].most) return false;
    for (std::size_t r = 0; r < cap.size(); ++r) {
      double need = n * kernels[k].use[r];
      for (std::size_t j = 0; j < kernels.size(); ++j)
        if (j != k) need += kernels[j].fewest * kernels[j].use[r];
      if (need > devices * cap[r] * (1 + tolerances::ulps) + tolerances::roundoff) return false;
    }
    return true;
  }
  /// The fewest CUs of kernel k at or below `level` ms.
  int cus_at(std::size_t k, double level) const {
    return std::max(kernels[k].fewest, int(tolerances::ceil(kernels[k].wcet / level)));
  }
  /// Every level a device can have, descending, distinct.
  std::vector<double> levels() const {
    std::vector<double> v;
    for (std::size_t k = 0; k < kernels.size(); ++k)
      for (int n = kernels[k].fewest; n <= kernels[k].most && fits_with(k, n); ++n) v.push_back(kernels[k].wcet / n);
    std::sort(v.rbegin(), v.rend());
    std::vector<double> out;
    for (double x : v)
      if (x <= ii * (1 + tolerances::ulps) && (out.empty() || out.back() - x > tolerances::ulps * x)) out.push_back(x);
    return out;
  }
};

template <ResourceRecord R, class Options>
LevelProblem level_problem(const Application<R>& app, const Platform<R>& arch, Constant<dim::time> ii_max,
                           const Options& options, int F) {
  const DeviceTable table = device_table(app, arch, options.caps);
  const auto uses = table.uses_on_kind(0);
  LevelProblem p;
  p.cap = table.kinds[0].cap;
  p.ii = ii_max.in(units::ms);
  p.device_static = arch.kind().static_power.value() + arch.kind().memory.static_power.value();
  p.transfers = options.model.schedule != Schedule::compute_only;
  p.devices = F;
  p.columns = arch.devices();
  const double hp = arch.host_to_device.bandwidth.value(), dh = arch.device_to_host.bandwidth.value();
  for (std::size_t k = 0; k < app.size(); ++k) {
    const auto& kn = app.kernel(k).implementation();
    LevelKernel lk;
    lk.wcet = kn.wcet.in(units::ms);
    lk.power = kn.power.value();
    lk.use = uses[k];
    const CuRange range = cu_range(kn, k, ii_max, p.cap, F, options);
    lk.fewest = range.fewest;
    lk.most = range.most;
    lk.per_device = std::min(range.per_device, lk.most);
    if (options.memory_energy) {
      lk.execution_ddr = cu_memory_power(kn, arch.kind().memory);
      lk.fixed_energy = 1e3 * host_transfer_energy(kn, arch.kind().memory, 0.0);
      lk.per_copy = 1e3 * host_transfer_energy(kn, arch.kind().memory, 1.0) - lk.fixed_energy;
    }
    if (p.transfers) {
      const auto s = task_transfer_seconds(app.kernel(k), hp, dh);
      lk.to_device = s.to_device * 1e3;
      p.to_host += s.to_host * 1e3;
    }
    p.kernels.push_back(std::move(lk));
  }
  return p;
}

/// The relaxation R over levels (the header's list). The device counts are
/// cumulative: at_least[l][c] = 1 when at least c + 1 devices have a level
/// of L_l or more, which makes "every set of levels pointwise at or below
/// S" one row (a leaf that no mapping fits excludes all of them).
struct LevelRelaxation {
  Model model;
  std::vector<double> levels;                     // descending; the last is the pool when `pooled`
  bool pooled = false;
  std::vector<std::vector<Discrete<>>> at_least;  // q_lc
  std::vector<Affine<>> devices_at;               // Y_l
  Affine<> objective;                             // W
};

/// R over the levels at or above `pool_top` ms, the others pooled; homes
/// that cost more above the floor than `best` leaves are left out.
inline std::unique_ptr<LevelRelaxation> level_relaxation(const LevelProblem& p, const std::vector<double>& all,
                                                         double pool_top, double best) {
  auto rel = std::make_unique<LevelRelaxation>();
  Model& m = rel->model;
  for (double x : all)
    if (x >= pool_top) rel->levels.push_back(x);
  rel->pooled = rel->levels.size() < all.size();
  if (rel->pooled) rel->levels.push_back(pool_top);
  const std::size_t L = rel->levels.size(), K = p.kernels.size(), F = std::size_t(p.devices);
  rel->at_least.resize(L);
  rel->devices_at.assign(L, Affine<>());
  std::vector<Affine<>> at_or_above(L);  // devices at level L_l or above
  std::vector<Discrete<>> present;  // some device is exactly at level l
  for (std::size_t l = 0; l < L; ++l) {
    for (std::size_t c = 0; c < F; ++c) {
      if (l + 1 == L) {  // every device is at the lowest level or above
        rel->at_least[l].push_back(m.integer("q_" + std::to_string(l) + "_" + std::to_string(c), 1, 1));
      } else {
        rel->at_least[l].push_back(m.binary("q_" + std::to_string(l) + "_" + std::to_string(c)));
        if (c > 0) m.subject_to(rel->at_least[l][c] <= rel->at_least[l][c - 1]);
      }
      if (l > 0) m.subject_to(rel->at_least[l - 1][c] <= rel->at_least[l][c]);
      at_or_above[l] += rel->at_least[l][c];
      rel->devices_at[l] += rel->at_least[l][c];
      if (l > 0) rel->devices_at[l] += -1.0 * rel->at_least[l - 1][c];
    }
    present.push_back(m.binary("p_" + std::to_string(l)));
    m.subject_to(present[l] <= rel->devices_at[l]);
    m.subject_to(rel->devices_at[l] <= double(F) * present[l]);
  }
  double constant = 0, moved_once = p.to_host;
  for (const auto& k : p.kernels) constant += k.per_copy + k.fixed_energy, moved_once += k.to_device;
  rel->objective = Affine<>() + (p.device_static * double(F) + constant / p.ii);
  const double slack = best - p.floor();  // no home may waste more
  std::vector<std::vector<Affine<>>> load(L, std::vector<Affine<>>(p.cap.size()));
  std::vector<Affine<>> tops(L);  // kernels whose time is exactly L_l
  Affine<> moved = Affine<>() + moved_once;
  for (std::size_t k = 0; k < K; ++k) {
    const auto& kn = p.kernels[k];
    Affine<> homes;
    for (std::size_t l = 0; l < L; ++l) {
      const bool pool = rel->pooled && l + 1 == L;
      const int n = p.cus_at(k, rel->levels[l]);
      if (!p.fits_with(k, n)) continue;
      const double floor_cost = (kn.power + kn.execution_ddr) * kn.wcet / p.ii;
      const double cost = pool ? floor_cost : (kn.power + kn.execution_ddr) * n * rel->levels[l] / p.ii;
      if (cost - floor_cost > slack) continue;
      auto z = m.binary("z_" + std::to_string(k) + "_" + std::to_string(l));
      homes += z;
      m.subject_to(z <= present[l]);
      rel->objective += cost * z;
      const int spans = (n + kn.per_device - 1) / kn.per_device;
      if (spans > 1) {  // on `spans` devices at level L_l or above
        rel->objective += (kn.per_copy * (spans - 1) / p.ii) * z;
        moved += (kn.to_device * (spans - 1)) * z;
        m.subject_to(z <= rel->at_least[l][std::size_t(spans - 1)]);
      }
      if (!pool && std::abs(kn.wcet / n - rel->levels[l]) <= tolerances::ulps * rel->levels[l]) tops[l] += z;
      for (std::size_t r = 0; r < p.cap.size(); ++r)
        if (kn.use[r] > 0) load[l][r] += (n * kn.use[r]) * z;
    }
    m.subject_to(homes == 1.0, "home_" + std::to_string(k));
  }
  if (p.transfers) m.subject_to(moved <= p.ii, "II_transfers");
  for (std::size_t l = 0; l + (rel->pooled ? 1 : 0) < L; ++l) m.subject_to(present[l] <= tops[l]);
  // Nested capacity, levels descending: the CUs homed at L_l or above fit
  // on the devices at L_l or above.
  for (std::size_t r = 0; r < p.cap.size(); ++r) {
    Affine<> cumulative;
    for (std::size_t l = 0; l < L; ++l) {
      cumulative += load[l][r];
      m.subject_to(cumulative - p.cap[r] * at_or_above[l] <= 0.0);
      auto s = m.real("S_" + std::to_string(l) + "_" + std::to_string(r), 0.0, 1e12);
      m.subject_to(s == cumulative);
      cumulative = Affine<>() + s;
    }
  }
  m.minimize(rel->objective);
  return rel;
}

/// Excludes from R the multiset `set` of levels (F values, each one of
/// rel.levels above the pool) and, with `and_below`, every multiset
/// pointwise at or below it: the row says some threshold L_l has more
/// devices at or above it than `set` has (or, for `set` alone, fewer).
inline void exclude_levels(LevelRelaxation& rel, const std::vector<double>& set, bool and_below) {
  Affine<> differs;
  const std::size_t F = set.size();
  for (std::size_t l = 0; l < rel.levels.size(); ++l) {
    const auto c = std::size_t(std::count_if(set.begin(), set.end(), [&](double x) { return x >= rel.levels[l]; }));
    if (c < F) differs += rel.at_least[l][c];
    if (!and_below && c > 0) differs += 1.0 - rel.at_least[l][c - 1];
  }
  rel.model.subject_to(differs >= 1.0);
}

/// The leaf: the best mapping whose devices have the given levels
/// (descending) or lower, at the price of those levels.
struct LevelLeaf {
  Model model;
  std::vector<std::vector<Discrete<>>> cus;  // n_kf
  Affine<> objective;                        // W
};

inline std::unique_ptr<LevelLeaf> level_leaf(const LevelProblem& p, const std::vector<double>& levels, double best) {
  auto leaf = std::make_unique<LevelLeaf>();
  Model& m = leaf->model;
  const std::size_t K = p.kernels.size(), F = levels.size();
  double fixed = 0;
  for (const auto& k : p.kernels) fixed += k.fixed_energy;
  leaf->objective = Affine<>() + (p.device_static * double(F) + fixed / p.ii);
  std::vector<Affine<>> on_device(F), load_order(F);
  std::vector<std::vector<Affine<>>> use(F, std::vector<Affine<>>(p.cap.size()));
  Affine<> moved = Affine<>() + p.to_host;
  leaf->cus.resize(K);
  for (std::size_t k = 0; k < K; ++k) {
    const auto& kn = p.kernels[k];
    const std::string id = std::to_string(k);
    auto total = m.integer("N_" + id, kn.fewest, kn.most);
    Affine<> sum;
    for (std::size_t f = 0; f < F; ++f) {
      const std::string at = id + "_" + std::to_string(f + 1);
      auto n = m.integer("n_" + at, 0, kn.per_device);
      auto d = m.binary("delta_" + at);
      leaf->cus[k].push_back(n);
      m.subject_to(n <= double(kn.per_device) * d);
      m.subject_to(d <= n);
      const int need = p.cus_at(k, levels[f]);
      if (need > kn.most) m.subject_to(d <= 0.0);
      else m.subject_to(total >= double(need) * d);
      sum += n;
      on_device[f] += d;
      load_order[f] += kn.power * n;
      leaf->objective += ((kn.power * levels[f] + kn.execution_ddr * levels[0]) / p.ii) * n + (kn.per_copy / p.ii) * d;
      moved += kn.to_device * d;
      for (std::size_t r = 0; r < p.cap.size(); ++r)
        if (kn.use[r] > 0) use[f][r] += kn.use[r] * n;
    }
    m.subject_to(total == sum);
  }
  for (std::size_t f = 0; f < F; ++f) {
    m.subject_to(on_device[f] >= 1.0);
    for (std::size_t r = 0; r < p.cap.size(); ++r) m.subject_to(use[f][r] <= p.cap[r]);
    if (f > 0 && levels[f] == levels[f - 1]) m.subject_to(load_order[f] <= load_order[f - 1]);  // identical devices
  }
  if (p.transfers) m.subject_to(moved <= p.ii, "II_transfers");
  if (std::isfinite(best)) m.subject_to(leaf->objective <= best, "cutoff");
  m.minimize(leaf->objective);
  return leaf;
}

struct LevelSearchResult {
  Status status = Status::infeasible;  // optimal: nothing on F devices beats the final incumbent
  double bound = std::numeric_limits<double>::quiet_NaN();  // W, on every mapping on F devices
  int level_sets = 0;                                        // leaves solved
};

/// Whether some mapping fits under the levels, at any price (a time-out
/// counts as yes: nothing is excluded on a guess).
inline bool some_mapping_fits(const LevelProblem& p, const std::vector<double>& levels, SolveOptions so) {
  if (so.time_limit <= 0) return true;
  so.relative_gap = 1e9;  // any mapping answers: stop at the first
  return level_leaf(p, levels, std::numeric_limits<double>::infinity())->model.solve(so).status() !=
         Status::infeasible;
}

/// A leaf no mapping fits rules out every multiset pointwise below its
/// levels; raising each level that does not matter to the top level widens
/// that. Returns the widened multiset.
inline std::vector<double> widen_misfit(const LevelProblem& p, std::vector<double> levels, double top,
                                        const SolveOptions& so, const std::function<double()>& left) {
  for (std::size_t f = levels.size(); f-- > 0;) {
    if (levels[f] == top) continue;
    auto raised = levels;
    raised[f] = top;
    std::sort(raised.rbegin(), raised.rend());
    auto o = so;
    o.time_limit = left();
    if (o.time_limit <= 0) break;
    if (!some_mapping_fits(p, raised, o)) levels = std::move(raised), f = levels.size();
  }
  return levels;
}

/// The search for one device count: `take` prices a mapping and returns
/// the incumbent's objective afterwards (W; infinity while there is none).
inline LevelSearchResult search_device_levels(const LevelProblem& p, double best, const SolveOptions& options,
                                              const std::function<double(const Mapping&)>& take) {
  const auto start = std::chrono::steady_clock::now();
  const std::function<double()> left = [&] {
    return options.time_limit - std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  SolveOptions so = options;
  so.method = Method::glpk;
  so.heuristic = false;          // the cutoff does its work: R and the leaves only need proofs
  so.milp_gomory_cuts = false;   // 1.3-2x faster relaxations on study 001's chapter 5 (docs/performance.md)
  LevelSearchResult out;
  double lower = p.floor();  // proven on every mapping on F devices better than the incumbent
  auto stop = [&](Status status, double bound) {
    out.status = status;
    out.bound = std::min(best, std::max(lower, bound));
    return out;
  };
  const std::vector<double> all = p.levels();
  double pool_top = 0.5 * p.ii;
  std::vector<std::pair<std::vector<double>, bool>> excluded;  // a multiset, and whether all below it too
  double cutoff = best;
  auto rebuild = [&] {  // also when the incumbent improves: its slack prunes homes
    auto rel = level_relaxation(p, all, pool_top, best);
    for (const auto& [set, and_below] : excluded) exclude_levels(*rel, set, and_below);
    if (std::isfinite(best)) rel->model.subject_to(rel->objective <= best, "cutoff");
    cutoff = best;
    return rel;
  };
  auto rel = rebuild();
  for (;;) {
    so.time_limit = left();
    if (so.time_limit <= 0) return stop(Status::time_limit, lower);
    if (best < cutoff) rel = rebuild();
    const Solution s = rel->model.solve(so);
    if (s.status() == Status::infeasible)  // nothing on F devices below the incumbent
      return stop(std::isfinite(best) ? Status::optimal : Status::infeasible, best);
    if (s.status() != Status::optimal) return stop(s.status(), std::isfinite(s.bound()) ? s.bound() : lower);
    lower = std::max(lower, s.objective());
    if (lower >= best * (1 - options.relative_gap)) return stop(Status::optimal, lower);
    if (rel->pooled && s.value(rel->devices_at.back()) > 0.5) {  // R used the pool: refine it
      pool_top *= 0.5;
      rel = rebuild();
      continue;
    }
    std::vector<double> levels;
    for (std::size_t l = 0; l < rel->levels.size(); ++l)
      for (long c = std::lround(s.value(rel->devices_at[l])); c > 0; --c) levels.push_back(rel->levels[l]);
    so.time_limit = left();
    if (so.time_limit <= 0) continue;  // reported above
    const auto leaf = level_leaf(p, levels, best);
    const Solution ls = leaf->model.solve(so);
    ++out.level_sets;
    if (ls.has_values()) {
      Mapping mp;
      mp.cus.assign(p.kernels.size(), std::vector<int>(std::size_t(p.columns), 0));
      for (std::size_t k = 0; k < p.kernels.size(); ++k)
        for (std::size_t f = 0; f < levels.size(); ++f) mp.cus[k][f] = int(std::lround(ls.value(leaf->cus[k][f])));
      best = take(mp);
    }
    if (ls.status() != Status::optimal && ls.status() != Status::infeasible)  // the multiset is not settled
      return stop(ls.status(), lower);
    so.time_limit = left();
    const bool misfit =
        ls.status() == Status::infeasible && (!std::isfinite(best) || !some_mapping_fits(p, levels, so));
    if (misfit) levels = widen_misfit(p, std::move(levels), all.front(), so, left);
    exclude_levels(*rel, levels, misfit);
    excluded.emplace_back(std::move(levels), misfit);
  }
}

}  // namespace ychart::pipeline::detail
