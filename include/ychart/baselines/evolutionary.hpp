// ychart/baselines/evolutionary.hpp
// The thesis's baseline (study 003, Secs. 4.4, 6.2): an evolutionary
// search over implementations with Opt4J's settings -- population 50,
// 25 parents and 25 offspring per generation, crossover rate 0.95 -- kept
// for comparison with the exact model, not as a solver.
//
// Genotype: one mapping option per process task and one value per
// parameter. Decoding: route() gives each communication its cheapest tree;
// a binding that cannot be routed is repaired by moving a receiver (or the
// sender) to a resource within the hop bound, so every individual
// evaluated is feasible. This replaces Opt4J's SAT-decoding (a PB solver
// steered by evolved priorities) with direct decoding and repair; the
// selection is Opt4J's: binary tournaments for parents, the best 50 of
// parents and offspring survive (elitist). Mutation resets each gene with
// probability 1/genes; crossover is uniform.
#pragma once

#include "../config.hpp"
#include "../synthesis/implementation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <vector>

namespace ychart::baselines {

struct EvolutionaryOptions {
  std::size_t population = 50;  // alpha
  std::size_t parents = 25;     // mu
  std::size_t offspring = 25;   // lambda
  double crossover_rate = 0.95;
  double mutation_rate = -1;    // per gene; < 0: 1 / genes
  std::size_t generations = 400;
  /// Generations after which the best cost so far is recorded
  /// (EvolutionaryResult::best_at), e.g. {100, 400} as in Table 7.1.
  std::vector<std::size_t> checkpoints{100, 400};
  std::uint64_t seed = 1;
};

struct EvolutionaryResult {
  double best_cost = std::numeric_limits<double>::infinity();  // seconds
  synthesis::Implementation best;
  std::vector<double> best_at;  // per checkpoint
  std::size_t evaluations = 0, repairs = 0;
  double seconds = 0;
};

YCHART_DECL EvolutionaryResult evolve(const synthesis::Specification& spec, const synthesis::IndexedSpecification& ix,
                                      const EvolutionaryOptions& o = {});

/// How often independent runs (seeds first_seed, first_seed + 1, ...)
/// reach `optimum` (relative tolerance 1e-9) by each checkpoint.
struct HitRates {
  std::size_t runs = 0;
  std::vector<double> hit_rate;     // per checkpoint
  double best_cost = std::numeric_limits<double>::infinity();
  double mean_seconds = 0;          // per run
};

YCHART_DECL HitRates hit_rates(const synthesis::Specification& spec, const synthesis::IndexedSpecification& ix, double optimum, std::size_t runs,
                               EvolutionaryOptions o = {}, std::uint64_t first_seed = 1);

}  // namespace ychart::baselines

#if YCHART_HEADER_ONLY
#include "impl/evolutionary.ipp"
#endif
