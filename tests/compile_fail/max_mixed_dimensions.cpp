// expect: static assertion failed.*: ychart: .*max.. of expressions with different physical dimensions
// max of a time and a data size.
#include <ychart/ychart.hpp>
void f() {
  using namespace ychart;
  Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  auto t = m.positive("t", units::ms);
  auto b = m.positive("b", units::MB);
  (void)x; (void)y; (void)t; (void)b;
  auto e = max(t, b); (void)e;
}
