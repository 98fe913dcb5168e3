// ychart/synthesis/impl/synthesis_model.ipp
// The implementation of ychart/synthesis/synthesis_model.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../model/tolerances.hpp"
#include "../../config.hpp"
#include "../synthesis_model.hpp"

namespace ychart::synthesis {


namespace detail {

inline bool empty(const Affine<>& a) { return a.terms().size() == 0; }

/// The variables of the synthesis model, indexed as the specification is:
/// by resource, parameter value, process option and communication arc.
template <class T>
using Table = std::vector<std::vector<std::optional<T>>>;

/// Builds the synthesis model of synthesis_model.hpp one family of rows at
/// a time, in the order the header lists them; `active` says which
/// communications are routed (the infeasibility diagnosis drops some).
class SynthesisModelBuilder {
 public:
  SynthesisModelBuilder(const Specification& spec, const IndexedSpecification& ix,
                        const std::vector<std::vector<bool>>& allowed, const std::vector<bool>& active,
                        const SynthesisOptions& o)
      : spec_(spec), ix_(ix), allowed_(allowed), active_(active), o_(o), n_res_(spec.architecture.resources.size()),
        uses_(n_res_), scale(cost_scale()) {}

  /// The whole model, cost minimised.
  void build() {
    add_allocation();
    add_parameters();
    add_binding();
    add_routing();
    add_allocation_rows_and_limits();
    model.minimize(cost);
  }

  /// The implementation a solution with values describes.
  Implementation implementation(const Solution& sol) const {
    Implementation impl;
    impl.binding.assign(ix_.processes.size(), 0);
    for (std::size_t p = 0; p < ix_.processes.size(); ++p)
      for (std::size_t i = 0; i < ix_.options[p].size(); ++i)
        if (m_[p][i] && sol[*m_[p][i]] > 0.5) impl.binding[p] = ix_.options[p][i];
    impl.parameter_values.assign(spec_.architecture.parameters.size(), 0);
    for (std::size_t k = 0; k < spec_.architecture.parameters.size(); ++k) {
      if (o_.fixed_parameter_values) impl.parameter_values[k] = (*o_.fixed_parameter_values)[k];
      for (std::size_t v = 0; v < z_[k].size(); ++v)
        if (z_[k][v] && sol[*z_[k][v]] > 0.5) impl.parameter_values[k] = v;
    }
    impl.routes.resize(ix_.communications.size());
    for (std::size_t c = 0; c < ix_.communications.size(); ++c)
      if (!u_[c].empty()) impl.routes[c] = route_of(c, impl.binding, sol);
    return impl;
  }

  /// m_o of process p's i-th option; empty when reachability excludes it.
  const std::optional<Discrete<>>& option_variable(std::size_t p, std::size_t i) const { return m_.at(p).at(i); }
  /// a_r.
  const Discrete<>& allocation_variable(std::size_t r) const { return alloc_.at(r); }

  Model model;
  Affine<> cost;  // in units of `scale` seconds
 private:
  const Specification& spec_;
  const IndexedSpecification& ix_;
  const std::vector<std::vector<bool>>& allowed_;
  const std::vector<bool>& active_;
  const SynthesisOptions& o_;
  const std::size_t n_res_;
  std::vector<Discrete<>> alloc_;  // a_r
  Table<Discrete<>> z_, m_, on_;   // z_kv; m_o by process and option; m by process and resource
  Table<Discrete<>> u_;            // u_ca
  std::vector<Affine<>> uses_;     // EQ30's right-hand side
 public:
  const double scale;

 private:
  /// Costs in units of the largest one keep GLPK's coefficients near 1.
  double cost_scale() const {
    double s = 0;
    for (const auto& m : spec_.mappings)
      for (std::size_t v = 0; v < (m.parameter ? m.costs.size() : 1); ++v) s = std::max(s, m.seconds(v));
    for (const auto& row : ix_.link_seconds)
      for (double x : row) s = std::max(s, x);
    for (const auto& r : spec_.architecture.resources) s = std::max(s, r.allocation_cost.value());
    return s > 0 ? s : 1;
  }

  const std::string& resource_id(std::size_t r) const { return spec_.architecture.resources[r].id; }
  const std::string& task_id(std::size_t t) const { return spec_.application.tasks[t].id; }

  void add_allocation() {
    for (const auto& r : spec_.architecture.resources) {
      alloc_.push_back(model.binary("a[" + r.id + "]"));
      cost += (r.allocation_cost.value() / scale) * alloc_.back();
    }
  }

  /// Parameters: one-hot while allocated.
  void add_parameters() {
    const auto& parameters = spec_.architecture.parameters;
    z_.resize(parameters.size());
    for (std::size_t k = 0; k < parameters.size(); ++k) {
      const auto& p = parameters[k];
      Affine<> one;
      z_[k].resize(p.values.size());
      for (std::size_t v = 0; v < p.values.size(); ++v) {
        const bool fixed_out = o_.fixed_parameter_values && (*o_.fixed_parameter_values)[k] != v;
        const bool limited_out =
            o_.parameter_limit && o_.parameter_limit->first == k && p.values[v] > o_.parameter_limit->second;
        if (fixed_out || limited_out) continue;
        z_[k][v] = model.binary("z[" + resource_id(p.resource) + "." + p.name + "=" +
                                ychart::detail::format_number(p.values[v]) + "]");
        one += *z_[k][v];
      }
      model.subject_to(one == Affine<>(alloc_[p.resource]),
                       "one value of " + p.name + " while " + resource_id(p.resource) + " is allocated");
    }
  }

  /// Binding: one option per process, on an allocated resource.
  void add_binding() {
    m_.resize(ix_.processes.size());
    on_.assign(ix_.processes.size(), std::vector<std::optional<Discrete<>>>(n_res_));
    for (std::size_t p = 0; p < ix_.processes.size(); ++p) {
      Affine<> one;
      m_[p].resize(ix_.options[p].size());
      for (std::size_t i = 0; i < ix_.options[p].size(); ++i) {
        if (!allowed_[p][i]) continue;
        const auto& opt = spec_.mappings[ix_.options[p][i]];
        auto x = model.binary("m[" + task_id(ix_.processes[p]) + "@" + resource_id(opt.resource) + "]");
        m_[p][i] = x;
        on_[p][opt.resource] = x;
        one += x;
        uses_[opt.resource] += x;
        model.subject_to(x <= alloc_[opt.resource]);
        add_option_cost(p, opt, x);
      }
      model.subject_to(one == 1.0, "task " + task_id(ix_.processes[p]) + " bound once");
    }
  }

  /// An option's execution cost; with a parameter, y_ov splits the use by
  /// value (y_ov <= z_kv) unless every value costs the same.
  void add_option_cost(std::size_t p, const MappingOption& opt, const Discrete<>& x) {
    if (!opt.parameter) {
      cost += (opt.cost.value() / scale) * x;
      return;
    }
    const auto& values = z_[*opt.parameter];
    bool flat = true;
    for (std::size_t v = 0; v < opt.costs.size(); ++v) flat = flat && opt.costs[v].value() == opt.costs[0].value();
    if (flat) {
      cost += (opt.costs[0].value() / scale) * x;
      return;
    }
    Affine<> split;
    for (std::size_t v = 0; v < values.size(); ++v) {
      if (!values[v]) continue;
      auto y = model.real("y[" + task_id(ix_.processes[p]) + "@" + resource_id(opt.resource) + "#" +
                              std::to_string(v) + "]",
                          0.0, 1.0);
      model.subject_to(y <= *values[v]);
      split += y;
      cost += (opt.costs[v].value() / scale) * y;
    }
    model.subject_to(split == Affine<>(x));
  }

  void add_routing() {
    u_.resize(ix_.communications.size());
    const bool use_tree = o_.routing != Routing::flow && links_form_forest(spec_);
    if (o_.routing == Routing::tree && !use_tree)
      throw specification_error("ychart: Routing::tree needs undirected links without cycles; use Routing::flow", "");
    if (use_tree) {
      const auto side = link_sides(spec_);
      for (std::size_t c = 0; c < ix_.communications.size(); ++c)
        if (active_[c]) add_tree_route(c, side);
    } else {
      const bool hop_indexed = hop_bound_binds(spec_, ix_);
      for (std::size_t c = 0; c < ix_.communications.size(); ++c)
        if (active_[c]) add_flow_route(c, hop_indexed);
    }
  }

  /// A use of arc or link `x` between resources `from` and `to`: its cost,
  /// both ends allocated, and a use of each end (EQ30).
  void add_link_use(const Discrete<>& x, std::size_t c, std::size_t link, std::size_t from, std::size_t to) {
    cost += (ix_.link_seconds[c][link] / scale) * x;
    model.subject_to(x <= alloc_[from]);
    model.subject_to(x <= alloc_[to]);
    uses_[from] += x;
    uses_[to] += x;
  }

  /// Tree routing: communication c crosses link l when its sender is on
  /// one side of l and a receiver on the other, u_cl >= S_side + Q_other - 1.
  /// No flows.
  void add_tree_route(std::size_t c, const std::vector<std::vector<bool>>& side) {
    const auto& arch = spec_.architecture;
    const auto& arcs = ix_.arcs;
    const auto& com = ix_.communications[c];
    const auto s = ix_.process_of_task[com.sender];
    auto on_side = [&](std::size_t p, std::size_t l, bool from_side) {
      Affine<> a;
      for (std::size_t r = 0; r < n_res_; ++r)
        if (on_[p][r] && side[l][r] == from_side) a += *on_[p][r];
      return a;
    };
    u_[c].resize(arcs.size());
    for (std::size_t l = 0; l < arch.links.size(); ++l) {
      std::optional<Discrete<>> x;
      for (bool from_side : {true, false}) {
        const auto sender = on_side(s, l, from_side);
        if (empty(sender)) continue;
        for (auto q : com.receivers) {
          const auto receiver = on_side(ix_.process_of_task[q], l, !from_side);
          if (empty(receiver)) continue;
          if (!x) {
            x = model.binary("u[" + task_id(com.task) + ":" + arch.links[l].id + "]");
            add_link_use(*x, c, l, arch.links[l].from, arch.links[l].to);
          }
          model.subject_to(Affine<>(*x) >= sender + receiver - 1.0);
        }
      }
      if (x)
        for (std::size_t k = 0; k < arcs.size(); ++k)
          if (arcs[k].link == l) u_[c][k] = x;
    }
    // The one path between two resources may be too long (or absent).
    for (auto q_task : com.receivers) {
      const auto q = ix_.process_of_task[q_task];
      for (std::size_t r = 0; r < n_res_; ++r)
        for (std::size_t t = 0; t < n_res_; ++t)
          if (on_[s][r] && on_[q][t] && !ix_.within_hops(r, t, spec_.max_hops))
            model.subject_to(*on_[s][r] + *on_[q][t] <= 1.0);
    }
  }

  /// Fewest hops from any resource of one set to any of another (-1: none).
  int fewest_hops(std::span<const std::size_t> from, std::span<const std::size_t> to) const {
    int best = -1;
    for (auto f : from)
      for (auto t : to) {
        const int h = ix_.hops[f][t];
        if (h >= 0 && (best < 0 || h < best)) best = h;
      }
    return best;
  }

  /// The resources process p may be bound to.
  std::vector<std::size_t> allowed_resources(std::size_t p) const {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < ix_.options[p].size(); ++i)
      if (allowed_[p][i]) out.push_back(spec_.mappings[ix_.options[p][i]].resource);
    return out;
  }

  /// Where communication c's flows may go: the sender's resources (roots),
  /// each receiver's (leaves), and the hops to an arc and from it.
  struct FlowReach {
    std::vector<std::size_t> roots;
    std::vector<std::vector<std::size_t>> leaves;
    const SynthesisModelBuilder* b;
    int before(const Arc& a) const { return b->fewest_hops(roots, std::span(&a.from, 1)); }
    int after(const Arc& a, std::size_t j) const { return b->fewest_hops(std::span(&a.to, 1), leaves[j]); }
  };

  /// Flow routing of communication c: arc uses, trees (EQ12, EQ13), and
  /// one flow per receiver.
  void add_flow_route(std::size_t c, bool hop_indexed) {
    const auto& arcs = ix_.arcs;
    const auto& com = ix_.communications[c];
    const auto s = ix_.process_of_task[com.sender];
    FlowReach reach{allowed_resources(s), {}, this};
    bool all_local = true;
    for (auto q : com.receivers) {
      reach.leaves.push_back(allowed_resources(ix_.process_of_task[q]));
      const auto& leaf = reach.leaves.back();
      all_local = all_local && reach.roots.size() == 1 && leaf.size() == 1 && leaf[0] == reach.roots[0];
    }
    if (all_local) return;
    u_[c].resize(arcs.size());
    std::vector<Affine<>> in_arcs(n_res_), carried(arcs.size());
    // Arcs on some path of <= max_hops from a root to a leaf.
    for (std::size_t k = 0; k < arcs.size(); ++k) {
      const auto& a = arcs[k];
      const int before = reach.before(a);
      if (before < 0) continue;
      bool useful = false;
      for (std::size_t j = 0; j < reach.leaves.size(); ++j) {
        const int after = reach.after(a, j);
        useful = useful || (after >= 0 && before + 1 + after <= spec_.max_hops);
      }
      if (!useful) continue;
      auto x = model.binary("u[" + task_id(com.task) + ":" + spec_.architecture.links[a.link].id + ":" +
                            resource_id(a.from) + ">" + resource_id(a.to) + "]");
      u_[c][k] = x;
      add_link_use(x, c, a.link, a.from, a.to);
      in_arcs[a.to] += x;
    }
    for (std::size_t r = 0; r < n_res_; ++r) {
      if (empty(in_arcs[r])) continue;
      // EQ13 (a tree), and EQ12 (none into the sender's resource).
      Affine<> into = in_arcs[r];
      if (on_[s][r]) into += *on_[s][r];
      model.subject_to(into <= 1.0);
    }
    for (std::size_t j = 0; j < com.receivers.size(); ++j) add_receiver_flow(c, j, reach, hop_indexed, carried);
    for (std::size_t k = 0; k < arcs.size(); ++k)
      if (u_[c][k]) model.subject_to(Affine<>(*u_[c][k]) <= carried[k]);
  }

  /// The flow of communication c to its j-th receiver, over the arcs c may
  /// use; `carried` collects each arc's flows.
  void add_receiver_flow(std::size_t c, std::size_t j, const FlowReach& reach, bool hop_indexed,
                         std::vector<Affine<>>& carried) {
    const auto& arcs = ix_.arcs;
    const auto& com = ix_.communications[c];
    const auto s = ix_.process_of_task[com.sender];
    const auto q = ix_.process_of_task[com.receivers[j]];
    const std::string name = task_id(com.task) + ">" + task_id(com.receivers[j]);
    const int layers = hop_indexed ? spec_.max_hops : 1;
    // f[t][k]: flow over arc k as hop t+1 (one layer when hops do not bind).
    Table<Real<>> f(static_cast<std::size_t>(layers), std::vector<std::optional<Real<>>>(arcs.size()));
    for (int t = 0; t < layers; ++t)
      for (std::size_t k = 0; k < arcs.size(); ++k) {
        if (!u_[c][k]) continue;
        if (hop_indexed) {
          const int before = reach.before(arcs[k]), after = reach.after(arcs[k], j);
          if (before < 0 || after < 0 || before > t || t + 1 + after > spec_.max_hops) continue;
        }
        auto x = model.real("f[" + name + ":" + std::to_string(k) +
                                (hop_indexed ? "@" + std::to_string(t + 1) : std::string()) + "]",
                            0.0, 1.0);
        f[static_cast<std::size_t>(t)][k] = x;
        model.subject_to(x <= *u_[c][k]);
        carried[k] += x;
      }
    for (std::size_t r = 0; r < n_res_; ++r) {
      Affine<> source, sink;
      if (on_[s][r]) source += *on_[s][r];
      if (on_[q][r]) sink += *on_[q][r];
      if (hop_indexed)
        add_layered_conservation(name, r, f, source, sink);
      else
        add_conservation(r, f[0], source, sink);
    }
  }

  /// Flow conservation at resource r: out - in = source - sink.
  void add_conservation(std::size_t r, const std::vector<std::optional<Real<>>>& f, const Affine<>& source,
                        const Affine<>& sink) {
    const auto& arcs = ix_.arcs;
    Affine<> net;
    for (std::size_t k = 0; k < arcs.size(); ++k) {
      if (!f[k]) continue;
      if (arcs[k].from == r) net += *f[k];
      if (arcs[k].to == r) net += -1.0 * *f[k];
    }
    if (empty(net) && empty(source) && empty(sink)) return;
    model.subject_to(net == source - sink);
  }

  /// Layered conservation at resource r: what leaves r as hop 1 comes from
  /// the sender; what arrives as hop t leaves as hop t+1 or ends at the
  /// receiver here.
  void add_layered_conservation(const std::string& name, std::size_t r, const Table<Real<>>& f,
                                const Affine<>& source, const Affine<>& sink) {
    const auto& arcs = ix_.arcs;
    const int layers = static_cast<int>(f.size());
    Affine<> absorbed;
    for (int t = 0; t <= layers; ++t) {
      Affine<> out, in;
      for (std::size_t k = 0; k < arcs.size(); ++k) {
        if (t < layers && f[static_cast<std::size_t>(t)][k] && arcs[k].from == r) out += *f[static_cast<std::size_t>(t)][k];
        if (t > 0 && f[static_cast<std::size_t>(t - 1)][k] && arcs[k].to == r) in += *f[static_cast<std::size_t>(t - 1)][k];
      }
      if (t == 0) {
        // Hop 1 leaves the sender's resource unless the receiver is there too.
        auto stay = model.real("stay[" + name + "@" + resource_id(r) + "]", 0.0, 1.0);
        model.subject_to(out + stay == source);
        absorbed += stay;
        continue;
      }
      if (empty(in)) {
        if (!empty(out)) model.subject_to(out <= 0.0);
        continue;
      }
      auto end = model.real("end[" + name + "@" + resource_id(r) + "#" + std::to_string(t) + "]", 0.0, 1.0);
      model.subject_to(in == out + end);
      absorbed += end;
    }
    model.subject_to(absorbed == sink);
  }

  /// EQ30 (nothing allocated for nothing) and the epsilon limits.
  void add_allocation_rows_and_limits() {
    for (std::size_t r = 0; r < n_res_; ++r) model.subject_to(Affine<>(alloc_[r]) <= uses_[r]);
    if (o_.power_limit) model.subject_to(power() <= o_.power_limit->value(), "power limit");
    if (o_.processor_limit)
      model.subject_to(processors() <= static_cast<double>(*o_.processor_limit), "processor limit");
  }

 public:
  /// Watts of the allocated resources and the chosen parameter values.
  Affine<> power() const {
    const auto& arch = spec_.architecture;
    Affine<> power;
    for (std::size_t r = 0; r < n_res_; ++r) power += arch.resources[r].power.value() * alloc_[r];
    for (std::size_t k = 0; k < arch.parameters.size(); ++k)
      for (std::size_t v = 0; v < arch.parameters[k].power.size(); ++v)
        if (z_[k][v]) power += arch.parameters[k].power[v].value() * *z_[k][v];
    return power;
  }

  /// The allocated processors.
  Affine<> processors() const {
    Affine<> count;
    for (std::size_t r = 0; r < n_res_; ++r)
      if (spec_.architecture.resources[r].kind == ResourceKind::processor) count += alloc_[r];
    return count;
  }

  /// Parameter k's value: the chosen value while its resource is allocated
  /// (the z_kv are one-hot then), 0 otherwise.
  Affine<> parameter_value(std::size_t k) const {
    Affine<> value;
    const auto& values = spec_.architecture.parameters.at(k).values;
    for (std::size_t v = 0; v < z_[k].size(); ++v)
      if (z_[k][v]) value += values[v] * *z_[k][v];
    return value;
  }

  Affine<> second_objective(SecondObjective second, std::size_t parameter) const {
    switch (second) {
      case SecondObjective::parameter: return parameter_value(parameter);
      case SecondObjective::power: return power();
      case SecondObjective::processors: return processors();
    }
    return {};
  }

 private:

  /// Communication c's route: the arcs the solution uses, walked from the
  /// sender's resource (what is not reachable from there carries nothing
  /// and costs nothing), without branches that lead to no receiver.
  std::vector<Arc> route_of(std::size_t c, const std::vector<std::size_t>& binding, const Solution& sol) const {
    const auto& arcs = ix_.arcs;
    const auto resource_of = [&](std::size_t task) { return spec_.mappings[binding[ix_.process_of_task[task]]].resource; };
    std::vector<bool> reached(n_res_, false), taken(arcs.size(), false);
    reached[resource_of(ix_.communications[c].sender)] = true;
    for (bool grew = true; grew;) {
      grew = false;
      for (std::size_t k = 0; k < arcs.size(); ++k)
        if (!taken[k] && u_[c][k] && sol[*u_[c][k]] > 0.5 && reached[arcs[k].from] && !reached[arcs[k].to])
          taken[k] = reached[arcs[k].to] = grew = true;
    }
    std::vector<bool> needed(n_res_, false);
    for (auto q : ix_.communications[c].receivers) needed[resource_of(q)] = true;
    for (bool cut = true; cut;) {
      cut = false;
      for (std::size_t k = 0; k < arcs.size(); ++k) {
        if (!taken[k] || needed[arcs[k].to]) continue;
        bool leads_on = false;
        for (std::size_t k2 = 0; k2 < arcs.size(); ++k2) leads_on = leads_on || (taken[k2] && arcs[k2].from == arcs[k].to);
        if (!leads_on) taken[k] = false, cut = true;
      }
    }
    std::vector<Arc> route;
    for (std::size_t k = 0; k < arcs.size(); ++k)
      if (taken[k]) route.push_back(arcs[k]);
    return route;
  }
};

/// Solves a built model (with whatever rows were added) and prices the
/// implementation its solution describes.
inline SynthesisResult solve_built(SynthesisModelBuilder& builder, const Specification& spec,
                                   const IndexedSpecification& ix, const SynthesisOptions& o,
                                   const SolveOptions& solve_options) {
  SolveOptions so = solve_options;
  so.heuristic = so.heuristic && o.start_heuristic;
  SynthesisResult out;
  out.variables = builder.model.registry().variables.size();
  out.constraints = builder.model.constraints().size();
  std::optional<Solution> single;
  std::optional<LexicographicSolution> stages;
  if (o.then_minimize) {
    // The cost's bound and gap are the first stage's.
    LexicographicOptions lexicographic;
    lexicographic.hold_at = [&](std::size_t, const Solution& first) {
      out.bound = first.bound() * builder.scale;
      out.gap = first.gap();
      return first.objective();
    };
    stages = solve_lexicographic(
        builder.model, {builder.cost, builder.second_objective(*o.then_minimize, o.then_minimize_parameter)}, so,
        lexicographic);
  } else {
    single = builder.model.solve(so);
  }
  const Solution& sol = stages ? stages->solution : *single;
  out.status = stages ? stages->stages.front() : sol.status();
  out.message = stages ? stages->message_with_later_stages("the least second objective at that cost") : sol.message();
  if (!stages || stages->optima.empty()) {  // the first stage's own solution
    out.bound = sol.bound() * builder.scale;
    out.gap = sol.gap();
  }
  if (!sol.has_values()) return out;
  auto impl = builder.implementation(sol);
  out.breakdown = evaluate(spec, ix, impl);
  out.objective = out.breakdown.cost;
  out.implementation = std::move(impl);
  return out;
}

/// Builds and solves the model for the communications in `active` (all
/// others are left out; the infeasibility diagnosis drops some).
inline SynthesisResult solve_model(const Specification& spec, const IndexedSpecification& ix,
                                   const std::vector<std::vector<bool>>& allowed, const std::vector<bool>& active,
                                   const SynthesisOptions& o, const SolveOptions& solve_options) {
  SynthesisModelBuilder builder(spec, ix, allowed, active, o);
  builder.build();
  return solve_built(builder, spec, ix, o, solve_options);
}

/// A feasible implementation without the solver, for a solve stopped before
/// GLPK found one: the cheaper of (a) every task on its cheapest allowed
/// option, parameters at the values cheapest for the tasks that use them,
/// and (b) every task on one resource, for each resource that can run them
/// all; each routed by route() and kept only if it meets the options'
/// limits. Empty when none of these is routable.
inline std::optional<Implementation> fallback_implementation(const Specification& spec, const IndexedSpecification& ix,
                                                             const std::vector<std::vector<bool>>& allowed,
                                                             const SynthesisOptions& o) {
  const auto& params = spec.architecture.parameters;
  std::vector<std::size_t> values(params.size(), 0);
  for (std::size_t k = 0; k < params.size(); ++k) {
    if (o.fixed_parameter_values) {
      values[k] = (*o.fixed_parameter_values)[k];
      continue;
    }
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t v = 0; v < params[k].values.size(); ++v) {
      if (o.parameter_limit && o.parameter_limit->first == k && params[k].values[v] > o.parameter_limit->second) continue;
      double total = 0;
      for (std::size_t p = 0; p < ix.processes.size(); ++p)
        for (std::size_t i = 0; i < ix.options[p].size(); ++i) {
          const auto& m = spec.mappings[ix.options[p][i]];
          if (allowed[p][i] && m.parameter == k) total += m.seconds(v);
        }
      if (total < best) best = total, values[k] = v;
    }
  }
  std::vector<std::vector<std::size_t>> candidates(1);
  for (std::size_t p = 0; p < ix.processes.size(); ++p) {
    std::size_t pick = ix.options[p].size();
    for (std::size_t i = 0; i < ix.options[p].size(); ++i) {
      if (!allowed[p][i]) continue;
      const auto& m = spec.mappings[ix.options[p][i]];
      if (pick == ix.options[p].size() ||
          m.seconds(values) < spec.mappings[ix.options[p][pick]].seconds(values))
        pick = i;
    }
    if (pick == ix.options[p].size()) return std::nullopt;
    candidates[0].push_back(ix.options[p][pick]);
  }
  for (std::size_t r = 0; r < spec.architecture.resources.size(); ++r) {
    std::vector<std::size_t> all_here;
    for (std::size_t p = 0; p < ix.processes.size(); ++p)
      for (std::size_t i = 0; i < ix.options[p].size(); ++i)
        if (allowed[p][i] && spec.mappings[ix.options[p][i]].resource == r) all_here.push_back(ix.options[p][i]);
    if (all_here.size() == ix.processes.size()) candidates.push_back(all_here);
  }
  std::optional<Implementation> best;
  double best_cost = std::numeric_limits<double>::infinity();
  for (auto& binding : candidates) {
    auto impl = route(spec, ix, binding, values);
    if (!impl) continue;
    const auto b = evaluate(spec, ix, *impl);
    if (o.parameter_limit && b.parameter_value[o.parameter_limit->first] > o.parameter_limit->second) continue;
    if (o.power_limit && b.power > o.power_limit->value()) continue;
    if (o.processor_limit && b.allocated_processors > *o.processor_limit) continue;
    if (b.cost < best_cost) best_cost = b.cost, best = std::move(impl);
  }
  return best;
}

/// The options checked against the specification, and the options each
/// process task may start from (all, or the one fixed_binding gives it).
inline std::vector<std::vector<bool>> checked_start(const Specification& spec, const IndexedSpecification& ix,
                                                    const SynthesisOptions& o) {
  const auto& tasks = spec.application.tasks;
  if (o.parameter_limit && o.parameter_limit->first >= spec.architecture.parameters.size())
    throw specification_error("ychart: parameter_limit names a parameter that does not exist", "");
  if (o.then_minimize == SecondObjective::parameter && o.then_minimize_parameter >= spec.architecture.parameters.size())
    throw specification_error("ychart: then_minimize_parameter names a parameter that does not exist", "");
  if (o.fixed_parameter_values) {
    if (o.fixed_parameter_values->size() != spec.architecture.parameters.size())
      throw specification_error("ychart: fixed_parameter_values needs one value index per parameter", "");
    for (std::size_t k = 0; k < spec.architecture.parameters.size(); ++k)
      if ((*o.fixed_parameter_values)[k] >= spec.architecture.parameters[k].values.size())
        throw specification_error("ychart: parameter `" + spec.architecture.parameters[k].name + "` has no value " +
                                      std::to_string((*o.fixed_parameter_values)[k]),
                                  spec.architecture.parameters[k].name);
  }
  std::vector<std::vector<bool>> start(ix.processes.size());
  for (std::size_t p = 0; p < ix.processes.size(); ++p) {
    start[p].assign(ix.options[p].size(), !o.fixed_binding);
    if (!o.fixed_binding) continue;
    if (o.fixed_binding->size() != ix.processes.size())
      throw specification_error("ychart: fixed_binding needs one mapping option per process task", "");
    const auto it = std::find(ix.options[p].begin(), ix.options[p].end(), (*o.fixed_binding)[p]);
    if (it == ix.options[p].end())
      throw specification_error("ychart: fixed_binding gives task `" + tasks[ix.processes[p]].id +
                                    "` an option it does not have",
                                tasks[ix.processes[p]].id);
    start[p][static_cast<std::size_t>(it - ix.options[p].begin())] = true;
  }
  return start;
}

/// The message of a reachability conflict: a task from whose resources a
/// communication cannot be routed.
inline std::string conflict_message(const Specification& spec, const IndexedSpecification& ix,
                                    const std::pair<std::size_t, std::size_t>& conflict) {
  const auto& tasks = spec.application.tasks;
  const auto& [p, c] = conflict;
  return "task `" + tasks[ix.processes[p]].id + "` has no resource from which communication `" +
         tasks[ix.communications[c].task].id + "` can be routed within " + std::to_string(spec.max_hops) + " hops";
}

/// What a SynthesisModel keeps: the options and the reachable options it
/// was built with (the builder holds references to them), and the builder.
struct SynthesisModelState {
  const Specification& spec;
  const IndexedSpecification& ix;
  SynthesisOptions options;
  std::vector<std::vector<bool>> allowed;
  std::vector<bool> active;
  std::optional<SynthesisModelBuilder> builder;
  double build_seconds = 0;  // counted in the result's seconds, the time before solve() is not
};

}  // namespace detail

YCHART_DECL SynthesisModel::SynthesisModel(std::unique_ptr<detail::SynthesisModelState> state)
    : state_(std::move(state)) {}
YCHART_DECL SynthesisModel::SynthesisModel(SynthesisModel&&) noexcept = default;
YCHART_DECL SynthesisModel& SynthesisModel::operator=(SynthesisModel&&) noexcept = default;
YCHART_DECL SynthesisModel::~SynthesisModel() = default;

YCHART_DECL Model& SynthesisModel::model() { return state_->builder->model; }

YCHART_DECL std::optional<Discrete<>> SynthesisModel::option_used(std::size_t process, std::size_t option) const {
  if (process >= state_->ix.processes.size() || option >= state_->ix.options[process].size())
    throw model_error("ychart: SynthesisModel::option_used: process task " + std::to_string(process) +
                      " has no mapping option " + std::to_string(option));
  return state_->builder->option_variable(process, option);
}

YCHART_DECL Discrete<> SynthesisModel::allocated(std::size_t resource) const {
  if (resource >= state_->spec.architecture.resources.size())
    throw model_error("ychart: SynthesisModel::allocated: no resource " + std::to_string(resource));
  return state_->builder->allocation_variable(resource);
}

YCHART_DECL SynthesisResult SynthesisModel::solve(const SolveOptions& solve_options) {
  const auto t0 = std::chrono::steady_clock::now();
  auto r = detail::solve_built(*state_->builder, state_->spec, state_->ix, state_->options, solve_options);
  r.seconds = state_->build_seconds + std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

YCHART_DECL SynthesisModel build_synthesis_model(const Specification& spec, const IndexedSpecification& ix,
                                                 const SynthesisOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto reach = detail::propagate_reachability(spec, ix, detail::checked_start(spec, ix, o));
  if (reach.conflict)
    throw specification_error("ychart: " + detail::conflict_message(spec, ix, *reach.conflict),
                              spec.application.tasks[ix.processes[reach.conflict->first]].id);
  auto state = std::unique_ptr<detail::SynthesisModelState>(
      new detail::SynthesisModelState{spec, ix, o, reach.allowed, std::vector<bool>(ix.communications.size(), true), {}});
  state->builder.emplace(spec, ix, state->allowed, state->active, state->options);
  state->builder->build();
  state->build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return SynthesisModel(std::move(state));
}

YCHART_DECL SynthesisResult solve_synthesis(const Specification& spec, const IndexedSpecification& ix,
                                            const SynthesisOptions& o, const SolveOptions& solve_options) {
  const auto t0 = std::chrono::steady_clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  const auto& tasks = spec.application.tasks;
  const auto reach = detail::propagate_reachability(spec, ix, detail::checked_start(spec, ix, o));
  if (reach.conflict) {
    SynthesisResult r;
    r.status = Status::infeasible;
    r.message = detail::conflict_message(spec, ix, *reach.conflict);
    r.seconds = seconds();
    return r;
  }
  std::vector<bool> active(ix.communications.size(), true);
  auto r = detail::solve_model(spec, ix, reach.allowed, active, o, solve_options);
  if (!r.implementation && (r.status == Status::time_limit || r.status == Status::node_limit)) {
    if (auto g = detail::fallback_implementation(spec, ix, reach.allowed, o)) {
      r.breakdown = evaluate(spec, ix, *g);
      r.objective = r.breakdown.cost;
      r.implementation = std::move(g);
      r.message += (r.message.empty() ? "" : "; ") +
                   std::string("the MILP solver had no incumbent when it stopped: the implementation is a fallback (cheapest "
                               "option per task, or everything on one resource), feasible but not proven");
      if (std::isfinite(r.bound)) r.gap = (r.objective - r.bound) / std::max(tolerances::tiny, std::abs(r.objective));
    }
  }
  if (r.status == Status::infeasible) {
    const bool limited = o.parameter_limit || o.power_limit || o.processor_limit;
    // Without an epsilon limit only routing can conflict: drop
    // communications one by one while the rest stays infeasible; what
    // remains is an irreducible set (a deletion filter).
    if (!limited) {
      for (std::size_t c = 0; c < active.size(); ++c) {
        active[c] = false;
        if (detail::solve_model(spec, ix, reach.allowed, active, o, solve_options).status != Status::infeasible)
          active[c] = true;
      }
      std::string names;
      for (std::size_t c = 0; c < active.size(); ++c)
        if (active[c]) names += (names.empty() ? "`" : ", `") + tasks[ix.communications[c].task].id + "`";
      r.message = names.empty() ? "no implementation exists" : "these communications cannot all be routed: " + names;
    } else {
      r.message = "no implementation meets the limit";
      if (o.parameter_limit)
        r.message += " on " + spec.architecture.parameters[o.parameter_limit->first].name + " <= " +
                     ychart::detail::format_number(o.parameter_limit->second);
      if (o.power_limit) r.message += " on power <= " + ychart::detail::format_number(o.power_limit->value()) + " W";
      if (o.processor_limit) r.message += " on " + std::to_string(*o.processor_limit) + " processors";
    }
  }
  r.seconds = seconds();
  return r;
}

YCHART_DECL SynthesisResult solve_synthesis(const Specification& spec, const SynthesisOptions& o,
                                            const SolveOptions& solve_options) {
  return solve_synthesis(spec, spec.validate(), o, solve_options);
}

}  // namespace ychart::synthesis
