// study001/ch5/ch5.cpp
// Definitions of ch5.hpp, compiled once (the ychart_studies library).
#include "study001/ch5/ch5.hpp"

namespace study001::ch5 {

const std::vector<Case> cases = {
    {"alex16", "AlexNet-16 (Table 5.3)", "ch5_alex16.csv", {0.8, 1.0, 1.2, 1.4, 1.6, 2.0, 2.5, 3.0, 4.0, 5.16}},
    {"alex32", "AlexNet-32 (Table 5.2)", "ch5_alex32.csv", {2, 3, 4, 5, 6, 8, 10, 13}},
    {"vgg16", "VGG-16 (Table 5.4)", "ch5_vgg16.csv", {10, 15, 20, 30, 40, 67.8}},
    {"transformer16", "Transformer-16 (Table 6.1, one stage per type)", "ch6_transformer16.csv", {2, 3, 4, 6, 8, 16.8}},
};

EvaluationOptions<FpgaResources> transfer_model() {
  EvaluationOptions<FpgaResources> o;
  o.model.schedule = Schedule::double_buffered;
  o.model.locality = false;
  return o;
}

EvaluationOptions<FpgaResources> power_model(double ii_ms) {
  auto o = transfer_model();
  o.operating_ii = ii_ms * units::ms;
  return o;
}

Arch with_devices(Arch a, std::size_t devices) {
  a.group().devices = static_cast<int>(devices);
  return a;
}

Point solve_point(const App& app, const Arch& arch, double ii_ms) {
  Point p;
  p.ii_ms = ii_ms;
  std::vector<double> twc;
  std::vector<ychart::baselines::shan2021::PackItem> items;
  for (const auto& k : app.kernels()) {
    twc.push_back(k.implementation().wcet.in(units::ms));
    items.push_back({resource_values(k.implementation().use)});
  }
  const auto cap = resource_values(arch.kind().capacity);
  const std::size_t dsp = 1;  // FpgaResources{bram, dsp, ...}: the thesis packs by DSP
  p.f_min = minimum_devices(app, arch, ii_ms * units::ms);
  auto transfers = [&](const ychart::baselines::shan2021::Allocation& n) {
    const auto e = evaluate(app, with_devices(arch, n.front().size()), Mapping{n, {}}, transfer_model());
    return (e.host_to_device + e.device_to_host).in(units::ms);
  };
  auto power = [&](const ychart::baselines::shan2021::Allocation& n) {
    const auto e = evaluate(app, with_devices(arch, n.front().size()), Mapping{n, {}}, power_model(ii_ms));
    return e.feasible ? e.power->total.value() : std::numeric_limits<double>::infinity();
  };
  std::optional<ychart::baselines::shan2021::H2Result> h2;
  p.seconds = study001::seconds(
      [&] { h2 = ychart::baselines::shan2021::h2_allocate(twc, items, dsp, cap, ii_ms, arch.devices(), transfers, power); });
  // No mapping goes below the F_min devices' static power plus the energy
  // every mapping spends (ychart::pipeline::power_floor).
  p.bound = power_floor(app, arch, ii_ms * units::ms, p.f_min);
  if (!h2 || !std::isfinite(h2->power)) return p;
  p.h2_fpgas = h2->fpgas;
  p.mapping = Mapping{h2->n, {}};
  for (auto& row : p.mapping.cus) row.resize(std::size_t(arch.devices()), 0);  // onto the whole platform
  const auto e = evaluate(app, arch, p.mapping, power_model(ii_ms));
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

PowerModelOptions<FpgaResources> exact_options() {
  PowerModelOptions<FpgaResources> o;
  o.model = transfer_model().model;
  return o;
}

Point solve_point_exact(const App& app, const Arch& arch, double ii_ms, double time_limit) {
  Point p = solve_point(app, arch, ii_ms);
  const auto ii = ii_ms * units::ms;
  PowerSolveOptions so;
  so.solve.time_limit = time_limit;
  const auto h1 = solve_power_optimal(app, arch, ii, ychart::baselines::shan2021::h1_options(app, arch, ii, exact_options()), so);
  p.h1_status = h1.status;
  p.h1_seconds = h1.seconds;
  if (h1.mapping) {
    p.h1_power = h1.power.value();
    p.h1_fpgas = h1.devices_used;
  }
  // The better heuristic mapping is the first incumbent.
  if (h1.mapping && !(p.h2_power <= h1.power.value())) so.incumbent = *h1.mapping;
  else if (!p.mapping.cus.empty()) so.incumbent = p.mapping;
  const auto r = solve_power_optimal(app, arch, ii, exact_options(), so);
  p.exact_status = r.status;
  p.exact_seconds = r.seconds;
  p.exact_bound = r.bound;
  if (r.mapping) {
    p.exact_power = r.power.value();
    p.exact_gap = r.gap;
    p.exact_fpgas = r.devices_used;
    p.exact_mapping = *r.mapping;
  }
  return p;
}

double frequency_scaling_power(const App& app, const Arch& arch, const Mapping& fastest, double fastest_ii_ms,
                               double ii_ms) {
  const auto own = evaluate(app, arch, fastest, power_model(fastest_ii_ms));
  const double factor = std::min(1.0, own.execution.in(units::ms) / ii_ms);
  Mapping scaled = fastest;
  scaled.clock_fraction.assign(std::size_t(arch.devices()), 1.0);
  for (std::size_t f = 0; f < scaled.clock_fraction.size(); ++f)
    if (own.device_in_use(f)) scaled.clock_fraction[f] = own.device_clock[f] / arch.kind().clock.nominal.value() * factor;
  const auto e = evaluate(app, arch, scaled, power_model(ii_ms));
  return e.feasible ? e.power->total.value() : not_a_number;
}

double clock_gating_power(const App& app, const Arch& arch, const Mapping& fastest, double fastest_ii_ms,
                          double ii_ms) {
  const auto own = evaluate(app, arch, fastest, power_model(fastest_ii_ms));
  if (!own.feasible || ii_ms < fastest_ii_ms) return not_a_number;
  const auto& p = *own.power;
  const double dynamic_energy = (p.compute.value() + p.memory_transfer.value() + p.memory_execution.value()) *
                                own.ii.value();  // J
  return p.device_static.value() + p.memory_static.value() + dynamic_energy / (ii_ms * 1e-3);
}

Replication replication(const App& app, const Arch& arch, const Mapping& base, double ii_ms) {
  Replication r;
  const auto own = evaluate(app, arch, base, transfer_model());
  if (!own.feasible) {
    r.limit = "base infeasible";
    return r;
  }
  r.base_ii_ms = own.ii.in(units::ms);
  r.host_ms = (own.host_to_device + own.device_to_host).in(units::ms);
  // The least r with r x II_max >= the base's II; a relative 1e-9 keeps
  // 4.0 / 1.0 at 4 (as cu_min does).
  const double x = r.base_ii_ms / ii_ms;
  r.copies = std::max(1, static_cast<int>(std::ceil(x - 1e-9 * std::max(1.0, x))));
  r.fpgas = r.copies * own.devices_used;
  if (r.host_ms > ii_ms * (1 + 1e-9)) r.limit = "host transfers";
  else if (r.fpgas > arch.devices()) r.limit = "FPGAs";
  if (!r.limit.empty()) return r;
  const auto e = evaluate(app, arch, base, power_model(r.copies * ii_ms));
  if (!e.feasible) {
    r.limit = e.violations.front();
    return r;
  }
  r.feasible = true;
  r.power = r.copies * e.power->total.value();
  return r;
}

}  // namespace study001::ch5
