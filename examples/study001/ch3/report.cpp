// examples/study001/ch3/report.cpp
// Definitions of report.hpp, compiled once (the ychart_studies library), so
// that the example's main does not compile the tables and the figures.
#include "report.hpp"

namespace study001::ch3 {

io::Table sweep_table(const std::vector<Point>& points) {
  io::Table table({{"cap", "%", 3},
                   {"GP II", "ms", 4},
                   {"exact II", "ms", 4},
                   {"exact phi", "", 3},
                   {"exact avg use", "%", 3},
                   {"weighted II", "ms", 4},
                   {"weighted phi", "", 3},
                   {"GP+A II", "ms", 4},
                   {"GP+A phi", "", 3},
                   {"GP+A avg use", "%", 3},
                   {"re-run II", "ms", 4},
                   {"re-run cap", "%", 3},
                   {"re-run max use", "%", 4},
                   {"re-run phi", "", 3},
                   {"exact time", "s", 2},
                   {"weighted time", "s", 2},
                   {"GP+A time", "s", 2}});
  for (const auto& p : points)
    table.add_row({p.cap, p.gp_ii_ms, p.exact.ii_ms, p.exact.spreading, p.exact.average_use, p.weighted.ii_ms,
                   p.weighted.spreading, p.gpa.ii_ms, p.gpa.spreading, p.gpa.average_use, p.gpa_rerun.ii_ms,
                   p.gpa_rerun_cap, p.gpa_rerun.max_use, p.gpa_rerun.spreading, p.exact.seconds,
                   p.weighted.seconds, p.gpa.seconds});
  return table;
}

void draw_figures(examples::Outputs& outputs, const Case& c, const App& app, const std::vector<Point>& points) {
  auto series = [&](const std::string& name, auto x_of, auto y_of, bool dashed) {
    io::Series s;
    s.name = name;
    s.dashed = dashed;
    for (const auto& p : points) s.x.push_back(x_of(p)), s.y.push_back(y_of(p));
    return s;
  };
  auto cap_of = [](const Point& p) { return p.cap; };
  io::LineChart left;
  left.title = c.title + ": II against the resource cap";
  left.x_label = "resource cap per FPGA (%)";
  left.y_label = "II (ms)";
  left.series = {series("GP relaxation", cap_of, [](const Point& p) { return p.gp_ii_ms; }, true),
                 series("exact, beta = 0 (MINLP)", cap_of, [](const Point& p) { return p.exact.ii_ms; }, false),
                 series("exact, Table 3.4 beta (MINLP+G)", cap_of,
                        [](const Point& p) { return p.weighted.ii_ms; }, false),
                 series("GP+A (Algorithm 1)", cap_of, [](const Point& p) { return p.gpa.ii_ms; }, false)};
  // The fallback's points sit at the cap they are plotted for but used
  // cap + k T_max: markers only, named as over the cap.
  auto rerun_series = series("GP+A re-run (over the cap)", cap_of,
                             [](const Point& p) { return p.gpa_rerun.ii_ms; }, false);
  rerun_series.line = false;
  left.series.push_back(rerun_series);
  outputs.figure(c.figure + "_" + c.id + "_cap.svg", left);
  io::LineChart right;
  right.title = c.title + ": II against average FPGA use";
  right.x_label = "average use of the FPGAs (%)";
  right.y_label = "II (ms)";
  right.series = {
      series("exact, beta = 0 (MINLP)", [](const Point& p) { return p.exact.average_use; },
             [](const Point& p) { return p.exact.ii_ms; }, false),
      series("exact, Table 3.4 beta (MINLP+G)", [](const Point& p) { return p.weighted.average_use; },
             [](const Point& p) { return p.weighted.ii_ms; }, false),
      series("GP+A (Algorithm 1)", [](const Point& p) { return p.gpa.average_use; },
             [](const Point& p) { return p.gpa.ii_ms; }, false)};
  outputs.figure(c.figure + "_" + c.id + "_use.svg", right);

  if (c.id == "vgg16")
    for (const auto& p : points)
      if (p.cap == 61) {
        outputs.figure("fig3_6_vgg16_61_exact.svg",
                       study001::dsp_bars(app, p.exact.mapping, p.cap, "VGG at a 61 % cap: exact, beta = 0 (MINLP)"));
        outputs.figure("fig3_6_vgg16_61_weighted.svg",
                       study001::dsp_bars(app, p.weighted.mapping, p.cap,
                                          "VGG at a 61 % cap: exact, beta = 50 (MINLP+G)"));
        if (!p.gpa.mapping.cus.empty())
          outputs.figure("fig3_6_vgg16_61_gpa.svg",
                         study001::dsp_bars(app, p.gpa.mapping, p.cap, "VGG at a 61 % cap: GP+A"));
      }
}

void plain_model_check(const Case& c, const std::vector<Point>& points) {
  const Point* at = &points.front();
  for (const auto& p : points)
    if (std::abs(p.cap - 60) < std::abs(at->cap - 60)) at = &p;
  const auto kernels = c.id == "alex16" ? shan2021::alex16() : c.id == "alex32" ? shan2021::alex32() : shan2021::vgg();
  auto plain = plain_allocation(kernels.stages(), c.fpgas, at->cap, c.alpha, c.beta);
  const auto t0 = std::chrono::steady_clock::now();
  const auto s = plain.model.solve();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double ours = at->weighted.proven ? c.alpha * at->weighted.ii_ms + c.beta * at->weighted.spreading : not_a_number;
  std::cout << "plain model (no interchangeable()) at " << at->cap << " %: " << to_string(s.status()) << " by "
            << s.method() << " in " << seconds << " s, objective "
            << (s.has_values() ? s.objective() : not_a_number) << " (declared model: " << ours << ")";
  if (s.optimal() && at->weighted.proven && std::abs(s.objective() - ours) > 1e-6 * std::max(1.0, ours))
    std::cout << "  DIFFERENT";
  std::cout << "\n";
}

}  // namespace study001::ch3
