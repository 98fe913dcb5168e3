// expect: static assertion failed.*: ychart: .*different dimension than the constant
// Reading a time in megabytes.
#include <ychart/ychart.hpp>
void f() {
  using namespace ychart;
  Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  auto t = m.positive("t", units::ms);
  auto b = m.positive("b", units::MB);
  (void)x; (void)y; (void)t; (void)b;
  auto v = (3 * units::ms).in(units::MB); (void)v;
}
