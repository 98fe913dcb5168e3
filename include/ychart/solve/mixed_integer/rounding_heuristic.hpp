// ychart/solve/mixed_integer/rounding_heuristic.hpp
// The heuristic that seeds the exact methods with an incumbent: round the
// relaxed point to the nearest values of every discrete variable, let a GLPK
// MILP repair the rounding (the linear rows, tangent cuts of the convex rows
// at the relaxed point, minimal L1 distance to the rounded values), then
// solve the NLP with the repaired integers fixed. The incumbent it finds is
// feasible (checked by that NLP); it proves nothing.
#pragma once

#include "migp_context.hpp"

namespace ychart::solve::mixed_integer {

/// Returns true if it found a (new or better) incumbent.
inline bool rounding_heuristic(MigpContext& ctx, const std::vector<double>& relaxed, const std::vector<Cut>& cuts,
                               double time_limit) {
  const auto& f = ctx.form();
  auto m = ctx.master(cuts);
  // Replace the objective: distance to the rounding. Plain integer columns
  // get |x - r| through two extra columns d+ - d- = x - r; encoded variables
  // pay |v - r| for each value v they choose.
  std::fill(m.c.begin(), m.c.end(), 0.0);
  m.c0 = 0.0;
  std::vector<char> encoded(f.nlp.n, 0);
  for (const auto& e : f.encodings) {
    double value = 0.0;
    for (std::size_t i = 0; i < e.values.size(); ++i) value += e.values[i] * relaxed[e.first + int(i)];
    double rounded = e.values.front();
    for (double v : e.values)
      if (std::abs(v - value) < std::abs(rounded - value)) rounded = v;
    const double scale = std::max(1.0, e.values.back() - e.values.front());
    for (std::size_t i = 0; i < e.values.size(); ++i) {
      m.c[e.first + int(i)] = std::abs(e.values[i] - rounded) / scale;
      encoded[e.first + int(i)] = 1;
    }
  }
  std::vector<Eigen::Triplet<double, int>> trip;
  for (int r = 0; r < m.A.rows(); ++r)
    for (decltype(m.A)::InnerIterator it(m.A, r); it; ++it) trip.emplace_back(r, it.col(), it.value());
  int rows = int(m.A.rows());
  for (int j = 0; j < f.nlp.n; ++j) {
    if (!f.integer[j] || encoded[j]) continue;
    const double r = std::round(relaxed[j]);
    const double scale = std::max(1.0, f.nlp.upper[j] - f.nlp.lower[j]);
    const int plus = m.n++, minus = m.n++;
    for (int added = 0; added < 2; ++added) {  // d+ and d-, both >= 0
      m.lower.push_back(0.0);
      m.upper.push_back(std::numeric_limits<double>::infinity());
      m.integer.push_back(0);
      m.c.push_back(1.0 / (std::isfinite(scale) ? scale : 1.0));
    }
    trip.emplace_back(rows, j, 1.0);
    trip.emplace_back(rows, plus, -1.0);
    trip.emplace_back(rows, minus, 1.0);
    m.row_lower.push_back(r);
    m.row_upper.push_back(r);
    ++rows;
  }
  m.A.resize(rows, m.n);
  m.A.setFromTriplets(trip.begin(), trip.end());
  m.A.makeCompressed();
  milp::MilpOptions mo;
  mo.solver = ctx.options().milp_solver;
  mo.time_limit = std::max(1e-3, std::min(time_limit, ctx.remaining()));
  auto r = milp::solve_milp(m, mo);
  if (r.x.empty()) return false;
  r.x.resize(f.nlp.n);
  const double before = ctx.incumbent_phi();
  ctx.solve_fixed(r.x);
  return ctx.incumbent_phi() < before;
}

}  // namespace ychart::solve::mixed_integer
