// Study 001 (Shan 2021), chapter 4: the bound model that study001_ch4 solves
// at every cap with a time limit (examples/study001/ch4). Checked against a
// feasible mapping priced by the enhanced model (pipeline::evaluate), whose
// II no lower bound may pass.
#include "study001/ch4/ch4.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

namespace {

using namespace ychart;
using namespace ychart::pipeline;

// CBC stopped by its time limit before its first node used to report what
// it was computing as a proof: on this model, at limits of 0.3-0.8 s, a
// bound of 3.6e11 s or 1.64e-3 s against a root LP bound of 1.107e-3 s,
// and, in the example's threaded sweep, "infeasible" at a cap where
// feasible mappings exist. Whatever the limit, the status is not
// `infeasible` and a finite bound stays at or below a feasible mapping's II.
TEST(Study001Ch4, BoundModelCutShortByTheTimeLimitProvesNothingFalse) {
  const std::filesystem::path dir = std::filesystem::path(YCHART_EXAMPLES_DATA_DIR) / "shan2021";
  auto arch = load_architecture<FpgaResources>(dir / "aws_f1.json");
  arch.group().devices = 5;
  const auto app = load_pipeline<FpgaResources>(dir / "ch4_resnet16.csv", "resnet16", study001::ch4::kernel_columns());
  const double cap = 55;
  const auto seed = first_fit(app, arch, std::optional(uniform_resources<FpgaResources>(cap)));
  ASSERT_TRUE(seed.has_value());
  const auto feasible = local_search(app, arch, *seed, study001::ch4::enhanced(cap));
  ASSERT_TRUE(feasible.evaluation.feasible);
  const double feasible_ii = feasible.evaluation.ii.value();
  auto bm = study001::ch4::bound_model(app, arch, cap);
  for (double limit : {0.1, 0.2, 0.3, 0.45, 0.6, 0.8, 1.0}) {
    SolveOptions options;
    options.time_limit = limit;
    options.milp_solver = MilpSolver::cbc;
    const auto s = bm.model.solve(options);
    SCOPED_TRACE("time limit " + std::to_string(limit) + " s: " + std::string(to_string(s.status())) + ", " +
                 s.message());
    EXPECT_NE(s.status(), Status::infeasible);
    if (std::isfinite(s.bound())) {
      EXPECT_LE(s.bound(), feasible_ii * (1 + 1e-9));
    }
    if (s.status() == Status::optimal) {
      EXPECT_LE(s.objective(), feasible_ii * (1 + 1e-9));
    }
  }
}

}  // namespace
