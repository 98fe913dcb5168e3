// Linked into every benchmark program: one line on stderr at exit if any GP
// run fell back from the native method to Ipopt (examples/common/gp_fallback_report.hpp).
#include "common/gp_fallback_report.hpp"

namespace {
const bool reporting = [] {
  examples::report_gp_fallbacks_at_exit();
  return true;
}();
}  // namespace
