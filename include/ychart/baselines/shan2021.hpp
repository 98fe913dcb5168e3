// ychart/baselines/shan2021.hpp
//
// The allocation heuristics of study 001 (J. Shan, "Performance and Power
// Optimization of Multi-kernel Applications on Multi-FPGA Platforms", PhD
// thesis, Politecnico di Torino, 2021), as plain C++20 over the standard
// library. They are the thesis's baselines, which ychart's exact and relaxed
// models are compared against:
//
//   allocate_cus      Algorithm 1 (ch. 3): greedy CU allocation.
//   gp_plus_a_ch3     ch. 3 GP+A driver: floor/ceil enumeration of the GP's
//                     real CU counts N^_k (the caller solves the GP), then
//                     Algorithm 1; minimum II, then minimum spreading phi.
//   kernel_groups     the sorted, pruned kernel groups of Algorithm 2 (Fig. 4.6(a)).
//   allocate_groups   Algorithm 2 (ch. 4): kernel-group allocation.
//   allocate_kernels  Algorithm 3 (ch. 4): individual-kernel allocation.
//   gp_plus_a_ch4     ch. 4 GP+A driver: per-type floor/ceil enumeration, then
//                     Algorithms 2 and 3; minimum of a caller-supplied II model.
//   Rerun             both drivers' fallback (digest 3.4): when nothing is
//                     allocated at R, all of GP+A, the GP included (through
//                     a caller-supplied GP), is re-run at R + T_max, R + 2 T_max, ...
//   cu_min, f_min     eqs. (6.7), (6.8).
//   h2_allocate       Algorithm 4 (ch. 6, heuristic H2): 2^K enumeration of
//                     CU_min_k + {0,1}, then greedy forward/backward packing.
//
// The printed listings do not run as printed. These implementations follow
// the "re-implementable versions" in the study digest (seeds/001_shan.md,
// sections 2.5, 3.4-3.6 and 5.3) and apply its errata:
//   Algorithm 1 (digest 2.5, errata 1-7):
//     1. "allocate large kernels" and "allocate all kernels" are two
//        sequential loops, not nested ones.
//     2. The fallback runs after the "while f <= F" loop and uses the slack of
//        the FPGA with the most slack, S_F.
//     3. R_c is used wherever the listing writes R inside the loop, and the
//        state (CU, S, n) is restarted at every pass.
//     4. The "while CU_k R_k > R" loop is bounded by f <= F.
//     4b. The outer guard is R_c <= R + T, so T = 0 still runs one pass.
//     5. FPGAs are sorted through an index permutation, so that n[k][f]
//        always names a physical FPGA.
//     6. Resources are vectors: "S >= CU R" holds for every type, and
//        floor(R/R_k) = min over types t with R_kt > 0 of floor(R_t/R_kt)
//        (types a CU does not use are ignored).
//     7. Kernels go in descending order of the criticality the caller gives,
//        with a tie-break.
//   Algorithm 2 (digest 3.5):
//     - Groups are the runs of >= 2 consecutive stages.
//     - data(g) is the sum of DI_k over all kernels of g except the first.
//     - res(g) is the sum over k in g of N_k R_k.
//     - Groups with res(g) > R are pruned.
//     - A group that contains an already placed kernel is skipped, and the
//       FPGA scan stops after a group is placed.
//   Algorithm 3 (digest 3.6): the soft bound R_c runs from R to R + T in steps
//     of Delta. It is applied to the slack (S_f = S_f^0 + (R_c - R)), and every
//     pass restarts from the state that Algorithm 2 left.
//   Algorithm 4 (digest 5.3):
//     - floor(S_f / R_k) replaces the printed floor(S_f / CU_k) (lines 27, 45).
//     - n_kf += dCU replaces n_kf = dCU (line 43).
//     - k >= 0 replaces k > 0 (line 37).
//     - The resource prune keeps the printed strict "<" (line 9).
// Our own choices, which the thesis leaves open:
//   - With several resource types, "ascending slack" means ascending
//     sum_t S_ft / R_ct (mean free fraction). Ties go to the lower FPGA index.
//   - Groups are sorted by data descending, then by more kernels, then by
//     lower first index.
//   - The enumeration order of the GP+A drivers is described at each driver.
//     The first-found wins exact ties.
//   - Capacity comparisons allow tolerances::allowance(bound) (1e-9 * max(1,
//     |bound|), model/tolerances.hpp) for rounding, so that
//     e.g. three CUs of 0.1 fit a slack of 0.3 although 3 * 0.1 > 0.3 in binary.
//   - H2 falls back to F_min + 1, ..., F_max when no combination fits F_min
//     FPGAs. The thesis does not say what happens in that case.
//
// Termination. Every loop is a for-loop over a finite range: soft-bound passes
// (floor(T / Delta) + 1), kernels, FPGAs, groups (K(K-1)/2), enumeration
// leaves (at most 2^K), and H2's fill loops. In each fill-loop iteration
// either the kernel cursor moves or the loop breaks to the next FPGA. No loop
// waits for the data to make progress, so a CU larger than the capacity
// cannot cause an infinite loop.
//
// Standard library only: the heuristics work on plain numbers (resource use
// in % of one FPGA, times in ms) as the thesis states them, so they can be
// checked line by line against its listings. The exact models they are
// compared with are in pipeline/ (and H1, the restricted power model, in
// baselines/shan2021_h1.hpp).
#pragma once

#include "../config.hpp"
#include "../model/tolerances.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ychart::baselines::shan2021 {

using Allocation = std::vector<std::vector<int>>;  // n[stage][fpga]

struct PackItem {
  std::vector<double> use;  // per resource type, % of one FPGA, one CU
};

namespace detail {


/// count * use_t <= slack_t (+ tolerance) for every type t.
YCHART_DECL bool fits(const std::vector<double>& use, long long count, const std::vector<double>& slack);

/// The largest d with d * use_t <= slack_t (+ tolerance) for every type with
/// use_t > 0: min over those types of floor(slack_t / use_t). Types the CU does
/// not use are ignored; `unbounded` if it uses none.
inline constexpr long long unbounded = std::numeric_limits<int>::max();
YCHART_DECL long long fit_count(const std::vector<double>& use, const std::vector<double>& slack);

YCHART_DECL void take(std::vector<double>& slack, const std::vector<double>& use, long long count);

/// Nothing is placed on an FPGA whose slack equals the bound for every type.
YCHART_DECL bool is_empty(const std::vector<double>& slack, const std::vector<double>& bound);

/// FPGA indices, most occupied first: ascending sum_t slack_t / bound_t. The
/// key is rounded to 1e-9 so that rounding noise does not reorder FPGAs that
/// are equally full; ties go to the lower index.
YCHART_DECL std::vector<int> by_ascending_slack(const std::vector<std::vector<double>>& slack,
                                    const std::vector<double>& bound);

/// Indices by descending key, then descending tie (if given), then ascending index.
YCHART_DECL std::vector<int> by_descending(const std::vector<double>& key, const std::vector<double>& tie);

YCHART_DECL void require(bool condition, const char* what);

YCHART_DECL void check_items(const std::vector<PackItem>& items, const std::vector<double>& cap);

/// Number of soft-bound passes: R_c = R, R + Delta, ... while R_c <= R + T.
YCHART_DECL long long soft_bound_passes(double T, double delta);

/// True if a single CU of a kernel exceeds cap + T on some type.
YCHART_DECL bool cu_exceeds(const PackItem& item, const std::vector<double>& cap, double T);

/// The common core of Algorithms 1 and 3 (Algorithm 1 is Algorithm 3 started
/// from empty FPGAs). cu0, slack0, n0 is the state to restart from at every
/// pass; slack0 is relative to `cap`.
YCHART_DECL std::optional<Allocation> allocate_kernels_core(const std::vector<int>& cu0,
                                                const std::vector<std::vector<double>>& slack0,
                                                const Allocation& n0, const std::vector<PackItem>& items,
                                                const std::vector<double>& cap, double T, double delta,
                                                const std::vector<int>& order);

/// Floor/ceil candidates of a GP count: {max(1, floor x), max(1, ceil x)},
/// one value when x is within 1e-9 (relative) of an integer.
YCHART_DECL std::vector<int> rounding_candidates(double x);

}  // namespace detail

// ---------------------------------------------------------------------------
// Chapter 3
// ---------------------------------------------------------------------------

/// II = max_k wcet_k / N_k, eqs. (3.1)-(3.2).
YCHART_DECL double ii_ch3(const std::vector<double>& wcet, const std::vector<int>& N);

/// Spreading phi = max_k sum_f n_kf / (1 + n_kf), eqs. (3.4), (3.7).
YCHART_DECL double spreading(const Allocation& n);

/// Algorithm 1 with errata 1-7. The inputs are:
///   - items: the per-CU use of every resource type, in % of one FPGA;
///   - N: the CUs to allocate per stage;
///   - cap: the per-FPGA bound R, one entry per type, in %;
///   - F: the number of FPGAs;
///   - T, delta: the soft bound runs R_c = R, R + delta, ... <= R + T (in %
///     points, added to every type's bound);
///   - criticality: a higher value is allocated first; ties go to the higher
///     tie_break value, then to the lower index.
/// Returns n[k][f]. Returns nullopt when the passes leave some CU unplaced,
/// including when a single CU of a kernel with N_k > 0 exceeds cap + T.
YCHART_DECL std::optional<Allocation> allocate_cus(const std::vector<PackItem>& items, const std::vector<int>& N,
                                       const std::vector<double>& cap, int F, double T, double delta,
                                       const std::vector<double>& criticality,
                                       const std::vector<double>& tie_break = {});

struct Ch3Result {
  Allocation n;                      // n[stage][fpga]
  std::vector<int> N;                // CUs per stage
  double ii = 0;                     // max_k wcet_k / N_k
  double phi = 0;                    // max_k sum_f n/(1+n)
  long long allocations_tried = 0;   // leaves on which Algorithm 1 ran
  int reruns = 0;                    // fallback re-runs it took (Rerun); 0: found at R
  std::vector<double> cap_used;      // the cap it was found at, R + reruns x T_max (the Rerun overload)
};

/// Chapter-3 GP+A. n_hat holds the GP's real CU counts N^_k (eqs.
/// 3.14-3.21), which the caller computes. The driver enumerates every N_k in
/// {max(1, floor N^_k), ceil N^_k} depth first, stage by stage, trying ceil
/// before floor. It prunes a branch when sum_k N_k R_kt > F cap_t for some
/// type (resources are non-negative, so partial sums bound the leaves). It
/// also prunes a branch whose partial II already exceeds the best II found,
/// which is the thesis's cost pruning. On each leaf it runs Algorithm 1 with
/// criticality wcet_k / N^_k (the GP's ET_k) and tie-break wcet_k / N_k. It
/// keeps the smallest II; equal IIs go to the smaller phi; the first found
/// wins exact ties. Returns nullopt if no leaf is allocated. The thesis then
/// re-runs everything at a looser R: the overload with a Rerun below.
YCHART_DECL std::optional<Ch3Result> gp_plus_a_ch3(const std::vector<PackItem>& items, const std::vector<double>& wcet,
                                       const std::vector<double>& n_hat, const std::vector<double>& cap,
                                       int F, double T, double delta);

// ---------------------------------------------------------------------------
// Chapter 4
// ---------------------------------------------------------------------------

struct KernelGroup {
  int first = 0;             // first stage of the run (0-based)
  int last = 0;              // last stage of the run, inclusive (last > first)
  double data = 0;           // sum of DI_k for k = first+1 .. last
  std::vector<double> use;   // res(g) = sum_{k in g} N_k R_k, per type
};

/// Algorithm 2's candidate list: every run of >= 2 consecutive stages whose
/// resources fit one FPGA (res(g) <= cap for every type). The list is sorted by
/// data descending, then by more stages, then by lower first stage. di[0] is
/// never used, because a group's first kernel receives its input from outside.
YCHART_DECL std::vector<KernelGroup> kernel_groups(const std::vector<PackItem>& items, const std::vector<int>& N,
                                       const std::vector<double>& cap, const std::vector<double>& di);

/// What Algorithm 2 hands to Algorithm 3.
struct GroupAllocation {
  std::vector<int> cu;                        // CUs still to allocate per stage
  std::vector<std::vector<double>> slack;     // S[f][t], relative to cap
  Allocation n;                               // n[stage][fpga] placed so far
  std::vector<KernelGroup> placed;            // groups placed, in placement order
  std::vector<int> placed_on;                 // the FPGA of each placed group
};

/// Algorithm 2 with the digest's errata. The sorted groups are tried in
/// order. A group containing an already placed stage is skipped. Otherwise it
/// goes whole (all N_k CUs of each of its stages) on the first FPGA, in
/// ascending-slack order, that has room; the scan stops there and the FPGAs
/// are re-sorted.
YCHART_DECL GroupAllocation allocate_groups(const std::vector<PackItem>& items, const std::vector<int>& N,
                                const std::vector<double>& cap, int F, const std::vector<double>& di);

/// Algorithm 3, the digest's re-implementable version. It starts from
/// Algorithm 2's state; criticality and tie_break work as in allocate_cus.
/// Each pass R_c = R + s, s = 0, delta, ... <= T, restarts from that state
/// with every slack raised by s. Returns nullopt when no pass places every CU.
YCHART_DECL std::optional<Allocation> allocate_kernels(const GroupAllocation& groups, const std::vector<PackItem>& items,
                                           const std::vector<double>& cap, double T, double delta,
                                           const std::vector<double>& criticality,
                                           const std::vector<double>& tie_break = {});

struct Ch4Result {
  Allocation n;                      // n[stage][fpga]
  std::vector<int> N;                // CUs per stage (equal within a type)
  double ii = 0;                     // the caller's II of n
  long long leaves = 0;              // combinations that passed the resource prune
  long long allocations = 0;         // leaves that Algorithms 2 + 3 allocated (II evaluated)
  int reruns = 0;                    // fallback re-runs it took (Rerun); 0: found at R
  std::vector<double> cap_used;      // the cap it was found at, R + reruns x T_max (the Rerun overload)
};

/// Chapter-4 GP+A. Stages of one type share N_k, so the driver enumerates
/// per type. The inputs are:
///   - n_hat_of_type[m]: the GP's real CU count of type m;
///   - type_of_stage[k] in 0..M-1;
///   - tc1: the single-CU compute times, which give the criticality
///     TC^_k = TC1_k / N^_k and the tie-break TC1_k / N_k;
///   - di: the stage inputs, for the groups;
///   - ii_of: the caller's full chapter-4 II model (eqs. 4.5-4.29), evaluated
///     on each allocated leaf.
/// Enumeration is depth first over types 0..M-1, ceil before floor. A branch
/// is pruned when sum_k N_k R_kt > F cap_t for some type. Each leaf runs
/// allocate_groups, then allocate_kernels. The driver keeps the strictly
/// smallest II; the first found wins ties. Returns nullopt if no leaf is
/// allocated. The thesis then re-runs at R + T_max: the overload with a Rerun below.
YCHART_DECL std::optional<Ch4Result> gp_plus_a_ch4(const std::vector<PackItem>& items, const std::vector<double>& tc1,
                                       const std::vector<double>& di, const std::vector<int>& type_of_stage,
                                       const std::vector<double>& n_hat_of_type, const std::vector<double>& cap,
                                       int F, double T, double delta,
                                       const std::function<double(const Allocation&)>& ii_of);

// ---------------------------------------------------------------------------
// The GP+A fallback (chapters 3 and 4)
// ---------------------------------------------------------------------------

/// Digest 3.4: "if no discretization can be allocated, R was too tight, and
/// all of GP+A is re-run with the looser constraint R + T_max"; T_max is not
/// defined. Our reading: level k = 0, 1, ..., max_reruns runs all of GP+A
/// (the GP, the floor/ceil enumeration and its pruning, the allocation) at
/// R + k T_max on every type, and the first level that allocates wins. A GP
/// infeasible at a level allocates nothing there either, so it also moves on.
/// A level whose cap passes max_cap on some type is not run (100: one
/// whole FPGA; a chapter-4 caller passes 100 - T, so R_c stays on the device).
/// The result breaks R unless it happens to fit: the callers report its
/// cap_used and its use.
struct Rerun {
  double t_max = 1.0;   // % points per re-run (ours: 1 %, as the chapter-4 T and Delta)
  int max_reruns = 10;  // 0: plain GP+A
  double max_cap = std::numeric_limits<double>::infinity();
};

/// The GP of a GP+A driver at a given cap (one entry per type, %): the real
/// CU counts (per stage in chapter 3, per type in chapter 4), or nullopt
/// when the GP is infeasible at that cap.
using GpOfCap = std::function<std::optional<std::vector<double>>(const std::vector<double>& cap)>;

namespace detail {

/// The levels of a Rerun: run(cap_k) for k = 0, 1, ..., the first result wins.
template <class Result, class Run>
std::optional<Result> with_reruns(const std::vector<double>& cap, const Rerun& rerun, Run run) {
  require(std::isfinite(rerun.t_max) && rerun.t_max > 0, "Rerun::t_max must be finite and > 0");
  require(rerun.max_reruns >= 0 && rerun.max_reruns <= 1000000, "Rerun::max_reruns must be in 0..10^6");
  require(!std::isnan(rerun.max_cap), "Rerun::max_cap must not be NaN");
  for (int k = 0; k <= rerun.max_reruns; ++k) {
    std::vector<double> level = cap;
    bool over = false;
    for (double& c : level) {
      c += k * rerun.t_max;
      over = over || c > rerun.max_cap + tolerances::allowance(rerun.max_cap);
    }
    if (k > 0 && over) break;  // the caps only grow: no later level is allowed either
    if (auto r = run(level)) {
      r->reruns = k;
      r->cap_used = level;
      return r;
    }
  }
  return std::nullopt;
}

}  // namespace detail

/// Chapter-3 GP+A with the thesis's fallback: gp_plus_a_ch3 above at
/// R + k T_max, k = 0, 1, ... (Rerun), with the GP re-solved by `gp` at
/// each level. Ch3Result::reruns and ::cap_used say where it was found.
YCHART_DECL std::optional<Ch3Result> gp_plus_a_ch3(const std::vector<PackItem>& items, const std::vector<double>& wcet,
                                       const GpOfCap& gp, const std::vector<double>& cap, int F, double T,
                                       double delta, const Rerun& rerun);

/// Chapter-4 GP+A with the thesis's fallback: gp_plus_a_ch4 above at
/// R + k T_max, k = 0, 1, ... (Rerun), with the GP re-solved by `gp` (one
/// count per type) at each level. ii_of is called on each level's leaves.
YCHART_DECL std::optional<Ch4Result> gp_plus_a_ch4(const std::vector<PackItem>& items, const std::vector<double>& tc1,
                                       const std::vector<double>& di, const std::vector<int>& type_of_stage,
                                       const GpOfCap& gp, const std::vector<double>& cap, int F, double T,
                                       double delta, const std::function<double(const Allocation&)>& ii_of,
                                       const Rerun& rerun);

// ---------------------------------------------------------------------------
// Chapter 6
// ---------------------------------------------------------------------------

namespace detail {

/// Eq. (6.7) in the thesis's plain numbers (ms), for H2's packing:
/// pipeline::minimum_cus, which rounds with tolerances::ceil, so that a
/// quotient computed as 4.0000000000000004 is not rounded up to 5. Typed
/// callers use pipeline::minimum_cus.
YCHART_DECL int cu_min(double twc, double ii_max);

YCHART_DECL std::vector<int> cu_min(const std::vector<double>& twc, double ii_max);

/// Eq. (6.8) in the thesis's plain numbers, for H2's packing: F_min =
/// max_t ceil(sum_k R_kt CU_min_k / R_t), at least 1, as
/// pipeline::devices_to_hold of the needs. A type with R_t = 0 that some CU
/// uses throws. Typed callers use pipeline::minimum_devices.
YCHART_DECL int f_min(const std::vector<PackItem>& items, const std::vector<int>& cu_min_k,
          const std::vector<double>& cap);

}  // namespace detail

struct H2Result {
  Allocation n;                          // n[stage][fpga], fpgas columns
  std::vector<int> N;                    // CU_min_k + extraCU_k
  double power = 0;                      // power(n)
  double transfer_time = 0;              // transfer_time(n)
  int fpgas = 0;                         // F used (F_min unless the fallback was needed)
  int f_min = 0;                         // F_min of eq. (6.8)
  long long combinations_tried = 0;      // masks enumerated, over all F tried
  long long combinations_accepted = 0;   // masks packed and passing the transfer filter (power evaluated)
};

/// Algorithm 4 (heuristic H2), the digest's re-implementable version with
/// its errata. The inputs are:
///   - twc: the single-CU times;
///   - items: every resource type's per-CU use; all types enter F_min,
///     eq. (6.8);
///   - pack_type: the type that drives packing (DSP in the thesis);
///   - cap: the per-FPGA bound of each type, in %;
///   - ii_max: the throughput target;
///   - f_max: the most FPGAs available.
/// For F = F_min, the driver runs, for every mask in 0 .. 2^K - 1 (bit k means
/// extraCU_k = 1):
///   1. N_k = CU_min_k + bit_k, and reject the mask unless
///      sum_k N_k R_k < F R (strict, line 9);
///   2. forward-fill FPGAs 0..F-1 with kernels in descending Twc_k / CU_min_k
///      order (ties go to the lower index);
///   3. backward-fill the unplaced tail from FPGA F-1 down;
///   4. reject the mask if a CU is left, or if
///      transfer_time(n) >= II_max (line 54);
///   5. otherwise evaluate power(n) and keep the strictly lowest; the first
///      found wins ties.
/// If no mask is accepted at F_min, F_min+1, ..., f_max are tried in turn.
/// That fallback is ours. Only pack_type is checked against its cap during
/// packing, as in the thesis. Returns nullopt if no F <= f_max yields an
/// accepted allocation.
YCHART_DECL std::optional<H2Result> h2_allocate(const std::vector<double>& twc, const std::vector<PackItem>& items,
                                    std::size_t pack_type, const std::vector<double>& cap, double ii_max,
                                    int f_max, const std::function<double(const Allocation&)>& transfer_time,
                                    const std::function<double(const Allocation&)>& power);

}  // namespace ychart::baselines::shan2021

#if YCHART_HEADER_ONLY
#include "impl/shan2021.ipp"
#endif
