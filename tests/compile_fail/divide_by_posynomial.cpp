// expect: static assertion failed.*: ychart: .*dividing by a posynomial is not allowed
// 1/(x+y) is not a posynomial.
#include <ychart/ychart.hpp>
void f() {
  using namespace ychart;
  Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  auto t = m.positive("t", units::ms);
  auto b = m.positive("b", units::MB);
  (void)x; (void)y; (void)t; (void)b;
  auto e = 1 / (x + y); (void)e;
}
