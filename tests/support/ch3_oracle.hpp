// tests/support/ch3_oracle.hpp
// An independent exact method for the CU allocation of study 001, chapter 3
// (Shan 2021, eqs. 3.1-3.10), in plain C++ (no ychart solver inside):
//   minimise alpha * II + beta * phi
//   s.t.  II >= WCET_k / N_k,  N_k = sum_f n_kf >= 1,  n_kf >= 0 integer,
//         sum_k n_kf R_kt <= cap        for every FPGA f and t in {BRAM, DSP, BW},
//         phi >= sum_f n_kf / (1 + n_kf) for every kernel k.
//
// The optimal II is WCET_k / N_k of some kernel k, so it is one of the
// candidates WCET_k / n, n = 1 .. (the most CUs of k that fit in F FPGAs).
// For a candidate II the fewest CUs are N_k = ceil(WCET_k / II), and II is
// reachable iff these CUs pack into F bins of cap percent per resource: a
// three-dimensional vector bin packing with multiplicities, decided by a
// depth-first search. Feasibility is monotone in II (drop CUs from a packing
// and it still packs), so exact_ii() binary-searches the sorted candidates.
//
// exact_weighted(): with II fixed at a candidate, extra CUs never help (every
// phi_k grows with every CU it gets), so the optimum is
//   min over candidates c of  alpha c + beta min_{packings of N(c)} phi,
// scanned upwards from the least feasible II with a branch and bound on phi.
#pragma once

#include "data/shan2021_ch3.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace ch3_oracle {

/// Absolute tolerance of a resource cap, in percent.
inline constexpr double cap_eps = 1e-9;

struct IiResult {
  bool feasible = false;
  double ii_ms = 0;                       // the optimal II (beta = 0)
  std::vector<int> total;                 // N_k of one optimal packing
  std::vector<std::vector<int>> per_fpga; // n_kf of that packing
  long nodes = 0;                         // search nodes, all feasibility checks together
};

struct WeightedResult {
  bool feasible = false;
  double objective = 0;  // alpha * II_ms + beta * phi
  double ii_ms = 0;
  double phi = 0;
  std::vector<int> total;
  std::vector<std::vector<int>> per_fpga;
  long nodes = 0;
};

inline std::array<double, 3> usage(const shan2021::Kernel& k) { return {k.bram_pct, k.dsp_pct, k.bw_pct}; }

/// The most CUs of k that one bin of `cap` percent holds.
inline int per_bin(const shan2021::Kernel& k, double cap) {
  int most = std::numeric_limits<int>::max();
  for (double r : usage(k))
    if (r > 0) {
      int n = static_cast<int>(std::floor((cap + cap_eps) / r));
      while (n > 0 && n * r > cap + cap_eps) --n;
      while ((n + 1) * r <= cap + cap_eps) ++n;
      most = std::min(most, n);
    }
  return most;
}

inline double spread(int n) { return n / (1.0 + n); }

/// phi_k of kernel k in a packing.
inline double spreading(const std::vector<int>& n_kf) {
  double s = 0;
  for (int n : n_kf) s += spread(n);
  return s;
}

/// The least phi_k of N CUs over F bins of at most p CUs each: fill bins
/// one at a time (sum_f n_f/(1+n_f) is smallest for the fewest, fullest bins).
inline double least_spreading(int N, int p, int F) {
  if (p <= 0 || N > static_cast<long>(p) * F) return std::numeric_limits<double>::infinity();
  return (N / p) * spread(p) + spread(N % p);
}

/// The fewest CUs of every kernel that reach a given II.
inline std::vector<int> fewest_cus(const std::vector<shan2021::Kernel>& stages, double ii_ms) {
  std::vector<int> N;
  for (const auto& k : stages) N.push_back(std::max(1, static_cast<int>(std::ceil(k.wcet_ms / ii_ms - 1e-9))));
  return N;
}

namespace detail {

/// Depth-first search over the packings of N_k CUs of every kernel into F
/// identical bins. Feasibility mode stops at the first packing; spreading
/// mode minimises phi = max_k phi_k below an upper bound.
class Packer {
 public:
  Packer(const std::vector<shan2021::Kernel>& stages, int F, double cap, std::vector<int> N, bool minimise_phi,
         double phi_upper)
      : K_(stages.size()), F_(F), cap_(cap), N_(std::move(N)), minimise_(minimise_phi), upper_(phi_upper) {
    // Largest DSP first, then the largest other resources.
    order_.resize(K_);
    std::iota(order_.begin(), order_.end(), std::size_t{0});
    std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) {
      const auto ra = usage(stages[a]), rb = usage(stages[b]);
      if (ra[1] != rb[1]) return ra[1] > rb[1];
      return ra[0] + ra[2] > rb[0] + rb[2];
    });
    for (std::size_t i = 0; i < K_; ++i) {
      r_.push_back(usage(stages[order_[i]]));
      n_.push_back(N_[order_[i]]);
      p_.push_back(per_bin(stages[order_[i]], cap));
    }
    // Resource still needed by kernels i.. and the least phi they can have.
    need_.assign(K_ + 1, {0, 0, 0});
    least_.assign(K_ + 1, 0.0);
    for (std::size_t i = K_; i-- > 0;) {
      for (int t = 0; t < 3; ++t) need_[i][t] = need_[i + 1][t] + n_[i] * r_[i][t];
      least_[i] = std::max(least_[i + 1], least_spreading(n_[i], p_[i], F_));
    }
    load_.assign(F_, {0, 0, 0});
    assign_.assign(K_, std::vector<int>(F_, 0));
  }

  /// Runs the search; true if a packing (with phi < the upper bound) exists.
  bool run() {
    for (std::size_t i = 0; i < K_; ++i)
      if (n_[i] > static_cast<long>(p_[i]) * F_) return false;
    kernel(0, 0.0);
    return found_;
  }

  double best_phi() const { return best_phi_; }
  long nodes() const { return nodes_; }
  /// n_kf of the packing found, in the caller's kernel order.
  std::vector<std::vector<int>> packing() const {
    std::vector<std::vector<int>> out(K_);
    for (std::size_t i = 0; i < K_; ++i) out[order_[i]] = best_[i];
    return out;
  }

 private:
  static constexpr double tol = 1e-12;

  // The most CUs of kernel i that the remaining room of bin f holds.
  int room(std::size_t i, int f) const {
    int most = p_[i];
    for (int t = 0; t < 3; ++t)
      if (r_[i][t] > 0) {
        int n = static_cast<int>(std::floor((cap_ - load_[f][t] + cap_eps) / r_[i][t])) + 1;
        while (n > 0 && load_[f][t] + n * r_[i][t] > cap_ + cap_eps) --n;
        most = std::min(most, std::max(n, 0));
      }
    return most;
  }

  // Returns true when the search should stop (feasibility mode: found).
  bool kernel(std::size_t i, double phi_max) {
    ++nodes_;
    if (i == K_) {
      found_ = true;
      best_ = assign_;
      best_phi_ = phi_max;
      upper_ = phi_max;
      return !minimise_ || phi_max <= least_[0] + tol;  // cannot do better than the bound
    }
    // The room left in all bins must hold what kernels i.. still need.
    for (int t = 0; t < 3; ++t) {
      double free = 0;
      for (int f = 0; f < F_; ++f) free += cap_ - load_[f][t];
      if (need_[i][t] > free + F_ * cap_eps) return false;
    }
    if (minimise_ && std::max(phi_max, least_[i]) >= upper_ - tol) return false;
    // Bins loaded alike so far are interchangeable: counts non-increasing across them.
    std::vector<int> twin(F_, -1);
    for (int f = 1; f < F_; ++f)
      for (int g = f - 1; g >= 0; --g)
        if (load_[g] == load_[f]) {
          twin[f] = g;
          break;
        }
    std::vector<int> fit(F_);
    for (int f = 0; f < F_; ++f) fit[f] = room(i, f);
    std::vector<int> fit_after(F_ + 1, 0);
    for (int f = F_; f-- > 0;) fit_after[f] = fit_after[f + 1] + fit[f];
    if (fit_after[0] < n_[i]) return false;
    return distribute(i, 0, n_[i], 0.0, phi_max, twin, fit, fit_after);
  }

  bool distribute(std::size_t i, int f, int left, double phi_k, double phi_max, const std::vector<int>& twin,
                  const std::vector<int>& fit, const std::vector<int>& fit_after) {
    int hi = std::min(left, fit[f]);
    if (twin[f] >= 0) hi = std::min(hi, assign_[i][twin[f]]);
    const int lo = std::max(0, left - fit_after[f + 1]);
    if (f == F_ - 1 && left > hi) return false;
    for (int n = hi; n >= lo; --n) {
      if (f == F_ - 1 && n != left) break;
      const double phi_here = phi_k + spread(n);
      // The rest of this kernel's CUs add at least spread(left - n) (n/(1+n) is subadditive).
      if (minimise_ && std::max(phi_max, phi_here + spread(left - n)) >= upper_ - tol) continue;
      assign_[i][f] = n;
      for (int t = 0; t < 3; ++t) load_[f][t] += n * r_[i][t];
      bool stop;
      if (left - n == 0) {
        for (int g = f + 1; g < F_; ++g) assign_[i][g] = 0;
        stop = kernel(i + 1, std::max(phi_max, phi_here));
      } else {
        stop = distribute(i, f + 1, left - n, phi_here, phi_max, twin, fit, fit_after);
      }
      for (int t = 0; t < 3; ++t) load_[f][t] -= n * r_[i][t];
      assign_[i][f] = 0;
      if (stop) return true;
    }
    return false;
  }

  std::size_t K_;
  int F_;
  double cap_;
  std::vector<int> N_;
  bool minimise_;
  double upper_;
  std::vector<std::size_t> order_;
  std::vector<std::array<double, 3>> r_;
  std::vector<int> n_, p_;
  std::vector<std::array<double, 3>> need_;
  std::vector<double> least_;
  std::vector<std::array<double, 3>> load_;
  std::vector<std::vector<int>> assign_, best_;
  bool found_ = false;
  double best_phi_ = std::numeric_limits<double>::infinity();
  long nodes_ = 0;
};

/// Every candidate II (ms), ascending, without duplicates.
inline std::vector<double> candidates(const std::vector<shan2021::Kernel>& stages, int F, double cap) {
  std::vector<double> c;
  for (const auto& k : stages) {
    const int most = per_bin(k, cap) * F;
    for (int n = 1; n <= most; ++n) c.push_back(k.wcet_ms / n);
  }
  std::sort(c.begin(), c.end());
  c.erase(std::unique(c.begin(), c.end(), [](double a, double b) { return std::abs(a - b) <= 1e-12 * b; }),
          c.end());
  return c;
}

}  // namespace detail

/// The optimal II in ms for beta = 0, with one optimal packing; or infeasible.
inline IiResult exact_ii(const std::vector<shan2021::Kernel>& stages, int F, double cap) {
  IiResult out;
  for (const auto& k : stages)
    if (per_bin(k, cap) < 1) return out;  // not even one CU fits an empty FPGA
  const auto c = detail::candidates(stages, F, cap);
  auto check = [&](double ii, std::vector<std::vector<int>>* packing) {
    detail::Packer p(stages, F, cap, fewest_cus(stages, ii), false, 0);
    const bool ok = p.run();
    out.nodes += p.nodes();
    if (ok && packing) *packing = p.packing();
    return ok;
  };
  // The largest candidate (one CU of every kernel) is the last chance.
  if (!check(c.back(), nullptr)) return out;
  // Invariant: c[hi] is feasible, c[lo - 1] (if any) is not.
  std::size_t lo = 0, hi = c.size() - 1;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (check(c[mid], nullptr)) hi = mid;
    else lo = mid + 1;
  }
  out.feasible = true;
  out.ii_ms = c[hi];
  check(c[hi], &out.per_fpga);
  out.total = fewest_cus(stages, c[hi]);
  return out;
}

/// The optimum of alpha * II_ms + beta * phi (beta >= 0), or infeasible.
inline WeightedResult exact_weighted(const std::vector<shan2021::Kernel>& stages, int F, double cap, double alpha,
                                     double beta) {
  WeightedResult out;
  const auto first = exact_ii(stages, F, cap);
  out.nodes = first.nodes;
  if (!first.feasible) return out;
  out.objective = std::numeric_limits<double>::infinity();
  const auto c = detail::candidates(stages, F, cap);
  for (double ii : c) {
    if (ii < first.ii_ms * (1 - 1e-12)) continue;
    // phi >= 1/2 always (every kernel has a CU somewhere).
    if (alpha * ii + beta * 0.5 >= out.objective) break;
    const auto N = fewest_cus(stages, ii);
    double least = 0;
    for (std::size_t k = 0; k < stages.size(); ++k)
      least = std::max(least, least_spreading(N[k], per_bin(stages[k], cap), F));
    if (alpha * ii + beta * least >= out.objective) continue;
    const double upper = beta > 0 ? (out.objective - alpha * ii) / beta : std::numeric_limits<double>::infinity();
    detail::Packer p(stages, F, cap, N, true, upper);
    const bool ok = p.run();
    out.nodes += p.nodes();
    if (!ok) continue;
    const double value = alpha * ii + beta * p.best_phi();
    if (value < out.objective) {
      out.feasible = true;
      out.objective = value;
      out.ii_ms = ii;
      out.phi = p.best_phi();
      out.total = N;
      out.per_fpga = p.packing();
    }
  }
  return out;
}

}  // namespace ch3_oracle
