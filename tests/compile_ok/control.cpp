// The compile-fail harness's control: every legal form here must compile.
#include <ychart/ychart.hpp>

void legal_forms() {
  using namespace ychart;
  Model m;
  auto x = m.positive("x");
  auto y = m.positive("y");
  auto t = m.positive("t", units::ms);
  m.subject_to(x + y <= x * y);             // posynomial <= monomial
  m.subject_to(x * y >= 1 + x);             // monomial >= posynomial
  m.subject_to(x == 2 * y);                 // monomial == monomial
  m.subject_to(t >= 3 * units::ms);         // dimensioned bound
  m.subject_to(pow<1, 2>(t * t) <= 1 * units::s);
  m.subject_to(max(x, y) + pow(x, 0.5) <= 4);
  m.minimize(x + 2 * y);
  m.maximize(x / y);
}
