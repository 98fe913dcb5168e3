// study001/ch4/ch4.cpp
// Definitions of ch4.hpp, compiled once (the ychart_studies library).
#include "study001/ch4/ch4.hpp"

namespace study001::ch4 {

const std::vector<Case> cases = {
    {"alex16_2", "Alex-16 on 2 FPGAs", "ch4_alex16.csv", 2}, {"alex32_4", "Alex-32 on 4 FPGAs", "ch4_alex32.csv", 4},
    {"yolo32_3", "YOLO-32 on 3 FPGAs", "ch4_yolo32.csv", 3}, {"vgg16_4", "VGG-16 on 4 FPGAs", "ch4_vgg16.csv", 4},
    {"vgg16_6", "VGG-16 on 6 FPGAs", "ch4_vgg16.csv", 6},    {"resnet16_5", "ResNet-16 on 5 FPGAs", "ch4_resnet16.csv", 5},
};

KernelColumns kernel_columns() {
  KernelColumns c;
  c.wcet = "tc1_ms";
  return c;
}

EvaluationOptions<FpgaResources> enhanced(double cap) {
  EvaluationOptions<FpgaResources> o;
  o.model.schedule = Schedule::sequential_phases;
  o.model.locality = true;
  o.model.memory_contention = true;
  o.model.clock_degradation = true;
  o.model.shared_device_clock = true;
  o.cap() = uniform_resources<FpgaResources>(cap);
  return o;
}

Outcome priced(const App& app, const Arch& arch, const Mapping& m, double cap) {
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

MappingModel bound_model(const App& app, const Arch& arch, double cap) {
  MappingModelOptions<FpgaResources> o;
  o.cap() = uniform_resources<FpgaResources>(cap);
  o.schedule = Schedule::sequential_phases;
  o.locality = true;
  o.memory_time = true;
  o.clock_degradation = true;
  return build_mapping_model(app, arch, o);
}

GpPlusA gp_plus_a(const App& app, const Arch& arch, double cap, double gp_ii_ms, const Parameters& p) {
  const auto types = app.type_index();
  const std::size_t M = *std::max_element(types.begin(), types.end()) + 1;
  std::vector<ychart::baselines::shan2021::PackItem> items;
  std::vector<double> tc1, di;
  std::vector<int> type_of_stage;
  for (std::size_t k = 0; k < app.size(); ++k) {
    const auto& kn = app.kernel(k);
    items.push_back({resource_values(kn.implementation().use)});
    tc1.push_back(kn.implementation().wcet.in(units::ms));
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
  auto ii_of = [&](const ychart::baselines::shan2021::Allocation& n) {
    return evaluate(app, arch, Mapping{n, {}}, enhanced(cap + p.threshold)).ii.in(units::ms);
  };
  ychart::baselines::shan2021::Rerun rerun;
  rerun.t_max = p.t_max;
  rerun.max_reruns = p.max_reruns;
  rerun.max_cap = 100.0 - p.threshold;  // R_c = cap + k T_max + T stays on one FPGA
  std::optional<ychart::baselines::shan2021::Ch4Result> r;
  const double t = study001::seconds([&] {
    r = ychart::baselines::shan2021::gp_plus_a_ch4(items, tc1, di, type_of_stage, gp, caps, arch.devices(), p.threshold, p.step, ii_of,
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

Point solve_point(const App& app, const Arch& arch, double cap, const Parameters& p) {
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
  if (s.status() == Status::optimal) pt.bound_ms = bm.initiation_interval(s).in(units::ms);
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
  simple.cap() = uniform_resources<FpgaResources>(cap);
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

  // The placement search from the best mapping so far: it proves that one
  // optimal, finds a better one, or proves that none fits the cap.
  run_placement_search(app, arch, cap, p, pt, pt.best() ? std::optional(pt.best()->mapping) : std::nullopt);
  return pt;
}

void run_placement_search(const App& app, const Arch& arch, double cap, const Parameters& p, Point& pt,
                          const std::optional<Mapping>& incumbent) {
  PlacementSearchOptions search;
  search.time_limit = p.placement_time_limit;
  search.incumbent = incumbent;
  PlacementSearchResult placed;
  const double placement_seconds =
      study001::seconds([&] { placed = least_ii_by_placement(app, arch, enhanced(cap), search); });
  pt.placement_status = placed.status;
  if (placed.mapping) pt.placement = priced(app, arch, *placed.mapping, cap);
  pt.placement.seconds = placement_seconds;
}

bool reseed_from_fewer_devices(const App& app, const Arch& arch, double cap, const Parameters& p, Point& pt,
                               const Mapping& fewer) {
  if (pt.placement_status == Status::optimal || pt.placement_status == Status::infeasible) return false;
  Mapping padded = fewer;
  for (auto& row : padded.cus) row.resize(std::size_t(arch.devices()), 0);
  padded.clock_fraction.clear();
  const Outcome seed = priced(app, arch, padded, cap);
  if (!seed.within_cap || (pt.best() && !(seed.ii_ms < pt.best()->ii_ms))) return false;
  const double first_seconds = pt.placement.seconds;
  run_placement_search(app, arch, cap, p, pt, padded);
  pt.placement.seconds += first_seconds;
  return true;
}

double fitted_psi_mhz(const App& app, double nominal_mhz) {
  double uu = 0, ud = 0;
  for (const auto& k : app.kernels()) {
    const double u = k.implementation().use.dsp / 100.0, drop = nominal_mhz - k.implementation().clock.in(units::MHz);
    uu += u * u;
    ud += u * drop;
  }
  return uu > 0 ? ud / uu : 0.0;
}

}  // namespace study001::ch4
