// examples/study001/ch5/report.cpp
// Definitions of report.hpp, compiled once (the ychart_studies library), so
// that the example's main does not compile the tables and the figures.
#include "report.hpp"

namespace study001::ch5 {

BaselineStarts baseline_starts(const App& app, const Arch& arch, const std::vector<Point>& points) {
  BaselineStarts s;
  for (const auto& p : points) {
    if (!p.exact_mapping.cus.empty()) s.fastest = &p, s.fastest_mapping = &p.exact_mapping;
    else if (!p.mapping.cus.empty()) s.fastest = &p, s.fastest_mapping = &p.mapping;
    if (s.fastest) break;
  }
  s.slowest = !points.back().exact_mapping.cus.empty() ? &points.back().exact_mapping
              : !points.back().mapping.cus.empty()     ? &points.back().mapping
                                                       : nullptr;
  s.fastest_fpgas = s.fastest ? evaluate(app, arch, *s.fastest_mapping, transfer_model()).devices_used : 0;
  return s;
}

Baselines baselines_at(const App& app, const Arch& arch, const BaselineStarts& s, const Point& p) {
  Baselines b;
  if (s.fastest && p.ii_ms >= s.fastest->ii_ms) {
    b.fs_power = frequency_scaling_power(app, arch, *s.fastest_mapping, s.fastest->ii_ms, p.ii_ms);
    b.ck_power = clock_gating_power(app, arch, *s.fastest_mapping, s.fastest->ii_ms, p.ii_ms);
    b.fs_fpgas = s.fastest_fpgas;
  }
  if (s.slowest) b.replication = replication(app, arch, *s.slowest, p.ii_ms);
  if (b.replication.feasible) b.replication_fpgas = double(b.replication.fpgas);
  // The exact search's bound is the best proven one; the static + floor
  // bound of the H2 columns is weaker, so the table shows the larger.
  const double bound = std::isnan(p.exact_bound) ? p.bound : std::max(p.bound, p.exact_bound);
  if (std::isfinite(bound)) b.bound = bound;
  return b;
}

io::Table sweep_table(const std::vector<Point>& points, const std::vector<Baselines>& baselines) {
  io::Table table({{"II_max", "ms", 4},     {"F_min", "", 2},         {"H2 FPGAs", "", 2},
                   {"H2 power", "W", 4},    {"static", "W", 4},       {"compute", "W", 4},
                   {"DDR", "W", 3},         {"transfers", "ms", 3},   {"bound", "W", 4},
                   {"gap", "%", 3},         {"H1 FPGAs", "", 2},      {"H1 power", "W", 4},
                   {"H1 time", "s", 2},     {"exact FPGAs", "", 2},   {"exact power", "W", 4},
                   {"exact status", "", 1}, {"exact bound", "W", 4},  {"exact gap", "%", 3},
                   {"exact time", "s", 3},  {"H2 vs exact", "%", 3},  {"H1 vs exact", "%", 3},
                   {"FS power", "W", 4},    {"FS vs exact", "%", 3},  {"CK power", "W", 4},
                   {"FS/CK FPGAs", "", 2},  {"repl. copies", "", 2},  {"repl. FPGAs", "", 2},
                   {"repl. power", "W", 4}, {"repl. vs exact", "%", 3}, {"H2 time", "s", 2}});
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& p = points[i];
    const auto& b = baselines[i];
    table.add_row({p.ii_ms, double(p.f_min), double(p.h2_fpgas), p.h2_power, p.device_static + p.memory_static,
                   p.compute, p.memory_transfer + p.memory_execution, p.transfers_ms, p.bound, 100 * p.gap,
                   double(p.h1_fpgas), p.h1_power, p.h1_seconds, double(p.exact_fpgas), p.exact_power,
                   std::string(to_string(p.exact_status)), b.bound, 100 * p.exact_gap, p.exact_seconds,
                   100 * (p.h2_power / p.exact_power - 1), 100 * (p.h1_power / p.exact_power - 1), b.fs_power,
                   100 * (b.fs_power / p.exact_power - 1), b.ck_power, b.fs_fpgas, double(b.replication.copies),
                   b.replication_fpgas, b.replication.power, 100 * (b.replication.power / p.exact_power - 1),
                   p.seconds});
  }
  return table;
}

void draw_figures(examples::Outputs& outputs, const Case& c, const std::vector<Point>& points,
                  const std::vector<Baselines>& baselines) {
  auto series = [&](const std::string& name, auto y_of, bool dashed = false) {
    io::Series s{name, {}, {}};
    s.dashed = dashed;
    for (std::size_t i = 0; i < points.size(); ++i) s.x.push_back(points[i].ii_ms), s.y.push_back(y_of(i));
    return s;
  };
  io::LineChart chart;
  chart.title = c.title + ": power against II_max";
  chart.x_label = "II_max (ms)";
  chart.y_label = "power (W)";
  chart.series = {
      series("exact optimum (ychart; unproven points at their incumbent)", [&](auto i) { return points[i].exact_power; }),
      series("H2 (Algorithm 4), exact evaluation", [&](auto i) { return points[i].h2_power; }),
      series("H1 (ch. 6.2), exact evaluation", [&](auto i) { return points[i].h1_power; }),
      series("lower bound (every mapping)", [&](auto i) { return baselines[i].bound; }, true),
      series("frequency scaling of the fastest mapping", [&](auto i) { return baselines[i].fs_power; }),
      series("clock gating of the fastest mapping", [&](auto i) { return baselines[i].ck_power; }),
      series("replication (slowest mapping)", [&](auto i) { return baselines[i].replication.power; })};
  io::LineChart fpgas;
  fpgas.title = c.title + ": FPGAs used against II_max";
  fpgas.x_label = "II_max (ms)";
  fpgas.y_label = "FPGAs used";
  fpgas.series = {series("exact (unproven: best found)",
                         [&](auto i) { return points[i].exact_fpgas ? double(points[i].exact_fpgas) : not_a_number; }),
                  series("FS and CK (the fastest mapping)", [&](auto i) { return baselines[i].fs_fpgas; }),
                  series("replication (slowest mapping)", [&](auto i) { return baselines[i].replication_fpgas; })};
  outputs.figure("fig5_7_" + c.id + "_power.svg", chart);
  outputs.figure("fig5_6_" + c.id + "_fpgas.svg", fpgas);
}

void print_replication_base(const App& app, const Arch& arch, const std::vector<Point>& points,
                            const Mapping& slowest) {
  const auto b = evaluate(app, arch, slowest, transfer_model());
  std::cout << "Replication base: the " << (points.back().exact_mapping.cus.empty() ? "H2" : "exact")
            << " mapping at " << points.back().ii_ms << " ms, " << b.devices_used << " FPGA(s), own II "
            << b.ii.in(units::ms) << " ms (execution " << b.execution.in(units::ms) << " ms, transfers "
            << (b.host_to_device + b.device_to_host).in(units::ms) << " ms)\n";
}

void figure52_checks(const App& app, const Arch& arch, const std::vector<Point>& points,
                     const Mapping* slowest) {
  for (const auto& p : points)
    if (p.ii_ms == 0.8 || p.ii_ms == 1.4)
      std::cout << "Fig. 5.2 check: II = " << p.ii_ms << " ms needs at least " << p.f_min
                << " FPGAs (F_min: fewer cannot hold CU_min); "
                << (p.h2_fpgas ? "H2 maps it onto " + std::to_string(p.h2_fpgas)
                               : std::string("H2 (DSP-only packing) finds no mapping that also fits BRAM"))
                << "; the exact search: "
                << (p.exact_fpgas ? std::to_string(p.exact_fpgas) + " FPGAs, " + std::string(to_string(p.exact_status))
                                  : std::string(to_string(p.exact_status)))
                << "\n";
  if (!slowest) return;
  for (const auto& p : points) {
    if (!(p.ii_ms == 1.4 && p.exact_power > 0)) continue;
    std::cout << "Fig. 5.2 replication at 1.4 ms (thesis: +17 % over the optimum), exact " << p.exact_power
              << " W; copying, as the base,";
    const int fewest = evaluate(app, arch, *slowest, transfer_model()).devices_used;
    for (const bool exact : {true, false}) {
      std::cout << (exact ? "\n  the exact mapping at II_max =" : "\n  H2's mapping (CU_min + {0,1}) at II_max =");
      for (const auto& b : points) {
        const Mapping& m = exact ? b.exact_mapping : b.mapping;
        if (m.cus.empty() || (exact ? b.exact_fpgas : b.h2_fpgas) != fewest) continue;
        const auto rep = replication(app, arch, m, p.ii_ms);
        std::cout << " " << b.ii_ms << " ms (own II " << rep.base_ii_ms << " ms): ";
        if (rep.feasible)
          std::cout << rep.copies << " x, " << rep.power << " W, " << (rep.power >= p.exact_power ? "+" : "")
                    << 100 * (rep.power / p.exact_power - 1) << " %;";
        else
          std::cout << "infeasible (" << rep.limit << ");";
      }
    }
    std::cout << "\n";
  }
}

}  // namespace study001::ch5
