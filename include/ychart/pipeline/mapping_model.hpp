// ychart/pipeline/mapping_model.hpp
// The mapping as an optimisation model: integer compute units of every task
// on every device, per-device resource caps generated for every member of
// each kind's resource record, and the KPI expressions the objective and
// constraints are written in -- initiation interval, transfer times, devices
// holding each task, spreading. Built on a ychart::Model, so users add their
// own constraints and solve it with any method; mapping() reads the solution
// back as a pipeline::Mapping that evaluate() prices exactly.
//
// A task's CUs add their rates, 1 / T_exe <= sum_d n_kd / WCET_k,g(d). On
// identical devices (a one-kind platform) the rate is N_k / WCET_k, and the
// model is study 001's (equation numbers from it):
//   N_k = sum_f n_kf >= 1 (3.3, 3.8); sum_k n_kf R_kt <= cap_t (3.9, 3.10, 4.4);
//   T_exe >= WCET_k / N_k (3.1, 3.6); spreading phi >= sum_f n/(1+n) (3.4, 3.7);
//   with transfers: alpha_kf = [n_kf > 0], edge e local when both ends sit
//   entirely on one device, host-to-device = sum_k (alpha_k - a_k) DI_k / B,
//   device-to-host = sum_k (1 - b_k) DO_k / B (4.6-4.15, exactly linearised:
//   a_k = 1 forces alpha_k = 1); II = sum of the phases (4.5) or the max of
//   transfers and execution (5.5).
// The devices are interchangeable, which the symmetric decomposition
// (solvers.md) exploits. The execution time here is each kernel at its own
// clock. Memory contention and clock degradation (ch. 4) are products of
// integers and continuous times that no linear or convex row expresses
// exactly; with `memory_time` and `clock_degradation` the model carries the
// strongest bound on them that stays a function of N_k alone: the busiest
// device of kernel k holds at least ceil(N_k / F) of its CUs, so its clock
// is at most F1_k - psi ceil(N_k/F) use_k, and each port moves at most
// width x that clock (sharing the DDR only lowers it). So this model's
// optimum is a lower bound on the full model's II, and evaluate() gives the
// full model's II of the mapping it returns.
//
// Over device groups (several kinds, or `tabulate`), each device's resource
// rows are in its own kind's record and cap, the rate row is a convex
// `posynomial <= affine` row that the mixed-integer searches (outer
// approximation, branch and bound) solve exactly, devices of one group are
// ordered by the load they carry, and the host-transfer rows are the ones
// above (detail/transfer_rows.hpp). With `tabulate`, each task's time is
// instead a table over its CU totals per kind (detail/kind_totals.hpp),
// T_exe >= sum_c T_kc z_kc, and the whole model is linear: GLPK's bound is
// much stronger than outer approximation's once placement and locality
// binaries enter. Bounds on the optimum (a known mapping's II, the
// compute-only optimum) keep the tables short. The chapter-4 bounds and the
// spreading term are modelled on identical devices only.
#pragma once

#include "../config.hpp"
#include "../model/tolerances.hpp"
#include "application.hpp"
#include "detail/solution_mapping.hpp"
#include "architecture.hpp"
#include "mapping.hpp"
#include "resources.hpp"

#include "../error.hpp"
#include "../expr/operators.hpp"
#include "../model/model.hpp"
#include "../result/solution.hpp"

#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace ychart::pipeline {

/// What to optimise and which effects to include.
template <ResourceRecord... Rs>
struct MappingModelOptions {
  /// Per-device cap on each resource of each kind, in the platform's kind
  /// order; empty: the capacity.
  KindCaps<Rs...> caps{};
  Schedule schedule = Schedule::compute_only;
  /// Co-located consecutive kernels keep their data on the device.
  bool locality = true;
  /// Objective alpha * II[ms] + beta * spreading; beta = 0 leaves the
  /// spreading out of the model (identical devices only).
  double alpha = 1.0;
  double beta = 0.0;
  /// Declared upper bound of every CU count; the solver derives tight ones.
  int max_cus = 1000;
  /// Identical devices only: bound the execution phase from below by the
  /// memory reads and writes of each CU at its port bandwidth (needs the
  /// device memory's port width) ...
  bool memory_time = false;
  /// ... and by the clock degradation of its busiest device (needs the
  /// architecture's clock: nominal, psi and the utilisation resource).
  bool clock_degradation = false;
  /// Write each task's time as a table over its per-kind CU totals, one
  /// binary per entry (a MILP GLPK proves), instead of the rate row.
  /// The bounds keep the tables small and the model exact: entries slower
  /// than ii_upper_bound_ms (the II of a mapping feasible under these
  /// options) cannot be in a better mapping, and one CU fewer as fast as
  /// execution_lower_bound_ms (at most every mapping's T_exe, e.g. the
  /// compute-only optimum) replaces an entry without costing anything.
  bool tabulate = false;
  std::optional<double> execution_lower_bound_ms, ii_upper_bound_ms;
  /// Most per-kind CU totals a tabulated task may have (before pruning);
  /// a larger table is refused rather than built slowly.
  long max_table = 200000;

  /// The cap of a one-kind platform's devices.
  auto& cap() requires(sizeof...(Rs) == 1) { return std::get<0>(caps); }
  const auto& cap() const requires(sizeof...(Rs) == 1) { return std::get<0>(caps); }
};

struct MappingModel {
  Model model;
  Variable<dim::time> execution;     // T_exe (ms); equals II for compute_only; absent with bound rows or tables
  Real<dim::time> ii;                // II (ms): with transfers, bound rows or tables
  /// Execution bounded by tables of N_k (memory_time, clock_degradation):
  /// one affine term per kernel and no `execution` variable.
  std::vector<Affine<dim::time>> execution_bounds;
  Affine<dim::time> host_to_device;  // empty for compute_only
  Affine<dim::time> device_to_host;
  std::vector<Discrete<>> total;                // N_k
  std::vector<std::vector<Discrete<>>> cus;     // n_kd
  std::vector<std::vector<Discrete<>>> placed;  // alpha_kd (transfer models only)
  std::vector<std::vector<Discrete<>>> choice;  // z_kc (tabulated only)
  Real<> spreading;                             // phi (beta > 0 only)
  bool has_spreading = false;
  bool tabulated = false;
  Schedule schedule = Schedule::compute_only;

  /// The initiation interval at a solution: the II variable's value (the
  /// execution variable's for compute_only with neither bound rows nor tables).
  Constant<dim::time> initiation_interval(const Solution& s) const {
    const bool execution_is_ii = schedule == Schedule::compute_only && execution_bounds.empty() && !tabulated;
    return Constant<dim::time>(execution_is_ii ? s.value(execution) * execution.si_scale() : s.value(ii) * ii.si_scale());
  }

  /// The compute units of a solution, rounded to the integers they are.
  Mapping mapping(const Solution& s) const { return detail::solution_mapping(cus, s); }
};

}  // namespace ychart::pipeline

// The two formulations, which fill the types above.
#include "detail/device_groups_model.hpp"
#include "detail/identical_devices_model.hpp"

namespace ychart::pipeline {

/// Builds the model of mapping `app` onto `platform`: on one kind of device
/// (unless `tabulate`), the identical-devices model; otherwise the
/// device-groups model. Throws model_error when a task fits no device, a
/// schedule needs bandwidths the platform lacks, or an option needs
/// identical devices.
template <ResourceRecord... Rs>
MappingModel build_mapping_model(const Application<Rs...>& app, const Platform<Rs...>& platform,
                                 const MappingModelOptions<Rs...>& options = {}) {
  if constexpr (sizeof...(Rs) == 1)
    if (!options.tabulate) return detail::IdenticalDevicesModel<Rs...>(app, platform, options).build();
  return detail::build_device_groups_model(app, platform, options);
}

// The instances for the platforms ychart's examples and tests use (FPGAs
// alone; FPGAs and GPUs), compiled once in ychart's compiled part
// (impl/src_pipeline.hpp); header-only, or for other records, the templates
// above are instantiated where they are used.
#define YCHART_DSE_MAPPING_MODEL_INSTANCES(EXTERN, ...) \
  EXTERN template MappingModel build_mapping_model<__VA_ARGS__>(const Application<__VA_ARGS__>&, const Platform<__VA_ARGS__>&, const MappingModelOptions<__VA_ARGS__>&);
#if !YCHART_HEADER_ONLY
YCHART_DSE_MAPPING_MODEL_INSTANCES(extern, FpgaResources)
YCHART_DSE_MAPPING_MODEL_INSTANCES(extern, FpgaResources, GpuResources)
#endif

}  // namespace ychart::pipeline
