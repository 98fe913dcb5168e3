// examples/study001/ch5/report.hpp
// What the chapter-5 example shows of one case's sweep over II_max: per
// point the heuristics, the exact optimum and the ch. 5.4 baselines built
// on it (frequency scaling, clock gating, replication) as one table,
// Figures 5.7 (power against II_max) and 5.6 (FPGAs used), and the Fig. 5.2
// checks on AlexNet-16.
#pragma once

#include "ch5.hpp"
#include "common/cli.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

namespace study001::ch5 {

/// The mappings the ch. 5.4 baselines start from.
struct BaselineStarts {
  // FS and CK: the fastest point's exact mapping (H2's where the exact
  // search found none).
  const Point* fastest = nullptr;
  const Mapping* fastest_mapping = nullptr;
  int fastest_fpgas = 0;
  // Replication: the slowest point's mapping (the one on the fewest FPGAs),
  // the exact one or H2's where the search found none.
  const Mapping* slowest = nullptr;
};

BaselineStarts baseline_starts(const App& app, const Arch& arch, const std::vector<Point>& points);

/// The baselines at one point, and the best proven bound there.
struct Baselines {
  double fs_power = not_a_number, ck_power = not_a_number, fs_fpgas = not_a_number;
  Replication replication;
  double replication_fpgas = not_a_number;
  double bound = not_a_number;  // the exact search's bound or the static + floor bound, the larger; NaN if none
};

Baselines baselines_at(const App& app, const Arch& arch, const BaselineStarts& s, const Point& p);

io::Table sweep_table(const std::vector<Point>& points, const std::vector<Baselines>& baselines);

/// Figure 5.7 (power against II_max) and Figure 5.6 (FPGAs used).
void draw_figures(examples::Outputs& outputs, const Case& c, const std::vector<Point>& points,
                  const std::vector<Baselines>& baselines);

/// The mapping replication copies, with its own II and phases.
void print_replication_base(const App& app, const Arch& arch, const std::vector<Point>& points,
                            const Mapping& slowest);

/// Fig. 5.2's findings on AlexNet-16: 0.8 ms needs 3 FPGAs, 1.4 ms needs 2;
/// and "replication uses 17 % more power at 1.4 ms". Which slowest point the
/// thesis copied is lost with its figure, so every point on the fewest FPGAs
/// is tried as the base.
void figure52_checks(const App& app, const Arch& arch, const std::vector<Point>& points,
                     const Mapping* slowest);

}  // namespace study001::ch5
