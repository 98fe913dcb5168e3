// libFuzzer harness: random sequential graphs and platforms, some malformed
// (zero, negative or non-finite costs, gaps between segments, ranges off the
// cut points), partitioned by solve_partition and, with per-node folding
// options, by solve_folded_partition. Malformed input must throw
// graph_error; well-formed input must give the same optimum as enumerating
// every partition (and every folding). A wrong answer, another exception, a
// crash or a sanitizer report is a bug.
#include <ychart/partition/folding_model.hpp>
#include <ychart/ychart.hpp>

#include <fuzzer/FuzzedDataProvider.h>

#include "../support/folded_partition_oracle.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <vector>

namespace {

double value(FuzzedDataProvider& in, double scale) {
  switch (in.ConsumeIntegralInRange(0, 19)) {  // mostly sensible, sometimes not
    case 0: return 0.0;
    case 1: return -scale;
    case 2: return std::numeric_limits<double>::quiet_NaN();
    case 3: return std::numeric_limits<double>::infinity();
    default: return scale * (0.05 + in.ConsumeIntegralInRange(1, 200) / 20.0);
  }
}

[[noreturn]] void fail(const char* what, double a, double b) {
  std::fprintf(stderr, "fuzz_partition: %s: %.17g vs %.17g\n", what, a, b);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace ychart;
  using namespace ychart::partition;
  FuzzedDataProvider in(data, size);
  SequentialGraph g;
  g.name = "fuzz";
  g.input = value(in, 1e5) * units::B;
  const int n = in.ConsumeIntegralInRange(1, 4);
  FoldableGraph nodes(static_cast<std::size_t>(n));
  int node = 0;
  for (int i = 0; i < n; ++i) {
    Segment s;
    s.name = "s" + std::to_string(i);
    s.first_node = node + (in.ConsumeIntegralInRange(0, 15) == 0 ? 1 : 0);  // sometimes a gap
    node = s.first_node + in.ConsumeIntegralInRange(in.ConsumeIntegralInRange(0, 9) == 0 ? 0 : 1, 4);
    s.end_node = node;
    s.cpu_time = value(in, 1e-3) * units::s;
    s.fpga_cycles = value(in, 1e6);
    s.fpga_max_node_cycles = s.fpga_cycles * in.ConsumeIntegralInRange(1, 10) / 10.0;
    s.output = value(in, 1e5) * units::B;
    s.fpga.bram = std::floor(value(in, 10)) * units::BRAM_18K;
    s.fpga.lut = value(in, 1e3) * units::LUT;
    s.has_threshold = i > 0 || in.ConsumeBool();
    const int nn = in.ConsumeIntegralInRange(1, 2);
    for (int k = 0; k < nn; ++k) {
      FoldableNode f{"n" + std::to_string(k), {}, {}};
      const int options = in.ConsumeIntegralInRange(1, 3);
      for (int o = 0; o < options; ++o) {
        NodeOption opt{"o" + std::to_string(o), 1, 1, value(in, 1e6), {}, ""};
        opt.fpga.bram = std::floor(value(in, 10)) * units::BRAM_18K;
        opt.fpga.lut = value(in, 1e3) * units::LUT;
        f.options.push_back(opt);
      }
      nodes[std::size_t(i)].push_back(f);
    }
    g.segments.push_back(s);
  }
  Platform p;
  p.fpga.name = "fuzz FPGA";
  p.fpga.clock = value(in, 1e8) * units::Hz;
  p.fpga.budget.bram = value(in, 20) * units::BRAM_18K;
  p.fpga.budget.lut = value(in, 3e3) * units::LUT;
  p.to_fpga = {value(in, 1e-9) * (units::s / units::B), value(in, 1e-4) * units::s};
  p.from_fpga = {value(in, 1e-9) * (units::s / units::B), value(in, 1e-4) * units::s};
  PartitionOptions o;
  o.max_fpga_ranges = in.ConsumeIntegralInRange(1, 2);
  o.schedule = in.ConsumeBool() ? Schedule::pipelined : Schedule::sequential;
  o.min_fpga_ranges = in.ConsumeIntegralInRange(0, 9) == 0 ? 1 : 0;
  const bool well_formed = [&] {
    try {
      g.validate();
      p.validate();
      return true;
    } catch (const graph_error&) {
      return false;
    }
  }();
  if (!well_formed) {
    try {
      solve_partition(g, p, o);
    } catch (const graph_error&) {
      return 0;
    }
    std::fprintf(stderr, "fuzz_partition: a malformed graph was accepted\n");
    std::abort();
  }
  // The plain model against enumeration.
  EnumerateOptions eo;
  eo.max_fpga_ranges = o.max_fpga_ranges;
  eo.schedule = o.schedule;
  eo.include_all_cpu = o.min_fpga_ranges == 0;
  double best = std::numeric_limits<double>::infinity();
  for (const auto& c : enumerate_partitions(g, p, eo)) best = std::min(best, c.interval.value());
  const auto r = solve_partition(g, p, o);
  if (std::isinf(best)) {
    if (r.status != Status::infeasible) fail("enumeration finds nothing, the model no infeasible", 0, 0);
  } else {
    if (r.status != Status::optimal) fail("the model is not optimal", 0, best);
    if (std::abs(r.cost.interval.value() - best) > 1e-7 * best) fail("plain optimum", r.cost.interval.value(), best);
  }
  // The folded model against brute force over ranges and options.
  bool options_ok = true;
  for (const auto& seg : nodes)
    for (const auto& f : seg)
      for (const auto& opt : f.options) {
        const auto c = opt.fpga.counts();
        options_ok = options_ok && opt.cycles > 0 && std::isfinite(opt.cycles) && c[0] >= 0 && c[1] >= 0 &&
                     std::isfinite(c[0]) && std::isfinite(c[1]);
      }
  if (!options_ok) {
    try {
      solve_folded_partition(g, nodes, p, o);
    } catch (const graph_error&) {
      return 0;
    }
    std::fprintf(stderr, "fuzz_partition: a malformed option was accepted\n");
    std::abort();
  }
  const double folded_best = brute_force_folded_interval(g, nodes, p, o.min_fpga_ranges, o.max_fpga_ranges, o.schedule);
  const auto f = solve_folded_partition(g, nodes, p, o);
  if (std::isinf(folded_best)) {
    if (f.status != Status::infeasible) fail("brute force finds no folding, the model no infeasible", 0, 0);
  } else {
    if (f.status != Status::optimal) fail("the folded model is not optimal", 0, folded_best);
    if (std::abs(f.cost.interval.value() - folded_best) > 1e-7 * folded_best)
      fail("folded optimum", f.cost.interval.value(), folded_best);
  }
  return 0;
}
