// ychart/baselines/impl/evolutionary.ipp
// The implementation of ychart/baselines/evolutionary.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../../model/tolerances.hpp"
#include "../evolutionary.hpp"

namespace ychart::baselines {


namespace detail {

struct Individual {
  std::vector<std::size_t> genes;  // option position per process, then value per parameter
  double cost = std::numeric_limits<double>::infinity();
  synthesis::Implementation implementation;
};

}  // namespace detail

YCHART_DECL EvolutionaryResult evolve(const synthesis::Specification& spec, const synthesis::IndexedSpecification& ix,
                                      const EvolutionaryOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  if (o.population == 0 || o.parents == 0 || o.offspring == 0)
    throw specification_error("ychart: the evolutionary search needs a population, parents and offspring", "");
  std::mt19937_64 rng(o.seed);
  const std::size_t n_proc = ix.processes.size(), n_par = spec.architecture.parameters.size();
  const std::size_t n_genes = n_proc + n_par;
  auto range = [&](std::size_t g) {
    return g < n_proc ? ix.options[g].size() : spec.architecture.parameters[g - n_proc].values.size();
  };
  auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  const double mutation = o.mutation_rate >= 0 ? o.mutation_rate : 1.0 / static_cast<double>(n_genes);
  EvolutionaryResult out;

  auto resource = [&](const std::vector<std::size_t>& genes, std::size_t p) {
    return spec.mappings[ix.options[p][genes[p]]].resource;
  };
  auto near = [&](std::size_t from, std::size_t to) { return ix.within_hops(from, to, spec.max_hops); };
  // Moves a task whose communication cannot reach it; true when every
  // communication's ends are within the hop bound.
  auto repair = [&](std::vector<std::size_t>& genes) {
    for (std::size_t step = 0; step <= 4 * n_proc; ++step) {
      bool clean = true;
      for (const auto& com : ix.communications) {
        const auto s = ix.process_of_task[com.sender];
        for (auto q_task : com.receivers) {
          const auto q = ix.process_of_task[q_task];
          if (near(resource(genes, s), resource(genes, q))) continue;
          clean = false;
          ++out.repairs;
          // Prefer moving the receiver next to the sender; else the sender.
          std::vector<std::size_t> fits;
          for (std::size_t i = 0; i < ix.options[q].size(); ++i)
            if (near(resource(genes, s), spec.mappings[ix.options[q][i]].resource)) fits.push_back(i);
          if (!fits.empty() && coin(rng) < 0.5) {
            genes[q] = fits[pick(fits.size())];
          } else {
            fits.clear();
            for (std::size_t i = 0; i < ix.options[s].size(); ++i)
              if (near(spec.mappings[ix.options[s][i]].resource, resource(genes, q))) fits.push_back(i);
            genes[fits.empty() ? q : s] = fits.empty() ? pick(ix.options[q].size()) : fits[pick(fits.size())];
          }
        }
      }
      if (clean) return true;
    }
    return false;
  };
  auto decode = [&](detail::Individual& x) {
    if (!repair(x.genes)) return false;
    std::vector<std::size_t> binding(n_proc), values(n_par);
    for (std::size_t p = 0; p < n_proc; ++p) binding[p] = ix.options[p][x.genes[p]];
    for (std::size_t k = 0; k < n_par; ++k) values[k] = x.genes[n_proc + k];
    auto impl = route(spec, ix, std::move(binding), std::move(values));
    if (!impl) return false;
    x.cost = evaluate(spec, ix, *impl).cost;
    x.implementation = std::move(*impl);
    ++out.evaluations;
    return true;
  };
  auto random_individual = [&] {
    for (int attempt = 0; attempt < 1000; ++attempt) {
      detail::Individual x;
      x.genes.resize(n_genes);
      for (std::size_t g = 0; g < n_genes; ++g) x.genes[g] = pick(range(g));
      if (decode(x)) return x;
    }
    // Repair failed from 1000 random starts: likely no binding is routable
    // (solve_synthesis() says which tasks and communications conflict).
    throw specification_error("ychart: the evolutionary search found no routable binding in 1000 random tries", "");
  };
  auto by_cost = [](const detail::Individual& a, const detail::Individual& b) { return a.cost < b.cost; };

  out.best_at.assign(o.checkpoints.size(), std::numeric_limits<double>::quiet_NaN());
  std::vector<detail::Individual> population;
  for (std::size_t k = 0; k < o.population; ++k) population.push_back(random_individual());
  auto note_best = [&] {
    const auto& b = *std::min_element(population.begin(), population.end(), by_cost);
    if (b.cost < out.best_cost) out.best_cost = b.cost, out.best = b.implementation;
  };
  note_best();
  for (std::size_t gen = 1; gen <= o.generations; ++gen) {
    std::vector<const detail::Individual*> parents;
    for (std::size_t k = 0; k < o.parents; ++k) {
      const auto& a = population[pick(population.size())];
      const auto& b = population[pick(population.size())];
      parents.push_back(a.cost <= b.cost ? &a : &b);
    }
    std::vector<detail::Individual> children;
    for (std::size_t k = 0; children.size() < o.offspring; k += 2) {
      detail::Individual c1, c2;
      c1.genes = parents[k % parents.size()]->genes;
      c2.genes = parents[(k + 1) % parents.size()]->genes;
      if (coin(rng) < o.crossover_rate)
        for (std::size_t g = 0; g < n_genes; ++g)
          if (coin(rng) < 0.5) std::swap(c1.genes[g], c2.genes[g]);
      for (auto* c : {&c1, &c2}) {
        if (children.size() >= o.offspring) break;
        for (std::size_t g = 0; g < n_genes; ++g)
          if (coin(rng) < mutation) c->genes[g] = pick(range(g));
        if (!decode(*c)) *c = random_individual();
        children.push_back(std::move(*c));
      }
    }
    for (auto& c : children) population.push_back(std::move(c));
    std::stable_sort(population.begin(), population.end(), by_cost);
    population.resize(o.population);
    note_best();
    for (std::size_t k = 0; k < o.checkpoints.size(); ++k)
      if (o.checkpoints[k] == gen) out.best_at[k] = out.best_cost;
  }
  for (auto& b : out.best_at)
    if (std::isnan(b)) b = out.best_cost;  // checkpoints past the last generation
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

YCHART_DECL HitRates hit_rates(const synthesis::Specification& spec, const synthesis::IndexedSpecification& ix, double optimum, std::size_t runs,
                               EvolutionaryOptions o, std::uint64_t first_seed) {
  HitRates h;
  h.runs = runs;
  h.hit_rate.assign(o.checkpoints.size(), 0.0);
  for (std::size_t k = 0; k < runs; ++k) {
    o.seed = first_seed + k;
    const auto r = evolve(spec, ix, o);
    h.best_cost = std::min(h.best_cost, r.best_cost);
    h.mean_seconds += r.seconds / static_cast<double>(runs);
    for (std::size_t c = 0; c < o.checkpoints.size(); ++c)
      h.hit_rate[c] += r.best_at[c] <= optimum + tolerances::roundoff * std::abs(optimum);
  }
  for (auto& rate : h.hit_rate) rate /= static_cast<double>(std::max<std::size_t>(1, runs));  // counts to rates
  return h;
}

}  // namespace ychart::baselines
