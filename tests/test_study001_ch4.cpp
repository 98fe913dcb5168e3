// Study 001 (Shan 2021), chapter 4: the bound model that study001_ch4 solves
// at every cap with a time limit (examples/study001/ch4). Checked against a
// feasible mapping priced by the enhanced model (pipeline::evaluate), whose
// II no lower bound may pass.
#include "study001/ch4/ch4.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <thread>

namespace {

using namespace ychart;
using namespace ychart::pipeline;

const std::filesystem::path data_dir = std::filesystem::path(YCHART_EXAMPLES_DATA_DIR) / "shan2021";

study001::Arch aws_f1(int devices) {
  auto arch = load_architecture<FpgaResources>(data_dir / "aws_f1.json");
  arch.group().devices = devices;
  return arch;
}

study001::App resnet16() {
  return load_pipeline<FpgaResources>(data_dir / "ch4_resnet16.csv", "resnet16", study001::ch4::kernel_columns());
}

/// The II of a feasible mapping (first fit, then local search): no lower
/// bound may pass it.
double feasible_ii(const study001::App& app, const study001::Arch& arch, double cap) {
  const auto seed = first_fit(app, arch, std::optional(uniform_resources<FpgaResources>(cap)));
  if (!seed) return std::nan("");
  const auto feasible = local_search(app, arch, *seed, study001::ch4::enhanced(cap));
  return feasible.evaluation.feasible ? feasible.evaluation.ii.value() : std::nan("");
}

/// Solves the bound model with CBC at `limit` and checks that it proves
/// nothing a feasible mapping of II `ii` contradicts.
void expect_nothing_false(MappingModel& bm, double limit, double ii) {
  SolveOptions options;
  options.time_limit = limit;
  options.milp_solver = MilpSolver::cbc;
  const auto s = bm.model.solve(options);
  SCOPED_TRACE("time limit " + std::to_string(limit) + " s: " + std::string(to_string(s.status())) + ", " +
               s.message());
  EXPECT_NE(s.status(), Status::infeasible);
  if (std::isfinite(s.bound())) {
    EXPECT_LE(s.bound(), ii * (1 + 1e-9));
  }
  if (s.status() == Status::optimal) {
    EXPECT_LE(s.objective(), ii * (1 + 1e-9));
  }
}

// CBC stopped by its time limit before its first node used to report what
// it was computing as a proof: on this model, at limits of 0.3-0.8 s, a
// bound of 3.6e11 s or 1.64e-3 s against a root LP bound of 1.107e-3 s.
// Whatever the limit, the status is not `infeasible` and a finite bound
// stays at or below a feasible mapping's II.
TEST(Study001Ch4, BoundModelCutShortByTheTimeLimitProvesNothingFalse) {
  const auto arch = aws_f1(5);
  const auto app = resnet16();
  const double cap = 55;
  const double ii = feasible_ii(app, arch, cap);
  ASSERT_TRUE(std::isfinite(ii));
  auto bm = study001::ch4::bound_model(app, arch, cap);
  for (double limit : {0.1, 0.2, 0.3, 0.45, 0.6, 0.8, 1.0}) expect_nothing_false(bm, limit, ii);
}

// With another thread busy (the example's sweep), CBC read LPs stopped on
// the process's CPU clock as infeasible and reported "infeasible" for every
// one of these models, which have feasible mappings (cbc_milp.hpp,
// solve_cbc, says why).
TEST(Study001Ch4, BoundModelBesideABusyThreadProvesNothingFalse) {
  const auto app = resnet16();
  const double cap = 76;
  std::atomic<bool> stop{false};
  std::thread busy([&stop] {
    volatile double x = 0;
    while (!stop.load(std::memory_order_relaxed)) x = x + 1;
  });
  for (int devices : {3, 5, 6}) {
    SCOPED_TRACE(std::to_string(devices) + " FPGAs");
    const auto arch = aws_f1(devices);
    const double ii = feasible_ii(app, arch, cap);
    EXPECT_TRUE(std::isfinite(ii));
    auto bm = study001::ch4::bound_model(app, arch, cap);
    if (std::isfinite(ii)) expect_nothing_false(bm, 1.0, ii);
  }
  stop = true;
  busy.join();
}

}  // namespace
