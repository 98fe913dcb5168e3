// expect: static assertion failed.*: ychart: .*pow.e, a. takes a monomial or a constant
// A posynomial to a power is not a monomial.
#include <ychart/ychart.hpp>
void f() {
  using namespace ychart;
  Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  auto t = m.positive("t", units::ms);
  auto b = m.positive("b", units::MB);
  (void)x; (void)y; (void)t; (void)b;
  auto e = pow(x + y, 2.0); (void)e;
}
