// examples/study001/ch4/ch4.hpp
// Study 001, chapter 4 (J. Shan, PhD thesis, Politecnico di Torino, 2021):
// the enhanced II model (host-to-FPGA + execution with DDR contention and
// clock degradation + FPGA-to-host). The computations behind the example
// (main.cpp), the benchmark (benchmarks/bench_study001.cpp) and the tests:
// one sweep point per call.
#pragma once

#include "../common/study.hpp"
#include "../common/thesis_heuristics.hpp"
#include <ychart/io/svg.hpp>
#include <ychart/io/table.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace study001::ch4 {

using namespace ychart;
using namespace ychart::dse;
using study001::App;
using study001::Arch;
using study001::not_a_number;

struct Case {
  std::string id, title, file;
  int fpgas;
};

/// The six cases of sec. 4.4 (Tables 4.3-4.8).
inline const std::vector<Case> cases = {
    {"alex16_2", "Alex-16 on 2 FPGAs", "ch4_alex16.csv", 2}, {"alex32_4", "Alex-32 on 4 FPGAs", "ch4_alex32.csv", 4},
    {"yolo32_3", "YOLO-32 on 3 FPGAs", "ch4_yolo32.csv", 3}, {"vgg16_4", "VGG-16 on 4 FPGAs", "ch4_vgg16.csv", 4},
    {"vgg16_6", "VGG-16 on 6 FPGAs", "ch4_vgg16.csv", 6},    {"resnet16_5", "ResNet-16 on 5 FPGAs", "ch4_resnet16.csv", 5},
};

/// The chapter-4 kernel tables: TC1_k is the wcet, F1_k the clock it was measured at.
inline KernelColumns kernel_columns() {
  KernelColumns c;
  c.wcet = "tc1_ms";
  return c;
}

/// The constants the thesis does not give (examples/study001/README.md);
/// every one is a command-line option of the example.
struct Parameters {
  double threshold = 1.0;  // GP+A soft bound T (%, sec. 4.4: T = 1 %)
  double step = 1.0;       // GP+A soft-bound step Delta (%)
  double time_limit = 1.0;  // seconds per exact solve; beyond it a bound and a gap
  // GP+A's fallback (digest 3.4): where it allocates nothing at R, all of it
  // is re-run at R + k T_max, k = 1..max_reruns, while R + k T_max + T <= 100 %.
  double t_max = 1.0;  // % (the thesis does not give T_max; ours is T's value)
  int max_reruns = 10;  // 0: plain GP+A only
};

/// The full chapter-4 timing (eqs. 4.5-4.29).
inline EvaluationOptions<FpgaResources> enhanced(double cap) {
  EvaluationOptions<FpgaResources> o;
  o.model.schedule = Schedule::sequential_phases;
  o.model.locality = true;
  o.model.memory_contention = true;
  o.model.clock_degradation = true;
  o.model.shared_device_clock = true;
  o.cap = uniform_resources<FpgaResources>(cap);
  return o;
}

/// One mapping under the enhanced model.
struct Outcome {
  double ii_ms = not_a_number, h2f_ms = not_a_number, exe_ms = not_a_number, f2h_ms = not_a_number;
  double max_dsp = not_a_number;  // the most used FPGA's DSP, % (GP+A's soft bound may pass the cap)
  double max_use = not_a_number;  // the most used resource of the most used FPGA, %
  double seconds = not_a_number;
  bool within_cap = false;
  Mapping mapping;
};

inline Outcome priced(const App& app, const Arch& arch, const Mapping& m, double cap) {
  Outcome o;
  const auto e = evaluate(app, arch, m, enhanced(cap));
  o.ii_ms = e.ii.in(units::ms);
  o.h2f_ms = e.host_to_device.in(units::ms);
  o.exe_ms = e.execution.in(units::ms);
  o.f2h_ms = e.device_to_host.in(units::ms);
  o.max_dsp = 100.0 * e.max_utilisation("dsp");
  o.max_use = 0;
  for (const auto& device : e.utilisation)
    for (double u : device) o.max_use = std::max(o.max_use, 100.0 * u);
  o.within_cap = e.feasible;
  o.mapping = m;
  return o;
}

struct Point {
  double cap = 0;
  double gp_ii_ms = not_a_number;  // the GP relaxation: compute only, real CU counts (eqs. 4.30-4.36)
  double bound_ms = not_a_number;  // proven lower bound on the enhanced II of every mapping within the cap
  bool bound_proven = false;       // the bound model was solved to optimality
  double bound_seconds = not_a_number;
  Outcome exact;       // the bound model's optimal mapping, priced by the enhanced model
  Outcome gpa;         // GP+A (Algorithms 2-3) under the enhanced model
  // Where GP+A allocates nothing at the cap: its fallback, all of GP+A re-run
  // at cap + k T_max (shan2021::Rerun), priced against the plotted cap (so
  // within_cap says whether it happens to fit). Not counted in best().
  Outcome gpa_rerun;
  double gpa_rerun_cap = not_a_number;  // cap + k T_max
  int gpa_reruns = 0;                   // k
  Outcome simplified;  // the chapter-3 optimum (compute only), priced by the enhanced model
  Outcome improved;    // local search on the enhanced model from the best of those (or first fit)

  /// The fastest mapping within the cap (the first of equals, in the order
  /// above), its II, the method that found it, and its distance to the bound.
  const Outcome* best() const {
    const Outcome* b = nullptr;
    for (const auto* o : {&exact, &gpa, &simplified, &improved})
      if (o->within_cap && (!b || o->ii_ms < b->ii_ms)) b = o;
    return b;
  }
  double best_ms() const { return best() ? best()->ii_ms : not_a_number; }
  std::string best_method() const {
    const auto* b = best();
    return !b ? "" : b == &exact ? "bound model" : b == &gpa ? "GP+A" : b == &simplified ? "simplified" : "local search";
  }
  double gap() const { return (best_ms() - bound_ms) / best_ms(); }  // NaN when either is missing
};

/// A lower bound on the enhanced II (mapping_model.hpp): transfers with
/// locality exact, execution bounded by the memory ports and the busiest
/// device's clock degradation. Its optimum is a proven bound; its mapping,
/// priced exactly, an upper bound.
inline MappingModel<FpgaResources> bound_model(const App& app, const Arch& arch, double cap) {
  MappingModelOptions<FpgaResources> o;
  o.cap = uniform_resources<FpgaResources>(cap);
  o.schedule = Schedule::sequential_phases;
  o.locality = true;
  o.memory_time = true;
  o.clock_degradation = true;
  return build_mapping_model(app, arch, o);
}

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

inline GpPlusA gp_plus_a(const App& app, const Arch& arch, double cap, double gp_ii_ms, const Parameters& p) {
  const auto types = app.type_index();
  const std::size_t M = *std::max_element(types.begin(), types.end()) + 1;
  std::vector<shan2021::PackItem> items;
  std::vector<double> tc1, di;
  std::vector<int> type_of_stage;
  for (std::size_t k = 0; k < app.size(); ++k) {
    const auto& kn = app.kernel(k);
    items.push_back({resource_values(kn.use)});
    tc1.push_back(kn.wcet.in(units::ms));
    di.push_back(kn.data_in.in(units::MB));
    type_of_stage.push_back(static_cast<int>(types[k]));
  }
  const auto caps = resource_values(uniform_resources<FpgaResources>(cap));
  // The GP at a level (the cap's own is solved by the caller), then the
  // water-filling point of its optimal face (ch3.hpp says why).
  auto gp = [&](const std::vector<double>& level) -> std::optional<std::vector<double>> {
    double ii = gp_ii_ms;
    if (level != caps) {
      auto relaxed = build_relaxation(app, arch, study001::resources_from(level));
      const Solution s = relaxed.model.solve();
      ii = s.status() == Status::optimal ? s.value(relaxed.ii) : not_a_number;
    }
    if (!std::isfinite(ii)) return std::nullopt;
    std::vector<double> n_hat(M, 1.0);
    for (std::size_t k = 0; k < app.size(); ++k) n_hat[types[k]] = std::max(1.0, tc1[k] / ii);
    return n_hat;
  };
  // GP+A may use the soft bound cap + T; it is priced at that bound and
  // its DSP use is reported, so a point over the cap is visible. (The II
  // does not depend on the cap it is checked against.)
  auto ii_of = [&](const shan2021::Allocation& n) {
    return evaluate(app, arch, Mapping{n, {}}, enhanced(cap + p.threshold)).ii.in(units::ms);
  };
  shan2021::Rerun rerun;
  rerun.t_max = p.t_max;
  rerun.max_reruns = p.max_reruns;
  rerun.max_cap = 100.0 - p.threshold;  // R_c = cap + k T_max + T stays on one FPGA
  std::optional<shan2021::Ch4Result> r;
  const double t = study001::seconds([&] {
    r = shan2021::gp_plus_a_ch4(items, tc1, di, type_of_stage, gp, caps, arch.devices, p.threshold, p.step, ii_of,
                                rerun);
  });
  GpPlusA out;
  if (r) {
    out.found = true;
    out.reruns = r->reruns;
    out.cap_used = r->cap_used.front();  // uniform: every type at the same cap
    out.outcome = priced(app, arch, Mapping{r->n, {}}, cap);
  }
  out.outcome.seconds = t;
  return out;
}

inline Point solve_point(const App& app, const Arch& arch, double cap, const Parameters& p) {
  Point pt;
  pt.cap = cap;
  SolveOptions so;
  so.time_limit = p.time_limit;

  // GP relaxation (the first step of GP+A).
  auto relaxed = build_relaxation(app, arch, uniform_resources<FpgaResources>(cap));
  Solution gp;
  const double gp_seconds = study001::seconds([&] { gp = relaxed.model.solve(); });
  if (gp.status() == Status::optimal) pt.gp_ii_ms = gp.value(relaxed.ii);

  // The bound model and its mapping.
  auto bm = bound_model(app, arch, cap);
  Solution s;
  pt.bound_seconds = study001::seconds([&] { s = bm.model.solve(so); });
  pt.bound_proven = s.status() == Status::optimal || s.status() == Status::infeasible;
  if (s.status() == Status::optimal) pt.bound_ms = bm.ii_ms(s);
  else if (std::isfinite(s.bound())) pt.bound_ms = 1e3 * s.bound();  // bound() is in SI units
  if (s.has_values()) pt.exact = priced(app, arch, bm.mapping(s), cap);
  pt.exact.seconds = pt.bound_seconds;

  // GP+A, and its re-runs at a looser cap where it allocates nothing (also
  // where the GP is infeasible at the cap: nothing is allocated there).
  {
    auto g = gp_plus_a(app, arch, cap, pt.gp_ii_ms, p);
    g.outcome.seconds += gp_seconds;
    if (g.found && g.reruns > 0) {
      pt.gpa_rerun = g.outcome;
      pt.gpa_reruns = g.reruns;
      pt.gpa_rerun_cap = g.cap_used;
      pt.gpa.seconds = g.outcome.seconds;
    } else {
      pt.gpa = g.outcome;
    }
  }

  // The simplified model's optimum (sec. 4.5): compute only, each kernel at F1_k.
  MappingModelOptions<FpgaResources> simple;
  simple.cap = uniform_resources<FpgaResources>(cap);
  auto sm = build_mapping_model(app, arch, simple);
  Solution ss;
  pt.simplified.seconds = study001::seconds([&] { ss = sm.model.solve(so); });
  if (ss.has_values()) {
    const double t = pt.simplified.seconds;
    pt.simplified = priced(app, arch, sm.mapping(ss), cap);
    pt.simplified.seconds = t;
  }

  // Local search (local_search.hpp) from every mapping found so far and
  // from a first fit: descents end in different local optima.
  std::vector<Mapping> starts;
  for (const auto* o : {&pt.exact, &pt.gpa, &pt.simplified})
    if (o->within_cap) starts.push_back(o->mapping);
  if (auto seed = first_fit(app, arch, std::optional(uniform_resources<FpgaResources>(cap)))) starts.push_back(*seed);
  std::optional<LocalSearchResult> improved;
  const double ls_seconds = study001::seconds([&] {
    for (const auto& m : starts) {
      auto ls = local_search(app, arch, m, enhanced(cap));
      if (!improved || ls.evaluation.ii.value() < improved->evaluation.ii.value()) improved = std::move(ls);
    }
  });
  if (improved) pt.improved = priced(app, arch, improved->mapping, cap);
  pt.improved.seconds = ls_seconds;
  return pt;
}

/// psi by least squares through F = FCK - psi u over the single-CU clocks
/// of a chapter-4 table (digest sec. 11: "calibrate against the F1_k").
inline double fitted_psi_mhz(const App& app, double nominal_mhz) {
  double uu = 0, ud = 0;
  for (const auto& k : app.kernels()) {
    const double u = k.use.dsp / 100.0, drop = nominal_mhz - k.clock.in(units::MHz);
    uu += u * u;
    ud += u * drop;
  }
  return uu > 0 ? ud / uu : 0.0;
}

}  // namespace study001::ch4
