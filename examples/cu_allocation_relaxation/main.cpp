// examples/cu_allocation_relaxation/main.cpp
// Study 001 (Shan 2021), chapter 3: the GP relaxation of the compute-unit
// allocation (eqs. 3.14-3.21) for Alex-16 on 2 FPGAs, Alex-32 on 4 and VGG on
// 8 (kernel data: Tables 3.2 and 3.3), swept over the per-FPGA resource cap.
// Prints ychart's relaxed II next to the values of the study digest's
// section 10.2 (a closed form), the binding resource, its sensitivity, and
// the solve time. The thesis solved this relaxation with GPkit as the first
// step of its GP+A heuristic.
#include "common/cu_relaxation.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

int main() {
  const std::vector<double> caps = {30, 40, 50, 55, 61, 70, 76, 82, 92, 100};
  const double none = std::numeric_limits<double>::quiet_NaN();
  // 001_shan.md section 10.2 (closed form computed from the thesis tables; "—": infeasible).
  const std::vector<std::pair<shan2021::Case, std::vector<double>>> cases = {
      {shan2021::alex16(), {2.581, 1.935, 1.547, 1.407, 1.268, 1.105, 1.018, 0.943, 0.841, 0.773}},
      {shan2021::alex32(), {none, none, 6.986, 6.202, 5.466, 4.668, 4.294, 3.976, 3.539, 3.252}},
      {shan2021::vgg(), {24.851, 17.782, 14.225, 12.931, 11.659, 10.160, 9.358, 8.673, 7.730, 7.112}},
  };
  const char* resource[] = {"BRAM", "DSP", "BW"};
  int mismatches = 0;
  for (const auto& [c, reference] : cases) {
    const auto stages = c.stages();
    std::printf("\n%s (%zu kernels)\n", std::string(c.name).c_str(), stages.size());
    std::printf("%6s  %12s  %12s  %8s  %12s  %10s\n", "R (%)", "II ychart", "II digest", "binding", "dlogII/dlogR",
                "time (ms)");
    for (std::size_t i = 0; i < caps.size(); ++i) {
      auto r = cu_relaxation::build(stages, c.fpgas, caps[i]);
      const auto s = r.model.solve();
      if (s.status() != ychart::Status::optimal) {
        // Infeasible: report which resource must be relaxed and by how much.
        std::printf("%6.0f  %12s  %12s", caps[i], std::string(ychart::to_string(s.status())).c_str(),
                    std::isnan(reference[i]) ? "—" : "?");
        for (int t = 0; t < 3; ++t)
          if (s.constraint(r.resource_constraint[t]).relaxation > 1)
            std::printf("  relax %s x%.3f", resource[t], s.constraint(r.resource_constraint[t]).relaxation);
        std::printf("\n");
        mismatches += !std::isnan(reference[i]);
        continue;
      }
      int binding = 0;
      for (int t = 0; t < 3; ++t)
        if (std::abs(s.constraint(r.resource_constraint[t]).sensitivity) >
            std::abs(s.constraint(r.resource_constraint[binding]).sensitivity))
          binding = t;
      const double ii = s.value(r.ii);
      std::printf("%6.0f  %12.3f  %12.3f  %8s  %12.3f  %10.2f\n", caps[i], ii, reference[i], resource[binding],
                  s.constraint(r.resource_constraint[binding]).sensitivity, s.solve_time() * 1e3);
      mismatches += std::isnan(reference[i]) || std::abs(ii - reference[i]) > 0.0005;
    }
  }
  std::printf("\n%s\n", mismatches ? "MISMATCH with the digest's values" : "all points match the digest's values");
  return mismatches ? 1 : 0;
}
