// expect: static assertion failed.*: ychart: .*pow.e, double. needs a dimensionless e
// The dimension of t^0.5 needs a compile-time exponent.
#include <ychart/ychart.hpp>
void f() {
  using namespace ychart;
  Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  auto t = m.positive("t", units::ms);
  auto b = m.positive("b", units::MB);
  (void)x; (void)y; (void)t; (void)b;
  auto e = pow(t, 0.5); (void)e;
}
