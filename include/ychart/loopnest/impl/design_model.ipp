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

inline void check_template(const Platform& platform, const AcceleratorTemplate& t, const DesignOptions& o) {
  platform.validate();
  if (t.processor >= platform.processors.size()) throw loopnest_error("ychart: the template names no processor");
  const auto& proc = platform.processors[t.processor];
  if (t.parallelism.size() != proc.model.unrolls.size())
    throw loopnest_error("ychart: the template gives " + std::to_string(t.parallelism.size()) +
                         " parallelism choice lists for " + std::to_string(proc.model.unrolls.size()) +
                         " unrolled levels");
  for (const auto& values : t.parallelism)
    if (values.empty() || *std::min_element(values.begin(), values.end()) < 1)
      throw loopnest_error("ychart: every parallelism level needs at least one positive value");
  if (t.max_tiles < 1) throw loopnest_error("ychart: max_tiles must be at least 1");
  if (o.goal == DesignGoal::energy && !proc.energy_per_byte)
    throw loopnest_error("ychart: designing for energy needs the processor's DDR energy per bit");
}

/// The capacities (bytes) memory k may take: the template's list, or the
/// platform's capacity.
inline std::vector<double> memory_values(const Platform& platform, const AcceleratorTemplate& t, std::size_t k) {
  return k < t.memory_bytes.size() && !t.memory_bytes[k].empty()
             ? t.memory_bytes[k]
             : std::vector<double>{platform.memories[k].capacity.value()};
}

/// The most tiles ALOHA's rule needs per loop for any grid of the space on
/// the smallest memories; none (every count up to max_tiles) for
/// TileSpace::every_count, when the space has more than 4096 grids, when
/// the smallest memories do not fit, or when the rule needs more than
/// max_tiles somewhere (clipped counts could leave no tiling that fits).
class TileNeeds {
 public:
  TileNeeds(const Platform& platform, const AcceleratorTemplate& t) : t_(t), smallest_(platform) {
    grids_ = {{}};
    for (const auto& values : t.parallelism) {
      std::vector<std::vector<long long>> next;
      for (const auto& g : grids_)
        for (auto v : values) {
          next.push_back(g);
          next.back().push_back(v);
        }
      grids_ = std::move(next);
      if (grids_.size() > 4096) break;
    }
    for (std::size_t k = 0; k < platform.memories.size(); ++k) {
      const auto v = memory_values(platform, t, k);
      smallest_.memories[k].capacity = Constant<dim::data>(*std::min_element(v.begin(), v.end()));
    }
  }

  std::optional<std::array<long long, loop_count>> of(const Layer& layer) const {
    std::array<long long, loop_count> most{};
    most.fill(1);
    if (t_.tile_space == TileSpace::every_count || grids_.size() > 4096 ||
        grids_.front().size() != t_.parallelism.size())
      return std::nullopt;
    for (const auto& g : grids_) {
      auto q = smallest_.processors[t_.processor];
      q.parallelism = g;
      try {
        const auto n = refine(layer, q, smallest_);
        for (const auto& lp : n.loops)
          for (int k = 0; k < loop_count; ++k)
            if (lp.has(Loop(k))) most[std::size_t(k)] = std::max(most[std::size_t(k)], lp.tiles);
      } catch (const tiling_error&) {
        return std::nullopt;  // the smallest memories do not fit
      }
    }
    for (auto m : most)
      if (m > t_.max_tiles) return std::nullopt;
    return most;
  }

 private:
  const AcceleratorTemplate& t_;
  Platform smallest_;
  std::vector<std::vector<long long>> grids_;
};

/// Builds design_model.hpp's model: the design variables and costs, then
/// per layer its trip and tile counts, transfers and compute time, then the
/// goal; and reads a solution back as a design.
class AcceleratorModelBuilder {
 public:
  AcceleratorModelBuilder(const Platform& platform, const AcceleratorTemplate& t, const DesignOptions& o)
      : platform_(platform), t_(t), o_(o), proc_(platform.processors[t.processor]),
        memories_(platform.memories.size()), shape_(platform), needs_(platform, t) {
    // The nest's shape without the grid: refine on a unit grid with unbounded memories.
    for (auto& mem : shape_.memories) mem.capacity = Constant<dim::data>(std::numeric_limits<double>::max());
    shape_.processors[t.processor].parallelism.assign(proc_.model.unrolls.size(), 1);
    add_design_variables();
  }

  void add_layer(const Layer& layer) {
    const auto nest = refine(layer, shape_.processors[t_.processor], shape_);
    LayerLoops loops = add_loops(layer, nest);
    add_transfers_and_time(layer, nest, loops);
    layers_.push_back(std::move(loops.vars));
  }

  void set_goal() {
    if (o_.goal == DesignGoal::latency) {
      if (o_.latency_limit) model.subject_to(latency_ms_ <= o_.latency_limit->value() * 1e3, "latency limit");
      model.minimize(latency_ms_ + tie_break * area_);
      return;
    }
    const double byte_mj = proc_.energy_per_byte->value() * 1024.0 * 1e3;
    // One latency variable: power x latency then has as many terms as the power.
    auto total_ms = model.positive("latency_ms", 0.0, o_.latency_limit ? o_.latency_limit->value() * 1e3
                                                                         : std::numeric_limits<double>::infinity());
    model.subject_to(latency_ms_ <= total_ms, "latency");
    model.minimize(power_w_ * total_ms + byte_mj * traffic_kib_ + tie_break * area_);  // W * ms = mJ
  }

  /// The design a solution with values describes; the tie-break is taken
  /// off the objective and the bound again.
  void read(const Solution& sol, AcceleratorDesign& r) const {
    r.objective = sol.objective() * 1e-3;  // ms -> s, mJ -> J
    r.bound *= 1e-3;
    auto value = [&](const Monomial<>& e) { return sol.value(e); };
    for (const auto& p : grid_) r.parallelism.push_back(value(p));
    for (std::size_t k = 0; k < memories_; ++k) r.memory_bytes.push_back(value(capacity_kib_[k]) * 1024.0);
    for (const auto& lv : layers_) {
      std::array<long long, loop_count> tiles{};
      for (std::size_t i = 0; i < lv.tiles.size(); ++i)
        if (lv.tiles[i])
          for (int k = 0; k < loop_count; ++k)
            if ((lv.members[i] >> unsigned(k)) & 1u) tiles[std::size_t(k)] = std::llround(value(*lv.tiles[i]));
      r.tiles.push_back(tiles);
    }
    r.area = design_area(t_, macs_value(r), kib_value(r));
    r.objective -= tie_break * r.area * 1e-3;
    r.bound -= tie_break * r.area * 1e-3;
    r.power = design_power(t_, macs_value(r), kib_value(r));
  }

  /// The designed platform, and every layer on it exactly.
  void evaluate_exactly(const Cnn& cnn, AcceleratorDesign& r) const {
    r.platform = platform_;
    auto& q = r.platform.processors[t_.processor];
    q.parallelism.clear();
    for (auto p : r.parallelism) q.parallelism.push_back(std::llround(p));
    q.peak = Constant<dim::throughput>(2.0 * macs_value(r) * proc_.frequency.value());
    q.active_power = r.power;
    for (std::size_t k = 0; k < memories_; ++k) r.platform.memories[k].capacity = Constant<dim::data>(r.memory_bytes[k]);
    double latency = 0, energy = 0;
    for (std::size_t l = 0; l < cnn.layers.size(); ++l) {
      RefineOptions ro;
      ro.tiles = r.tiles[l];
      const auto e = evaluate_layer(cnn.layers[l], r.platform, t_.processor, ro);
      latency += e.latency.value();
      energy += e.energy ? e.energy->value() : 0.0;
    }
    r.latency = Constant<dim::time>(latency);
    if (proc_.energy_per_byte) r.energy = Constant<dim::energy>(energy);
  }

  Model model;

  Monomial<> parallelism(std::size_t level) const { return grid_.at(level); }
  Monomial<> memory_kib(std::size_t memory) const { return capacity_kib_.at(memory); }
  const Posynomial<>& area() const { return area_; }
  const Posynomial<>& power_w() const { return power_w_; }
  const Posynomial<>& latency_ms() const { return latency_ms_; }

 private:
  // Among optima within 1e-6 ms (or mJ) per area unit, the smallest area; subtracted again in read().
  static constexpr double tie_break = 1e-6;

  /// Per layer and nest loop: its tile count where it may be tiled, and the loops it runs.
  struct LayerVars {
    std::vector<std::optional<Monomial<>>> tiles;
    std::vector<unsigned> members;
  };
  /// A loop's names: in variables ("conv1_OC") and in rows ("conv1 OC").
  struct LoopName {
    std::string var, row;
  };
  /// Per nest loop: trip count n (unrolled loops) or extent, the grid level's
  /// P, and the tiled trip count m (n itself where the loop is not tiled).
  struct LayerLoops {
    std::vector<Monomial<>> trip, par, inner;
    LayerVars vars;
  };

  const Platform& platform_;
  const AcceleratorTemplate& t_;
  const DesignOptions& o_;
  const Processor& proc_;
  const std::size_t memories_;
  Platform shape_;
  TileNeeds needs_;
  std::vector<Monomial<>> grid_;
  std::vector<std::optional<Discrete<>>> grid_handles_;  // the grid levels that are choices
  std::vector<Monomial<>> capacity_kib_;                 // KiB, for the solver's scaling
  Posynomial<> area_, power_w_, latency_ms_, traffic_kib_;
  std::vector<LayerVars> layers_;

  /// A design variable: a choice of values, or a positive variable over their range when relaxed.
  Monomial<> variable(const std::string& name, std::vector<double> values) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    if (values.size() == 1) return Monomial<>(Constant<>(values.front()));
    if (o_.relax) return Monomial<>(model.positive(name, values.front(), values.back()));
    return Monomial<>(model.choice(name, values));
  }

  bool memory_chosen(std::size_t k) const { return k < t_.memory_bytes.size() && !t_.memory_bytes[k].empty(); }

  double macs_value(const AcceleratorDesign& r) const {
    double macs = 1;
    for (auto p : r.parallelism) macs *= p;
    return macs;
  }
  double kib_value(const AcceleratorDesign& r) const {
    double kib = 0;
    for (std::size_t k = 0; k < memories_; ++k)
      if (memory_chosen(k)) kib += r.memory_bytes[k] / 1024.0;
    return kib;
  }

  /// The grid, the memories, and the area and power with their budgets.
  void add_design_variables() {
    for (std::size_t g = 0; g < t_.parallelism.size(); ++g) {
      std::vector<double> v(t_.parallelism[g].begin(), t_.parallelism[g].end());
      std::sort(v.begin(), v.end());
      v.erase(std::unique(v.begin(), v.end()), v.end());
      if (v.size() > 1 && !o_.relax) {
        grid_handles_.push_back(model.choice("P" + std::to_string(g), v));
        grid_.push_back(*grid_handles_.back());
      } else {
        grid_handles_.emplace_back();
        grid_.push_back(variable("P" + std::to_string(g), v));
      }
    }
    for (std::size_t k = 0; k < memories_; ++k) {
      auto v = memory_values(platform_, t_, k);
      for (auto& x : v) x /= 1024.0;
      capacity_kib_.push_back(variable("M_" + platform_.memories[k].id, v));
    }
    Monomial<> macs = Constant<>(1.0);
    for (const auto& p : grid_) macs = macs * p;
    Posynomial<> kib_total;
    for (std::size_t k = 0; k < memories_; ++k)
      if (memory_chosen(k)) kib_total += capacity_kib_[k];
    area_ = Constant<>(std::max(t_.area_fixed, 0.0)) + t_.area_per_mac * macs;
    if (t_.area_per_kib > 0) area_ += t_.area_per_kib * kib_total;
    power_w_ = Constant<>(std::max(t_.power_fixed.value(), 0.0)) + t_.power_per_mac.value() * macs;
    if (t_.power_per_kib.value() > 0) power_w_ += t_.power_per_kib.value() * kib_total;
    if (o_.area_budget) model.subject_to(area_ <= *o_.area_budget, "area budget");
    if (o_.power_budget) model.subject_to(power_w_ <= o_.power_budget->value(), "power budget");
  }

  /// The loops the design may tile: each present transfer's limited loop,
  /// where it lies inside the transfer; under ALOHA's rule (every_count
  /// false) only where its memory may overflow, that is, the largest buffer
  /// any grid can make exceeds the smallest capacity.
  std::vector<bool> tileable_loops(const Layer& layer, const RefinedNest& nest, bool every_count) const {
    std::vector<double> most_bytes(memories_, 0.0);
    for (int d = 0; d < data_kind_count; ++d) {
      const auto& tr = nest.transfers[std::size_t(d)];
      if (!tr.present) continue;
      double other = layer.element.value(), kernel = 1;
      for (const auto& lp : nest.loops) {
        if (!lp.indexes(nest.tensor, DataKind(d))) continue;
        double f = 1;
        const std::vector<long long> one{1};
        for (auto p : lp.grid_level >= 0 ? t_.parallelism[std::size_t(lp.grid_level)] : one)
          f = std::max(f, lp.level >= tr.level ? double(detail::ceil_div(lp.extent, p) * p) : double(p));
        if (DataKind(d) == DataKind::weights && lp.is_kernel()) kernel *= f;
        else other *= f;
      }
      most_bytes[tr.memory] += DataKind(d) == DataKind::weights ? other * (kernel + 1) : other;
    }
    std::vector<bool> may_tile(nest.loops.size(), false);
    for (int d = 0; d < data_kind_count; ++d) {
      const auto& tr = nest.transfers[std::size_t(d)];
      if (!tr.present) continue;
      const auto li = nest.index_of(proc_.model.transfer[std::size_t(d)].limited_loop);
      const auto v = memory_values(platform_, t_, tr.memory);
      if (nest.loops[li].level >= tr.level && (every_count || most_bytes[tr.memory] > *std::min_element(v.begin(), v.end())))
        may_tile[li] = true;
    }
    return may_tile;
  }

  /// Every loop's trip count, grid factor and tiled trip count.
  LayerLoops add_loops(const Layer& layer, const RefinedNest& nest) {
    const std::size_t loops = nest.loops.size();
    LayerLoops out{std::vector<Monomial<>>(loops), std::vector<Monomial<>>(loops), std::vector<Monomial<>>(loops), {}};
    out.vars.tiles.resize(loops);
    const auto needed = needs_.of(layer);  // none: every count up to max_tiles
    const auto may_tile = tileable_loops(layer, nest, !needed);
    for (std::size_t i = 0; i < loops; ++i) {
      const auto& lp = nest.loops[i];
      std::string loop_id;
      for (int k = 0; k < loop_count; ++k)
        if (lp.has(Loop(k))) loop_id += loop_name(Loop(k));
      const LoopName name{layer.name + "_" + loop_id, layer.name + " " + loop_id};
      std::vector<long long> divisors{1};
      if (lp.grid_level >= 0) {
        divisors = t_.parallelism[std::size_t(lp.grid_level)];
        out.par[i] = grid_[std::size_t(lp.grid_level)];
        out.trip[i] = add_trip_count(lp, name, divisors);
      } else {
        out.par[i] = Constant<>(1.0);
        out.trip[i] = Constant<>(double(lp.extent));
      }
      out.inner[i] = out.trip[i];
      long long most = needed ? 1 : t_.max_tiles;
      if (needed)
        for (int k = 0; k < loop_count; ++k)
          if (lp.has(Loop(k))) most = std::max(most, (*needed)[std::size_t(k)]);
      most = std::min({most, t_.max_tiles, lp.extent});
      if (may_tile[i] && most > 1) add_tiling(lp, name, divisors, most, out, i);
    }
    for (const auto& lp : nest.loops) out.vars.members.push_back(lp.members);
    return out;
  }

  /// An unrolled loop's trip count n, with n P >= d.
  Monomial<> add_trip_count(const NestLoop& lp, const LoopName& name, const std::vector<long long>& divisors) {
    const auto values = detail::ceil_values(lp.extent, divisors);
    const auto& level = grid_handles_[std::size_t(lp.grid_level)];
    const auto& par = grid_[std::size_t(lp.grid_level)];
    Monomial<> trip;
    if (values.size() > 1 && level) {
      // n = ceil(d / P) exactly, as a table of P: a linear row between the two
      // encodings, which the relaxation of n P >= d alone leaves loose.
      auto n = model.choice("n_" + name.var, values);
      const long long extent = lp.extent;
      model.subject_to(Affine<>(n) == tabulate(*level, [extent](double p) {
                         return double(detail::ceil_div(extent, static_cast<long long>(p)));
                       }),
                       "trip " + name.row);
      trip = n;
    } else {
      trip = variable("n_" + name.var, values);
    }
    model.subject_to(double(lp.extent) / (trip * par) <= 1.0, "round-up " + name.row);
    return trip;
  }

  /// A tile count T and tiled trip count m with m T >= n. A tile count that
  /// splits no trip count finer than one tile fewer (ceil(n / T) ==
  /// ceil(n / (T - 1)) for every n) only adds executions: left out.
  void add_tiling(const NestLoop& lp, const LoopName& name, const std::vector<long long>& divisors, long long most,
                  LayerLoops& out, std::size_t i) {
    std::vector<double> tile_values;
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
    const Monomial<> tile = variable("T_" + name.var, tile_values);
    out.inner[i] = variable("m_" + name.var, std::vector<double>(iv.begin(), iv.end()));
    model.subject_to(out.trip[i] / (tile * out.inner[i]) <= 1.0, "tiles " + name.row);
    out.vars.tiles[i] = tile;
  }

  /// Transfers (bytes per execution and executions, monomials in KiB), the
  /// memory rows, and the layer's time tau >= compute and each channel's
  /// traffic / bandwidth.
  void add_transfers_and_time(const Layer& layer, const RefinedNest& nest, const LayerLoops& loops) {
    std::vector<Posynomial<>> channel_kib(platform_.channels.size());
    std::vector<bool> channel_used(platform_.channels.size(), false);
    std::vector<Posynomial<>> memory_kib(memories_);
    std::vector<bool> memory_used(memories_, false);
    for (int d = 0; d < data_kind_count; ++d) {
      const auto& tr = nest.transfers[std::size_t(d)];
      if (!tr.present) continue;
      const auto [bytes, executions] = transfer_kib(layer, nest, loops, DataKind(d), tr.level);
      memory_kib[tr.memory] += bytes;
      memory_used[tr.memory] = true;
      channel_kib[tr.channel] += executions * bytes;
      channel_used[tr.channel] = true;
      traffic_kib_ += executions * bytes;
    }
    const std::string& id = layer.name;
    for (std::size_t k = 0; k < memories_; ++k)
      if (memory_used[k])
        model.subject_to(memory_kib[k] <= capacity_kib_[k], "memory " + platform_.memories[k].id + " " + id);
    // Compute: OPS_re / (2 prod P f) = (ops per iteration / 2) prod trips / f.
    Monomial<> compute_ms = Constant<>(nest.tensor.ops_per_iteration / 2.0 / proc_.frequency.value() * 1e3);
    for (const auto& n : loops.trip) compute_ms = compute_ms * n;
    auto tau = model.positive("tau_" + id, 0.0);
    model.subject_to(compute_ms <= tau, "compute " + id);
    for (std::size_t c = 0; c < platform_.channels.size(); ++c)
      if (channel_used[c])
        model.subject_to((1024.0 * 1e3 / platform_.channels[c].bandwidth.value()) * channel_kib[c] <= tau,
                         "channel " + platform_.channels[c].id + " " + id);
    latency_ms_ += tau + Constant<>(proc_.overhead.value() * 1e3);
  }

  /// One data kind's transfer at `level`: its size (KiB) and executions.
  std::pair<Posynomial<>, Monomial<>> transfer_kib(const Layer& layer, const RefinedNest& nest, const LayerLoops& loops,
                                                   DataKind kind, int level) const {
    Monomial<> other = Constant<>(layer.element.value() / 1024.0), kernel = Constant<>(1.0), executions = Constant<>(1.0);
    double kernel_constant = 1;  // the kernel loops' extents when neither unrolled nor tiled
    bool kernel_varies = false;
    for (std::size_t i = 0; i < nest.loops.size(); ++i) {
      const auto& lp = nest.loops[i];
      if (loops.vars.tiles[i]) executions = executions * *loops.vars.tiles[i];
      if (lp.level < level) executions = executions * loops.inner[i];
      if (!lp.indexes(nest.tensor, kind)) continue;
      const Monomial<> factor = lp.level >= level ? loops.inner[i] * loops.par[i] : loops.par[i];
      if (kind == DataKind::weights && lp.is_kernel()) {
        kernel = kernel * factor;
        const bool fixed = lp.grid_level < 0 && !loops.vars.tiles[i];
        if (fixed) kernel_constant *= lp.level >= level ? double(lp.extent) : 1.0;
        kernel_varies = kernel_varies || !fixed;
      } else {
        other = other * factor;
      }
    }
    // (KH KW + 1) x the rest: one monomial while the kernel loops are fixed.
    if (kind != DataKind::weights) return {Posynomial<>(other), executions};
    return {kernel_varies ? Posynomial<>(other * kernel + other) : Posynomial<>((kernel_constant + 1.0) * other),
            executions};
  }
};

}  // namespace detail

YCHART_DECL double design_area(const AcceleratorTemplate& t, double macs, double kib) {
  return t.area_fixed + t.area_per_mac * macs + t.area_per_kib * kib;
}

YCHART_DECL Constant<dim::power> design_power(const AcceleratorTemplate& t, double macs, double kib) {
  return Constant<dim::power>(t.power_fixed.value() + t.power_per_mac.value() * macs + t.power_per_kib.value() * kib);
}

namespace detail {

/// What an AcceleratorModel owns: the data its builder refers to, copied,
/// so that the builder's references stay valid however the model is moved.
struct AcceleratorModelState {
  AcceleratorModelState(const Cnn& c, const Platform& p, const AcceleratorTemplate& tt, const DesignOptions& oo)
      : cnn(c), platform(p), t(tt), o(oo) {}
  Cnn cnn;
  Platform platform;
  AcceleratorTemplate t;
  DesignOptions o;
  double build_seconds = 0;  // counted in the design's seconds, the time before solve() is not
  std::optional<AcceleratorModelBuilder> builder;
};

}  // namespace detail

YCHART_DECL AcceleratorModel::AcceleratorModel(std::unique_ptr<detail::AcceleratorModelState> state)
    : state_(std::move(state)) {}
YCHART_DECL AcceleratorModel::AcceleratorModel(AcceleratorModel&&) noexcept = default;
YCHART_DECL AcceleratorModel& AcceleratorModel::operator=(AcceleratorModel&&) noexcept = default;
YCHART_DECL AcceleratorModel::~AcceleratorModel() = default;

YCHART_DECL Model& AcceleratorModel::model() { return state_->builder->model; }

YCHART_DECL Monomial<> AcceleratorModel::parallelism(std::size_t level) const {
  if (level >= state_->t.parallelism.size())
    throw loopnest_error("ychart: AcceleratorModel::parallelism: the template has " +
                         std::to_string(state_->t.parallelism.size()) + " grid levels, not " + std::to_string(level + 1));
  return state_->builder->parallelism(level);
}

YCHART_DECL Monomial<> AcceleratorModel::memory_kib(std::size_t memory) const {
  if (memory >= state_->platform.memories.size())
    throw loopnest_error("ychart: AcceleratorModel::memory_kib: platform '" + state_->platform.name + "' has " +
                         std::to_string(state_->platform.memories.size()) + " memories, not " +
                         std::to_string(memory + 1), state_->platform.name);
  return state_->builder->memory_kib(memory);
}

YCHART_DECL Posynomial<> AcceleratorModel::area() const { return state_->builder->area(); }
YCHART_DECL Posynomial<> AcceleratorModel::power_w() const { return state_->builder->power_w(); }
YCHART_DECL Posynomial<> AcceleratorModel::latency_ms() const { return state_->builder->latency_ms(); }

YCHART_DECL AcceleratorDesign AcceleratorModel::solve(const SolveOptions& solve_options) {
  const auto t0 = std::chrono::steady_clock::now();
  auto& builder = *state_->builder;
  const auto sol = builder.model.solve(solve_options);
  AcceleratorDesign r;
  r.status = sol.status();
  r.message = sol.message();
  r.bound = sol.bound();
  if (sol.has_values()) {
    builder.read(sol, r);
    if (!state_->o.relax) builder.evaluate_exactly(state_->cnn, r);
  }
  r.seconds = state_->build_seconds + std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

YCHART_DECL AcceleratorModel build_accelerator_model(const Cnn& cnn, const Platform& platform,
                                                     const AcceleratorTemplate& t, const DesignOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  detail::check_template(platform, t, o);
  auto state = std::make_unique<detail::AcceleratorModelState>(cnn, platform, t, o);
  auto& builder = state->builder.emplace(state->platform, state->t, state->o);
  for (const auto& layer : state->cnn.layers) builder.add_layer(layer);
  builder.set_goal();
  state->build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return AcceleratorModel(std::move(state));
}

YCHART_DECL AcceleratorDesign design_accelerator(const Cnn& cnn, const Platform& platform, const AcceleratorTemplate& t,
                                                 const DesignOptions& o, const SolveOptions& solve_options) {
  return build_accelerator_model(cnn, platform, t, o).solve(solve_options);
}

}  // namespace ychart::loopnest
