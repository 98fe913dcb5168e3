// expect: static assertion failed.*: ychart: .*posynomial >= constant. .or .constant <= posynomial.. is not a GP constraint.*SignomialModel
// The same rule written the other way round.
#include <ychart/ychart.hpp>
void f() {
  using namespace ychart;
  Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  auto t = m.positive("t", units::ms);
  auto b = m.positive("b", units::MB);
  (void)x; (void)y; (void)t; (void)b;
  m.subject_to(3 <= x + y);
}
