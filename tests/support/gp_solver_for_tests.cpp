// Linked into every test program: sets the process default GP back end
// (ychart::set_default_gp_solver) to the one tests/CMakeLists.txt names in
// YCHART_TESTS_GP_SOLVER, before any test runs. The suite uses cross_check,
// so that every GP it solves (pure GPs and the NLPs of mixed-integer
// searches) is solved by the native method and by Ipopt, and a disagreement
// throws ychart::solver_disagreement. The library reads no environment
// variable; this is where the suite makes its choice. Each program also
// says at exit how many GP runs fell back to Ipopt, if any did.
#include <ychart/model/status.hpp>

#include "common/gp_fallback_report.hpp"  // examples/common: one line at exit if any GP fell back to Ipopt

#ifndef YCHART_TESTS_GP_SOLVER
#error "tests/CMakeLists.txt defines YCHART_TESTS_GP_SOLVER (automatic, native, ipopt or cross_check)"
#endif

namespace {
const bool gp_solver_chosen = [] {
  ychart::set_default_gp_solver(ychart::GpSolver::YCHART_TESTS_GP_SOLVER);
  examples::report_gp_fallbacks_at_exit();
  return true;
}();
}  // namespace
