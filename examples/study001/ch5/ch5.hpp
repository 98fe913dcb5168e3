// examples/study001/ch5/ch5.hpp
// Study 001, chapters 5 and 6 (J. Shan, PhD thesis, Politecnico di Torino,
// The computations behind the example (main.cpp) and the benchmark
// (benchmarks/bench_study001.cpp): one sweep point per call.
#pragma once

#include "../common/study.hpp"
#include "../common/thesis_heuristics.hpp"
#include <cmath>
#include <filesystem>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

namespace study001::ch5 {

using namespace ychart;
using namespace ychart::dse;
using study001::App;
using study001::Arch;
using study001::not_a_number;

struct Case {
  std::string id, title, file;
  std::vector<double> ii_ms;  // the II_max grid
};

inline const std::vector<Case> cases = {
    {"alex16", "AlexNet-16 (Table 5.3)", "ch5_alex16.csv", {0.8, 1.0, 1.2, 1.4, 1.6, 2.0, 2.5, 3.0, 4.0, 5.16}},
    {"alex32", "AlexNet-32 (Table 5.2)", "ch5_alex32.csv", {2, 3, 4, 5, 6, 8, 10, 13}},
    {"vgg16", "VGG-16 (Table 5.4)", "ch5_vgg16.csv", {10, 15, 20, 30, 40, 67.8}},
    {"transformer16", "Transformer-16 (Table 6.1, one stage per type)", "ch6_transformer16.csv", {2, 3, 4, 6, 8, 16.8}},
};

struct Point {
  double ii_ms = 0;
  int f_min = 0, h2_fpgas = 0;
  double h2_power = not_a_number, bound = not_a_number, gap = not_a_number, seconds = not_a_number;
  double device_static = not_a_number, memory_static = not_a_number, compute = not_a_number, memory_transfer = not_a_number, memory_execution = not_a_number;
  double transfers_ms = not_a_number;
  Mapping mapping;
};

/// The chapter-5 timing: transfers overlap execution, no DDR-to-DDR transfers.
inline EvaluationOptions<FpgaResources> transfer_model() {
  EvaluationOptions<FpgaResources> o;
  o.model.schedule = Schedule::double_buffered;
  o.model.locality = false;
  return o;
}

/// The same, run at `ii_ms` and priced (eqs. 5.13-5.22).
inline EvaluationOptions<FpgaResources> power_model(double ii_ms) {
  auto o = transfer_model();
  o.operating_ii = ii_ms * units::ms;
  return o;
}

inline Arch with_devices(Arch a, std::size_t devices) {
  a.devices = static_cast<int>(devices);
  return a;
}

/// Power no mapping at this II can go below: the F_min devices' static
/// power, and the energy every mapping spends -- each kernel's compute
/// (P_k T_wc,k whatever N_k and clocks; study 001 sec. 4.3), its input
/// written to DDR at least once and its output read once.
inline double power_bound(const App& app, const Arch& arch, int f_min, double ii_s) {
  double energy = 0;
  const auto& mem = arch.kind.memory;
  for (const auto& k : app.kernels())
    energy += k.power.value() * k.wcet.value() +
              mem.full_write_power.value() * k.ddr.host_write * k.ddr.host_write_time.value() +
              mem.full_read_power.value() * k.ddr.host_read * k.ddr.host_read_time.value();
  return f_min * (arch.kind.static_power.value() + mem.static_power.value()) + energy / ii_s;
}

inline Point solve_point(const App& app, const Arch& arch, double ii_ms) {
  Point p;
  p.ii_ms = ii_ms;
  std::vector<double> twc;
  std::vector<shan2021::PackItem> items;
  for (const auto& k : app.kernels()) {
    twc.push_back(k.wcet.in(units::ms));
    items.push_back({resource_values(k.use)});
  }
  const auto cap = resource_values(arch.kind.capacity);
  const std::size_t dsp = 1;  // FpgaResources{bram, dsp, ...}: the thesis packs by DSP
  p.f_min = shan2021::f_min(items, shan2021::cu_min(twc, ii_ms), cap);
  auto transfers = [&](const shan2021::Allocation& n) {
    const auto e = evaluate(app, with_devices(arch, n.front().size()), Mapping{n, {}}, transfer_model());
    return (e.host_to_device + e.device_to_host).in(units::ms);
  };
  auto power = [&](const shan2021::Allocation& n) {
    const auto e = evaluate(app, with_devices(arch, n.front().size()), Mapping{n, {}}, power_model(ii_ms));
    return e.feasible ? e.power->total.value() : std::numeric_limits<double>::infinity();
  };
  std::optional<shan2021::H2Result> h2;
  p.seconds = study001::seconds(
      [&] { h2 = shan2021::h2_allocate(twc, items, dsp, cap, ii_ms, arch.devices, transfers, power); });
  p.bound = power_bound(app, arch, p.f_min, ii_ms * 1e-3);
  if (!h2 || !std::isfinite(h2->power)) return p;
  p.h2_fpgas = h2->fpgas;
  p.mapping = Mapping{h2->n, {}};
  const auto e = evaluate(app, with_devices(arch, h2->n.front().size()), p.mapping, power_model(ii_ms));
  p.h2_power = e.power->total.value();
  p.device_static = e.power->device_static.value();
  p.memory_static = e.power->memory_static.value();
  p.compute = e.power->compute.value();
  p.memory_transfer = e.power->memory_transfer.value();
  p.memory_execution = e.power->memory_execution.value();
  p.transfers_ms = (e.host_to_device + e.device_to_host).in(units::ms);
  p.gap = (p.h2_power - p.bound) / p.h2_power;
  return p;
}

}  // namespace study001::ch5
