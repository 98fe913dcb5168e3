// expect: has no resource of that name
// A resource named as a string is checked at compile time: FpgaResources has
// dsp, not dps.
#include <ychart/ychart.hpp>
void f() {
  ychart::dse::FpgaResources r{};
  ychart::dse::resource<"dsp">(r) = 1;  // fine
  ychart::dse::resource<"dps">(r) = 1;
}
