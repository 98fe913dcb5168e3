// expect: static assertion failed.*: ychart: .*maximize.. takes a monomial .a single term. or an affine expression
// Maximising a posynomial-plus-affine objective is not convex.
#include <ychart/ychart.hpp>
void f() {
  using namespace ychart;
  Model m;
  auto x = m.positive("x", 1, 10);
  auto r = m.real("r", 0, 10);
  m.maximize(x + 50 * r);
}
