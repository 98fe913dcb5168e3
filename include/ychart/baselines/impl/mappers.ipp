// ychart/baselines/impl/mappers.ipp
// The implementation of ychart/baselines/mappers.hpp.
#pragma once

#include "../../config.hpp"
#include "../../mapping/detail/factors.hpp"
#include "../../mapping/detail/orders.hpp"
#include "../mappers.hpp"

#include <chrono>
#include <functional>

namespace ychart::baselines {

namespace detail {

using namespace ychart::mapping;

/// The places a loop's factor can go: a level's temporal loop, or one of
/// its array dimensions where the fan-out has more than one instance.
struct Place {
  std::size_t level;
  int kind;  // 0 temporal, 1 spatial x, 2 spatial y
};

inline std::vector<Place> places(const Architecture& a) {
  std::vector<Place> p;
  for (std::size_t l = 0; l < a.levels.size(); ++l) {
    p.push_back({l, 0});
    if (a.levels[l].fanout_x > 1) p.push_back({l, 1});
    if (a.levels[l].fanout_y > 1) p.push_back({l, 2});
  }
  return p;
}

inline std::int64_t& factor_at(Mapping& m, Place p, Dim d) {
  auto& lm = m.levels[p.level];
  return at(p.kind == 0 ? lm.temporal : p.kind == 1 ? lm.spatial_x : lm.spatial_y, d);
}

inline std::int64_t axis_product(const Mapping& m, Place p) {
  const auto& v = p.kind == 1 ? m.levels[p.level].spatial_x : m.levels[p.level].spatial_y;
  std::int64_t n = 1;
  for (auto f : v) n *= f;
  return n;
}

inline std::int64_t fanout(const Architecture& a, Place p) {
  return p.kind == 1 ? a.levels[p.level].fanout_x : a.levels[p.level].fanout_y;
}

inline void keep_if_better(MapperResult& r, const Mapping& m, const Evaluation& e, Objective objective) {
  ++r.evaluated;
  if (!e.fits) return;
  ++r.fitting;
  const double v = objective_value(e, objective);
  if (!r.best || v < r.objective) r.best = m, r.evaluation = e, r.objective = v;
}

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace detail

YCHART_DECL mapping::Mapping random_mapping(const mapping::Workload& w, const mapping::Architecture& a,
                                            std::mt19937_64& rng) {
  using namespace mapping;
  const auto places = detail::places(a);
  Mapping m;
  m.levels.resize(a.levels.size());
  std::uniform_int_distribution<std::size_t> pick(0, places.size() - 1);
  for (Dim d : all_dims)
    for (auto f : mapping::detail::prime_factors(w[d])) {
      auto p = places[pick(rng)];
      if (p.kind != 0 && detail::axis_product(m, p) * f > detail::fanout(a, p)) p.kind = 0;
      detail::factor_at(m, p, d) *= f;
    }
  for (auto& lm : m.levels) {
    const auto choices = mapping::detail::innermost_choices(lm.temporal);
    std::uniform_int_distribution<std::size_t> g(0, choices.size() - 1);
    lm.order = mapping::detail::order_with_innermost(choices[g(rng)]);
  }
  return m;
}

YCHART_DECL MapperResult random_mapper(const mapping::Workload& w, const mapping::Architecture& a,
                                       mapping::Objective objective, std::uint64_t samples, std::uint64_t seed) {
  const auto start = std::chrono::steady_clock::now();
  w.validate();
  a.validate();
  std::mt19937_64 rng(seed);
  MapperResult r;
  for (std::uint64_t i = 0; i < samples; ++i) {
    const auto m = random_mapping(w, a, rng);
    detail::keep_if_better(r, m, mapping::evaluate(w, a, m), objective);
  }
  r.seconds = detail::seconds_since(start);
  return r;
}

YCHART_DECL MapperResult exhaustive_mapper(const mapping::Workload& w, const mapping::Architecture& a,
                                           mapping::Objective objective, std::uint64_t limit,
                                           const std::function<void(const mapping::Evaluation&)>& each) {
  using namespace mapping;
  const auto start = std::chrono::steady_clock::now();
  w.validate();
  a.validate();
  const auto places = detail::places(a);
  MapperResult r;
  r.complete = true;
  Mapping m;
  m.levels.resize(a.levels.size());
  // Orders last: per level, each innermost group that has a loop there.
  std::function<void(std::size_t)> orders = [&](std::size_t l) {
    if (r.evaluated >= limit) return void(r.complete = false);
    if (l == m.levels.size()) {
      const auto e = evaluate(w, a, m);
      if (each && e.fits) each(e);
      return detail::keep_if_better(r, m, e, objective);
    }
    for (Tensor g : mapping::detail::innermost_choices(m.levels[l].temporal)) {
      m.levels[l].order = mapping::detail::order_with_innermost(g);
      orders(l + 1);
    }
  };
  // Factors: loop by loop, place by place, what is left of the extent;
  // an array dimension never takes more than its fan-out.
  std::function<void(std::size_t, std::size_t, std::int64_t)> place = [&](std::size_t di, std::size_t pi,
                                                                          std::int64_t left) {
    if (!r.complete) return;
    if (di == all_dims.size()) return orders(0);
    const auto next = [&] { place(di + 1, 0, di + 1 < all_dims.size() ? w[all_dims[di + 1]] : 1); };
    if (left == 1) return next();
    const Dim d = all_dims[di];
    const detail::Place p = places[pi];
    const bool last = pi + 1 == places.size();
    for (auto f : last ? std::vector<std::int64_t>{left} : mapping::detail::divisors(left)) {
      if (p.kind != 0 && detail::axis_product(m, p) * f > detail::fanout(a, p)) break;
      detail::factor_at(m, p, d) = f;
      if (last || f == left) next();
      else place(di, pi + 1, left / f);
      detail::factor_at(m, p, d) = 1;
    }
  };
  place(0, 0, w[all_dims[0]]);
  r.seconds = detail::seconds_since(start);
  return r;
}

}  // namespace ychart::baselines
