// ychart/pipeline/detail/transfer_rows.hpp
// The host-transfer part of every mapping model (study 001 eqs. 4.6-4.15):
// placement binaries alpha_kf = [n_kf > 0], edge e local when one device
// holds all CUs of both its ends, and the transfer times
//   host-to-device = sum_k (alpha_k - a_k) DI_k / B,
//   device-to-host = sum_k (1 - b_k) DO_k / B,
// with a_k (b_k) = every incoming (outgoing) edge local -- exact, as a_k = 1
// forces alpha_k = 1. Shared by the one-kind and heterogeneous models; the
// task graph only needs kernels with name, data_in and data_out.
#pragma once

#include "../../expr/operators.hpp"
#include "../../model/model.hpp"
#include "../../units/unit.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace ychart::pipeline::detail {

/// alpha_kf with n_kf <= bound[k][f] alpha_kf.
template <class Graph>
std::vector<std::vector<Discrete<>>> add_placement(Model& m, const Graph& app,
                                                   const std::vector<std::vector<Discrete<>>>& cus,
                                                   const std::vector<std::vector<int>>& bound) {
  std::vector<std::vector<Discrete<>>> placed(app.size());
  for (std::size_t k = 0; k < app.size(); ++k)
    for (std::size_t f = 0; f < cus[k].size(); ++f) {
      placed[k].push_back(m.binary("alpha_" + app.kernel(k).name + "#" + std::to_string(k) + "_" + std::to_string(f + 1)));
      m.subject_to(cus[k][f] <= double(std::max(bound[k][f], 0)) * placed[k][f]);
    }
  return placed;
}

/// One task's host transfers, one copy each way, in seconds: its input to
/// a device (DI_k / B) and its output back (DO_k / B). The mapping models'
/// transfer rows and the scaled-clock power model both price with it.
struct TaskTransferSeconds {
  double to_device = 0, to_host = 0;
};

template <class Kernel>
TaskTransferSeconds task_transfer_seconds(const Kernel& kn, double to_device_bandwidth, double to_host_bandwidth) {
  return {kn.data_in.value() / to_device_bandwidth, kn.data_out.value() / to_host_bandwidth};
}

struct TransferTimes {
  Affine<dim::time> host_to_device, device_to_host;
};

/// The locality binaries and the two transfer times; most_cus[k] bounds N_k
/// (the big-M of the locality rows), bandwidths in bytes per second.
template <class Graph>
TransferTimes add_transfer_rows(Model& m, const Graph& app, const std::vector<std::vector<Discrete<>>>& cus,
                                const std::vector<Discrete<>>& total,
                                const std::vector<std::vector<Discrete<>>>& placed,
                                const std::vector<int>& most_cus, bool locality, double to_device_bandwidth,
                                double to_host_bandwidth) {
  const std::size_t K = app.size(), F = K ? cus.front().size() : 0;
  std::vector<Affine<>> local(app.edges().size());
  if (locality)
    for (std::size_t e = 0; e < app.edges().size(); ++e) {
      const auto& ed = app.edges()[e];
      Affine<> one_device;
      for (std::size_t f = 0; f < F; ++f) {
        auto w = m.binary("local_" + std::to_string(e) + "_" + std::to_string(f + 1));
        m.subject_to(cus[ed.from][f] >= total[ed.from] - double(most_cus[ed.from]) * (1 - w));
        m.subject_to(cus[ed.to][f] >= total[ed.to] - double(most_cus[ed.to]) * (1 - w));
        m.subject_to(w <= placed[ed.from][f]);
        m.subject_to(w <= placed[ed.to][f]);
        one_device += w;
      }
      m.subject_to(one_device <= 1.0);
      local[e] = one_device;
    }
  TransferTimes out;
  for (std::size_t k = 0; k < K; ++k) {
    const auto& kn = app.kernel(k);
    const auto in = app.incoming(k), outgoing = app.outgoing(k);
    Affine<> spread;  // alpha_k
    for (std::size_t f = 0; f < F; ++f) spread += placed[k][f];
    Affine<> input_local, output_local;
    if (locality && !in.empty()) {
      auto a = m.binary("input_local_" + kn.name + "#" + std::to_string(k));
      for (auto e : in) m.subject_to(a <= local[e]);
      input_local = a;
    }
    if (locality && !outgoing.empty()) {
      auto b = m.binary("output_local_" + kn.name + "#" + std::to_string(k));
      for (auto e : outgoing) m.subject_to(b <= local[e]);
      output_local = b;
    }
    const auto seconds = task_transfer_seconds(kn, to_device_bandwidth, to_host_bandwidth);
    out.host_to_device += (spread - input_local) * Constant<dim::time>(seconds.to_device);
    out.device_to_host += (1.0 - output_local) * Constant<dim::time>(seconds.to_host);
  }
  return out;
}

}  // namespace ychart::pipeline::detail
