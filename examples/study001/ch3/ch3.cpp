// study001/ch3/ch3.cpp
// Definitions of ch3.hpp, compiled once (the ychart_studies library).
#include "study001/ch3/ch3.hpp"

namespace study001::ch3 {

const std::vector<Case> cases = {
    {"alex16", "Alex-16 on 2 FPGAs", "ch3_alex16.csv", 2, 1.0, 0.7, "fig3_3"},
    {"alex32", "Alex-32 on 4 FPGAs", "ch3_alex32.csv", 4, 1.0, 6.0, "fig3_4"},
    {"vgg16", "VGG on 8 FPGAs", "ch3_vgg16.csv", 8, 1.0, 50.0, "fig3_5"},
};

ychart::baselines::shan2021::Rerun default_rerun() {
  ychart::baselines::shan2021::Rerun r;
  r.max_cap = 100;
  return r;
}

double average_use(const Evaluation& e) {
  double sum = 0;
  for (const auto& device : e.utilisation) {
    double most = 0;
    for (double u : device) most = std::max(most, u);
    sum += most;
  }
  return 100.0 * sum / e.utilisation.size();
}

Outcome priced(const App& app, const Arch& arch, const Mapping& m, double cap) {
  Outcome o;
  EvaluationOptions<FpgaResources> eo;
  eo.cap() = uniform_resources<FpgaResources>(cap);
  const auto e = evaluate(app, arch, m, eo);
  if (!e.feasible) throw std::runtime_error("a mapping breaks its cap: " + e.violations.front());
  o.ii_ms = e.ii.in(units::ms);
  o.spreading = e.spreading;
  o.average_use = average_use(e);
  o.max_use = 0;
  for (const auto& device : e.utilisation)
    for (double u : device) o.max_use = std::max(o.max_use, 100.0 * u);
  o.mapping = m;
  return o;
}

Gp solve_gp(const App& app, const Arch& arch, const std::vector<double>& cap) {
  auto relaxed = build_relaxation(app, arch, study001::resources_from(cap));
  const Solution gp = relaxed.model.solve();
  Gp out;
  if (gp.status() != Status::optimal) return out;
  out.ii_ms = gp.value(relaxed.ii);
  // The GP's optimal face is not a point: a kernel that uses none of the
  // binding resource (POOL1 has no DSP) may take any N_k above
  // WCET_k / II there, and Ipopt returns an interior one. GP+A starts from
  // the least CUs that reach II* (the water-filling point of sec. 2.3).
  for (const auto& k : app.kernels()) out.n_hat.push_back(std::max(1.0, k.implementation().wcet.in(units::ms) / out.ii_ms));
  return out;
}

Outcome solve_exact(const App& app, const Arch& arch, double cap, double alpha, double beta) {
  MappingModelOptions<FpgaResources> o;
  o.cap() = uniform_resources<FpgaResources>(cap);
  o.alpha = alpha;
  o.beta = beta;
  auto mm = build_mapping_model(app, arch, o);
  Solution s;
  const double t = study001::seconds([&] { s = mm.model.solve(); });
  Outcome out;
  if (s.has_values()) out = priced(app, arch, mm.mapping(s), cap);
  out.proven = s.status() == Status::optimal || s.status() == Status::infeasible;
  out.seconds = t;
  return out;
}

Point solve_point(const App& app, const Arch& arch, const Case& c, double cap,
                  const ychart::baselines::shan2021::Rerun& rerun) {
  Point p;
  p.cap = cap;
  const auto caps = resource_values(uniform_resources<FpgaResources>(cap));
  // GP relaxation.
  Gp gp;
  p.gp_seconds = study001::seconds([&] { gp = solve_gp(app, arch, caps); });
  p.gp_ii_ms = gp.ii_ms;
  p.exact = solve_exact(app, arch, cap, 1.0, 0.0);
  p.weighted = solve_exact(app, arch, cap, c.alpha, c.beta);
  // GP+A: the thesis's heuristic from the GP's real CU counts, re-run at
  // cap + k T_max (GP included) when it allocates nothing.
  std::vector<ychart::baselines::shan2021::PackItem> items;
  std::vector<double> wcet;
  for (const auto& k : app.kernels()) {
    items.push_back({resource_values(k.implementation().use)});
    wcet.push_back(k.implementation().wcet.in(units::ms));
  }
  auto gp_of = [&](const std::vector<double>& level) -> std::optional<std::vector<double>> {
    const auto g = level == caps ? gp : solve_gp(app, arch, level);  // the cap's own GP is solved above
    if (g.n_hat.empty()) return std::nullopt;
    return g.n_hat;
  };
  std::optional<ychart::baselines::shan2021::Ch3Result> result;
  const double t = study001::seconds([&] {
    result = ychart::baselines::shan2021::gp_plus_a_ch3(items, wcet, gp_of, caps, arch.devices(), /*T=*/0.0, /*delta=*/1.0, rerun);
  });
  if (result && result->reruns == 0) {
    p.gpa = priced(app, arch, Mapping{result->n, {}}, cap);
  } else if (result) {
    p.gpa_reruns = result->reruns;
    p.gpa_rerun_cap = result->cap_used.front();  // uniform: every type at the same cap
    p.gpa_rerun = priced(app, arch, Mapping{result->n, {}}, p.gpa_rerun_cap);
    p.gpa_rerun.seconds = t + p.gp_seconds;
  }
  // The time of GP+A as the thesis runs it: with its re-runs, if any.
  p.gpa.seconds = t + p.gp_seconds;
  return p;
}

}  // namespace study001::ch3
