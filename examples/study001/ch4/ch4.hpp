// examples/study001/ch4/ch4.hpp
// Study 001, chapter 4 (J. Shan, PhD thesis, Politecnico di Torino, 2021):
// the enhanced II model (host-to-FPGA + execution with DDR contention and
// clock degradation + FPGA-to-host). The computations behind the example
// (main.cpp), the benchmark (benchmarks/bench_study001.cpp) and the tests:
// one sweep point per call.
#pragma once

#include "../common/study.hpp"
#include <ychart/baselines/shan2021.hpp>
#include <ychart/io/svg.hpp>
#include <ychart/io/table.hpp>
#include <ychart/pipeline/placement_search.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace study001::ch4 {

using namespace ychart;
using namespace ychart::pipeline;
using study001::App;
using study001::Arch;
using study001::not_a_number;

struct Case {
  std::string id, title, file;
  int fpgas;
};

/// The six cases of sec. 4.4 (Tables 4.3-4.8).
extern const std::vector<Case> cases;

/// The chapter-4 kernel tables: TC1_k is the wcet, F1_k the clock it was measured at.
KernelColumns kernel_columns();

/// The constants the thesis does not give (examples/study001/README.md);
/// every one is a command-line option of the example.
struct Parameters {
  double threshold = 1.0;  // GP+A soft bound T (%, sec. 4.4: T = 1 %)
  double step = 1.0;       // GP+A soft-bound step Delta (%)
  double time_limit = 1.0;  // seconds per exact solve; beyond it a bound and a gap
  double placement_time_limit = 10.0;  // seconds for the placement search per point
  // GP+A's fallback (digest 3.4): where it allocates nothing at R, all of it
  // is re-run at R + k T_max, k = 1..max_reruns, while R + k T_max + T <= 100 %.
  double t_max = 1.0;  // % (the thesis does not give T_max; ours is T's value)
  int max_reruns = 10;  // 0: plain GP+A only
};

/// The full chapter-4 timing (eqs. 4.5-4.29).
EvaluationOptions<FpgaResources> enhanced(double cap);

/// One mapping under the enhanced model.
struct Outcome {
  double ii_ms = not_a_number, h2f_ms = not_a_number, exe_ms = not_a_number, f2h_ms = not_a_number;
  double max_dsp = not_a_number;  // the most used FPGA's DSP, % (GP+A's soft bound may pass the cap)
  double max_use = not_a_number;  // the most used resource of the most used FPGA, %
  double seconds = not_a_number;
  bool within_cap = false;
  Mapping mapping;
};

Outcome priced(const App& app, const Arch& arch, const Mapping& m, double cap);

struct Point {
  double cap = 0;
  double gp_ii_ms = not_a_number;  // the GP relaxation: compute only, real CU counts (eqs. 4.30-4.36)
  double bound_ms = not_a_number;  // proven lower bound on the enhanced II of every mapping within the cap
  bool bound_proven = false;       // the bound model was solved to optimality
  double bound_seconds = not_a_number;
  Outcome exact;       // the bound model's optimal mapping, priced by the enhanced model
  Outcome gpa;         // GP+A (Algorithms 2-3) under the enhanced model
  // Where GP+A allocates nothing at the cap: its fallback, all of GP+A re-run
  // at cap + k T_max (ychart::baselines::shan2021::Rerun), priced against the plotted cap (so
  // within_cap says whether it happens to fit). Not counted in best().
  Outcome gpa_rerun;
  double gpa_rerun_cap = not_a_number;  // cap + k T_max
  int gpa_reruns = 0;                   // k
  Outcome simplified;  // the chapter-3 optimum (compute only), priced by the enhanced model
  Outcome improved;    // local search on the enhanced model from the best of those (or first fit)
  // The placement search (pipeline/placement_search.hpp) from the best of
  // those: the least II, proven, or infeasibility proven, or at its time
  // limit the best mapping found.
  Outcome placement;
  Status placement_status = Status::time_limit;

  /// The fastest mapping within the cap (the first of equals, in the order
  /// above), its II, the method that found it, and its distance to the bound.
  const Outcome* best() const {
    const Outcome* b = nullptr;
    for (const auto* o : {&exact, &gpa, &simplified, &improved, &placement})
      if (o->within_cap && (!b || o->ii_ms < b->ii_ms)) b = o;
    return b;
  }
  double best_ms() const { return best() ? best()->ii_ms : not_a_number; }
  std::string best_method() const {
    const auto* b = best();
    return !b                ? ""
           : b == &exact      ? "bound model"
           : b == &gpa        ? "GP+A"
           : b == &simplified ? "simplified"
           : b == &improved   ? "local search"
                              : "placement search";
  }
  /// The best proven lower bound: the optimum where the placement search
  /// proved it, else the bound model's bound.
  double proven_bound_ms() const {
    return placement_status == Status::optimal ? placement.ii_ms : bound_ms;
  }
  double gap() const { return (best_ms() - proven_bound_ms()) / best_ms(); }  // NaN when either is missing
  /// Proven optimal, proven infeasible, or neither.
  std::string proof() const {
    return placement_status == Status::optimal      ? "optimal"
           : placement_status == Status::infeasible ? "infeasible"
           : bound_proven && std::isnan(bound_ms)   ? "infeasible"
                                                    : "no";
  }
};

/// A lower bound on the enhanced II (mapping_model.hpp): transfers with
/// locality exact, execution bounded by the memory ports and the busiest
/// device's clock degradation. Its optimum is a proven bound; its mapping,
/// priced exactly, an upper bound.
MappingModel bound_model(const App& app, const Arch& arch, double cap);

/// GP+A of sec. 4.3 with its fallback: the GP's CU counts (one per kernel
/// type), floor/ceil per type, Algorithms 2 and 3 at each leaf, the
/// enhanced II to choose; where nothing is allocated, all of it again at
/// cap + k T_max. `gp_ii_ms` is the GP's II at the cap (NaN: infeasible).
struct GpPlusA {
  Outcome outcome;  // priced against `cap`
  int reruns = 0;   // 0: found at the cap
  double cap_used = not_a_number;
  bool found = false;
};

GpPlusA gp_plus_a(const App& app, const Arch& arch, double cap, double gp_ii_ms, const Parameters& p);

Point solve_point(const App& app, const Arch& arch, double cap, const Parameters& p);

/// Runs the placement search of `pt` again from `incumbent` (or none),
/// replacing pt.placement and its status.
void run_placement_search(const App& app, const Arch& arch, double cap, const Parameters& p, Point& pt,
                          const std::optional<Mapping>& incumbent);

/// On more devices, a mapping found for fewer is still a mapping (the extra
/// devices stay empty). Where `fewer`, padded, beats the best of an
/// unproven point, runs its placement search again from it; returns
/// whether it did. Keeps the best II from growing with the device count.
bool reseed_from_fewer_devices(const App& app, const Arch& arch, double cap, const Parameters& p, Point& pt,
                               const Mapping& fewer);

/// psi by least squares through F = FCK - psi u over the single-CU clocks
/// of a chapter-4 table (digest sec. 11: "calibrate against the F1_k").
double fitted_psi_mhz(const App& app, double nominal_mhz);

}  // namespace study001::ch4
