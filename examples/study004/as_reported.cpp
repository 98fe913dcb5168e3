// examples/study004/as_reported.cpp
// Definitions of as_reported.hpp, a source of the study004 example of its own, so
// that no one file of the example compiles the whole study.
#include "study004/as_reported.hpp"

namespace study004 {

io::Table as_reported(const Setting& s, MobileNetV1& out) {
  const auto& m = s.m;
  const auto& g = s.g;
  const auto& as_labelled = s.as_labelled;
  const double cpu_only_ms = s.cpu_only_ms;
  const auto& best2 = *std::min_element(m.algorithm2.begin(), m.algorithm2.end(),
                                        [](const auto& a, const auto& b) { return a.total_ms < b.total_ms; });
  const double reported_speedup = m.cpu_only_ms / best2.total_ms;
  const auto t0 = std::chrono::steady_clock::now();
  const auto exact = solve_partition(g, as_labelled);
  const double exact_ms = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() * 1e3;
  const auto t1 = std::chrono::steady_clock::now();
  const auto all = enumerate_partitions(g, as_labelled);
  const double enumerate_ms = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count() * 1e3;
  io::Table a({{"source", "", 1}, {"FPGA range", "", 1}, {"FPGA [\"ms\"]", "", 6}, {"CPU [ms]", "", 7},
               {"total [\"ms\"]", "", 7}, {"speed-up", "x", 4}, {"BRAM_18K", "", 4}});
  for (const auto& r : m.algorithm2)
    a.add_row({std::string("thesis, Table 5.2"), range_text({r.fpga}), r.fpga_ms, r.cpu_ms, r.total_ms,
               m.cpu_only_ms / r.total_ms, std::monostate{}});
  auto ours = [&](const std::string& what, const std::vector<partition::NodeRange>& fpga,
                  const partition::PartitionCost& c) {
    a.add_row({what, range_text(fpga), (c.fpga_compute + c.to_fpga + c.from_fpga).in(units::ms), c.cpu.in(units::ms),
               c.latency.in(units::ms), cpu_only_ms / c.latency.in(units::ms), c.used.bram.value()});
  };
  for (const auto& r : m.algorithm2) ours("ours, same arithmetic", {r.fpga}, evaluate(g, as_labelled, {r.fpga}));
  ours("ours, exact model (argmin)", exact.cost.fpga, exact.cost);
  std::printf("(a) as reported: FPGA cycles x 1e-8 labelled ms, added to CPU milliseconds; BRAM_18K <= 144\n");
  a.print(std::cout);
  partition::EnumerateOptions every;
  every.check_resources = false;
  every.include_all_cpu = false;
  const std::size_t valid = enumerate_partitions(g, as_labelled, every).size();
  std::printf("thesis: argmin %s, %.4f \"ms\", %.4fx (reported %.2fx). Exact model: %s in %.2f ms; enumeration "
              "of the %zu valid ranges (%zu fit): %.2f ms\n\n",
              range_text({best2.fpga}).c_str(), best2.total_ms, reported_speedup, m.speedup,
              range_text(exact.cost.fpga).c_str(), exact_ms, valid, all.size() - 1, enumerate_ms);
  out.ranges = static_cast<long>(g.segments.size() * (g.segments.size() + 1) / 2);
  out.valid_ranges = static_cast<long>(valid);
  out.as_reported = {fpga_nodes({best2.fpga}), best2.total_ms, "ms (as labelled; FPGA terms are s)", reported_speedup,
                     {fpga_nodes(exact.cost.fpga), exact.cost.latency.in(units::ms)}};
  return a;
}

io::Table cnv_and_cybsec(const MobileNet& m) {
  io::Table small({{"network", "", 1}, {"argmin of the thesis's top 5", "", 1}, {"total [\"ms\"]", "", 6},
                   {"rows that check (FPGA + CPU = total)", "", 1}});
  for (const auto* rows : {&m.cnv, &m.cybsec}) {
    const auto& best = *std::min_element(rows->begin(), rows->end(),
                                         [](const auto& x, const auto& y) { return x.total_ms < y.total_ms; });
    long sums = 0;
    for (const auto& r : *rows) sums += std::abs(r.fpga_ms + r.cpu_ms - r.total_ms) <= 1.5e-4;
    small.add_row({std::string(rows == &m.cnv ? "CNV (Table 5.8)" : "cybersecurity MLP (Table 5.9)"),
                   range_text({best.fpga}), best.total_ms, std::to_string(sums) + " of " + std::to_string(rows->size())});
  }
  std::printf("CNV and the cybersecurity MLP, as reported (the thesis publishes no layer data or CPU-only time for "
              "them, so no consistent-units answer):\n");
  small.print(std::cout);
  std::printf("\n");
  return small;
}

io::Table faster_cpu(const Setting& s) {
  io::Table faster({{"n", "", 1}, {"thesis: best [\"ms\"]", "", 5}, {"ours, its arithmetic", "", 5},
                    {"FPGA range (its arithmetic)", "", 1}, {"consistent: optimum", "ms", 5},
                    {"FPGA range (consistent)", "", 1}});
  for (const auto& row : s.m.table_5_4) {
    partition::Platform reported_n = s.as_labelled, consistent_n = s.thesis_kv260;
    reported_n.cpu_speedup = consistent_n.cpu_speedup = row.n;
    const auto a_n = solve_partition(s.g, reported_n), b_n = solve_partition(s.g, consistent_n);
    faster.add_row({long(row.n), row.min_ms, a_n.cost.latency.in(units::ms), range_text(a_n.cost.fpga),
                    b_n.cost.latency.in(units::ms), range_text(b_n.cost.fpga)});
  }
  std::printf("Table 5.4: a CPU n times faster (Eq. 5.2), the exact optimum for each n\n");
  faster.print(std::cout);
  std::printf("\n");
  return faster;
}

}  // namespace study004
