// Tests of ychart::pipeline::evaluate() (include/ychart/pipeline/evaluate.hpp): every
// KPI of a fixed mapping against numbers computed by hand from study 001's
// equations (J. Shan, PhD thesis, Politecnico di Torino, 2021):
//   ch. 3: II = max_k WCET_k / N_k (3.1, 3.2), spreading max_k sum_f n/(1+n) (3.4, 3.7);
//   ch. 4: II = H2F + EXE + F2H (4.5) with input duplication and locality
//          (4.6-4.15), DDR contention (4.16-4.25), clock degradation (4.26-4.29);
//   ch. 5: II = max(H2F + F2H, EXE) (5.5), power (5.13-5.22).
// The hand computations are written out next to each expectation; a random
// brute-force check closes the file.
#include <ychart/ychart.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace ychart;
using namespace ychart::pipeline;

using App = Application<FpgaResources>;
using Arch = Platform<FpgaResources>;
using K = Task<FpgaResources>;

constexpr double tol = 1e-9;  // relative, for values computed in closed form

// Absolute tolerance relative to the magnitude of the expected value.
#define EXPECT_REL(actual, expected) EXPECT_NEAR((actual), (expected), tol * std::max(1.0, std::abs(expected)))

K kernel(std::string name, FpgaResources use, double wcet_ms) {
  K k;
  k.name = std::move(name);
  k.implementation().use = use;
  k.implementation().wcet = wcet_ms * units::ms;
  return k;
}

Arch devices(int n) {
  Arch a;
  a.name = "test";
  a.kind().name = "FPGA";
  a.group().devices = n;
  return a;
}

// Three kernels (FpgaResources {bram, dsp, lut, ff, bw} in % of one device).
//   A: {10, 20, 5, 0, 4}, WCET 6 ms
//   B: { 5, 10, 0, 2, 1}, WCET 3 ms
//   C: { 0, 30, 0, 0, 0}, WCET 9 ms
App three_kernels() {
  return App::pipeline("abc", {kernel("A", {10, 20, 5, 0, 4}, 6.0), kernel("B", {5, 10, 0, 2, 1}, 3.0),
                               kernel("C", {0, 30, 0, 0, 0}, 9.0)});
}

// ---------------------------------------------------------------------------
// Chapter 3: compute only.

TEST(PipelineEvaluate, ComputeOnlyKpis) {
  const auto app = three_kernels();
  const auto arch = devices(3);
  // A on devices 1, 2 (2 + 1 CUs), B on device 3, C on devices 1, 3 (1 + 3).
  const Mapping m{{{2, 1, 0}, {0, 0, 1}, {1, 0, 3}}, {}};
  const auto e = evaluate(app, arch, m);
  // N = (3, 1, 4); ET = (6/3, 3/1, 9/4) = (2, 3, 2.25) ms; II = 3 ms.
  EXPECT_EQ(e.total_cus, (std::vector<int>{3, 1, 4}));
  EXPECT_EQ(e.devices_of, (std::vector<int>{2, 1, 2}));
  ASSERT_EQ(e.kernel_time.size(), 3u);
  EXPECT_REL(e.kernel_time[0], 2e-3);
  EXPECT_REL(e.kernel_time[1], 3e-3);
  EXPECT_REL(e.kernel_time[2], 2.25e-3);
  EXPECT_REL(e.ii.in(units::ms), 3.0);
  EXPECT_REL(e.execution.in(units::ms), 3.0);
  EXPECT_EQ(e.host_to_device.value(), 0.0);
  EXPECT_EQ(e.device_to_host.value(), 0.0);
  EXPECT_REL(e.throughput.value(), 1.0 / 3e-3);
  EXPECT_REL(e.latency.in(units::ms), 9.0);  // 3 stages x 3 ms
  // Spreading: A 2/3 + 1/2 = 7/6, B 1/2, C 1/2 + 3/4 = 5/4; max 5/4.
  EXPECT_REL(e.spreading, 1.25);
  EXPECT_EQ(e.devices_used, 3);
  EXPECT_TRUE(e.feasible);
  EXPECT_TRUE(e.violations.empty());
  // Utilisation (capacity 100 % each):
  //   device 1: 2 A + 1 C: bram 20, dsp 40 + 30 = 70, lut 10, ff 0, bw 8
  //   device 2: 1 A:       bram 10, dsp 20,            lut 5,  ff 0, bw 4
  //   device 3: 1 B + 3 C: bram 5,  dsp 10 + 90 = 100, lut 0,  ff 2, bw 1
  EXPECT_EQ(e.resource_names, (std::vector<std::string>{"bram", "dsp", "lut", "ff", "bw"}));
  const double expected[3][5] = {{.20, .70, .10, 0, .08}, {.10, .20, .05, 0, .04}, {.05, 1.0, 0, .02, .01}};
  for (std::size_t f = 0; f < 3; ++f)
    for (std::size_t t = 0; t < 5; ++t) EXPECT_REL(e.utilisation[f][t], expected[f][t]) << f << " " << t;
  EXPECT_REL(e.utilisation_of(2, "dsp"), 1.0);
  EXPECT_REL(e.average_utilisation("dsp"), (0.7 + 0.2 + 1.0) / 3);
  EXPECT_REL(e.max_utilisation("dsp"), 1.0);
  EXPECT_THROW((void)e.utilisation_of(0, "dps"), model_error);
  EXPECT_FALSE(e.power.has_value());
}

TEST(PipelineEvaluate, UtilisationIsAFractionOfTheDeviceCapacity) {
  // A device offering 50 % "units" of each resource (capacity 50): the same
  // CUs use twice the fraction.
  const auto app = three_kernels();
  auto arch = devices(2);
  arch.kind().capacity = uniform_resources<FpgaResources>(50.0);
  // A: 1 + 0, B: 0 + 2, C: 1 + 0. Device 1: dsp 20 + 30 = 50 of 50 = 1.0;
  // device 2: dsp 20 of 50 = 0.4, ff 4 of 50 = 0.08.
  const Mapping m{{{1, 0}, {0, 2}, {1, 0}}, {}};
  const auto e = evaluate(app, arch, m);
  EXPECT_REL(e.utilisation_of(0, "dsp"), 1.0);
  EXPECT_REL(e.utilisation_of(1, "dsp"), 0.4);
  EXPECT_REL(e.utilisation_of(1, "ff"), 0.08);
  EXPECT_TRUE(e.feasible);
  // II = max(6/1, 3/2, 9/1) = 9 ms; spreading max(1/2, 2/3, 1/2) = 2/3.
  EXPECT_REL(e.ii.in(units::ms), 9.0);
  EXPECT_REL(e.spreading, 2.0 / 3.0);
}

TEST(PipelineEvaluate, UnusedDevicesAndDevicesUsed) {
  const auto app = three_kernels();
  const auto arch = devices(4);
  const Mapping m{{{0, 2, 0, 0}, {0, 1, 0, 0}, {0, 0, 0, 3}}, {}};
  const auto e = evaluate(app, arch, m);
  EXPECT_EQ(e.devices_used, 2);
  EXPECT_EQ(e.in_use, (std::vector<bool>{false, true, false, true}));
  EXPECT_FALSE(e.device_in_use(0));
  EXPECT_TRUE(e.device_in_use(3));
  for (std::size_t t = 0; t < 5; ++t) EXPECT_EQ(e.utilisation[0][t], 0.0);
  // Mean dsp over the two devices in use: device 2: 40 + 10 = 50, device 4: 90.
  EXPECT_REL(e.average_utilisation("dsp"), (0.5 + 0.9) / 2);
  // Everything on one device per kernel: spreading max(2/3, 1/2, 3/4) = 3/4.
  EXPECT_REL(e.spreading, 0.75);
  EXPECT_REL(e.ii.in(units::ms), 3.0);  // max(3, 3, 3)
}

TEST(PipelineEvaluate, CapViolationsAreReported) {
  const auto app = three_kernels();
  const auto arch = devices(3);
  const Mapping m{{{2, 1, 0}, {0, 0, 1}, {1, 0, 3}}, {}};
  // Device 3 uses 100 % dsp: over a uniform 80 % cap, and only there
  // (device 1 uses 70 % dsp, 20 % bram; nothing else passes 80).
  EvaluationOptions<FpgaResources> o;
  o.cap() = uniform_resources<FpgaResources>(80.0);
  const auto e = evaluate(app, arch, m, o);
  EXPECT_FALSE(e.feasible);
  ASSERT_EQ(e.violations.size(), 1u);
  EXPECT_NE(e.violations[0].find("device 3"), std::string::npos) << e.violations[0];
  EXPECT_NE(e.violations[0].find("dsp"), std::string::npos) << e.violations[0];
  // The KPIs are still computed.
  EXPECT_REL(e.ii.in(units::ms), 3.0);

  // A cap on one resource only: bw at 7.9 % breaks device 1 (bw 8), not
  // device 2 (bw 4); a cap exactly at the use (8) is not a violation.
  auto cap = uniform_resources<FpgaResources>(100.0);
  cap.bw = 7.9;
  o.cap() = cap;
  const auto e2 = evaluate(app, arch, m, o);
  ASSERT_EQ(e2.violations.size(), 1u);
  EXPECT_NE(e2.violations[0].find("device 1"), std::string::npos) << e2.violations[0];
  EXPECT_NE(e2.violations[0].find("bw"), std::string::npos) << e2.violations[0];
  cap.bw = 8.0;
  o.cap() = cap;
  EXPECT_TRUE(evaluate(app, arch, m, o).feasible);

  // Without a cap the device capacity (100) applies: 100 % dsp is allowed.
  EXPECT_TRUE(evaluate(app, arch, m).feasible);
  // Two CUs more of C on device 3 exceed the capacity itself (160 % dsp).
  const Mapping over{{{2, 1, 0}, {0, 0, 1}, {1, 0, 5}}, {}};
  const auto e3 = evaluate(app, arch, over);
  EXPECT_FALSE(e3.feasible);
  EXPECT_EQ(e3.violations.size(), 1u);
}

// ---------------------------------------------------------------------------
// Chapter 4 and 5: host transfers.
//
// Pipeline A -> B -> C, data in MB:  A: DI 4, DO 2;  B: DI 2, DO 6;  C: DI 6, DO 1.
// WCET 6, 3, 9 ms. Host-to-device 2 GB/s (1 MB = 0.5 ms), device-to-host
// 1 GB/s (1 MB = 1 ms).

App pipeline_with_data() {
  auto a = kernel("A", {0, 10, 0, 0, 0}, 6.0);
  auto b = kernel("B", {0, 10, 0, 0, 0}, 3.0);
  auto c = kernel("C", {0, 10, 0, 0, 0}, 9.0);
  a.data_in = 4 * units::MB, a.data_out = 2 * units::MB;
  b.data_in = 2 * units::MB, b.data_out = 6 * units::MB;
  c.data_in = 6 * units::MB, c.data_out = 1 * units::MB;
  return App::pipeline("abc", {a, b, c});
}

Arch with_links(int n) {
  auto a = devices(n);
  a.host_to_device.bandwidth = 2 * units::GB_per_s;
  a.device_to_host.bandwidth = 1 * units::GB_per_s;
  return a;
}

struct Phases {
  double h2f, exe, f2h, ii;  // ms
};

Phases run(const Mapping& m, Schedule s, bool locality) {
  EvaluationOptions<FpgaResources> o;
  o.model.schedule = s;
  o.model.locality = locality;
  const auto e = evaluate(pipeline_with_data(), with_links(2), m, o);
  return {e.host_to_device.in(units::ms), e.execution.in(units::ms), e.device_to_host.in(units::ms),
          e.ii.in(units::ms)};
}

TEST(PipelineEvaluate, PipelineEdgesCarryTheConsumersInput) {
  const auto app = pipeline_with_data();
  ASSERT_EQ(app.edges().size(), 2u);
  EXPECT_EQ(app.edges()[0].from, 0u);
  EXPECT_EQ(app.edges()[0].to, 1u);
  EXPECT_REL(app.edges()[0].volume.in(units::MB), 2.0);
  EXPECT_REL(app.edges()[1].volume.in(units::MB), 6.0);
}

TEST(PipelineEvaluate, SequentialPhasesWithLocality) {
  // M1: A 2 CUs and B 1 CU on device 1, C 3 CUs on device 2.
  //   Edge A->B local (both entirely on device 1), edge B->C not.
  //   H2F: A (no producer) 1 x 4; B's input local: 0; C: 1 x 6.  10 MB = 5 ms.
  //   F2H: A's output local: 0; B: 6; C (last): 1.               7 MB = 7 ms.
  //   EXE: max(6/2, 3/1, 9/3) = 3 ms.  II = 5 + 3 + 7 = 15 ms.
  const Mapping m1{{{2, 0}, {1, 0}, {0, 3}}, {}};
  auto p = run(m1, Schedule::sequential_phases, true);
  EXPECT_REL(p.h2f, 5.0);
  EXPECT_REL(p.f2h, 7.0);
  EXPECT_REL(p.exe, 3.0);
  EXPECT_REL(p.ii, 15.0);
  // Double buffered: max(5 + 7, 3) = 12 ms.
  EXPECT_REL(run(m1, Schedule::double_buffered, true).ii, 12.0);
  // Without locality every input goes in and every output out:
  //   H2F 4 + 2 + 6 = 12 MB = 6 ms; F2H 2 + 6 + 1 = 9 MB = 9 ms.
  p = run(m1, Schedule::sequential_phases, false);
  EXPECT_REL(p.h2f, 6.0);
  EXPECT_REL(p.f2h, 9.0);
  EXPECT_REL(p.ii, 18.0);
  EXPECT_REL(run(m1, Schedule::double_buffered, false).ii, 15.0);  // max(15, 3)

  // M3: everything on device 1, both edges local.
  //   H2F 4 MB = 2 ms, F2H 1 MB = 1 ms, EXE max(6, 3, 9) = 9 ms.
  const Mapping m3{{{1, 0}, {1, 0}, {1, 0}}, {}};
  p = run(m3, Schedule::sequential_phases, true);
  EXPECT_REL(p.h2f, 2.0);
  EXPECT_REL(p.f2h, 1.0);
  EXPECT_REL(p.ii, 12.0);
  EXPECT_REL(run(m3, Schedule::double_buffered, true).ii, 9.0);  // max(3, 9)
  // Compute only ignores the transfers.
  EXPECT_REL(run(m3, Schedule::compute_only, true).ii, 9.0);
}

TEST(PipelineEvaluate, SpreadKernelsDuplicateTheirInput) {
  // M2: A 1 + 1, B 1 + 0, C 1 + 1: no edge is local (A and C split).
  //   H2F: A 2 x 4 = 8, B 1 x 2 = 2, C 2 x 6 = 12: 22 MB = 11 ms.
  //   F2H: 2 + 6 + 1 = 9 MB = 9 ms (outputs are split, not duplicated).
  //   EXE: max(6/2, 3/1, 9/2) = 4.5 ms.  II = 24.5 ms.
  const Mapping m2{{{1, 1}, {1, 0}, {1, 1}}, {}};
  auto p = run(m2, Schedule::sequential_phases, true);
  EXPECT_REL(p.h2f, 11.0);
  EXPECT_REL(p.f2h, 9.0);
  EXPECT_REL(p.exe, 4.5);
  EXPECT_REL(p.ii, 24.5);
  EXPECT_REL(run(m2, Schedule::double_buffered, false).ii, 20.0);  // max(11 + 9, 4.5)

  // M4: A on device 1, B split 1 + 1, C on device 2.
  //   A->B: B is split, not local; B->C: B not entirely on device 2, not local.
  //   H2F: 4 + 2 x 2 + 6 = 14 MB = 7 ms; F2H 9 ms; EXE max(6, 1.5, 9) = 9.  II = 25.
  const Mapping m4{{{1, 0}, {1, 1}, {0, 1}}, {}};
  p = run(m4, Schedule::sequential_phases, true);
  EXPECT_REL(p.h2f, 7.0);
  EXPECT_REL(p.f2h, 9.0);
  EXPECT_REL(p.ii, 25.0);

  // M5: A and B entirely on device 2, C split 2 + 1: A->B local; B->C not.
  //   H2F: 4 + 0 + 2 x 6 = 16 MB = 8 ms; F2H: 0 + 6 + 1 = 7 ms;
  //   EXE max(6, 3, 3) = 6 ms.  II = 21 ms.
  const Mapping m5{{{0, 1}, {0, 1}, {2, 1}}, {}};
  p = run(m5, Schedule::sequential_phases, true);
  EXPECT_REL(p.h2f, 8.0);
  EXPECT_REL(p.f2h, 7.0);
  EXPECT_REL(p.exe, 6.0);
  EXPECT_REL(p.ii, 21.0);
}

TEST(PipelineEvaluate, LocalityNeedsBothEndsOnTheSameDevice) {
  // A entirely on device 1, B entirely on device 2: each is on one device,
  // but not the same one, so A->B is not local.
  //   H2F: 4 + 2 + 6 = 12 MB = 6 ms; F2H 2 + 6 + 1 = 9 MB = 9 ms; EXE 9 (C 9/1).
  const Mapping m{{{1, 0}, {0, 1}, {1, 0}}, {}};
  const auto p = run(m, Schedule::sequential_phases, true);
  EXPECT_REL(p.h2f, 6.0);
  EXPECT_REL(p.f2h, 9.0);
  EXPECT_REL(p.ii, 24.0);
}

// ---------------------------------------------------------------------------
// Chapter 4: DDR contention (eqs. 4.18-4.25).
//
// Nominal clock 200 MHz; kernels run at it (no own clock).
//   A: DI 4 MB, C 2 MB, DO 1 MB, delta 0.5, gamma 1, r 1, w 0, rw 1 -> x = 2, y = 1; WCET 6 ms
//   B: DI 1 MB, C 0,    DO 3 MB, delta 1,   gamma 1, r 0, w 0, rw 1 -> x = 1, y = 1; WCET 2 ms

App contention_app() {
  auto a = kernel("A", {0, 10, 0, 0, 0}, 6.0);
  a.data_in = 4 * units::MB, a.constants = 2 * units::MB, a.data_out = 1 * units::MB;
  a.input_scaling = 0.5, a.constant_scaling = 1.0;
  a.implementation().read_ports = 1, a.implementation().write_ports = 0, a.implementation().read_write_ports = 1;
  auto b = kernel("B", {0, 10, 0, 0, 0}, 2.0);
  b.data_in = 1 * units::MB, b.data_out = 3 * units::MB;
  return App::pipeline("contention", {a, b});
}

Arch contention_arch(double port_bytes) {
  auto arch = devices(2);
  arch.kind().clock.nominal = 200 * units::MHz;
  arch.kind().memory.read_bandwidth = 19.2 * units::GB_per_s;
  arch.kind().memory.write_bandwidth = 10 * units::GB_per_s;
  arch.kind().memory.port_bytes_per_cycle = port_bytes * units::B;
  return arch;
}

TEST(PipelineEvaluate, MemoryContentionDdrBound) {
  // 64-byte ports at 200 MHz: BX = 12.8 GB/s. A 2 CUs and B 1 CU on device 1.
  //   NR = 2 x 2 + 1 x 1 = 5 readers: BDR / NR = 3.84 GB/s < BX.
  //   NW = 2 x 1 + 1 x 1 = 3 writers: BDW / NW = 10/3 GB/s < BX.
  //   A: dr = (0.5 x 4 + 1 x 2) / 2 + 0.5 x 4 + 0 x 2 = 4 MB, BR = 2 x 3.84 = 7.68 GB/s,
  //      TR = 4e6 / 7.68e9 s = 0.520833.. ms; dw = 1/2 MB, BW = 1 x 10/3 GB/s, TW = 0.15 ms;
  //      TC = 6 / 2 = 3 ms.  ET = 3.6708333.. ms.
  //   B: dr = 1 MB, BR = 3.84 GB/s, TR = 0.2604166.. ms; dw = 3 MB, TW = 0.9 ms; TC = 2 ms.
  //      ET = 3.1604166.. ms.
  EvaluationOptions<FpgaResources> o;
  o.model.memory_contention = true;
  const Mapping m{{{2, 0}, {1, 0}}, {}};
  const auto e = evaluate(contention_app(), contention_arch(64), m, o);
  const double et_a = 4e6 / 7.68e9 * 1e3 + 3.0 + 0.5e6 / (10e9 / 3) * 1e3;
  const double et_b = 1e6 / 3.84e9 * 1e3 + 2.0 + 3e6 / (10e9 / 3) * 1e3;
  EXPECT_REL(et_a, 3.6708333333333333);
  EXPECT_REL(e.kernel_time[0] * 1e3, et_a);
  EXPECT_REL(e.kernel_time[1] * 1e3, et_b);
  EXPECT_REL(e.ii.in(units::ms), et_a);
  // Off: TC only.
  EXPECT_REL(evaluate(contention_app(), contention_arch(64), m).ii.in(units::ms), 3.0);
}

TEST(PipelineEvaluate, MemoryContentionPortBound) {
  // 8-byte ports at 200 MHz: BX = 1.6 GB/s. A 2 CUs on device 1, B 1 CU on device 2.
  //   Device 1: NR = 4, BDR/NR = 4.8 > BX; NW = 2, BDW/NW = 5 > BX: the port binds.
  //   A: BR = 2 x 1.6 = 3.2 GB/s, TR = 4 MB / 3.2 GB/s = 1.25 ms; BW = 1.6, TW = 0.5 MB / 1.6 = 0.3125 ms;
  //      TC = 3 ms. ET = 4.5625 ms.
  //   Device 2: B alone, NR = NW = 1: TR = 1 / 1.6 = 0.625 ms, TW = 3 / 1.6 = 1.875 ms, TC 2: ET 4.5 ms.
  EvaluationOptions<FpgaResources> o;
  o.model.memory_contention = true;
  const Mapping m{{{2, 0}, {0, 1}}, {}};
  const auto e = evaluate(contention_app(), contention_arch(8), m, o);
  EXPECT_REL(e.kernel_time[0] * 1e3, 4.5625);
  EXPECT_REL(e.kernel_time[1] * 1e3, 4.5);
  EXPECT_REL(e.ii.in(units::ms), 4.5625);
}

TEST(PipelineEvaluate, MemoryContentionUsesTheKernelsOwnClockForThePorts) {
  // As the port-bound case, but B measured at 100 MHz (its own clock, not
  // shared): its port is 8 B x 100 MHz = 0.8 GB/s.
  //   B: TR = 1 / 0.8 = 1.25 ms, TW = 3 / 0.8 = 3.75 ms, TC = 2 ms: ET 7 ms.
  auto app = contention_app();
  std::vector<K> ks = app.kernels();
  ks[1].implementation().clock = 100 * units::MHz;
  const auto app2 = App::pipeline("contention", ks);
  EvaluationOptions<FpgaResources> o;
  o.model.memory_contention = true;
  const Mapping m{{{2, 0}, {0, 1}}, {}};
  const auto e = evaluate(app2, contention_arch(8), m, o);
  EXPECT_REL(e.kernel_time[1] * 1e3, 7.0);
  EXPECT_REL(e.ii.in(units::ms), 7.0);
}

TEST(PipelineEvaluate, MemoryContentionNeedsTheMemoryConstants) {
  EvaluationOptions<FpgaResources> o;
  o.model.memory_contention = true;
  auto arch = contention_arch(64);
  arch.kind().memory.write_bandwidth = Constant<dim::bandwidth>{};
  EXPECT_THROW(evaluate(contention_app(), arch, Mapping{{{1, 0}, {1, 0}}, {}}, o), model_error);
}

// With memory contention on, no nominal clock and no kernel clock, the port
// bandwidth BX = width x clock is 0. Regression: evaluate() returned II = inf
// instead of saying which constant is missing.
TEST(PipelineEvaluate, MemoryContentionWithoutAnyClockIsAModelError) {
  EvaluationOptions<FpgaResources> o;
  o.model.memory_contention = true;
  auto arch = contention_arch(64);
  arch.kind().clock.nominal = Constant<dim::frequency>{};
  const Mapping m{{{1, 0}, {1, 0}}, {}};
  try {
    const auto e = evaluate(contention_app(), arch, m, o);
    ADD_FAILURE() << "no model_error; II = " << e.ii.in(units::ms) << " ms";
  } catch (const model_error&) {
  }
}

// ---------------------------------------------------------------------------
// Chapter 4: clocks (eqs. 4.26-4.29).
//
//   A: dsp 20 per CU, WCET 6 ms measured at F1 = 250 MHz
//   B: dsp 10 per CU, WCET 2 ms measured at F1 = 200 MHz
// Nominal 250 MHz; degradation psi = 100 MHz per unit of dsp utilisation.

App clocked_app() {
  auto a = kernel("A", {0, 20, 0, 0, 0}, 6.0);
  a.implementation().clock = 250 * units::MHz;
  auto b = kernel("B", {0, 10, 0, 0, 0}, 2.0);
  b.implementation().clock = 200 * units::MHz;
  return App::pipeline("clocked", {a, b});
}

Arch clocked_arch() {
  auto arch = devices(2);
  arch.kind().clock.nominal = 250 * units::MHz;
  arch.kind().clock.degradation_per_utilisation = 100 * units::MHz;
  arch.kind().clock.utilisation_resource = "dsp";
  return arch;
}

TEST(PipelineEvaluate, ClockDegradationWithASharedDeviceClock) {
  EvaluationOptions<FpgaResources> o;
  o.model.clock_degradation = true;
  o.model.shared_device_clock = true;
  {
    // Both on device 1: u = (2 x 20 + 10) / 100 = 0.5.
    //   F_A = 250 - 100 x 0.5 = 200, F_B = 200 - 50 = 150; F_1 = min = 150 MHz.
    //   TC_A = L1_A / N_A / F_1 = 6 ms x 250 / (2 x 150) = 5 ms; TC_B = 2 x 200 / 150 = 2.666.. ms.
    const auto e = evaluate(clocked_app(), clocked_arch(), Mapping{{{2, 0}, {1, 0}}, {}}, o);
    EXPECT_REL(e.device_clock[0], 150e6);
    EXPECT_EQ(e.device_clock[1], 0.0);  // unused
    EXPECT_REL(e.kernel_time[0] * 1e3, 5.0);
    EXPECT_REL(e.kernel_time[1] * 1e3, 2.0 * 200.0 / 150.0);
    EXPECT_REL(e.ii.in(units::ms), 5.0);
  }
  {
    // A on device 1 (u = 0.4, F = 250 - 40 = 210 MHz), B on device 2 (u = 0.1, F = 200 - 10 = 190).
    //   TC_A = 6 x 250 / (2 x 210) = 3.5714.. ms; TC_B = 2 x 200 / 190 = 2.1052.. ms.
    const auto e = evaluate(clocked_app(), clocked_arch(), Mapping{{{2, 0}, {0, 1}}, {}}, o);
    EXPECT_REL(e.device_clock[0], 210e6);
    EXPECT_REL(e.device_clock[1], 190e6);
    EXPECT_REL(e.kernel_time[0] * 1e3, 6.0 * 250.0 / 420.0);
    EXPECT_REL(e.kernel_time[1] * 1e3, 400.0 / 190.0);
    EXPECT_REL(e.ii.in(units::ms), 6.0 * 250.0 / 420.0);
  }
}

TEST(PipelineEvaluate, SharedDeviceClockWithoutDegradation) {
  EvaluationOptions<FpgaResources> o;
  o.model.shared_device_clock = true;
  // Both on device 1: F_1 = min(250, 200) = 200 MHz; TC_A = 6 x 250 / (2 x 200) = 3.75 ms, TC_B = 2 ms.
  const Mapping m{{{2, 0}, {1, 0}}, {}};
  auto e = evaluate(clocked_app(), clocked_arch(), m, o);
  EXPECT_REL(e.device_clock[0], 200e6);
  EXPECT_REL(e.ii.in(units::ms), 3.75);
  // Per-kernel clocks (ch. 3): A 6 / 2 = 3 ms, B 2 ms.
  e = evaluate(clocked_app(), clocked_arch(), m);
  EXPECT_REL(e.ii.in(units::ms), 3.0);
}

TEST(PipelineEvaluate, ClockDegradingToZeroIsAViolation) {
  auto arch = clocked_arch();
  arch.kind().clock.degradation_per_utilisation = 1 * units::GHz;  // 0.5 x 1000 > 250 MHz
  EvaluationOptions<FpgaResources> o;
  o.model.clock_degradation = true;
  const auto e = evaluate(clocked_app(), arch, Mapping{{{2, 0}, {1, 0}}, {}}, o);
  EXPECT_FALSE(e.feasible);
  bool found = false;
  for (const auto& v : e.violations) found = found || v.find("clock") != std::string::npos;
  EXPECT_TRUE(found);
}

TEST(PipelineEvaluate, ExplicitClockFractions) {
  // A 2 CUs on device 1 (3 ms at full clock), B 1 CU on device 2 (2 ms at 200 MHz, its own clock).
  // Device 2 at half clock: B takes 4 ms; II = max(3, 4) = 4 ms.
  Mapping m{{{2, 0}, {0, 1}}, {1.0, 0.5}};
  auto e = evaluate(clocked_app(), clocked_arch(), m);
  EXPECT_REL(e.ii.in(units::ms), 4.0);
  EXPECT_TRUE(e.feasible);
  // A fraction above 1 is a violation.
  m.clock_fraction = {1.5, 1.0};
  e = evaluate(clocked_app(), clocked_arch(), m);
  EXPECT_FALSE(e.feasible);
}

// ---------------------------------------------------------------------------
// Chapter 5: power at an operating II (eqs. 5.13-5.22).
//
// Two devices, nominal 250 MHz; static 4.498 W per device (5.13), DDR static
// 0.5 W, DDR dynamic at full bandwidth: read 0.672 W, write 0.4 W.
//   A: WCET 6 ms, P 2 W;  host write 50 % for 0.2 ms, host read 25 % for 0.4 ms;
//      CUs write 1 %, read 2 % while executing.
//   B: WCET 2 ms, P 1 W;  host write 10 % for 1 ms, host read 30 % for 0.5 ms;
//      CUs write 3 %, read 0 %.

App power_app() {
  auto a = kernel("A", {0, 20, 0, 0, 0}, 6.0);
  a.implementation().power = 2 * units::W;
  a.implementation().ddr = {0.5, 0.25, 0.2 * units::ms, 0.4 * units::ms, 0.01, 0.02};
  auto b = kernel("B", {0, 10, 0, 0, 0}, 2.0);
  b.implementation().power = 1 * units::W;
  b.implementation().ddr = {0.1, 0.3, 1.0 * units::ms, 0.5 * units::ms, 0.03, 0.0};
  return App::pipeline("power", {a, b});
}

Arch power_arch() {
  auto arch = devices(2);
  arch.kind().clock.nominal = 250 * units::MHz;
  arch.kind().static_power = 4.498 * units::W;
  arch.kind().memory.static_power = 0.5 * units::W;
  arch.kind().memory.full_read_power = 0.672 * units::W;
  arch.kind().memory.full_write_power = 0.4 * units::W;
  return arch;
}

TEST(PipelineEvaluate, PowerAtAnOperatingII) {
  // A 2 CUs on device 1: 6 / 2 = 3 ms at full clock; B 1 CU on device 2: 2 ms.
  // The critical device (1) runs at full clock; device 2 is slowed to
  // finish with it: fraction 2/3 (166.67 MHz). T_exe = 3 ms; run at II = 5 ms.
  EvaluationOptions<FpgaResources> o;
  o.operating_ii = 5 * units::ms;
  const auto e = evaluate(power_app(), power_arch(), Mapping{{{2, 0}, {0, 1}}, {}}, o);
  ASSERT_TRUE(e.power.has_value());
  const auto& p = *e.power;
  EXPECT_TRUE(e.feasible);
  EXPECT_REL(e.execution.in(units::ms), 3.0);
  EXPECT_REL(e.ii.in(units::ms), 5.0);
  EXPECT_REL(e.device_clock[0], 250e6);
  EXPECT_REL(e.device_clock[1], 250e6 * 2.0 / 3.0);
  // (5.15) static: N_F = 2 devices x 4.498 W; DDR 2 x 0.5 W.
  EXPECT_REL(p.device_static.value(), 8.996);
  EXPECT_REL(p.memory_static.value(), 1.0);
  // (5.14, 5.20) E_c = sum_f sum_k n_kf P_k (Fck_f / FCK) T_exe
  //   = 2 x 2 W x 1 x 3 ms + 1 x 1 W x 2/3 x 3 ms = 12 + 2 = 14 mJ
  //   (= the floor sum_k P_k WCET_k = 2 x 6 + 1 x 2, every device finishing at T_exe).
  //   P = 14 mJ / 5 ms = 2.8 W.
  EXPECT_REL(p.compute.value(), 2.8);
  // (5.17, 5.18) E_h2f + E_f2h = sum_k alpha_k 0.4 Bw_k tw_k + 0.672 Br_k tr_k
  //   A: 1 x 0.4 x 0.5 x 0.2 ms + 0.672 x 0.25 x 0.4 ms = 0.04 + 0.0672 mJ
  //   B: 1 x 0.4 x 0.1 x 1 ms   + 0.672 x 0.3 x 0.5 ms  = 0.04 + 0.1008 mJ
  //   0.248 mJ / 5 ms = 0.0496 W.
  EXPECT_REL(p.memory_transfer.value(), 0.0496);
  // (5.19) E_rw = sum_k N_k (0.672 br_k + 0.4 bw_k) T_exe
  //   A: 2 x (0.672 x 0.02 + 0.4 x 0.01) x 3 ms = 0.10464 mJ;  B: 1 x (0 + 0.4 x 0.03) x 3 ms = 0.036 mJ
  //   0.14064 mJ / 5 ms = 0.028128 W.
  EXPECT_REL(p.memory_execution.value(), 0.028128);
  const double total = 8.996 + 1.0 + 2.8 + 0.0496 + 0.028128;
  EXPECT_REL(p.total.value(), total);
  EXPECT_REL(p.energy_per_run.in(units::mJ), total * 5.0);
}

TEST(PipelineEvaluate, PowerDuplicatesHostWritesOfSpreadKernels) {
  // A 1 + 1 (3 ms... 6 / 2 = 3 ms on each device), B 1 on device 2 (2 ms).
  // Both devices busy 3 ms: full clock on both. T_exe = 3 ms, II = 6 ms.
  //   E_c = (1 x 2 x 3) + (1 x 2 x 3 + 1 x 1 x 3) = 15 mJ (B finishes early: above the 14 mJ floor).
  //   E_h2f: A alpha 2: 2 x 0.04 = 0.08; B 0.04;  E_f2h 0.0672 + 0.1008:  0.288 mJ.
  //   E_rw as before (N_A = 2): 0.14064 mJ.
  EvaluationOptions<FpgaResources> o;
  o.operating_ii = 6 * units::ms;
  const auto e = evaluate(power_app(), power_arch(), Mapping{{{1, 1}, {0, 1}}, {}}, o);
  const auto& p = *e.power;
  EXPECT_REL(e.device_clock[1], 250e6);
  EXPECT_REL(p.compute.value(), 15.0 / 6.0);
  EXPECT_REL(p.memory_transfer.value(), 0.288 / 6.0);
  EXPECT_REL(p.memory_execution.value(), 0.14064 / 6.0);
  EXPECT_REL(p.total.value(), 8.996 + 1.0 + (15.0 + 0.288 + 0.14064) / 6.0);
}

TEST(PipelineEvaluate, PowerWithOneDeviceAndDiscreteClockLevels) {
  // Levels 0.5, 0.75, 1: device 2 wants 2/3 and rounds up to 0.75.
  //   B at 0.75: 2 / 0.75 = 2.667 ms <= 3 ms; T_exe = 3 ms.
  //   E_c = 12 + 1 x 1 x 0.75 x 3 = 14.25 mJ; at II = 3 ms: 4.75 W.
  auto arch = power_arch();
  arch.kind().clock.levels_fraction = {0.5, 0.75, 1.0};
  EvaluationOptions<FpgaResources> o;
  o.operating_ii = 3 * units::ms;
  const auto e = evaluate(power_app(), arch, Mapping{{{2, 0}, {0, 1}}, {}}, o);
  EXPECT_REL(e.device_clock[1], 0.75 * 250e6);
  EXPECT_REL(e.ii.in(units::ms), 3.0);
  EXPECT_REL(e.power->compute.value(), 4.75);
  // One device only: static power of one.
  const auto one = evaluate(power_app(), arch, Mapping{{{2, 0}, {1, 0}}, {}}, o);
  EXPECT_REL(one.power->device_static.value(), 4.498);
  EXPECT_REL(one.power->memory_static.value(), 0.5);
  EXPECT_EQ(one.devices_used, 1);
}

TEST(PipelineEvaluate, OperatingIIBelowTheAchievableIsAViolation) {
  EvaluationOptions<FpgaResources> o;
  o.operating_ii = 2 * units::ms;  // the mapping needs 3 ms
  const auto e = evaluate(power_app(), power_arch(), Mapping{{{2, 0}, {0, 1}}, {}}, o);
  EXPECT_FALSE(e.feasible);
  ASSERT_FALSE(e.violations.empty());
  EXPECT_NE(e.violations.back().find("operating II"), std::string::npos) << e.violations.back();
  EXPECT_REL(e.ii.in(units::ms), 3.0);
}

TEST(PipelineEvaluate, PowerWithTransfersDoubleBuffered) {
  // Chapter 5 timing: double buffered, no locality. DI/DO of A: 1/2 MB,
  // B: 2/3 MB; links 1 GB/s each way (1 MB = 1 ms).
  //   A 2 on device 1, B 1 on device 2: H2F 1 + 2 = 3 ms, F2H 2 + 3 = 5 ms; EXE 3 ms.
  //   II = max(3 + 5, 3) = 8 ms.
  auto ks = power_app().kernels();
  ks[0].data_in = 1 * units::MB, ks[0].data_out = 2 * units::MB;
  ks[1].data_in = 2 * units::MB, ks[1].data_out = 3 * units::MB;
  const auto app = App::pipeline("power", ks);
  auto arch = power_arch();
  arch.host_to_device.bandwidth = 1 * units::GB_per_s;
  arch.device_to_host.bandwidth = 1 * units::GB_per_s;
  EvaluationOptions<FpgaResources> o;
  o.model.schedule = Schedule::double_buffered;
  o.model.locality = false;
  auto e = evaluate(app, arch, Mapping{{{2, 0}, {0, 1}}, {}}, o);
  EXPECT_REL(e.ii.in(units::ms), 8.0);
  EXPECT_FALSE(e.power.has_value());
  // At II = 10 ms: power as in PowerAtAnOperatingII with II 10 instead of 5.
  o.operating_ii = 10 * units::ms;
  e = evaluate(app, arch, Mapping{{{2, 0}, {0, 1}}, {}}, o);
  EXPECT_TRUE(e.feasible);
  EXPECT_REL(e.ii.in(units::ms), 10.0);
  EXPECT_REL(e.power->total.value(), 8.996 + 1.0 + (14.0 + 0.248 + 0.14064) / 10.0);
  // II = 7 ms is below the 8 ms the transfers need.
  o.operating_ii = 7 * units::ms;
  EXPECT_FALSE(evaluate(app, arch, Mapping{{{2, 0}, {0, 1}}, {}}, o).feasible);
}

// ---------------------------------------------------------------------------
// Errors.

TEST(PipelineEvaluate, ModelErrors) {
  const auto app = pipeline_with_data();
  const auto arch = with_links(2);
  // Wrong number of kernel rows, wrong row width.
  EXPECT_THROW(evaluate(app, arch, Mapping{{{1, 0}, {1, 0}}, {}}), model_error);
  EXPECT_THROW(evaluate(app, arch, Mapping{{{1, 0}, {1, 0, 0}, {1, 0}}, {}}), model_error);
  // A kernel without CUs, a negative count.
  EXPECT_THROW(evaluate(app, arch, Mapping{{{1, 0}, {0, 0}, {1, 0}}, {}}), model_error);
  EXPECT_THROW(evaluate(app, arch, Mapping{{{1, 0}, {2, -1}, {1, 0}}, {}}), model_error);
  // Clock fractions for the wrong number of devices.
  EXPECT_THROW(evaluate(app, clocked_arch(), Mapping{{{1, 0}, {1, 0}, {1, 0}}, {1.0}}), model_error);
  // A schedule with transfers without bandwidths.
  EvaluationOptions<FpgaResources> o;
  o.model.schedule = Schedule::sequential_phases;
  EXPECT_THROW(evaluate(app, devices(2), Mapping{{{1, 0}, {1, 0}, {1, 0}}, {}}, o), model_error);
  o.model.schedule = Schedule::double_buffered;
  auto half = devices(2);
  half.host_to_device.bandwidth = 1 * units::GB_per_s;  // device-to-host missing
  EXPECT_THROW(evaluate(app, half, Mapping{{{1, 0}, {1, 0}, {1, 0}}, {}}, o), model_error);
  // Clock degradation without a nominal clock or without the resource it follows.
  EvaluationOptions<FpgaResources> d;
  d.model.clock_degradation = true;
  EXPECT_THROW(evaluate(app, arch, Mapping{{{1, 0}, {1, 0}, {1, 0}}, {}}, d), model_error);
  auto no_resource = clocked_arch();
  no_resource.kind().clock.utilisation_resource.clear();
  EXPECT_THROW(evaluate(clocked_app(), no_resource, Mapping{{{1, 0}, {1, 0}}, {}}, d), model_error);
  // An operating II needs the nominal clock.
  EvaluationOptions<FpgaResources> p;
  p.operating_ii = 50 * units::ms;
  EXPECT_THROW(evaluate(app, arch, Mapping{{{1, 0}, {1, 0}, {1, 0}}, {}}, p), model_error);
  // An invalid architecture.
  auto none = with_links(2);
  none.group().devices = 0;
  EXPECT_THROW(evaluate(app, none, Mapping{{{1, 0}, {1, 0}, {1, 0}}, {}}), model_error);
  auto bad_clock = clocked_arch();
  bad_clock.kind().clock.utilisation_resource = "dps";
  EXPECT_THROW(evaluate(clocked_app(), bad_clock, Mapping{{{1, 0}, {1, 0}}, {}}), model_error);
}

TEST(PipelineEvaluate, ApplicationRejectsBadKernels) {
  App a("bad");
  EXPECT_THROW(a.add(kernel("zero", {0, 1, 0, 0, 0}, 0.0)), model_error);
  EXPECT_THROW(a.add(kernel("negative use", {0, -1, 0, 0, 0}, 1.0)), model_error);
  auto k = kernel("scaling", {0, 1, 0, 0, 0}, 1.0);
  k.input_scaling = 1.5;
  EXPECT_THROW(a.add(k), model_error);
  a.add(kernel("ok", {0, 1, 0, 0, 0}, 1.0));
  EXPECT_THROW(a.connect(0, 0, 1 * units::MB), model_error);
  EXPECT_THROW(a.connect(0, 1, 1 * units::MB), model_error);
}

TEST(PipelineEvaluate, PrintShowsTheBreakdown) {
  EvaluationOptions<FpgaResources> o;
  o.operating_ii = 5 * units::ms;
  const auto e = evaluate(power_app(), power_arch(), Mapping{{{2, 0}, {0, 1}}, {}}, o);
  std::ostringstream s;
  e.print(s);
  EXPECT_NE(s.str().find("II 5 ms"), std::string::npos) << s.str();
  EXPECT_NE(s.str().find("power"), std::string::npos);
  EXPECT_NE(s.str().find("device 2"), std::string::npos);
}

// ---------------------------------------------------------------------------
// Brute force: on random tiny instances, for every mapping with n_kf in 0..3
// (0..2 with 3 kernels on 3 devices),
// the compute-only II is max_k WCET_k / N_k, the spreading
// max_k sum_f n/(1+n), devices_used the devices with a CU, and the
// utilisation the plain sums -- recomputed here independently.

TEST(PipelineEvaluate, BruteForceComputeOnlyMatchesClosedForms) {
  std::mt19937 rng(4242);
  std::uniform_real_distribution<double> wcet(0.1, 20.0), use(0.0, 40.0);
  long checked = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const int Kn = 2 + trial % 2, F = 2 + (trial / 2) % 2;
    std::vector<K> ks;
    for (int k = 0; k < Kn; ++k)
      ks.push_back(kernel("k" + std::to_string(k), {use(rng), use(rng), use(rng), use(rng), use(rng)}, wcet(rng)));
    const auto app = App::pipeline("random", ks);
    const auto arch = devices(F);
    const int cells = Kn * F;
    const int most = cells > 6 ? 2 : 3;  // 3^9 mappings for 3 x 3, 4^6 for 3 x 2
    std::vector<int> n(cells, 0);
    for (;;) {
      Mapping m;
      m.cus.assign(Kn, std::vector<int>(F, 0));
      for (int i = 0; i < cells; ++i) m.cus[i / F][i % F] = n[i];
      bool every_kernel = true;
      for (int k = 0; k < Kn; ++k) every_kernel = every_kernel && m.total(k) > 0;
      if (every_kernel) {
        const auto e = evaluate(app, arch, m);
        double ii = 0, phi = 0;
        std::vector<bool> used(F, false);
        for (int k = 0; k < Kn; ++k) {
          int N = 0;
          double phi_k = 0;
          for (int f = 0; f < F; ++f) {
            N += n[k * F + f];
            phi_k += n[k * F + f] / (1.0 + n[k * F + f]);
            if (n[k * F + f] > 0) used[f] = true;
          }
          ii = std::max(ii, ks[k].implementation().wcet.value() / N);
          phi = std::max(phi, phi_k);
        }
        ASSERT_NEAR(e.ii.value(), ii, 1e-12 * ii);
        ASSERT_NEAR(e.spreading, phi, 1e-12);
        ASSERT_EQ(e.devices_used, static_cast<int>(std::count(used.begin(), used.end(), true)));
        bool fits = true;
        for (int f = 0; f < F; ++f)
          for (std::size_t t = 0; t < 5; ++t) {
            double sum = 0;
            for (int k = 0; k < Kn; ++k) sum += n[k * F + f] * resource_at(ks[k].implementation().use, t);
            ASSERT_NEAR(e.utilisation[f][t], sum / 100.0, 1e-12);
            fits = fits && sum <= 100.0;
          }
        ASSERT_EQ(e.feasible, fits);
        ++checked;
      }
      int i = 0;
      while (i < cells && ++n[i] > most) n[i++] = 0;
      if (i == cells) break;
    }
  }
  EXPECT_GT(checked, 10000);
}

}  // namespace
