// ychart/synthesis/impl/synthesis_model.ipp
// The implementation of ychart/synthesis/synthesis_model.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../synthesis_model.hpp"

namespace ychart::synthesis {


namespace detail {

inline bool empty(const Affine<>& a) { return a.terms().size() == 0; }

/// Builds and solves the model for the communications in `active` (all
/// others are left out; the infeasibility diagnosis drops some).
inline SynthesisResult solve_model(const Specification& spec, const IndexedSpecification& ix,
                                   const std::vector<std::vector<bool>>& allowed, const std::vector<bool>& active,
                                   const SynthesisOptions& o, const SolveOptions& solve_options) {
  const auto& arch = spec.architecture;
  const auto& tasks = spec.application.tasks;
  const std::size_t n_res = arch.resources.size();
  // Costs in units of the largest one keep GLPK's coefficients near 1.
  double scale = 0;
  for (const auto& m : spec.mappings)
    for (std::size_t v = 0; v < (m.parameter ? m.costs.size() : 1); ++v) scale = std::max(scale, m.seconds(v));
  for (const auto& row : ix.link_seconds)
    for (double x : row) scale = std::max(scale, x);
  for (const auto& r : arch.resources) scale = std::max(scale, r.allocation_cost.value());
  if (!(scale > 0)) scale = 1;

  Model model;
  Affine<> cost;
  std::vector<Discrete<>> alloc;
  std::vector<Affine<>> uses(n_res);  // EQ30's right-hand side
  for (const auto& r : arch.resources) {
    alloc.push_back(model.binary("a[" + r.id + "]"));
    cost += (r.allocation_cost.value() / scale) * alloc.back();
  }
  // Parameters: one-hot while allocated.
  std::vector<std::vector<std::optional<Discrete<>>>> z(arch.parameters.size());
  for (std::size_t k = 0; k < arch.parameters.size(); ++k) {
    const auto& p = arch.parameters[k];
    Affine<> one;
    z[k].resize(p.values.size());
    for (std::size_t v = 0; v < p.values.size(); ++v) {
      const bool fixed_out = o.fixed_parameter_values && (*o.fixed_parameter_values)[k] != v;
      const bool limited_out = o.parameter_limit && o.parameter_limit->first == k && p.values[v] > o.parameter_limit->second;
      if (fixed_out || limited_out) continue;
      z[k][v] = model.binary("z[" + arch.resources[p.resource].id + "." + p.name + "=" +
                             ychart::detail::format_number(p.values[v]) + "]");
      one += *z[k][v];
    }
    model.subject_to(one == Affine<>(alloc[p.resource]), "one value of " + p.name + " while " +
                                                                 arch.resources[p.resource].id + " is allocated");
  }
  // Binding.
  std::vector<std::vector<std::optional<Discrete<>>>> m(ix.processes.size());
  std::vector<std::vector<std::optional<Discrete<>>>> on(ix.processes.size(),
                                                           std::vector<std::optional<Discrete<>>>(n_res));
  for (std::size_t p = 0; p < ix.processes.size(); ++p) {
    Affine<> one;
    m[p].resize(ix.options[p].size());
    for (std::size_t i = 0; i < ix.options[p].size(); ++i) {
      if (!allowed[p][i]) continue;
      const auto& opt = spec.mappings[ix.options[p][i]];
      auto x = model.binary("m[" + tasks[ix.processes[p]].id + "@" + arch.resources[opt.resource].id + "]");
      m[p][i] = x;
      on[p][opt.resource] = x;
      one += x;
      uses[opt.resource] += x;
      model.subject_to(x <= alloc[opt.resource]);
      if (!opt.parameter) {
        cost += (opt.cost.value() / scale) * x;
        continue;
      }
      const auto& values = z[*opt.parameter];
      bool flat = true;  // the same cost for every value needs no y
      for (std::size_t v = 0; v < opt.costs.size(); ++v) flat = flat && opt.costs[v].value() == opt.costs[0].value();
      if (flat) {
        cost += (opt.costs[0].value() / scale) * x;
        continue;
      }
      Affine<> split;
      for (std::size_t v = 0; v < values.size(); ++v) {
        if (!values[v]) continue;
        auto y = model.real("y[" + tasks[ix.processes[p]].id + "@" + arch.resources[opt.resource].id + "#" +
                                std::to_string(v) + "]",
                            0.0, 1.0);
        model.subject_to(y <= *values[v]);
        split += y;
        cost += (opt.costs[v].value() / scale) * y;
      }
      model.subject_to(split == Affine<>(x));
    }
    model.subject_to(one == 1.0, "task " + tasks[ix.processes[p]].id + " bound once");
  }
  // Routing.
  const auto& arcs = ix.arcs;
  std::vector<std::vector<std::optional<Discrete<>>>> u(ix.communications.size());
  const bool use_tree = o.routing != Routing::flow && links_form_forest(spec);
  if (o.routing == Routing::tree && !use_tree)
    throw specification_error("ychart: Routing::tree needs undirected links without cycles; use Routing::flow", "");
  if (use_tree) {
    // A communication crosses link l when its sender is on one side of l
    // and a receiver on the other: u_cl >= S_side + Q_other - 1. No flows.
    const auto side = link_sides(spec);
    for (std::size_t c = 0; c < ix.communications.size(); ++c) {
      if (!active[c]) continue;
      const auto& com = ix.communications[c];
      const auto& cid = tasks[com.task].id;
      const auto s = ix.process_of_task[com.sender];
      auto on_side = [&](std::size_t p, std::size_t l, bool from_side) {
        Affine<> a;
        for (std::size_t r = 0; r < n_res; ++r)
          if (on[p][r] && side[l][r] == from_side) a += *on[p][r];
        return a;
      };
      u[c].resize(arcs.size());
      for (std::size_t l = 0; l < arch.links.size(); ++l) {
        std::optional<Discrete<>> x;
        for (bool from_side : {true, false}) {
          const auto sender = on_side(s, l, from_side);
          if (empty(sender)) continue;
          for (auto q : com.receivers) {
            const auto receiver = on_side(ix.process_of_task[q], l, !from_side);
            if (empty(receiver)) continue;
            if (!x) {
              x = model.binary("u[" + cid + ":" + arch.links[l].id + "]");
              cost += (ix.link_seconds[c][l] / scale) * *x;
              model.subject_to(*x <= alloc[arch.links[l].from]);
              model.subject_to(*x <= alloc[arch.links[l].to]);
              uses[arch.links[l].from] += *x;
              uses[arch.links[l].to] += *x;
            }
            model.subject_to(Affine<>(*x) >= sender + receiver - 1.0);
          }
        }
        if (x)
          for (std::size_t k = 0; k < arcs.size(); ++k)
            if (arcs[k].link == l) u[c][k] = x;
      }
      // The one path between two resources may be too long (or absent).
      for (auto q_task : com.receivers) {
        const auto q = ix.process_of_task[q_task];
        for (std::size_t r = 0; r < n_res; ++r)
          for (std::size_t t = 0; t < n_res; ++t)
            if (on[s][r] && on[q][t] && !ix.within_hops(r, t, spec.max_hops))
              model.subject_to(*on[s][r] + *on[q][t] <= 1.0);
      }
    }
  } else {
    const bool hop_indexed = hop_bound_binds(spec, ix);
    // Fewest hops from any resource of one set to any of another (-1: none).
    auto fewest_hops = [&](std::span<const std::size_t> from, std::span<const std::size_t> to) {
      int best = -1;
      for (auto f : from)
        for (auto t : to) {
          const int h = ix.hops[f][t];
          if (h >= 0 && (best < 0 || h < best)) best = h;
        }
      return best;
    };
    for (std::size_t c = 0; c < ix.communications.size(); ++c) {
      if (!active[c]) continue;
      const auto& com = ix.communications[c];
      const auto& cid = tasks[com.task].id;
      const auto s = ix.process_of_task[com.sender];
      std::vector<std::size_t> roots;
      for (std::size_t i = 0; i < ix.options[s].size(); ++i)
        if (allowed[s][i]) roots.push_back(spec.mappings[ix.options[s][i]].resource);
      std::vector<std::vector<std::size_t>> leaves;
      bool all_local = true;
      for (auto q : com.receivers) {
        const auto r = ix.process_of_task[q];
        leaves.emplace_back();
        for (std::size_t i = 0; i < ix.options[r].size(); ++i)
          if (allowed[r][i]) leaves.back().push_back(spec.mappings[ix.options[r][i]].resource);
        all_local = all_local && roots.size() == 1 && leaves.back().size() == 1 && leaves.back()[0] == roots[0];
      }
      if (all_local) continue;
      // Arcs on some path of <= max_hops from a root to a leaf.
      auto before_arc = [&](const Arc& a) { return fewest_hops(roots, std::span(&a.from, 1)); };
      auto after_arc = [&](const Arc& a, const std::vector<std::size_t>& leaf) {
        return fewest_hops(std::span(&a.to, 1), leaf);
      };
      u[c].resize(arcs.size());
      std::vector<Affine<>> in_arcs(n_res), carried(arcs.size());
      for (std::size_t k = 0; k < arcs.size(); ++k) {
        const auto& a = arcs[k];
        const int before = before_arc(a);
        if (before < 0) continue;
        bool useful = false;
        for (const auto& l : leaves) {
          const int after = after_arc(a, l);
          useful = useful || (after >= 0 && before + 1 + after <= spec.max_hops);
        }
        if (!useful) continue;
        auto x = model.binary("u[" + cid + ":" + arch.links[a.link].id + ":" + arch.resources[a.from].id + ">" +
                              arch.resources[a.to].id + "]");
        u[c][k] = x;
        cost += (ix.link_seconds[c][a.link] / scale) * x;
        model.subject_to(x <= alloc[a.from]);
        model.subject_to(x <= alloc[a.to]);
        uses[a.from] += x;
        uses[a.to] += x;
        in_arcs[a.to] += x;
      }
      for (std::size_t r = 0; r < n_res; ++r) {
        if (empty(in_arcs[r])) continue;
        // EQ13 (a tree), and EQ12 (none into the sender's resource).
        Affine<> into = in_arcs[r];
        if (on[s][r]) into += *on[s][r];
        model.subject_to(into <= 1.0);
      }
      // Flows, one per receiver.
      const int layers = hop_indexed ? spec.max_hops : 1;
      for (std::size_t j = 0; j < com.receivers.size(); ++j) {
        const auto q = ix.process_of_task[com.receivers[j]];
        // f[t][k]: flow over arc k as hop t+1 (one layer when hops do not bind).
        std::vector<std::vector<std::optional<Real<>>>> f(static_cast<std::size_t>(layers),
                                                         std::vector<std::optional<Real<>>>(arcs.size()));
        for (int t = 0; t < layers; ++t)
          for (std::size_t k = 0; k < arcs.size(); ++k) {
            if (!u[c][k]) continue;
            if (hop_indexed) {
              const int before = before_arc(arcs[k]), after = after_arc(arcs[k], leaves[j]);
              if (before < 0 || after < 0 || before > t || t + 1 + after > spec.max_hops) continue;
            }
            auto x = model.real("f[" + cid + ">" + tasks[com.receivers[j]].id + ":" + std::to_string(k) +
                                    (hop_indexed ? "@" + std::to_string(t + 1) : std::string()) + "]",
                                0.0, 1.0);
            f[static_cast<std::size_t>(t)][k] = x;
            model.subject_to(x <= *u[c][k]);
            carried[k] += x;
          }
        for (std::size_t r = 0; r < n_res; ++r) {
          Affine<> source, sink;
          if (on[s][r]) source += *on[s][r];
          if (on[q][r]) sink += *on[q][r];
          if (!hop_indexed) {
            Affine<> net;
            for (std::size_t k = 0; k < arcs.size(); ++k) {
              if (!f[0][k]) continue;
              if (arcs[k].from == r) net += *f[0][k];
              if (arcs[k].to == r) net += -1.0 * *f[0][k];
            }
            if (empty(net) && empty(source) && empty(sink)) continue;
            model.subject_to(net == source - sink);
            continue;
          }
          // Layered: what leaves r as hop 1 comes from the sender; what
          // arrives as hop t leaves as hop t+1 or ends at q here.
          Affine<> absorbed;
          for (int t = 0; t <= layers; ++t) {
            Affine<> out, in;
            for (std::size_t k = 0; k < arcs.size(); ++k) {
              if (t < layers && f[static_cast<std::size_t>(t)][k] && arcs[k].from == r) out += *f[static_cast<std::size_t>(t)][k];
              if (t > 0 && f[static_cast<std::size_t>(t - 1)][k] && arcs[k].to == r) in += *f[static_cast<std::size_t>(t - 1)][k];
            }
            if (t == 0) {
              // Hop 1 leaves the sender's resource unless q is there too.
              auto stay = model.real("stay[" + cid + ">" + tasks[com.receivers[j]].id + "@" + arch.resources[r].id + "]",
                                     0.0, 1.0);
              model.subject_to(out + stay == source);
              absorbed += stay;
              continue;
            }
            if (empty(in)) {
              if (!empty(out)) model.subject_to(out <= 0.0);
              continue;
            }
            auto end = model.real("end[" + cid + ">" + tasks[com.receivers[j]].id + "@" + arch.resources[r].id + "#" +
                                      std::to_string(t) + "]",
                                  0.0, 1.0);
            model.subject_to(in == out + end);
            absorbed += end;
          }
          model.subject_to(absorbed == sink);
        }
      }
      for (std::size_t k = 0; k < arcs.size(); ++k)
        if (u[c][k]) model.subject_to(Affine<>(*u[c][k]) <= carried[k]);
    }
  }
  for (std::size_t r = 0; r < n_res; ++r) model.subject_to(Affine<>(alloc[r]) <= uses[r]);
  if (o.power_limit) {
    Affine<> power;
    for (std::size_t r = 0; r < n_res; ++r) power += arch.resources[r].power.value() * alloc[r];
    for (std::size_t k = 0; k < arch.parameters.size(); ++k)
      for (std::size_t v = 0; v < arch.parameters[k].power.size(); ++v)
        if (z[k][v]) power += arch.parameters[k].power[v].value() * *z[k][v];
    model.subject_to(power <= o.power_limit->value(), "power limit");
  }
  if (o.processor_limit) {
    Affine<> count;
    for (std::size_t r = 0; r < n_res; ++r)
      if (arch.resources[r].kind == ResourceKind::processor) count += alloc[r];
    model.subject_to(count <= static_cast<double>(*o.processor_limit), "processor limit");
  }
  model.minimize(cost);

  SolveOptions so = solve_options;
  so.heuristic = so.heuristic && o.start_heuristic;
  const auto sol = model.solve(so);
  SynthesisResult out;
  out.status = sol.status();
  out.message = sol.message();
  out.variables = model.registry().variables.size();
  out.constraints = model.constraints().size();
  out.bound = sol.bound() * scale;
  out.gap = sol.gap();
  if (!sol.has_values()) return out;
  Implementation impl;
  impl.binding.assign(ix.processes.size(), 0);
  for (std::size_t p = 0; p < ix.processes.size(); ++p)
    for (std::size_t i = 0; i < ix.options[p].size(); ++i)
      if (m[p][i] && sol[*m[p][i]] > 0.5) impl.binding[p] = ix.options[p][i];
  impl.parameter_values.assign(arch.parameters.size(), 0);
  for (std::size_t k = 0; k < arch.parameters.size(); ++k) {
    if (o.fixed_parameter_values) impl.parameter_values[k] = (*o.fixed_parameter_values)[k];
    for (std::size_t v = 0; v < z[k].size(); ++v)
      if (z[k][v] && sol[*z[k][v]] > 0.5) impl.parameter_values[k] = v;
  }
  // Each route: the arcs the model uses, walked from the sender's resource
  // (what is not reachable from there carries nothing and costs nothing).
  impl.routes.resize(ix.communications.size());
  for (std::size_t c = 0; c < ix.communications.size(); ++c) {
    if (u[c].empty()) continue;
    const auto root = spec.mappings[impl.binding[ix.process_of_task[ix.communications[c].sender]]].resource;
    std::vector<bool> reached(n_res, false), taken(arcs.size(), false);
    reached[root] = true;
    for (bool grew = true; grew;) {
      grew = false;
      for (std::size_t k = 0; k < arcs.size(); ++k)
        if (!taken[k] && u[c][k] && sol[*u[c][k]] > 0.5 && reached[arcs[k].from] && !reached[arcs[k].to])
          taken[k] = reached[arcs[k].to] = grew = true;
    }
    // Prune branches that lead to no receiver.
    std::vector<bool> needed(n_res, false);
    for (auto q : ix.communications[c].receivers) needed[spec.mappings[impl.binding[ix.process_of_task[q]]].resource] = true;
    for (bool cut = true; cut;) {
      cut = false;
      for (std::size_t k = 0; k < arcs.size(); ++k) {
        if (!taken[k] || needed[arcs[k].to]) continue;
        bool leads_on = false;
        for (std::size_t k2 = 0; k2 < arcs.size(); ++k2) leads_on = leads_on || (taken[k2] && arcs[k2].from == arcs[k].to);
        if (!leads_on) taken[k] = false, cut = true;
      }
    }
    for (std::size_t k = 0; k < arcs.size(); ++k)
      if (taken[k]) impl.routes[c].push_back(arcs[k]);
  }
  out.breakdown = evaluate(spec, ix, impl);
  out.objective = out.breakdown.cost;
  out.implementation = std::move(impl);
  return out;
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

}  // namespace detail

YCHART_DECL SynthesisResult solve_synthesis(const Specification& spec, const IndexedSpecification& ix,
                                            const SynthesisOptions& o, const SolveOptions& solve_options) {
  const auto t0 = std::chrono::steady_clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  const auto& tasks = spec.application.tasks;
  if (o.parameter_limit && o.parameter_limit->first >= spec.architecture.parameters.size())
    throw specification_error("ychart: parameter_limit names a parameter that does not exist", "");
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
  const auto reach = detail::propagate_reachability(spec, ix, start);
  if (reach.conflict) {
    SynthesisResult r;
    r.status = Status::infeasible;
    const auto& [p, c] = *reach.conflict;
    r.message = "task `" + tasks[ix.processes[p]].id + "` has no resource from which communication `" +
                tasks[ix.communications[c].task].id + "` can be routed within " + std::to_string(spec.max_hops) +
                " hops";
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
                   std::string("GLPK had no incumbent when it stopped: the implementation is a fallback (cheapest "
                               "option per task, or everything on one resource), feasible but not proven");
      if (std::isfinite(r.bound)) r.gap = (r.objective - r.bound) / std::max(1e-300, std::abs(r.objective));
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
