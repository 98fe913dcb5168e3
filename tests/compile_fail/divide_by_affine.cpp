// expect: static assertion failed.*: ychart: .*dividing by an affine expression .a sum over integers or reals. is not allowed
// x / (n1 + n2): a monomial divided by a sum of integers.
#include <ychart/ychart.hpp>
void f() {
  using namespace ychart;
  Model m;
  auto x = m.positive("x");
  auto n1 = m.integer("n1", 1, 4);
  auto n2 = m.integer("n2", 1, 4);
  auto e = x / (n1 + n2); (void)e;
}
