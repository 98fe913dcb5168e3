// expect: static assertion failed.*: ychart: .*the product of an affine expression .integers, reals, tabulated terms. and a variable is not linear
// (n1 + n2) * x: a sum of integers times a positive variable.
#include <ychart/ychart.hpp>
void f() {
  using namespace ychart;
  Model m;
  auto x = m.positive("x");
  auto n1 = m.integer("n1", 1, 4);
  auto n2 = m.integer("n2", 1, 4);
  auto e = (n1 + n2) * x; (void)e;
}
