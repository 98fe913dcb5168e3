// ychart/pipeline/application.hpp
// The application side of the Y-chart: tasks (pipeline stages or kernels)
// and the edges carrying data between them. A task says once what it moves
// (data in and out, constants, how they split between compute units) and,
// per device kind of the platform, how it runs there -- one compute unit's
// latency, resource use in that kind's record, dynamic power, and for study
// 001's FPGA kernels their clock, memory ports and DDR traffic -- or that it
// cannot run there. Application<FpgaResources> is an application for
// identical FPGAs; Application<FpgaResources, GpuResources> one whose tasks
// may run on FPGAs or GPUs. task.with(impl) files an implementation under
// its record's kind, and one for a kind the task does not list does not
// compile. A linear pipeline is the graph whose edges join consecutive
// stages; Application::pipeline() builds it.
#pragma once

#include "detail/task_graph.hpp"
#include "resources.hpp"

#include "../error.hpp"
#include "../expr/expression.hpp"
#include "../units/unit.hpp"

#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
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

/// How one task runs on one device kind. The first three members are all
/// most models need; the rest are study 001's FPGA-kernel details, read by
/// the chapter-4 timing (clock, ports) and the chapter-5 power (DDR traffic)
/// and left at their defaults elsewhere.
template <ResourceRecord R>
struct Implementation {
  R use{};                           // one compute unit, in the kind's units (% for FPGAs)
  Constant<dim::time> wcet{};        // latency of the whole task with one compute unit at `clock`
  Constant<dim::power> power{};      // dynamic power of one busy compute unit at the nominal clock (P_k)
  Constant<dim::frequency> clock{};  // clock at which wcet was measured (F1_k); 0: the kind's nominal
  int read_ports = 0;                // AXI ports only reading (r_k)
  int write_ports = 0;               // AXI ports only writing (w_k)
  int read_write_ports = 1;          // AXI ports reading and writing (rw_k)
  DdrTraffic ddr{};

  int reading_ports() const { return read_ports + read_write_ports; }  // x_k in eqs. 4.19-4.21
  int writing_ports() const { return write_ports + read_write_ports; }  // y_k in eqs. 4.23-4.25
};

/// One task; `on` lists its implementation per device kind (std::nullopt:
/// it cannot run on that kind). Tasks of one `type` are identical hardware
/// (a table row serving several layers).
template <ResourceRecord... Rs>
struct Task {
  std::string name{};
  std::string type{};               // empty: its own type
  Constant<dim::data> data_in{};    // non-constant input per run, sent to every device that runs part of it (DI_k)
  Constant<dim::data> data_out{};   // output per run, split between the devices (DO_k)
  Constant<dim::data> constants{};  // weights, sent once at initialisation (C_k)
  double input_scaling = 1.0;       // delta_k: share of the input split between CUs
  double constant_scaling = 1.0;    // gamma_k: share of the constants split between CUs
  std::tuple<std::optional<Implementation<Rs>>...> on{};

  const std::string& type_name() const { return type.empty() ? name : type; }
  template <std::size_t G>
  const std::optional<Implementation<std::tuple_element_t<G, std::tuple<Rs...>>>>& implementation() const {
    return std::get<G>(on);
  }
  /// The implementation of a task for one device kind (Task<R>); created
  /// empty on first write.
  auto& implementation() requires(sizeof...(Rs) == 1) {
    auto& impl = std::get<0>(on);
    if (!impl) impl.emplace();
    return *impl;
  }
  const auto& implementation() const requires(sizeof...(Rs) == 1) {
    const auto& impl = std::get<0>(on);
    if (!impl) throw model_error("ychart: task '" + name + "' has no implementation", name);
    return *impl;
  }
  /// Gives the task an implementation on the kind whose record is R.
  template <ResourceRecord R>
  Task& with(Implementation<R> impl) {
    constexpr int kinds_with_record = (0 + ... + int(std::is_same_v<R, Rs>));
    static_assert(kinds_with_record > 0,
                  "ychart: the platform has no device kind with this resource record; implement the task on one of "
                  "the kinds in Task<...> (its template arguments), or add the kind to Task and Platform");
    static_assert(kinds_with_record < 2,
                  "ychart: several device kinds share this resource record; set the implementation by position: "
                  "std::get<G>(task.on) = impl");
    std::get<std::optional<Implementation<R>>>(on) = std::move(impl);
    return *this;
  }
  /// Whether it runs on kind g.
  bool runs_on(std::size_t g) const {
    bool out = false;
    std::size_t i = 0;
    std::apply([&](const auto&... impl) { ((out = out || (i++ == g && impl.has_value())), ...); }, on);
    return out;
  }
};

/// Tasks plus edges, for a Platform<Rs...>. Task order is pipeline order
/// for pipelines.
template <ResourceRecord... Rs>
class Application : public detail::TaskGraph<Task<Rs...>> {
 public:
  static_assert(sizeof...(Rs) >= 1, "ychart: an application needs at least one device kind");
  using detail::TaskGraph<Task<Rs...>>::TaskGraph;

  /// A linear pipeline: edge k-1 -> k carries task k's input.
  static Application pipeline(std::string name, std::vector<Task<Rs...>> stages) {
    Application a(std::move(name));
    for (auto& s : stages) a.add(std::move(s));
    a.chain();
    return a;
  }

  /// Adds a task; returns its index.
  std::size_t add(Task<Rs...> t) {
    validate(t);
    return this->push(std::move(t));
  }

 private:
  void validate(const Task<Rs...>& t) const {
    auto bad = [&](const std::string& what) {
      throw model_error("ychart: task '" + t.name + "' of application '" + this->name() + "': " + what, t.name);
    };
    for (double d : {t.data_in.value(), t.data_out.value(), t.constants.value()})
      if (!(d >= 0.0) || !std::isfinite(d)) bad("data volumes must be finite and not negative");
    if (!(t.input_scaling >= 0 && t.input_scaling <= 1) || !(t.constant_scaling >= 0 && t.constant_scaling <= 1))
      bad("input_scaling and constant_scaling must lie in [0, 1]");
    bool runs = false;
    std::apply([&](const auto&... impl) { ((runs = runs || impl.has_value()), ...); }, t.on);
    if (!runs) bad("it has no implementation on any device kind");
    std::apply(
        [&](const auto&... impl) {
          auto check = [&](const auto& i) {
            if (i) validate(*i, bad);
          };
          (check(impl), ...);
        },
        t.on);
  }

  template <ResourceRecord R, class Bad>
  static void validate(const Implementation<R>& i, Bad&& bad) {
    if (!(i.wcet.value() > 0.0) || !std::isfinite(i.wcet.value())) bad("wcet must be positive and finite");
    for_each_resource(i.use, [&](std::string_view r, double v) {
      if (!(v >= 0.0) || !std::isfinite(v)) bad("use of " + std::string(r) + " must be finite and not negative");
    });
    for (double d : {i.power.value(), i.clock.value()})
      if (!(d >= 0.0) || !std::isfinite(d)) bad("power and clock must be finite and not negative");
    if (i.read_ports < 0 || i.write_ports < 0 || i.read_write_ports < 0) bad("port counts must not be negative");
    for (double share : {i.ddr.host_write, i.ddr.host_read, i.ddr.cu_write, i.ddr.cu_read})
      if (!(share >= 0.0 && share <= 1.0)) bad("DDR bandwidth shares must lie in [0, 1]");
    for (double t : {i.ddr.host_write_time.value(), i.ddr.host_read_time.value()})
      if (!(t >= 0.0) || !std::isfinite(t)) bad("DDR transfer times must be finite and not negative");
  }
};

}  // namespace ychart::pipeline
