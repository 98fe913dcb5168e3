// Built against an installed ychart: find_package + target_link_libraries only.
#include <ychart/ychart.hpp>

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
