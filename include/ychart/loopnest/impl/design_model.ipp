// ychart/loopnest/impl/design_model.ipp
// The implementation of ychart/loopnest/design_model.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../design_model.hpp"

namespace ychart::loopnest {


namespace detail {

/// ceil(a / b) for all the divisors, without repeats, ascending.
inline std::vector<double> ceil_values(long long extent, const std::vector<long long>& divisors) {
  std::set<double> out;
  for (auto d : divisors) out.insert(double(ceil_div(extent, d)));
  return {out.begin(), out.end()};
}

}  // namespace detail

YCHART_DECL double design_area(const AcceleratorTemplate& t, double macs, double kib) {
  return t.area_fixed + t.area_per_mac * macs + t.area_per_kib * kib;
}

YCHART_DECL Constant<dim::power> design_power(const AcceleratorTemplate& t, double macs, double kib) {
  return Constant<dim::power>(t.power_fixed.value() + t.power_per_mac.value() * macs + t.power_per_kib.value() * kib);
}

YCHART_DECL AcceleratorDesign design_accelerator(const Cnn& cnn, const Platform& platform, const AcceleratorTemplate& t,
                                                 const DesignOptions& o, const SolveOptions& solve_options) {
  const auto t0 = std::chrono::steady_clock::now();
  platform.validate();
  if (t.processor >= platform.processors.size()) throw loopnest_error("ychart: the template names no processor");
  const auto& proc = platform.processors[t.processor];
  const auto& cm = proc.model;
  if (t.parallelism.size() != cm.unrolls.size())
    throw loopnest_error("ychart: the template gives " + std::to_string(t.parallelism.size()) +
                         " parallelism choice lists for " + std::to_string(cm.unrolls.size()) + " unrolled levels");
  for (const auto& values : t.parallelism)
    if (values.empty() || *std::min_element(values.begin(), values.end()) < 1)
      throw loopnest_error("ychart: every parallelism level needs at least one positive value");
  if (t.max_tiles < 1) throw loopnest_error("ychart: max_tiles must be at least 1");
  if (o.goal == DesignGoal::energy && !proc.energy_per_byte)
    throw loopnest_error("ychart: designing for energy needs the processor's DDR energy per bit");
  const double f = proc.frequency.value();
  const std::size_t memories = platform.memories.size();
  auto memory_values = [&](std::size_t k) {
    return k < t.memory_bytes.size() && !t.memory_bytes[k].empty() ? t.memory_bytes[k]
                                                                    : std::vector<double>{platform.memories[k].capacity.value()};
  };

  Model m;
  // A design variable: a choice of values, or a positive variable over their range when relaxed.
  auto variable = [&](const std::string& name, std::vector<double> values) -> Monomial<> {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    if (values.size() == 1) return Monomial<>(Constant<>(values.front()));
    if (o.relax) return Monomial<>(m.positive(name, values.front(), values.back()));
    return Monomial<>(m.choice(name, values));
  };
  // The grid and the memories (in KiB, for the solver's scaling).
  std::vector<Monomial<>> grid;
  std::vector<std::optional<Discrete<>>> grid_handles;  // the grid levels that are choices
  for (std::size_t g = 0; g < t.parallelism.size(); ++g) {
    std::vector<double> v(t.parallelism[g].begin(), t.parallelism[g].end());
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    if (v.size() > 1 && !o.relax) {
      grid_handles.push_back(m.choice("P" + std::to_string(g), v));
      grid.push_back(*grid_handles.back());
    } else {
      grid_handles.emplace_back();
      grid.push_back(variable("P" + std::to_string(g), v));
    }
  }
  std::vector<Monomial<>> capacity_kib;
  for (std::size_t k = 0; k < memories; ++k) {
    auto v = memory_values(k);
    for (auto& x : v) x /= 1024.0;
    capacity_kib.push_back(variable("M_" + platform.memories[k].id, v));
  }
  Monomial<> macs = Constant<>(1.0);
  for (const auto& p : grid) macs = macs * p;
  Posynomial<> kib_total;
  for (std::size_t k = 0; k < memories; ++k)
    if (k < t.memory_bytes.size() && !t.memory_bytes[k].empty()) kib_total += capacity_kib[k];
  Posynomial<> area = Constant<>(std::max(t.area_fixed, 0.0)) + t.area_per_mac * macs;
  if (t.area_per_kib > 0) area += t.area_per_kib * kib_total;
  Posynomial<> power_w = Constant<>(std::max(t.power_fixed.value(), 0.0)) + t.power_per_mac.value() * macs;
  if (t.power_per_kib.value() > 0) power_w += t.power_per_kib.value() * kib_total;
  if (o.area_budget) m.subject_to(area <= *o.area_budget, "area budget");
  if (o.power_budget) m.subject_to(power_w <= o.power_budget->value(), "power budget");

  // The nest's shape without the grid: refine on a unit grid with unbounded memories.
  Platform shape = platform;
  for (auto& mem : shape.memories) mem.capacity = Constant<dim::data>(std::numeric_limits<double>::max());
  auto& shape_proc = shape.processors[t.processor];
  shape_proc.parallelism.assign(cm.unrolls.size(), 1);

  // Every grid of the space, to bound the tile counts by what ALOHA's rule
  // needs on the smallest memories (at most 4096 grids; otherwise max_tiles).
  std::vector<std::vector<long long>> grids{{}};
  for (const auto& values : t.parallelism) {
    std::vector<std::vector<long long>> next;
    for (const auto& g : grids)
      for (auto v : values) {
        next.push_back(g);
        next.back().push_back(v);
      }
    grids = std::move(next);
    if (grids.size() > 4096) break;
  }
  Platform smallest = platform;
  for (std::size_t k = 0; k < memories; ++k) {
    const auto v = memory_values(k);
    smallest.memories[k].capacity = Constant<dim::data>(*std::min_element(v.begin(), v.end()));
  }
  auto rule_tiles = [&](const Layer& layer) {
    std::array<long long, loop_count> most{};
    most.fill(1);
    if (grids.size() > 4096 || grids.front().size() != t.parallelism.size()) {
      most.fill(t.max_tiles);
      return most;
    }
    for (const auto& g : grids) {
      auto q = smallest.processors[t.processor];
      q.parallelism = g;
      try {
        const auto n = refine(layer, q, smallest);
        for (const auto& lp : n.loops)
          for (int k = 0; k < loop_count; ++k)
            if (lp.has(Loop(k))) most[std::size_t(k)] = std::max(most[std::size_t(k)], lp.tiles);
      } catch (const tiling_error&) {
        most.fill(t.max_tiles);  // the smallest memories do not fit: allow the full range
        return most;
      }
    }
    return most;
  };

  // Per layer and nest loop: its tile count where it may be tiled, and the loops it runs.
  struct LayerVars {
    std::vector<std::optional<Monomial<>>> tiles;
    std::vector<unsigned> members;
  };
  std::vector<LayerVars> layer_vars(cnn.layers.size());
  Posynomial<> latency_ms, traffic_kib;
  const double ov_ms = proc.overhead.value() * 1e3;
  for (std::size_t l = 0; l < cnn.layers.size(); ++l) {
    const auto& layer = cnn.layers[l];
    const auto nest = refine(layer, shape_proc, shape);
    const std::string id = layer.name;
    const std::size_t loops = nest.loops.size();
    // Trip counts n (unrolled loops) or extents, and the loops a memory may tile.
    std::vector<Monomial<>> trip(loops), par(loops), inner(loops);
    layer_vars[l].tiles.resize(loops);
    std::vector<bool> may_tile(loops, false);
    const auto needed = rule_tiles(layer);
    // A loop is tiled only where its memory may overflow: the largest
    // buffer any grid can make exceeds the smallest capacity.
    std::vector<double> most_bytes(memories, 0.0);
    for (int d = 0; d < data_kind_count; ++d) {
      const auto& tr = nest.transfers[std::size_t(d)];
      if (!tr.present) continue;
      double other = layer.element.value(), kernel = 1;
      for (const auto& lp : nest.loops) {
        const bool indexes = lp.indexes(nest.tensor, DataKind(d));
        if (!indexes) continue;
        double f = 1;
        const std::vector<long long> one{1};
        for (auto p : lp.grid_level >= 0 ? t.parallelism[std::size_t(lp.grid_level)] : one)
          f = std::max(f, lp.level >= tr.level ? double(detail::ceil_div(lp.extent, p) * p) : double(p));
        const bool is_kernel = lp.is_kernel();
        if (DataKind(d) == DataKind::weights && is_kernel) kernel *= f;
        else other *= f;
      }
      most_bytes[tr.memory] += DataKind(d) == DataKind::weights ? other * (kernel + 1) : other;
    }
    for (int d = 0; d < data_kind_count; ++d) {
      const auto& tr = nest.transfers[std::size_t(d)];
      if (!tr.present) continue;
      const auto li = nest.index_of(cm.transfer[std::size_t(d)].limited_loop);
      const auto v = memory_values(tr.memory);
      if (nest.loops[li].level >= tr.level && most_bytes[tr.memory] > *std::min_element(v.begin(), v.end()))
        may_tile[li] = true;
    }
    for (std::size_t i = 0; i < loops; ++i) {
      const auto& lp = nest.loops[i];
      std::string loop_id;
      for (int k = 0; k < loop_count; ++k)
        if (lp.has(Loop(k))) loop_id += loop_name(Loop(k));
      std::vector<long long> divisors{1};
      if (lp.grid_level >= 0) {
        divisors = t.parallelism[std::size_t(lp.grid_level)];
        par[i] = grid[std::size_t(lp.grid_level)];
        const auto values = detail::ceil_values(lp.extent, divisors);
        const auto& level = grid_handles[std::size_t(lp.grid_level)];
        if (values.size() > 1 && level) {
          // n = ceil(d / P) exactly, as a table of P: a linear row between the two
          // encodings, which the relaxation of n P >= d alone leaves loose.
          auto n = m.choice("n_" + id + "_" + loop_id, values);
          const long long extent = lp.extent;
          m.subject_to(Affine<>(n) == tabulate(*level, [extent](double p) {
                         return double(detail::ceil_div(extent, static_cast<long long>(p)));
                       }),
                       "trip " + id + " " + loop_id);
          trip[i] = n;
        } else {
          trip[i] = variable("n_" + id + "_" + loop_id, values);
        }
        m.subject_to(double(lp.extent) / (trip[i] * par[i]) <= 1.0, "round-up " + id + " " + loop_id);
      } else {
        par[i] = Constant<>(1.0);
        trip[i] = Constant<>(double(lp.extent));
      }
      inner[i] = trip[i];
      long long most = 1;
      for (int k = 0; k < loop_count; ++k)
        if (lp.has(Loop(k))) most = std::max(most, needed[std::size_t(k)]);
      most = std::min({most, t.max_tiles, lp.extent});
      if (may_tile[i] && most > 1) {
        // A tile count that splits no trip count finer than one tile fewer
        // (ceil(n / T) == ceil(n / (T - 1)) for every n) only adds executions: left out.
        std::vector<double> tile_values, inner_values;
        for (long long k = 1; k <= most; ++k) {
          bool finer = k == 1;
          for (auto d : divisors) {
            const long long n = detail::ceil_div(lp.extent, d);
            finer = finer || detail::ceil_div(n, k) < detail::ceil_div(n, k - 1);
          }
          if (finer) tile_values.push_back(double(k));
        }
        std::set<double> iv;
        for (auto d : divisors)
          for (long long k = 1; k <= most; ++k) iv.insert(double(detail::ceil_div(detail::ceil_div(lp.extent, d), k)));
        inner_values.assign(iv.begin(), iv.end());
        const Monomial<> tile = variable("T_" + id + "_" + loop_id, tile_values);
        inner[i] = variable("m_" + id + "_" + loop_id, inner_values);
        m.subject_to(trip[i] / (tile * inner[i]) <= 1.0, "tiles " + id + " " + loop_id);
        layer_vars[l].tiles[i] = tile;
      }
    }
    for (const auto& lp : nest.loops) layer_vars[l].members.push_back(lp.members);
    // Transfers: bytes per execution and executions, as monomials (KiB).
    std::vector<Posynomial<>> channel_kib(platform.channels.size());
    std::vector<bool> channel_used(platform.channels.size(), false);
    std::vector<Posynomial<>> memory_kib(memories);
    std::vector<bool> memory_used(memories, false);
    for (int d = 0; d < data_kind_count; ++d) {
      const auto& tr = nest.transfers[std::size_t(d)];
      if (!tr.present) continue;
      Monomial<> other = Constant<>(layer.element.value() / 1024.0), kernel = Constant<>(1.0), executions = Constant<>(1.0);
      double kernel_constant = 1;  // the kernel loops' extents when neither unrolled nor tiled
      bool kernel_varies = false;
      for (std::size_t i = 0; i < loops; ++i) {
        const auto& lp = nest.loops[i];
        if (layer_vars[l].tiles[i]) executions = executions * *layer_vars[l].tiles[i];
        if (lp.level < tr.level) executions = executions * inner[i];
        const bool indexes = lp.indexes(nest.tensor, DataKind(d));
        if (!indexes) continue;
        const Monomial<> factor = lp.level >= tr.level ? inner[i] * par[i] : par[i];
        const bool is_kernel = lp.is_kernel();
        if (DataKind(d) == DataKind::weights && is_kernel) {
          kernel = kernel * factor;
          const bool fixed = lp.grid_level < 0 && !layer_vars[l].tiles[i];
          if (fixed) kernel_constant *= lp.level >= tr.level ? double(lp.extent) : 1.0;
          kernel_varies = kernel_varies || !fixed;
        } else {
          other = other * factor;
        }
      }
      // (KH KW + 1) x the rest: one monomial while the kernel loops are fixed.
      Posynomial<> bytes = other;
      if (DataKind(d) == DataKind::weights)
        bytes = kernel_varies ? Posynomial<>(other * kernel + other) : Posynomial<>((kernel_constant + 1.0) * other);
      memory_kib[tr.memory] += bytes;
      memory_used[tr.memory] = true;
      channel_kib[tr.channel] += executions * bytes;
      channel_used[tr.channel] = true;
      traffic_kib += executions * bytes;
    }
    for (std::size_t k = 0; k < memories; ++k)
      if (memory_used[k]) m.subject_to(memory_kib[k] <= capacity_kib[k], "memory " + platform.memories[k].id + " " + id);
    // Compute: OPS_re / (2 prod P f) = (ops per iteration / 2) prod trips / f.
    Monomial<> compute_ms = Constant<>(nest.tensor.ops_per_iteration / 2.0 / f * 1e3);
    for (std::size_t i = 0; i < loops; ++i) compute_ms = compute_ms * trip[i];
    auto tau = m.positive("tau_" + id, 0.0);
    m.subject_to(compute_ms <= tau, "compute " + id);
    for (std::size_t c = 0; c < platform.channels.size(); ++c)
      if (channel_used[c])
        m.subject_to((1024.0 * 1e3 / platform.channels[c].bandwidth.value()) * channel_kib[c] <= tau,
                     "channel " + platform.channels[c].id + " " + id);
    latency_ms += tau + Constant<>(ov_ms);
  }
  const double byte_mj = proc.energy_per_byte ? proc.energy_per_byte->value() * 1024.0 * 1e3 : 0.0;
  // Among optima within 1e-6 ms (or mJ) per area unit, the smallest area; subtracted again below.
  const double tie_break = 1e-6;
  if (o.goal == DesignGoal::latency) {
    if (o.latency_limit) m.subject_to(latency_ms <= o.latency_limit->value() * 1e3, "latency limit");
    m.minimize(latency_ms + tie_break * area);
  } else {
    // One latency variable: power x latency then has as many terms as the power.
    auto total_ms = m.positive("latency_ms", 0.0, o.latency_limit ? o.latency_limit->value() * 1e3
                                                                  : std::numeric_limits<double>::infinity());
    m.subject_to(latency_ms <= total_ms, "latency");
    m.minimize(power_w * total_ms + byte_mj * traffic_kib + tie_break * area);  // W * ms = mJ
  }

  const auto sol = m.solve(solve_options);
  AcceleratorDesign r;
  r.status = sol.status();
  r.message = sol.message();
  r.bound = sol.bound();
  if (sol.has_values()) {
    r.objective = sol.objective() * 1e-3;  // ms -> s, mJ -> J
    r.bound *= 1e-3;
    auto value = [&](const Monomial<>& e) { return sol.value(e); };
    for (const auto& p : grid) r.parallelism.push_back(value(p));
    for (std::size_t k = 0; k < memories; ++k) r.memory_bytes.push_back(value(capacity_kib[k]) * 1024.0);
    for (std::size_t l = 0; l < cnn.layers.size(); ++l) {
      std::array<long long, loop_count> tiles{};
      const auto& lv = layer_vars[l];
      for (std::size_t i = 0; i < lv.tiles.size(); ++i)
        if (lv.tiles[i])
          for (int k = 0; k < loop_count; ++k)
            if ((lv.members[i] >> unsigned(k)) & 1u) tiles[std::size_t(k)] = std::llround(value(*lv.tiles[i]));
      r.tiles.push_back(tiles);
    }
    double macs_value = 1, kib_value = 0;
    for (auto p : r.parallelism) macs_value *= p;
    for (std::size_t k = 0; k < memories; ++k)
      if (k < t.memory_bytes.size() && !t.memory_bytes[k].empty()) kib_value += r.memory_bytes[k] / 1024.0;
    r.area = design_area(t, macs_value, kib_value);
    r.objective -= tie_break * r.area * 1e-3;
    r.bound -= tie_break * r.area * 1e-3;
    r.power = design_power(t, macs_value, kib_value);
    if (!o.relax) {
      // The designed platform, and every layer on it exactly.
      r.platform = platform;
      auto& q = r.platform.processors[t.processor];
      q.parallelism.clear();
      for (auto p : r.parallelism) q.parallelism.push_back(std::llround(p));
      q.peak = Constant<dim::throughput>(2.0 * macs_value * f);
      q.active_power = r.power;
      for (std::size_t k = 0; k < memories; ++k) r.platform.memories[k].capacity = Constant<dim::data>(r.memory_bytes[k]);
      double latency = 0, energy = 0;
      for (std::size_t l = 0; l < cnn.layers.size(); ++l) {
        RefineOptions ro;
        ro.tiles = r.tiles[l];
        const auto e = evaluate_layer(cnn.layers[l], r.platform, t.processor, ro);
        latency += e.latency.value();
        energy += e.energy ? e.energy->value() : 0.0;
      }
      r.latency = Constant<dim::time>(latency);
      if (proc.energy_per_byte) r.energy = Constant<dim::energy>(energy);
    }
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace ychart::loopnest
