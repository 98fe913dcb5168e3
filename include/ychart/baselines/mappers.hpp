// ychart/baselines/mappers.hpp
// The mappers accelerator researchers use today, on ychart's own cost model
// (mapping::evaluate), to compare the proven optimum with: a random mapper
// with a sample budget (Timeloop's random-pruned search) and a pruned
// exhaustive mapper (every factorisation of every loop over every level and
// array dimension, the fan-outs pruned as the loops are placed, and at each
// level the loop orders that differ in reuse).
#pragma once

#include "../config.hpp"
#include "../mapping/evaluate.hpp"
#include "../mapping/objective.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <random>

namespace ychart::baselines {

struct MapperResult {
  std::optional<mapping::Mapping> best;     // absent when no sampled mapping fits
  std::optional<mapping::Evaluation> evaluation;
  double objective = 0;                     // of `best`, in J, s or J s
  std::uint64_t evaluated = 0;              // mappings priced (fitting or not)
  std::uint64_t fitting = 0;                // of which every tile fits
  bool complete = false;                    // exhaustive: the whole space was seen
  double seconds = 0;
};

/// One mapping drawn at random: each prime factor of each loop goes to a
/// random temporal or spatial place (a spatial place it would overflow
/// sends it to the same level's temporal loop), each level gets a random
/// innermost loop group. It may not fit.
YCHART_DECL mapping::Mapping random_mapping(const mapping::Workload& workload, const mapping::Architecture& architecture,
                                            std::mt19937_64& rng);

/// Draws `samples` mappings, prices each, keeps the best that fits.
YCHART_DECL MapperResult random_mapper(const mapping::Workload& workload, const mapping::Architecture& architecture,
                                       mapping::Objective objective, std::uint64_t samples, std::uint64_t seed = 1);

/// Prices every mapping (up to `limit`; `complete` says whether it got
/// through) and keeps the best that fits; `each`, if given, sees every
/// mapping that fits (an oracle for fronts).
YCHART_DECL MapperResult exhaustive_mapper(const mapping::Workload& workload,
                                           const mapping::Architecture& architecture, mapping::Objective objective,
                                           std::uint64_t limit = 50'000'000,
                                           const std::function<void(const mapping::Evaluation&)>& each = {});

}  // namespace ychart::baselines

#if YCHART_HEADER_ONLY
#include "impl/mappers.ipp"
#endif
