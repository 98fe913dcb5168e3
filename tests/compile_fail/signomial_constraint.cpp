// expect: static assertion failed.*: ychart: .*a signomial .an expression with a subtraction. cannot appear in a GP constraint.*SignomialModel
// Move subtracted terms to the other side.
#include <ychart/ychart.hpp>
void f() {
  using namespace ychart;
  Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  auto t = m.positive("t", units::ms);
  auto b = m.positive("b", units::MB);
  (void)x; (void)y; (void)t; (void)b;
  m.subject_to(x - y <= 1);
}
