// expect: static assertion failed.*: ychart: a SignomialModel has continuous variables only
// Sequential GP proves nothing at a branch-and-bound node: no integers in a SignomialModel.
#include <ychart/ychart.hpp>
void f() {
  using namespace ychart;
  SignomialModel m;
  auto n = m.integer("n", 0, 4);
  (void)n;
}
