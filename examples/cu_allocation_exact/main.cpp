// examples/cu_allocation_exact/main.cpp
// Study 001 (Shan 2021), chapter 3: the exact compute-unit allocation
// (eqs. 3.1-3.10) for Alex-16 on 2 FPGAs, Alex-32 on 4 and VGG on 8 (Tables
// 3.2-3.4), swept over the per-FPGA resource cap. Per cap it prints the GP
// relaxation's II (a lower bound), the proven optimal II with beta = 0 (the
// thesis's "MINLP" series), the allocation per FPGA, and the solve time; with
// --weighted it also solves with the Table 3.4 spreading weight (the
// "MINLP+G" series). The thesis needed Couenne for these points: one minute
// to several hours each.
//
//   cu_allocation_exact [--weighted] [--case alex16|alex32|vgg]
#include "common/cu_exact.hpp"
#include "common/cu_relaxation.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

// "CONV2#1 x3, POOL2#2 x1": the kernels on one FPGA with their CU counts.
std::string fpga_contents(const cu_exact::Allocation& a, const std::vector<shan2021::Kernel>& stages,
                          const ychart::Solution& s, int fpga) {
  std::string out;
  for (std::size_t k = 0; k < stages.size(); ++k) {
    const int n = static_cast<int>(std::lround(s.value(a.per_fpga[k][fpga])));
    if (n == 0) continue;
    if (!out.empty()) out += ", ";
    out += std::string(stages[k].name) + "#" + std::to_string(k) + " x" + std::to_string(n);
  }
  return out.empty() ? "(empty)" : out;
}

// Largest use of any resource on one FPGA, in percent.
double fpga_use(const cu_exact::Allocation& a, const std::vector<shan2021::Kernel>& stages,
                const ychart::Solution& s, int fpga) {
  double most = 0.0;
  for (int t = 0; t < 3; ++t) {
    double use = 0.0;
    for (std::size_t k = 0; k < stages.size(); ++k) use += cu_exact::resources(stages[k])[t] * s.value(a.per_fpga[k][fpga]);
    most = std::max(most, use);
  }
  return most;
}

void solve_point(const shan2021::Case& c, double cap, bool weighted) {
  const auto stages = c.stages();
  const double alpha = weighted ? c.alpha : 1.0, beta = weighted ? c.beta : 0.0;
  auto a = cu_exact::build(stages, c.fpgas, cap, alpha, beta);
  ychart::SolveOptions options;
  options.time_limit = 60;
  const auto s = a.model.solve(options);
  const char* label = weighted ? "weighted" : "beta = 0";
  if (s.status() == ychart::Status::infeasible) {
    std::printf("    %-9s infeasible (proven)                         %9.1f ms\n", label, 1e3 * s.solve_time());
    return;
  }
  if (!s.has_values()) {
    std::printf("    %-9s %s: %s\n", label, std::string(to_string(s.status())).c_str(), s.message().c_str());
    return;
  }
  double phi = 0.0;
  if (a.has_spreading) phi = s.value(a.spreading);
  std::printf("    %-9s II %9.4f ms  objective %10.5g  %-8s gap %.1e  %9.1f ms\n", label, s.value(a.ii),
              weighted ? alpha * s.value(a.ii) + beta * phi : s.value(a.ii),
              std::string(to_string(s.status())).c_str(), s.gap(), 1e3 * s.solve_time());
  for (int f = 0; f < c.fpgas; ++f)
    std::printf("      FPGA %d (%5.1f %%): %s\n", f, fpga_use(a, stages, s, f), fpga_contents(a, stages, s, f).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  bool weighted = false;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--weighted") == 0) weighted = true;
    else if (std::strcmp(argv[i], "--case") == 0 && i + 1 < argc) only = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--weighted] [--case alex16|alex32|vgg]\n", argv[0]);
      return 2;
    }
  }
  const std::vector<std::pair<std::string, shan2021::Case>> cases = {
      {"alex16", shan2021::alex16()}, {"alex32", shan2021::alex32()}, {"vgg", shan2021::vgg()}};
  const std::vector<double> caps = {30, 40, 50, 61, 70, 80, 92};
  for (const auto& [key, c] : cases) {
    if (!only.empty() && only != key) continue;
    std::printf("\n%s, %zu kernels (alpha %g, beta %g from Table 3.4)\n", std::string(c.name).c_str(),
                c.stages().size(), c.alpha, c.beta);
    for (double cap : caps) {
      auto relaxation = cu_relaxation::build(c.stages(), c.fpgas, cap);
      const auto r = relaxation.model.solve();
      std::printf("  cap %2.0f %%: GP relaxation ", cap);
      if (r.status() == ychart::Status::optimal) std::printf("II >= %.4f ms\n", r.value(relaxation.ii));
      else std::printf("%s\n", std::string(to_string(r.status())).c_str());
      solve_point(c, cap, false);
      if (weighted) solve_point(c, cap, true);
    }
  }
}
