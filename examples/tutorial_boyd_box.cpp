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
// are options (--help), and so is the GP back end (--gp-solver, which sets
// the process default); --json and --csv give the solution as a table. The
// closed-form check holds for the defaults only. Then the paper's Figure 1:
// the optimal trade-off of the largest volume against the floor-area limit,
// for wall-area limits of 100, 1000 and 10000 (log-log, in --svg-dir).
#include "common/cli.hpp"

#include <ychart/core.hpp>

#include <cmath>
#include <iostream>
#include <string>

namespace {

struct Limits {
  double wall_area, floor_area, hw_min, hw_max, dw_min, dw_max;
};

struct Box {
  ychart::Solution solution;
  double h = 0, w = 0, d = 0;
};

Box largest_box(const Limits& l) {
  ychart::Model m;
  auto h = m.positive("h");
  auto w = m.positive("w");
  auto d = m.positive("d");
  m.maximize(h * w * d);
  m.subject_to(2 * (h * w + h * d) <= l.wall_area, "wall area");
  m.subject_to(w * d <= l.floor_area, "floor area");
  m.subject_to(h / w >= l.hw_min, "h/w min");
  m.subject_to(h / w <= l.hw_max, "h/w max");
  m.subject_to(d / w >= l.dw_min, "d/w min");
  m.subject_to(d / w <= l.dw_max, "d/w max");
  Box box{m.solve()};
  if (box.solution.has_values()) box.h = box.solution[h], box.w = box.solution[w], box.d = box.solution[d];
  return box;
}

/// Boyd et al. (2007), Figure 1: largest volume against A_flr for three A_wall.
void trade_off_figure(examples::Outputs& outputs, const Limits& ratios) {
  ychart::io::LineChart chart;
  chart.title = "Largest box volume against the floor-area limit (Boyd et al. 2007, Fig. 1)";
  chart.x_label = "floor-area limit A_flr (m^2)";
  chart.y_label = "largest volume (m^3)";
  chart.log_x = chart.log_y = true;
  for (double wall : {100.0, 1000.0, 10000.0}) {
    ychart::io::Series series{"A_wall = " + std::to_string(static_cast<int>(wall)) + " m^2", {}, {}};
    series.markers = false;
    for (int i = 0; i <= 24; ++i) {
      const double floor = 10 * std::pow(10.0, i / 12.0);  // 10 .. 1000, log-spaced
      Limits l = ratios;
      l.wall_area = wall;
      l.floor_area = floor;
      const Box box = largest_box(l);
      series.x.push_back(floor);
      series.y.push_back(box.solution.status() == ychart::Status::optimal ? box.solution.objective() : std::nan(""));
    }
    chart.series.push_back(series);
  }
  outputs.figure("trade_off.svg", chart);
}

}  // namespace

int main(int argc, char** argv) {
  double A_wall = 200, A_flr = 50, alpha = 0.5, beta = 2, gamma = 0.5, delta = 2;
  examples::Outputs outputs("tutorial_boyd_box", "tutorial_boyd_box");
  examples::CommandLine cli("The largest box under wall- and floor-area limits (Boyd et al. 2007, section 2.2)");
  cli.option("--wall-area", A_wall, "Limit on the wall area (m^2)").show_default().positive();
  cli.option("--floor-area", A_flr, "Limit on the floor area (m^2)").show_default().positive();
  cli.option("--hw-min", alpha, "Lower bound on h/w").show_default().positive();
  cli.option("--hw-max", beta, "Upper bound on h/w").show_default().positive();
  cli.option("--dw-min", gamma, "Lower bound on d/w").show_default().positive();
  cli.option("--dw-max", delta, "Upper bound on d/w").show_default().positive();
  std::string gp_solver = "automatic";
  cli.option("--gp-solver", gp_solver,
             "GP back end for every solve: automatic (native, Ipopt if it fails), native, ipopt, or cross_check "
             "(both, which must agree)")
      .show_default()
      .one_of({"automatic", "native", "ipopt", "cross_check"});
  outputs.add_options(cli);
  if (auto rc = cli.parse(argc, argv)) return *rc;
  for (auto s : {ychart::GpSolver::automatic, ychart::GpSolver::native, ychart::GpSolver::ipopt,
                 ychart::GpSolver::cross_check})
    if (ychart::to_string(s) == gp_solver) ychart::set_default_gp_solver(s);
  if (int rc = outputs.begin()) return rc;
  const bool defaults = A_wall == 200 && A_flr == 50 && alpha == 0.5 && beta == 2 && gamma == 0.5 && delta == 2;

  const Limits limits{A_wall, A_flr, alpha, beta, gamma, delta};
  const Box box = largest_box(limits);
  trade_off_figure(outputs, limits);
  const ychart::Solution& s = box.solution;
  std::cout << s << "\n";
  ychart::io::Table table({{"status", "", 1}, {"h", "m", 6}, {"w", "m", 6}, {"d", "m", 6}, {"volume", "m^3", 6}});
  if (s.status() != ychart::Status::optimal) {
    table.add_row({std::string(ychart::to_string(s.status())), std::monostate{}, std::monostate{}, std::monostate{},
                   std::monostate{}});
    outputs.add_table("box", table);
    outputs.finish();
    return 1;
  }
  table.add_row({std::string(ychart::to_string(s.status())), box.h, box.w, box.d, s.objective()});
  outputs.add_table("box", table);
  if (!defaults) return outputs.finish();

  // Closed form for these numbers: with w = d (the floor square, d/w = 1
  // inside its bounds), wd = A_flr and 4 h w = A_wall, so w = sqrt(A_flr) and
  // h = A_wall / (4 w); h/w = 2 = beta, inside the ratio bounds (tight).
  const double w_star = std::sqrt(A_flr), h_star = A_wall / (4 * w_star);
  const double volume = h_star * w_star * w_star;
  std::cout << "closed form: h = " << h_star << ", w = d = " << w_star << ", volume = " << volume << "\n";
  std::cout << "ychart:      h = " << box.h << ", w = " << box.w << ", d = " << box.d
            << ", volume = " << s.objective() << "\n";
  outputs.add_value("closed_form_volume", volume);
  const int written = outputs.finish();
  return std::abs(s.objective() - volume) <= 1e-6 * volume ? written : 1;
}
