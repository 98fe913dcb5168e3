// libFuzzer harness: random small mixed-integer models, built through the
// expression operators (products, quotients and powers of integer variables,
// affine rows with terms on both sides), lowered and solved by
// Model::solve, then checked against brute-force enumeration of every
// integer point. The status must be the enumeration's (optimal or
// infeasible) and the objective equal within 1e-6 relative. A wrong answer,
// an exception, a crash or a sanitizer report is a bug.
#include <ychart/ychart.hpp>

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

namespace {

struct Row {  // sum a_i n_i (sense) b, terms split over both sides
  std::vector<int> a;
  int sense = 0;  // 0 <=, 1 >=, 2 ==
  int b = 0;
  std::vector<bool> left;
};
struct Mono {  // t >= c * prod n_i^e_i
  double c = 1.0;
  std::vector<int> e;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ychart;
  FuzzedDataProvider in(data, size);
  const int n = in.ConsumeIntegralInRange(1, 3);
  std::vector<int> lo(static_cast<std::size_t>(n)), hi(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    lo[std::size_t(i)] = in.ConsumeIntegralInRange(1, 3);
    hi[std::size_t(i)] = lo[std::size_t(i)] + in.ConsumeIntegralInRange(0, 3);
  }
  std::vector<Row> rows(std::size_t(in.ConsumeIntegralInRange(0, 3)));
  for (auto& r : rows) {
    for (int i = 0; i < n; ++i) {
      r.a.push_back(in.ConsumeIntegralInRange(-3, 3));
      r.left.push_back(in.ConsumeBool());
    }
    r.sense = in.ConsumeIntegralInRange(0, 2);
    r.b = in.ConsumeIntegralInRange(-6, 12);
  }
  std::vector<Mono> monos(std::size_t(in.ConsumeIntegralInRange(0, 3)));
  for (auto& m : monos) {
    m.c = 0.25 * in.ConsumeIntegralInRange(1, 16);
    for (int i = 0; i < n; ++i) m.e.push_back(in.ConsumeIntegralInRange(-2, 2));
  }
  std::vector<int> cost(static_cast<std::size_t>(n));
  for (auto& c : cost) c = in.ConsumeIntegralInRange(-3, 3);
  const double weight = monos.empty() ? 0.0 : 0.5 * in.ConsumeIntegralInRange(1, 4);
  // A constant objective is a model_error by design ("needs a term with a variable").
  if (monos.empty() && std::all_of(cost.begin(), cost.end(), [](int c) { return c == 0; })) cost[0] = 1;

  // Brute force: t at its least value for each integer point.
  double best = std::numeric_limits<double>::infinity();
  std::vector<int> x(lo);
  while (true) {
    bool ok = true;
    for (const auto& r : rows) {
      int s = 0;
      for (int i = 0; i < n; ++i) s += r.a[std::size_t(i)] * x[std::size_t(i)];
      ok = ok && (r.sense == 0 ? s <= r.b : r.sense == 1 ? s >= r.b : s == r.b);
    }
    if (ok) {
      double t = 0.0;
      for (const auto& m : monos) {
        double v = m.c;
        for (int i = 0; i < n; ++i) v *= std::pow(double(x[std::size_t(i)]), m.e[std::size_t(i)]);
        t = std::max(t, v);
      }
      double value = weight * t;
      for (int i = 0; i < n; ++i) value += cost[std::size_t(i)] * x[std::size_t(i)];
      best = std::min(best, value);
    }
    int i = 0;
    while (i < n && x[std::size_t(i)] == hi[std::size_t(i)]) x[std::size_t(i)] = lo[std::size_t(i)], ++i;
    if (i == n) break;
    ++x[std::size_t(i)];
  }

  Model model;
  std::vector<Discrete<>> v;
  for (int i = 0; i < n; ++i) v.push_back(model.integer("n" + std::to_string(i), lo[std::size_t(i)], hi[std::size_t(i)]));
  for (const auto& r : rows) {
    Affine<> left, right;
    for (int i = 0; i < n; ++i) {
      if (!r.a[std::size_t(i)]) continue;
      if (r.left[std::size_t(i)]) left += r.a[std::size_t(i)] * v[std::size_t(i)];
      else right += (-r.a[std::size_t(i)]) * v[std::size_t(i)];
    }
    if (r.sense == 0) model.subject_to(left <= right + double(r.b));
    else if (r.sense == 1) model.subject_to(left >= right + double(r.b));
    else model.subject_to(left == right + double(r.b));
  }
  Affine<> affine;
  for (int i = 0; i < n; ++i)
    if (cost[std::size_t(i)]) affine += cost[std::size_t(i)] * v[std::size_t(i)];
  if (!monos.empty()) {
    auto t = model.positive("t");
    for (const auto& m : monos) {
      Monomial<> term = m.c * pow(v[0], m.e[0]);
      for (int i = 1; i < n; ++i) term = term * pow(v[std::size_t(i)], m.e[std::size_t(i)]);
      model.subject_to(t >= term);
    }
    model.minimize(weight * t + affine);
  } else {
    model.minimize(affine + 0.0);
  }
  SolveOptions options;
  options.time_limit = 20;
  const Solution s = model.solve(options);
  if (!std::isfinite(best)) {
    if (s.status() != Status::infeasible) {
      std::fprintf(stderr, "expected infeasible, got %s\n", std::string(to_string(s.status())).c_str());
      std::abort();
    }
    return 0;
  }
  if (s.status() != Status::optimal || std::abs(s.objective() - best) > 1e-6 * std::max(1.0, std::abs(best))) {
    std::fprintf(stderr, "expected optimum %.12g, got %s %.12g (%s)\n", best, std::string(to_string(s.status())).c_str(),
                 s.has_values() ? s.objective() : std::nan(""), s.message().c_str());
    std::abort();
  }
  return 0;
}
