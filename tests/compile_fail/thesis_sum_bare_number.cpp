// expect: static assertion failed.*: ychart: .*the two sides have different physical dimensions
// Study 004's sum: CPU milliseconds plus an FPGA runtime computed as a bare
// number (cycles * 1e-8). Written in units it is cycles / (100 MHz), a time;
// a bare number added to a time does not compile.
#include <ychart/ychart.hpp>
void f() {
  using namespace ychart;
  const auto cpu = 122.9647 * units::ms;
  const double fpga_runtime = 302322000 * 1e-8;  // "runtime_FPGA[ms]" in the thesis's code
  auto total = cpu + fpga_runtime;
  (void)total;
}
