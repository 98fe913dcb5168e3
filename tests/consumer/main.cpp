// Built against an installed ychart: find_package + target_link_libraries only
// (ychart::ychart: the solver compiled once, in this build).
#include <ychart/core.hpp>  // the modelling core, as the README's example

#include <cmath>
#include <iostream>

int main() {
  ychart::Model m;
  auto x = m.positive("x");
  auto y = m.positive("y", 0.5, 2.0);
  m.minimize(x + 2 * y);
  m.subject_to(x * y >= 1);
  const auto s = m.solve();
  std::cout << s;
  return s.optimal() && std::abs(s.objective() - 2 * std::sqrt(2.0)) < 1e-6 ? 0 : 1;
}
