// expect: static assertion failed.*: ychart: .*an affine expression .integers, reals. can equal only another affine expression or a constant
// affine == monomial is not convex.
#include <ychart/ychart.hpp>
void f() {
  using namespace ychart;
  Model m;
  auto x = m.positive("x");
  auto n1 = m.integer("n1", 1, 4);
  auto n2 = m.integer("n2", 1, 4);
  m.subject_to(n1 + n2 == x);
}
