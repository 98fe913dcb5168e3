// ychart/dse/mapping_model.hpp
// The mapping as an optimisation model: integer compute units of every
// kernel on every device, the per-device resource caps generated for every
// member of the kind's resource record, and the KPI expressions the
// objective and constraints are written in -- initiation interval,
// spreading, transfer times, devices holding each kernel. Built on a
// ychart::Model, so users add their own constraints and solve it with any
// method; mapping() reads the solution back as a dse::Mapping that
// evaluate() prices exactly.
//
// What the model contains (study 001's equation numbers):
//   N_k = sum_f n_kf >= 1 (3.3, 3.8); sum_k n_kf R_kt <= cap_t (3.9, 3.10, 4.4);
//   T_exe >= WCET_k / N_k (3.1, 3.6); spreading phi >= sum_f n/(1+n) (3.4, 3.7);
//   with transfers: alpha_kf = [n_kf > 0], edge e local when both ends sit
//   entirely on one device, host-to-device = sum_k (alpha_k - a_k) DI_k / B,
//   device-to-host = sum_k (1 - b_k) DO_k / B (4.6-4.15, exactly linearised:
//   a_k = 1 forces alpha_k = 1); II = sum of the phases (4.5) or the max of
//   transfers and execution (5.5).
// The execution time here is each kernel at its own clock without memory
// contention or degradation: those only slow a mapping down, so this model's
// optimum is a lower bound on the full model's II, and evaluate() gives the
// full model's II of the mapping it returns.
#pragma once

#include "application.hpp"
#include "architecture.hpp"
#include "mapping.hpp"
#include "resources.hpp"

#include "../error.hpp"
#include "../expr/functions.hpp"
#include "../expr/operators.hpp"
#include "../model/model.hpp"
#include "../result/solution.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace ychart::dse {

/// What to optimise and which effects to include.
template <ResourceRecord R>
struct MappingModelOptions {
  /// Per-device cap on each resource; empty: the device's capacity.
  std::optional<R> cap;
  Schedule schedule = Schedule::compute_only;
  /// Co-located consecutive kernels keep their data on the device.
  bool locality = true;
  /// Objective alpha * II[ms] + beta * spreading; beta = 0 leaves the
  /// spreading out of the model.
  double alpha = 1.0;
  double beta = 0.0;
  /// Declared upper bound of every CU count; the solver derives tight ones.
  int max_cus = 1000;
};

template <ResourceRecord R>
struct MappingModel {
  Model model;
  Variable<dim::time> execution;     // T_exe (ms); equals II for compute_only
  Real<dim::time> ii;                // II (ms), transfers included; unused for compute_only
  Affine<dim::time> host_to_device;  // empty for compute_only
  Affine<dim::time> device_to_host;
  std::vector<Discrete<>> total;                // N_k
  std::vector<std::vector<Discrete<>>> cus;     // n_kf
  std::vector<std::vector<Discrete<>>> placed;  // alpha_kf (transfer models only)
  Real<> spreading;                             // phi (beta > 0 only)
  bool has_spreading = false;
  Schedule schedule = Schedule::compute_only;

  /// The II variable of the model as a value in ms.
  double ii_ms(const Solution& s) const {
    return schedule == Schedule::compute_only ? s.value(execution) : s.value(ii);
  }

  /// The compute units of a solution, rounded to the integers they are.
  Mapping mapping(const Solution& s) const {
    Mapping m;
    m.cus.resize(cus.size());
    for (std::size_t k = 0; k < cus.size(); ++k)
      for (const auto& n : cus[k]) m.cus[k].push_back(static_cast<int>(std::lround(s.value(n))));
    return m;
  }
};

/// Builds the model of mapping `app` onto `arch`.
template <ResourceRecord R>
MappingModel<R> build_mapping_model(const Application<R>& app, const Architecture<R>& arch,
                                    const MappingModelOptions<R>& options = {}) {
  arch.validate();
  if (app.size() == 0) throw model_error("ychart: application '" + app.name() + "' has no kernel");
  MappingModel<R> mm;
  auto& m = mm.model;
  mm.schedule = options.schedule;
  const std::size_t K = app.size(), F = static_cast<std::size_t>(arch.devices);
  const int M = options.max_cus;
  const auto names = resource_names<R>();
  const auto cap = resource_values(options.cap ? *options.cap : arch.kind.capacity);
  const bool transfers = options.schedule != Schedule::compute_only;
  if (transfers && !(arch.host_to_device.bandwidth.value() > 0.0 && arch.device_to_host.bandwidth.value() > 0.0))
    throw model_error("ychart: the " + to_string(options.schedule) +
                      " schedule needs the host-to-device and device-to-host bandwidths");

  mm.execution = m.positive(transfers ? "T_exe" : "II", units::ms);
  mm.cus.resize(K);
  for (std::size_t k = 0; k < K; ++k) {
    const auto& kn = app.kernel(k);
    const std::string id = kn.name + "#" + std::to_string(k);
    mm.total.push_back(m.integer("N_" + id, 1, M));
    Affine<> sum;
    for (std::size_t f = 0; f < F; ++f) {
      mm.cus[k].push_back(m.integer("n_" + id + "_" + std::to_string(f + 1), 0, M));
      sum += mm.cus[k].back();
    }
    m.subject_to(mm.total[k] == sum);
    m.subject_to(mm.execution >= kn.wcet / mm.total[k]);
  }
  for (std::size_t f = 0; f < F; ++f)
    for (std::size_t t = 0; t < names.size(); ++t) {
      Affine<> use;
      bool any = false;
      for (std::size_t k = 0; k < K; ++k)
        if (const double r = resource_at(app.kernel(k).use, t); r > 0) use += r * mm.cus[k][f], any = true;
      if (any) m.subject_to(use <= cap[t], names[t] + "_" + std::to_string(f + 1));
    }
  std::vector<std::vector<Discrete<>>> devices(F);
  for (std::size_t f = 0; f < F; ++f)
    for (std::size_t k = 0; k < K; ++k) devices[f].push_back(mm.cus[k][f]);

  if (transfers) {
    const double hp = arch.host_to_device.bandwidth.value(), dh = arch.device_to_host.bandwidth.value();
    mm.placed.resize(K);
    std::vector<Affine<>> spread(K);  // alpha_k
    for (std::size_t k = 0; k < K; ++k)
      for (std::size_t f = 0; f < F; ++f) {
        mm.placed[k].push_back(m.binary("alpha_" + app.kernel(k).name + "#" + std::to_string(k) + "_" +
                                        std::to_string(f + 1)));
        m.subject_to(mm.cus[k][f] <= double(M) * mm.placed[k][f]);
        spread[k] += mm.placed[k][f];
        devices[f].push_back(mm.placed[k][f]);
      }
    // Edge e is local when some device holds all CUs of both its ends.
    std::vector<Affine<>> local(app.edges().size());
    if (options.locality)
      for (std::size_t e = 0; e < app.edges().size(); ++e) {
        const auto& ed = app.edges()[e];
        Affine<> one_device;
        for (std::size_t f = 0; f < F; ++f) {
          auto w = m.binary("local_" + std::to_string(e) + "_" + std::to_string(f + 1));
          m.subject_to(mm.cus[ed.from][f] >= mm.total[ed.from] - double(M) * (1 - w));
          m.subject_to(mm.cus[ed.to][f] >= mm.total[ed.to] - double(M) * (1 - w));
          one_device += w;
        }
        m.subject_to(one_device <= 1.0);
        local[e] = one_device;
      }
    for (std::size_t k = 0; k < K; ++k) {
      const auto& kn = app.kernel(k);
      const auto in = app.incoming(k), out = app.outgoing(k);
      // a_k (b_k): every incoming (outgoing) edge is local.
      Affine<> input_local, output_local;
      if (options.locality && !in.empty()) {
        auto a = m.binary("input_local_" + kn.name + "#" + std::to_string(k));
        for (auto e : in) m.subject_to(a <= local[e]);
        input_local = a;
      }
      if (options.locality && !out.empty()) {
        auto b = m.binary("output_local_" + kn.name + "#" + std::to_string(k));
        for (auto e : out) m.subject_to(b <= local[e]);
        output_local = b;
      }
      // alpha_k (1 - a_k) = alpha_k - a_k, exactly: a_k = 1 puts every CU on one device.
      mm.host_to_device += (spread[k] - input_local) * Constant<dim::time>(kn.data_in.value() / hp);
      mm.device_to_host += (1.0 - output_local) * Constant<dim::time>(kn.data_out.value() / dh);
    }
    mm.ii = m.real("II", units::ms, 0.0);
    if (options.schedule == Schedule::sequential_phases) {
      m.subject_to(mm.execution <= mm.ii - mm.host_to_device - mm.device_to_host, "II");
    } else {
      m.subject_to(mm.execution <= mm.ii, "II_execution");
      m.subject_to(mm.host_to_device + mm.device_to_host <= mm.ii, "II_transfers");
    }
  }
  m.interchangeable(devices);

  if (options.beta > 0) {
    mm.has_spreading = true;
    mm.spreading = m.real("phi", 0, double(F));
    for (std::size_t k = 0; k < K; ++k) {
      Affine<> phi_k;
      for (std::size_t f = 0; f < F; ++f) phi_k += tabulate(mm.cus[k][f], [](double n) { return n / (1.0 + n); });
      m.subject_to(phi_k <= mm.spreading);
    }
  }
  if (!transfers) {
    if (mm.has_spreading) m.minimize(options.alpha * (mm.execution / units::ms) + options.beta * mm.spreading);
    else m.minimize(mm.execution);
  } else {
    if (mm.has_spreading) m.minimize(options.alpha * (mm.ii / units::ms) + options.beta * mm.spreading);
    else m.minimize(mm.ii);
  }
  return mm;
}

}  // namespace ychart::dse
