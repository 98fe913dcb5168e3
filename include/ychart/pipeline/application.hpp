// ychart/pipeline/application.hpp
// The application side of the Y-chart: kernels (pipeline stages or tasks)
// with typed attributes -- single-compute-unit latency, data in and out,
// per-resource use of one compute unit, DDR traffic and power -- and edges
// carrying data between them. A linear pipeline is the graph whose edges
// join consecutive stages; Application::pipeline() builds it.
#pragma once

#include "detail/task_graph.hpp"
#include "resources.hpp"

#include "../error.hpp"
#include "../expr/expression.hpp"
#include "../units/unit.hpp"

#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace ychart::pipeline {

/// What moves between DDR and the host or inside DDR for one kernel; the
/// fractions are of the DDR's full bandwidth (1 = all of it). Used by power
/// models; all zero when a study does not model DDR power.
struct DdrTraffic {
  double host_write = 0.0;                // DDR written by host-to-device transfers (Bw_k)
  double host_read = 0.0;                 // DDR read by device-to-host transfers (Br_k)
  Constant<dim::time> host_write_time{};  // duration of that transfer (tw_k)
  Constant<dim::time> host_read_time{};   // (tr_k)
  double cu_write = 0.0;                  // DDR written by one CU while executing (bw_k)
  double cu_read = 0.0;                   // DDR read by one CU while executing (br_k)
};

/// One kernel: a pipeline stage or a task. Stages of one `type` are
/// identical hardware (a table row serving several layers).
template <ResourceRecord R>
struct Kernel {
  std::string name;
  std::string type;                 // empty: its own type
  R use{};                          // one compute unit, in the kind's units (% for FPGAs)
  Constant<dim::time> wcet{};       // latency with one compute unit at `clock`
  Constant<dim::data> data_in{};    // non-constant input per run (DI_k)
  Constant<dim::data> data_out{};   // output per run (DO_k)
  Constant<dim::data> constants{};  // weights, sent once at initialisation (C_k)
  double input_scaling = 1.0;       // delta_k: share of the input split between CUs
  double constant_scaling = 1.0;    // gamma_k: share of the constants split between CUs
  int read_ports = 0;               // AXI ports only reading (r_k)
  int write_ports = 0;              // AXI ports only writing (w_k)
  int read_write_ports = 1;         // AXI ports reading and writing (rw_k)
  Constant<dim::frequency> clock{};  // clock at which wcet was measured (F1_k); 0: the platform's nominal
  Constant<dim::power> power{};      // dynamic power of one CU at the nominal clock (P_k)
  DdrTraffic ddr{};

  const std::string& type_name() const { return type.empty() ? name : type; }
};

/// Kernels plus edges. Kernel order is pipeline order for pipelines.
template <ResourceRecord R>
class Application : public detail::TaskGraph<Kernel<R>> {
 public:
  using detail::TaskGraph<Kernel<R>>::TaskGraph;

  /// A linear pipeline: edge k-1 -> k carries kernel k's input.
  static Application pipeline(std::string name, std::vector<Kernel<R>> stages) {
    Application a(std::move(name));
    for (auto& s : stages) a.add(std::move(s));
    a.chain();
    return a;
  }

  /// Adds a kernel; returns its index.
  std::size_t add(Kernel<R> k) {
    validate(k);
    return this->push(std::move(k));
  }

 private:
  void validate(const Kernel<R>& k) const {
    auto bad = [&](const std::string& what) {
      throw model_error("ychart: kernel '" + k.name + "' of application '" + this->name() + "': " + what, k.name);
    };
    if (!(k.wcet.value() > 0.0) || !std::isfinite(k.wcet.value())) bad("wcet must be positive and finite");
    for_each_resource(k.use, [&](std::string_view r, double v) {
      if (!(v >= 0.0) || !std::isfinite(v)) bad("use of " + std::string(r) + " must be finite and not negative");
    });
    for (double d : {k.data_in.value(), k.data_out.value(), k.constants.value(), k.power.value(), k.clock.value()})
      if (!(d >= 0.0) || !std::isfinite(d)) bad("data volumes, power and clock must be finite and not negative");
    if (k.input_scaling < 0 || k.input_scaling > 1 || k.constant_scaling < 0 || k.constant_scaling > 1)
      bad("input_scaling and constant_scaling must lie in [0, 1]");
    if (k.read_ports < 0 || k.write_ports < 0 || k.read_write_ports < 0) bad("port counts must not be negative");
    for (double share : {k.ddr.host_write, k.ddr.host_read, k.ddr.cu_write, k.ddr.cu_read})
      if (!(share >= 0.0 && share <= 1.0)) bad("DDR bandwidth shares must lie in [0, 1]");
    for (double t : {k.ddr.host_write_time.value(), k.ddr.host_read_time.value()})
      if (!(t >= 0.0) || !std::isfinite(t)) bad("DDR transfer times must be finite and not negative");
  }
};

namespace detail {

/// Each kernel's use of one CU, as numbers in R's member order (what the
/// evaluator and the resource rows read).
template <ResourceRecord R>
std::vector<std::vector<double>> kernel_uses(const Application<R>& app) {
  std::vector<std::vector<double>> use;
  for (const auto& k : app.kernels()) use.push_back(resource_values(k.use));
  return use;
}

}  // namespace detail

}  // namespace ychart::pipeline
