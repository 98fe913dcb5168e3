// expect: no member named .*dps
// A resource record is a plain struct: a misspelt member does not compile.
#include <ychart/ychart.hpp>
void f() {
  ychart::pipeline::FpgaResources r{};
  r.dsp = 1;  // fine
  r.dps = 1;
}
