// examples/tutorial_boyd_box.cpp
// The tutorial model of Boyd, Kim, Vandenberghe & Hassibi, "A tutorial on
// geometric programming" (Optim. Eng., 2007), section 2.2: the largest box
// with a limit on wall area and on floor area, and bounds on its aspect
// ratios:
//   maximise  h w d
//   s.t.      2 (h w + h d) <= A_wall,   w d <= A_flr,
//             alpha <= h / w <= beta,    gamma <= d / w <= delta.
// Lengths are in metres here (dimensionless numbers; see docs/units.md for
// typed quantities). The program prints the solution table, then checks it
// against the closed form for these parameters. The areas and ratio bounds
// are options (--help); --json and --csv give the solution as a table. The
// closed-form check holds for the defaults only.
#include "common/cli.hpp"

#include <ychart/ychart.hpp>

#include <cmath>
#include <iostream>

int main(int argc, char** argv) {
  double A_wall = 200, A_flr = 50, alpha = 0.5, beta = 2, gamma = 0.5, delta = 2;
  examples::Outputs outputs("tutorial_boyd_box", "");
  CLI::App cli("The largest box under wall- and floor-area limits (Boyd et al. 2007, section 2.2)");
  cli.add_option("--wall-area", A_wall, "Limit on the wall area (m^2)")->capture_default_str()->check(CLI::PositiveNumber);
  cli.add_option("--floor-area", A_flr, "Limit on the floor area (m^2)")->capture_default_str()->check(CLI::PositiveNumber);
  cli.add_option("--hw-min", alpha, "Lower bound on h/w")->capture_default_str()->check(CLI::PositiveNumber);
  cli.add_option("--hw-max", beta, "Upper bound on h/w")->capture_default_str()->check(CLI::PositiveNumber);
  cli.add_option("--dw-min", gamma, "Lower bound on d/w")->capture_default_str()->check(CLI::PositiveNumber);
  cli.add_option("--dw-max", delta, "Upper bound on d/w")->capture_default_str()->check(CLI::PositiveNumber);
  outputs.add_options(cli);
  CLI11_PARSE(cli, argc, argv);
  outputs.begin();
  const bool defaults = A_wall == 200 && A_flr == 50 && alpha == 0.5 && beta == 2 && gamma == 0.5 && delta == 2;

  ychart::Model m;
  auto h = m.positive("h");
  auto w = m.positive("w");
  auto d = m.positive("d");
  m.maximize(h * w * d);
  m.subject_to(2 * (h * w + h * d) <= A_wall, "wall area");
  m.subject_to(w * d <= A_flr, "floor area");
  m.subject_to(h / w >= alpha, "h/w min");
  m.subject_to(h / w <= beta, "h/w max");
  m.subject_to(d / w >= gamma, "d/w min");
  m.subject_to(d / w <= delta, "d/w max");

  const ychart::Solution s = m.solve();
  std::cout << s << "\n";
  ychart::io::Table table({{"status", "", 1}, {"h", "m", 6}, {"w", "m", 6}, {"d", "m", 6}, {"volume", "m^3", 6}});
  if (s.status() != ychart::Status::optimal) {
    table.add_row({std::string(ychart::to_string(s.status())), std::monostate{}, std::monostate{}, std::monostate{},
                   std::monostate{}});
    outputs.add_table("box", table);
    outputs.finish();
    return 1;
  }
  table.add_row({std::string(ychart::to_string(s.status())), s[h], s[w], s[d], s.objective()});
  outputs.add_table("box", table);
  if (!defaults) return outputs.finish();

  // Closed form for these numbers: with w = d (the floor square, d/w = 1
  // inside its bounds), wd = A_flr and 4 h w = A_wall, so w = sqrt(A_flr) and
  // h = A_wall / (4 w); h/w = 2 = beta, inside the ratio bounds (tight).
  const double w_star = std::sqrt(A_flr), h_star = A_wall / (4 * w_star);
  const double volume = h_star * w_star * w_star;
  std::cout << "closed form: h = " << h_star << ", w = d = " << w_star << ", volume = " << volume << "\n";
  std::cout << "ychart:      h = " << s[h] << ", w = " << s[w] << ", d = " << s[d]
            << ", volume = " << s.objective() << "\n";
  outputs.add_value("closed_form_volume", volume);
  const int written = outputs.finish();
  return std::abs(s.objective() - volume) <= 1e-6 * volume ? written : 1;
}
