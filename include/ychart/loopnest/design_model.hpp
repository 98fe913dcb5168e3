// ychart/loopnest/design_model.hpp
// Accelerator design over ALOHA's layer model (study 002, issue 19 (b)): the
// parallelism grid and the memory sizes of one processor template become
// variables, and so do every layer's trip counts n (n * P >= d), tile counts
// T and tiled trip counts m (m * T >= n). Transfer sizes, executions and
// compute time are then monomials in them (refine.hpp's rules written
// symbolically), the memory rows are posynomial <= variable, and
//   latency = sum_l (tau_l + ov),  tau_l >= compute_l,  tau_l >= traffic_ch,l / bw_ch
//   energy  = power * latency + E_byte * traffic,  power and area posynomials
// of the grid and the memories (the cost coefficients are the template's).
// With `relax` every variable is continuous: a GP whose optimum bounds the
// design from below. Otherwise the discrete variables take their declared
// values (trip counts only the values ceil(d / P) can take) and the MIGP
// engine proves the optimum; every optimum is re-evaluated exactly by
// evaluate_layer() with its tiles. build_accelerator_model() returns the
// model before it is solved, so that a user can add rows of their own over
// the design variables; design_accelerator() is build and solve.
#pragma once

#include "../config.hpp"
#include "../result/solve_report.hpp"
#include "cnn.hpp"
#include "evaluate.hpp"
#include "platform.hpp"
#include "refine.hpp"

#include "../model/model.hpp"
#include "../solve/solve.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ychart::loopnest {

/// The tile counts a design may choose, per layer (docs/loopnest.md,
/// "Designing an accelerator").
enum class TileSpace {
  /// ALOHA's rule: a loop is tiled where its memory may overflow, up to the
  /// most tiles the rule needs for any grid of the space on the smallest
  /// memories. Small and fast, but a restriction: other counts can give
  /// less latency or energy. A layer whose rule needs more than max_tiles
  /// (or whose smallest memories do not fit) gets every_count.
  rule_needs,
  /// Every loop that a transfer's memory limits takes any count from 1 to
  /// max_tiles: the optimum over every such tiling evaluate_layer accepts.
  /// Exact for the space, and slower (a step of study 002's front ran past
  /// its 20 s limit, against 2-11 s under the rule).
  every_count,
};

/// The design space: a processor whose computational model, clock, overhead
/// and DDR energy are kept, and whose grid and memories are chosen.
struct AcceleratorTemplate {
  std::size_t processor = 0;                        // in the platform
  std::vector<std::vector<long long>> parallelism;  // the values each grid level may take
  /// The capacities (bytes) each platform memory may take; an empty list
  /// keeps the platform's capacity.
  std::vector<std::vector<double>> memory_bytes;
  /// Tile counts never exceed max_tiles; tile_space says which loops and
  /// counts below it the design may choose.
  long long max_tiles = 16;
  TileSpace tile_space = TileSpace::rule_needs;
  // Costs (the caller's model): area = fixed + per MAC unit x prod P + per KiB x sum M.
  double area_fixed = 0, area_per_mac = 1, area_per_kib = 0;
  Constant<dim::power> power_fixed{0.0}, power_per_mac{0.0}, power_per_kib{0.0};
};

enum class DesignGoal { latency, energy };

struct DesignOptions {
  DesignGoal goal = DesignGoal::latency;
  std::optional<double> area_budget;
  std::optional<Constant<dim::power>> power_budget;
  std::optional<Constant<dim::time>> latency_limit;  // for goal == energy (the Pareto sweep)
  bool relax = false;                                  // the GP relaxation only
};

/// objective and bound: the model's, in s (latency) or J (energy).
struct AcceleratorDesign : SolveReport {
  std::vector<double> parallelism;                  // per grid level (continuous when relaxed)
  std::vector<double> memory_bytes;                 // per platform memory
  std::vector<std::array<long long, loop_count>> tiles;  // per layer, per loop (0: untiled)
  // Evaluated exactly (not when relaxed):
  Constant<dim::time> latency{0.0};
  std::optional<Constant<dim::energy>> energy;
  double area = 0;
  Constant<dim::power> power{0.0};
  Platform platform;  // the designed platform
};

/// The designed processor's area and power for a grid and memory sizes.
YCHART_DECL double design_area(const AcceleratorTemplate& t, double macs, double kib);
YCHART_DECL Constant<dim::power> design_power(const AcceleratorTemplate& t, double macs, double kib);

namespace detail {
struct AcceleratorModelState;
}

/// The design model built but not solved: build_accelerator_model(), add
/// constraints to model() over the expressions below, solve(). The model is
/// scaled for the solver: times in ms, energies in mJ, memories in KiB,
/// power in W. It keeps its own copies of the network, the platform, the
/// template and the options.
class AcceleratorModel {
 public:
  YCHART_DECL AcceleratorModel(AcceleratorModel&&) noexcept;
  YCHART_DECL AcceleratorModel& operator=(AcceleratorModel&&) noexcept;
  YCHART_DECL ~AcceleratorModel();

  YCHART_DECL Model& model();
  /// P_g of grid level `level` (a constant where the template gives one value).
  YCHART_DECL Monomial<> parallelism(std::size_t level) const;
  /// The capacity of platform memory `memory`, in KiB (a constant where the
  /// template keeps the platform's).
  YCHART_DECL Monomial<> memory_kib(std::size_t memory) const;
  /// The template's area, its power in W, and the network's latency in ms.
  YCHART_DECL Posynomial<> area() const;
  YCHART_DECL Posynomial<> power_w() const;
  YCHART_DECL Posynomial<> latency_ms() const;
  /// Solves the model as it stands, reads the design back and (unless
  /// relaxed) evaluates every layer on it exactly, as design_accelerator's;
  /// seconds: building and solving, not the time between.
  YCHART_DECL AcceleratorDesign solve(const SolveOptions& solve_options = {});

 private:
  friend YCHART_DECL AcceleratorModel build_accelerator_model(const Cnn&, const Platform&, const AcceleratorTemplate&,
                                                              const DesignOptions&);
  explicit AcceleratorModel(std::unique_ptr<detail::AcceleratorModelState> state);
  std::unique_ptr<detail::AcceleratorModelState> state_;
};

/// Checks the template against the platform (loopnest_error) and builds the
/// model of every layer with the goal set.
YCHART_DECL AcceleratorModel build_accelerator_model(const Cnn& cnn, const Platform& platform,
                                                     const AcceleratorTemplate& t, const DesignOptions& o = {});

YCHART_DECL AcceleratorDesign design_accelerator(const Cnn& cnn, const Platform& platform, const AcceleratorTemplate& t,
                                                 const DesignOptions& o = {}, const SolveOptions& solve_options = {});

}  // namespace ychart::loopnest

#if YCHART_HEADER_ONLY
#include "impl/design_model.ipp"
#endif
