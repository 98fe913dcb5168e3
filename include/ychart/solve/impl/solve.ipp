// ychart/solve/impl/solve.ipp
// The implementation of Model::solve() (declared in model/model.hpp,
// included by solve/solve.hpp when header-only): an ordered list of
// strategies, each of which says whether it accepts the model; the first
// that accepts solves it. A new method is one more entry, in the place
// where it should be tried.
//   1. symmetric decomposition (solve/symmetry/symmetric_allocation.hpp):
//      interchangeable blocks of discrete variables with the structure it
//      needs; it may hand the model on (numerical_error).
//   2. mixed-integer search (solve/mixed_integer/migp.hpp): discrete or real
//      variables, or an affine objective.
//   3. geometric program (solve/gp/gp_model.hpp): everything else.
#pragma once

#include "../../config.hpp"
#include "../../error.hpp"
#include "../../model/model.hpp"
#include "../../result/solution.hpp"
#include "../gp/gp_backend.hpp"
#include "../gp/gp_model.hpp"
#include "../mixed_integer/migp.hpp"
#include "../symmetry/symmetric_allocation.hpp"
#include "../symmetry/symmetry.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

namespace ychart {
namespace detail {

struct SolverCache {
  solve::gp::LazyIpopt ipopt;  // made only if Ipopt runs
};
YCHART_DECL void destroy(SolverCache* c) { delete c; }

}  // namespace detail

namespace solve::detail {

/// What the strategies share: the model, the options, Ipopt, and the
/// symmetry analysis, done once.
struct SolveContext {
  const Model& model;
  const SolveOptions& options;
  gp::LazyIpopt& ipopt;
  std::chrono::steady_clock::time_point start;
  /// Interchangeable blocks the decomposition applies to.
  std::optional<symmetry::SymmetricStructure> structure;
  /// Interchangeable blocks the general methods break by ordering rows (one
  /// group only: two groups ordered by separate keys could exclude every
  /// optimum).
  std::vector<std::vector<std::uint32_t>> ordered;
};

/// Declared symmetries are checked whatever the method: a declaration that
/// is not a symmetry is a modelling mistake (model_error), never used.
inline void analyse_symmetry(SolveContext& c) {
  const Model& model = c.model;
  symmetry::verify_declared_symmetries(model);
  if (!mixed_integer::needs_migp(model)) return;
  const bool decompose = c.options.method == Method::automatic;
  if (model.symmetries().size() == 1) {
    if (decompose) c.structure = symmetry::find_symmetric_structure(model, model.symmetries().front());
    c.ordered = model.symmetries().front();
  } else if (model.symmetries().empty() && c.options.detect_symmetry) {
    const auto groups = symmetry::find_interchangeable_blocks(model);
    for (const auto& blocks : groups)
      if (decompose && (c.structure = symmetry::find_symmetric_structure(model, blocks))) break;
    if (!groups.empty()) c.ordered = groups.front();
  }
}

struct Strategy {
  const char* name;
  bool (*accepts)(const SolveContext&);
  /// The Solution, or nothing to hand the model to the next strategy.
  std::optional<Solution> (*solve)(SolveContext&);
};

inline constexpr Strategy strategies[] = {
    {"symmetric decomposition", [](const SolveContext& c) { return c.structure.has_value(); },
     [](SolveContext& c) -> std::optional<Solution> {
       auto solution = symmetry::solve_symmetric_allocation(c.model, *c.structure, c.options);
       // The decomposition's packing can miss a row the structure check let
       // through (a spreading variable bounded by another row); it then says
       // numerical_error rather than answer wrongly, and the general methods,
       // which ignore the symmetry, still solve the model exactly.
       if (solution.status() == Status::numerical_error) return std::nullopt;
       return solution;
     }},
    {"mixed-integer search", [](const SolveContext& c) { return mixed_integer::needs_migp(c.model); },
     [](SolveContext& c) -> std::optional<Solution> {
       return mixed_integer::solve_mixed_integer(c.model, c.options, c.ipopt, &c.ordered);
     }},
    {"geometric program", [](const SolveContext&) { return true; },
     [](SolveContext& c) -> std::optional<Solution> { return gp::solve_gp_model(c.model, c.options, c.ipopt, c.start); }},
};

}  // namespace solve::detail

YCHART_DECL Solution Model::solve(const SolveOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  if (!cache_) cache_.reset(new detail::SolverCache);
  solve::detail::SolveContext context{*this, options, cache_->ipopt, start, std::nullopt, {}};
  solve::detail::analyse_symmetry(context);
  for (const auto& strategy : solve::detail::strategies)
    if (strategy.accepts(context))
      if (auto solution = strategy.solve(context)) return std::move(*solution);
  // Not reached: the last strategy accepts every model and always answers.
  throw error("ychart: internal error: no solve strategy accepted the model");
}

}  // namespace ychart
