// expect: has no resource of that name
// A resource named as a string is checked at compile time: FpgaResources has
// dsp, not dps.
#include <ychart/ychart.hpp>
void f() {
  ychart::pipeline::FpgaResources r{};
  ychart::pipeline::resource<"dsp">(r) = 1;  // fine
  ychart::pipeline::resource<"dps">(r) = 1;
}
