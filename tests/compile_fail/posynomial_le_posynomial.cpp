// expect: static assertion failed.*: ychart: .*the larger side of an inequality must be a monomial.*SignomialModel
// The right of <= must be a single term.
#include <ychart/ychart.hpp>
void f() {
  using namespace ychart;
  Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  auto t = m.positive("t", units::ms);
  auto b = m.positive("b", units::MB);
  (void)x; (void)y; (void)t; (void)b;
  m.subject_to(x <= x + y);
}
