// expect: static assertion failed.*: ychart: .*an equality with a posynomial-plus-affine side is not convex
// x + r == 5: a posynomial-plus-affine side in an equality.
#include <ychart/ychart.hpp>
void f() {
  using namespace ychart;
  Model m;
  auto x = m.positive("x");
  auto r = m.real("r", 0, 10);
  m.subject_to(x + r == 5);
}
