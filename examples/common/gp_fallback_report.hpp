// examples/common/gp_fallback_report.hpp
// One line on stderr when the program ends, if any GP run of it fell back
// from the native interior-point method to Ipopt
// (ychart::gp_fallbacks_in_process): how the examples, tests and benchmarks
// are checked for issue 31's "zero fallbacks" target. Silent when none did.
#pragma once

#include <ychart/model/status.hpp>

#include <cstdio>
#include <cstdlib>

namespace examples {

inline void report_gp_fallbacks_at_exit() {
  static const bool registered = [] {
    std::atexit([] {
      if (const long n = ychart::gp_fallbacks_in_process(); n > 0)
        std::fprintf(stderr, "ychart: %ld GP run%s fell back from the native method to Ipopt\n", n, n == 1 ? "" : "s");
    });
    return true;
  }();
  (void)registered;
}

}  // namespace examples
