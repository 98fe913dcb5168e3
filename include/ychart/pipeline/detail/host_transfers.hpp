// ychart/pipeline/detail/host_transfers.hpp
// What a fixed mapping sends between host and devices per run, and how the
// schedule combines transfers and execution into the initiation interval
// (study 001 eqs. 4.5-4.15 with locality, 5.5 and 5.9-5.12 without). One
// definition for the evaluators of one-kind and heterogeneous platforms.
#pragma once

#include "../mapping.hpp"
#include "task_graph.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace ychart::pipeline::detail {

struct HostTraffic {
  double to_device = 0.0;  // bytes
  double to_host = 0.0;
};

/// A kernel's input goes to every device holding its CUs (duplicated),
/// unless each incoming edge is local -- both ends entirely on one device;
/// its output comes back once (split between the CUs) unless each outgoing
/// edge is local. `app` is any task graph whose kernels have data_in and
/// data_out. A mapping with fewer rows than `app` has tasks is a partial
/// placement (the first rows are placed): the traffic returned is then what
/// every completion of it sends -- an edge counts when it is remote however
/// the rest is placed, and a task not placed yet counts one copy of its input.
template <class Graph>
HostTraffic host_traffic(const Graph& app, const Mapping& m, bool locality) {
  const std::size_t K = app.size(), F = m.devices(), placed = std::min(K, m.cus.size());
  auto copies = [&](std::size_t k) {
    if (k >= placed) return std::ptrdiff_t{1};
    return std::count_if(m.cus[k].begin(), m.cus[k].end(), [](int n) { return n > 0; });
  };
  auto edge_local = [&](const Edge& ed) {
    if (ed.from >= placed || ed.to >= placed) return copies(ed.from) == 1 && copies(ed.to) == 1;
    for (std::size_t f = 0; f < F; ++f)
      if (m.cus[ed.from][f] == m.total(ed.from) && m.cus[ed.to][f] == m.total(ed.to)) return true;
    return false;
  };
  std::vector<bool> local(app.edges().size(), false);
  for (std::size_t i = 0; i < app.edges().size(); ++i) local[i] = locality && edge_local(app.edges()[i]);
  auto all_local = [&](const std::vector<std::size_t>& edges) {
    if (edges.empty()) return false;
    for (auto i : edges)
      if (!local[i]) return false;
    return true;
  };
  HostTraffic t;
  for (std::size_t k = 0; k < K; ++k) {
    const auto& kn = app.kernel(k);
    if (!all_local(app.incoming(k))) t.to_device += double(copies(k)) * kn.data_in.value();
    if (!all_local(app.outgoing(k))) t.to_host += kn.data_out.value();
  }
  return t;
}

/// The initiation interval of a run whose phases take these times (s).
inline double initiation_interval(Schedule s, double host_to_device, double execution, double device_to_host) {
  switch (s) {
    case Schedule::compute_only: return execution;
    case Schedule::sequential_phases: return host_to_device + execution + device_to_host;
    case Schedule::double_buffered: return std::max(host_to_device + device_to_host, execution);
  }
  return execution;
}

}  // namespace ychart::pipeline::detail
