// examples/study001/ch3/ch3.hpp
// Study 001, chapter 3 (J. Shan, PhD thesis, Politecnico di Torino, 2021):
// The computations behind the example (main.cpp) and the benchmark
// (benchmarks/bench_study001.cpp): one sweep point per call.
#pragma once

#include "../common/study.hpp"
#include "../common/thesis_heuristics.hpp"
#include <ychart/io/svg.hpp>
#include <ychart/io/table.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

namespace study001::ch3 {

using namespace ychart;
using namespace ychart::dse;
using study001::App;
using study001::Arch;
using study001::not_a_number;

struct Case {
  std::string id, title, file;
  int fpgas;
  double alpha, beta;  // Table 3.4
  std::string figure;
};

inline const std::vector<Case> cases = {
    {"alex16", "Alex-16 on 2 FPGAs", "ch3_alex16.csv", 2, 1.0, 0.7, "fig3_3"},
    {"alex32", "Alex-32 on 4 FPGAs", "ch3_alex32.csv", 4, 1.0, 6.0, "fig3_4"},
    {"vgg16", "VGG on 8 FPGAs", "ch3_vgg16.csv", 8, 1.0, 50.0, "fig3_5"},
};

/// One method's result at one cap.
struct Outcome {
  double ii_ms = not_a_number, spreading = not_a_number, average_use = not_a_number, seconds = not_a_number;
  bool proven = false;
  Mapping mapping;
};

struct Point {
  double cap = 0;
  double gp_ii_ms = not_a_number, gp_seconds = not_a_number;
  Outcome exact, weighted, gpa;
};

/// Average over all F FPGAs of each FPGA's most used resource, in % (the
/// thesis's "average FPGA utilization").
inline double average_use(const Evaluation& e) {
  double sum = 0;
  for (const auto& device : e.utilisation) {
    double most = 0;
    for (double u : device) most = std::max(most, u);
    sum += most;
  }
  return 100.0 * sum / e.utilisation.size();
}

inline Outcome priced(const App& app, const Arch& arch, const Mapping& m, double cap) {
  Outcome o;
  EvaluationOptions<FpgaResources> eo;
  eo.cap = uniform_resources<FpgaResources>(cap);
  const auto e = evaluate(app, arch, m, eo);
  if (!e.feasible) throw std::runtime_error("a mapping breaks its cap: " + e.violations.front());
  o.ii_ms = e.ii.in(units::ms);
  o.spreading = e.spreading;
  o.average_use = average_use(e);
  o.mapping = m;
  return o;
}

inline Outcome solve_exact(const App& app, const Arch& arch, double cap, double alpha, double beta) {
  MappingModelOptions<FpgaResources> o;
  o.cap = uniform_resources<FpgaResources>(cap);
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

inline Point solve_point(const App& app, const Arch& arch, const Case& c, double cap) {
  Point p;
  p.cap = cap;
  // GP relaxation.
  auto relaxed = build_relaxation(app, arch, uniform_resources<FpgaResources>(cap));
  Solution gp;
  p.gp_seconds = study001::seconds([&] { gp = relaxed.model.solve(); });
  std::vector<double> n_hat;
  if (gp.status() == Status::optimal) {
    p.gp_ii_ms = gp.value(relaxed.ii);
    // The GP's optimal face is not a point: a kernel that uses none of the
    // binding resource (POOL1 has no DSP) may take any N_k above
    // WCET_k / II there, and Ipopt returns an interior one. GP+A starts from
    // the least CUs that reach II* (the water-filling point of sec. 2.3).
    for (const auto& k : app.kernels()) n_hat.push_back(std::max(1.0, k.wcet.in(units::ms) / p.gp_ii_ms));
  }
  p.exact = solve_exact(app, arch, cap, 1.0, 0.0);
  p.weighted = solve_exact(app, arch, cap, c.alpha, c.beta);
  // GP+A: the thesis's heuristic from the GP's real CU counts.
  if (!n_hat.empty()) {
    std::vector<shan2021::PackItem> items;
    std::vector<double> wcet;
    for (const auto& k : app.kernels()) {
      items.push_back({resource_values(k.use)});
      wcet.push_back(k.wcet.in(units::ms));
    }
    std::optional<shan2021::Ch3Result> result;
    const double t = study001::seconds([&] {
      result = shan2021::gp_plus_a_ch3(items, wcet, n_hat, resource_values(uniform_resources<FpgaResources>(cap)),
                                       arch.devices, /*T=*/0.0, /*delta=*/1.0);
    });
    if (result) p.gpa = priced(app, arch, Mapping{result->n, {}}, cap);
    p.gpa.seconds = t + p.gp_seconds;
  }
  return p;
}

}  // namespace study001::ch3
