// expect: static assertion failed.*: ychart: .*the product of an affine expression .integers, reals, tabulated terms. and a variable is not linear
// A real (linear-space) variable times a positive (log-space) variable.
#include <ychart/ychart.hpp>
void f() {
  using namespace ychart;
  Model m;
  auto x = m.positive("x");
  auto r = m.real("r", 0, 10);
  auto e = r * x; (void)e;
}
