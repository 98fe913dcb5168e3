// examples/cu_allocation_exact/main.cpp
// Study 001 (Shan 2021), chapter 3: the exact compute-unit allocation
// (eqs. 3.1-3.10) for Alex-16 on 2 FPGAs, Alex-32 on 4 and VGG on 8 (Tables
// 3.2-3.4, examples/data/shan2021), swept over the per-FPGA resource cap. Per
// cap it prints the GP relaxation's II (a lower bound), the proven optimal II
// with beta = 0 (the thesis's "MINLP" series), the allocation per FPGA, and
// the solve time; with --weighted it also solves with the Table 3.4
// spreading weight (the "MINLP+G" series). The thesis needed Couenne for
// these points: one minute to several hours each.
//
//   cu_allocation_exact [--weighted] [--case alex16|alex32|vgg] [--caps 30,40,...]
//                       [--time-limit S] [--json] [--csv FILE] [--svg-dir DIR]
//
// The figure per case: the relaxed bound and the proven optimum against the cap.
#include "common/cli.hpp"
#include "study001/common/study.hpp"

#include <ychart/io/svg.hpp>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

namespace {

using namespace ychart;
using namespace ychart::pipeline;

struct Case {
  const char* key;
  const char* file;
  const char* title;
  int fpgas;
  double alpha, beta;  // Table 3.4
};

// "CONV2#1 x3, POOL2#2 x1": the kernels on one FPGA with their CU counts.
std::string fpga_contents(const study001::App& app, const Mapping& m, std::size_t fpga) {
  std::string out;
  for (std::size_t k = 0; k < app.size(); ++k) {
    if (m.cus[k][fpga] == 0) continue;
    if (!out.empty()) out += ", ";
    out += app.kernel(k).name + "#" + std::to_string(k) + " x" + std::to_string(m.cus[k][fpga]);
  }
  return out.empty() ? "(empty)" : out;
}

// One solved point: the table row and the figure's series get it.
struct PointResult {
  double ii = std::numeric_limits<double>::quiet_NaN();
  std::string status;
};

PointResult solve_point(const study001::App& app, const study001::Arch& arch, const Case& c, double cap, bool weighted,
                        double time_limit) {
  MappingModelOptions<FpgaResources> o;
  o.cap() = uniform_resources<FpgaResources>(cap);
  o.alpha = weighted ? c.alpha : 1.0;
  o.beta = weighted ? c.beta : 0.0;  // 0: the spreading is left out of the model
  auto mm = build_mapping_model(app, arch, o);
  SolveOptions options;
  options.time_limit = time_limit;
  const auto s = mm.model.solve(options);
  const char* label = weighted ? "weighted" : "beta = 0";
  if (s.status() == Status::infeasible) {
    std::printf("    %-9s infeasible (proven)                         %9.1f ms\n", label, 1e3 * s.solve_time());
    return {std::numeric_limits<double>::quiet_NaN(), "infeasible"};
  }
  if (!s.has_values()) {
    std::printf("    %-9s %s: %s\n", label, std::string(to_string(s.status())).c_str(), s.message().c_str());
    return {std::numeric_limits<double>::quiet_NaN(), std::string(to_string(s.status()))};
  }
  const double ii = mm.initiation_interval(s).in(units::ms), phi = mm.has_spreading ? s.value(mm.spreading) : 0.0;
  std::printf("    %-9s II %9.4f ms  objective %10.5g  %-8s gap %.1e  %9.1f ms\n", label, ii,
              o.alpha * ii + o.beta * phi, std::string(to_string(s.status())).c_str(), s.gap(),
              1e3 * s.solve_time());
  // evaluate() prices the mapping independently of the model: here, each FPGA's fullest resource.
  const auto mapping = mm.mapping(s);
  const auto e = evaluate(app, arch, mapping);
  for (std::size_t f = 0; f < mapping.devices(); ++f) {
    const double fullest = *std::max_element(e.utilisation[f].begin(), e.utilisation[f].end());
    std::printf("      FPGA %zu (%5.1f %%): %s\n", f, 100.0 * fullest, fpga_contents(app, mapping, f).c_str());
  }
  return {ii, std::string(to_string(s.status()))};
}

}  // namespace

int main(int argc, char** argv) {
  bool weighted = false;
  std::string only;
  std::vector<double> caps = {30, 40, 50, 61, 70, 80, 92};
  double time_limit = 60;
  examples::Outputs outputs("cu_allocation_exact", "cu_allocation_exact");
  examples::CommandLine cli("Study 001, chapter 3: the exact compute-unit allocation, proven optimal, swept over the cap");
  cli.flag("--weighted", weighted, "Also solve with Table 3.4's spreading weight (the MINLP+G series)");
  cli.option("--case", only, "Only this case").one_of({"alex16", "alex32", "vgg"});
  cli.option("--caps", caps, "Resource caps per FPGA (%)").comma_separated().show_default().within(1.0, 100.0);
  cli.option("--time-limit", time_limit, "Time limit per solve (s)").show_default().positive();
  outputs.add_options(cli);
  if (auto rc = cli.parse(argc, argv)) return *rc;
  if (int rc = outputs.begin()) return rc;
  const std::vector<Case> cases = {{"alex16", "ch3_alex16.csv", "Alex-16 on 2 FPGAs", 2, 1.0, 0.7},
                                   {"alex32", "ch3_alex32.csv", "Alex-32 on 4 FPGAs", 4, 1.0, 6.0},
                                   {"vgg", "ch3_vgg16.csv", "VGG on 8 FPGAs", 8, 1.0, 50.0}};
  io::Table table({{"case", "", 1}, {"cap", "%", 3}, {"II bound", "ms", 5}, {"II optimal", "ms", 5},
                   {"status", "", 1}, {"II weighted", "ms", 5}, {"status weighted", "", 1}});
  for (const auto& c : cases) {
    if (!only.empty() && only != c.key) continue;
    const auto app = load_pipeline<FpgaResources>(study001::data_dir() / c.file, c.title);
    const auto arch = study001::aws_f1(c.fpgas);
    std::printf("\n%s, %zu kernels (alpha %g, beta %g from Table 3.4)\n", c.title, app.size(), c.alpha, c.beta);
    io::LineChart chart;
    chart.title = std::string(c.title) + ": proven optimal II (study 001, ch. 3)";
    chart.x_label = "resource cap per FPGA (%)";
    chart.y_label = "II (ms)";
    chart.log_y = true;
    io::Series bound{"GP relaxation (bound)", {}, {}}, exact{"optimal, beta = 0", {}, {}}, spread{"optimal, weighted", {}, {}};
    bound.dashed = true;
    for (double cap : caps) {
      auto relaxation = build_relaxation(app, arch, uniform_resources<FpgaResources>(cap));
      const auto r = relaxation.model.solve();
      std::printf("  cap %2.0f %%: GP relaxation ", cap);
      const double lower = r.status() == Status::optimal ? r.value(relaxation.ii) : std::numeric_limits<double>::quiet_NaN();
      if (r.status() == Status::optimal) std::printf("II >= %.4f ms\n", lower);
      else std::printf("%s\n", std::string(to_string(r.status())).c_str());
      const PointResult plain = solve_point(app, arch, c, cap, false, time_limit);
      PointResult with_weight;
      if (weighted) with_weight = solve_point(app, arch, c, cap, true, time_limit);
      table.add_row({c.key, cap, lower, plain.ii, plain.status, with_weight.ii, with_weight.status});
      bound.x.push_back(cap), bound.y.push_back(lower);
      exact.x.push_back(cap), exact.y.push_back(plain.ii);
      spread.x.push_back(cap), spread.y.push_back(with_weight.ii);
    }
    chart.series = {bound, exact};
    if (weighted) chart.series.push_back(spread);
    outputs.figure(std::string(c.key) + "_ii.svg", chart);
  }
  outputs.add_table("allocation", table);
  return outputs.finish();
}
