// expect: static assertion failed.*: ychart: .*the two sides have different physical dimensions
// Adding milliseconds to megabytes.
#include <ychart/ychart.hpp>
void f() {
  using namespace ychart;
  Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  auto t = m.positive("t", units::ms);
  auto b = m.positive("b", units::MB);
  (void)x; (void)y; (void)t; (void)b;
  auto e = t + b; (void)e;
}
