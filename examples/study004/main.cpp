// examples/study004/main.cpp
// Study 004 (P. Geel, MSc thesis, TU Delft, 2023): MobileNetV1-w4a4 split
// between the Kria KV260's Cortex-A53 and its FPGA, one contiguous FPGA
// range. The thesis enumerated the 406 ranges, costed each with FINN's
// estimate (cycles x 10 ns, labelled ms), two transfer fits and measured CPU
// times (ms), and took the argmin: range(0, 81), 126.61 "ms", 2.82x faster
// than the CPU alone. Its FPGA times are seconds (digest section 6.2).
//   (a) as reported: the thesis's tables and arithmetic, with its labels;
//       and our reconstruction under the same arithmetic, solved exactly;
//   (b) consistent units at PE = SIMD = 1: cycles / 100 MHz is a time, and
//       the exact optimum is the CPU alone.
// Data: examples/data/geel2023/mobilenet_v1.json (the reconstructed layer
// table; every assumption is stated there). --json prints
// {"mobilenet_v1": {"ranges", "cpu_only_s", "as_reported", "consistent", "fpga_0_81", ...}}.
#include "common/cli.hpp"
#include "study004/mobilenet.hpp"

#include <ychart/io/svg.hpp>
#include <ychart/partition.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using namespace ychart;
using namespace ychart::partition;
using namespace study004;

std::string range_text(const std::vector<NodeRange>& r) {
  if (r.empty()) return "none (all on the CPU)";
  std::string s;
  for (const auto& x : r) s += (s.empty() ? "" : ", ") + std::string("range(") + std::to_string(x.begin) + ", " +
                               std::to_string(x.end) + ")";
  return s;
}

void write_range(io::JsonWriter& json, const std::vector<NodeRange>& r) {
  if (r.empty()) {
    json.value(nullptr);
    return;
  }
  json.begin_array().value(static_cast<long>(r.front().begin)).value(static_cast<long>(r.front().end)).end_array();
}

}  // namespace

int main(int argc, char** argv) {
  std::string data;
  examples::Outputs outputs("study004", "study004_figures");
  examples::CommandLine cli("Study 004: MobileNetV1 split between the KV260's CPU and FPGA, as the thesis reported it and in "
               "consistent units, solved exactly");
  cli.option("--data", data, "Directory of the transcribed tables (default: the source tree's examples/data)");
  outputs.add_options(cli);
  if (auto rc = cli.parse(argc, argv)) return *rc;
  try {
    if (int rc = outputs.begin()) return rc;
    const std::filesystem::path dir = data.empty() ? std::filesystem::path(YCHART_EXAMPLES_DATA_DIR) : std::filesystem::path(data);
    const MobileNet m = load_mobilenet(dir / "geel2023" / "mobilenet_v1.json");
    const SequentialGraph g = mobilenet_graph(m);  // PE = SIMD = 1, as the thesis ran FINN
    const Platform thesis_kv260 = kv260(m, true);  // 144 BRAM_18K, the thesis's comparison
    const Platform device_kv260 = kv260(m, false);  // 144 BRAM_36K = 288 BRAM_18K
    // The thesis's arithmetic: runtime = cycles * 1e-8 (seconds at 10 ns per cycle), labelled ms and added
    // to milliseconds. In ychart a bare number cannot be added to a time; said in units, it is a clock of
    // 100 GHz: cycles / (100 GHz) = cycles * 1e-8 ms.
    Platform as_labelled = thesis_kv260;
    as_labelled.fpga.clock = 100 * units::GHz;
    const double cpu_only_ms = evaluate(g, thesis_kv260, {}).latency.in(units::ms);
    std::printf("Study 004: %s, %zu segments between %zu cut points, %d nodes; CPU alone %.2f ms (thesis %.2f)\n\n",
                g.name.c_str(), g.segments.size(), g.segments.size() + 1, g.node_count(), cpu_only_ms, m.cpu_only_ms);

    // ---- (a) as reported ----
    const auto& best2 = *std::min_element(m.algorithm2.begin(), m.algorithm2.end(),
                                          [](const auto& a, const auto& b) { return a.total_ms < b.total_ms; });
    const double reported_speedup = m.cpu_only_ms / best2.total_ms;
    const auto t0 = std::chrono::steady_clock::now();
    const auto as_reported = solve_partition(g, as_labelled);
    const double exact_ms = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() * 1e3;
    const auto t1 = std::chrono::steady_clock::now();
    const auto all = enumerate_partitions(g, as_labelled);
    const double enumerate_ms = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count() * 1e3;
    io::Table a({{"source", "", 1}, {"FPGA range", "", 1}, {"FPGA [\"ms\"]", "", 6}, {"CPU [ms]", "", 7},
                 {"total [\"ms\"]", "", 7}, {"speed-up", "x", 4}, {"BRAM_18K", "", 4}});
    for (const auto& r : m.algorithm2)
      a.add_row({std::string("thesis, Table 5.2"), range_text({r.fpga}), r.fpga_ms, r.cpu_ms, r.total_ms,
                 m.cpu_only_ms / r.total_ms, std::monostate{}});
    for (const auto& r : m.algorithm2) {
      const auto c = evaluate(g, as_labelled, {r.fpga});
      a.add_row({std::string("ours, same arithmetic"), range_text({r.fpga}),
                 (c.fpga_compute + c.to_fpga + c.from_fpga).in(units::ms), c.cpu.in(units::ms),
                 c.latency.in(units::ms), cpu_only_ms / c.latency.in(units::ms), c.used.bram.value()});
    }
    a.add_row({std::string("ours, exact model (argmin)"), range_text(as_reported.cost.fpga),
               (as_reported.cost.fpga_compute + as_reported.cost.to_fpga + as_reported.cost.from_fpga).in(units::ms),
               as_reported.cost.cpu.in(units::ms), as_reported.cost.latency.in(units::ms),
               cpu_only_ms / as_reported.cost.latency.in(units::ms), as_reported.cost.used.bram.value()});
    std::printf("(a) as reported: FPGA cycles x 1e-8 labelled ms, added to CPU milliseconds; BRAM_18K <= 144\n");
    a.print(std::cout);
    EnumerateOptions every;
    every.check_resources = false;
    every.include_all_cpu = false;
    const std::size_t valid = enumerate_partitions(g, as_labelled, every).size();
    std::printf("thesis: argmin %s, %.4f \"ms\", %.4fx (reported %.2fx). Exact model: %s in %.2f ms; enumeration "
                "of the %zu valid ranges (%zu fit): %.2f ms\n\n",
                range_text({best2.fpga}).c_str(), best2.total_ms, reported_speedup, m.speedup,
                range_text(as_reported.cost.fpga).c_str(), exact_ms, valid, all.size() - 1, enumerate_ms);

    // CNV and the cybersecurity MLP: the thesis's tables only (no layer data, no CPU-only time).
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

    // ---- (b) consistent units ----
    const auto consistent = solve_partition(g, thesis_kv260);
    const auto consistent_device = solve_partition(g, device_kv260);
    const auto pipelined = solve_partition(g, device_kv260, pipelined_options());
    const auto thesis_choice = evaluate(g, thesis_kv260, {NodeRange{0, 81}});
    const auto whole = evaluate(g, thesis_kv260, {NodeRange{0, g.node_count()}});
    io::Table b({{"case", "", 1}, {"FPGA range", "", 1}, {"status", "", 1}, {"CPU", "ms", 4}, {"FPGA compute", "ms", 4},
                 {"transfers", "ms", 4}, {"latency", "ms", 4}, {"vs CPU alone", "x", 4}, {"fits", "", 1}});
    auto row = [&](const std::string& what, const PartitionCost& c, const std::string& status) {
      b.add_row({what, range_text(c.fpga), status, c.cpu.in(units::ms), c.fpga_compute.in(units::ms),
                 (c.to_fpga + c.from_fpga).in(units::ms), c.latency.in(units::ms),
                 cpu_only_ms / c.latency.in(units::ms), std::string(c.fits ? "yes" : "no: " + c.over_budget)});
    };
    row("exact optimum, thesis's budget", consistent.cost, std::string(to_string(consistent.status)));
    row("exact optimum, 288 BRAM_18K", consistent_device.cost, std::string(to_string(consistent_device.status)));
    row("the thesis's choice", thesis_choice, "-");
    row("whole network on the FPGA", whole, "-");
    std::printf("(b) consistent units, PE = SIMD = 1: cycles / (100 MHz) is a time\n");
    b.print(std::cout);
    std::printf("pipelined (frames stream through CPU, link and FPGA at once): exact optimum %s, %.2f frames/s "
                "(CPU alone %.2f)\n\n",
                range_text(pipelined.cost.fpga).c_str(), pipelined.cost.frames_per_second(), 1e3 / cpu_only_ms);

    // ---- Table 5.4: a CPU n times faster (Eq. 5.2) ----
    io::Table faster({{"n", "", 1}, {"thesis: best [\"ms\"]", "", 5}, {"ours, its arithmetic", "", 5},
                      {"FPGA range (its arithmetic)", "", 1}, {"consistent: optimum", "ms", 5},
                      {"FPGA range (consistent)", "", 1}});
    for (const auto& row : m.table_5_4) {
      Platform reported_n = as_labelled, consistent_n = thesis_kv260;
      reported_n.cpu_speedup = consistent_n.cpu_speedup = row.n;
      const auto a_n = solve_partition(g, reported_n), b_n = solve_partition(g, consistent_n);
      faster.add_row({long(row.n), row.min_ms, a_n.cost.latency.in(units::ms), range_text(a_n.cost.fpga),
                      b_n.cost.latency.in(units::ms), range_text(b_n.cost.fpga)});
    }
    std::printf("Table 5.4: a CPU n times faster (Eq. 5.2), the exact optimum for each n\n");
    faster.print(std::cout);
    std::printf("\n");

    // ---- (c) folding, jointly with the partition ----
    const FoldableGraph foldable = foldable_mobilenet(m);
    PartitionOptions fastest;
    fastest.schedule = Schedule::pipelined;
    // The and the thesis's limits (BRAM_18K 144), then the device's (288 BRAM_18K).
    const auto folded = solve_folded_partition(g, foldable, thesis_kv260, fastest);
    const auto folded_latency = solve_folded_partition(g, foldable, thesis_kv260, PartitionOptions{});
    const auto folded288 = solve_folded_partition(g, foldable, device_kv260, fastest);
    const auto folded288_latency = solve_folded_partition(g, foldable, device_kv260, PartitionOptions{});
    PartitionOptions fixed81 = fastest;
    fixed81.fixed_fpga = {NodeRange{0, 81}};
    const auto folded81 = solve_folded_partition(g, foldable, thesis_kv260, fixed81);
    io::Table c({{"objective", "", 1}, {"BRAM_18K budget", "", 1}, {"status", "", 1}, {"FPGA range", "", 1},
                 {"frames/s", "", 4}, {"latency", "ms", 4}, {"BRAM_18K", "", 4}, {"LUT", "", 6}, {"URAM", "", 3},
                 {"DSP", "", 1}, {"solve", "s", 3}});
    auto crow = [&](const std::string& what, const std::string& budget, const FoldedPartition& r) {
      c.add_row({what, budget, std::string(to_string(r.status)), range_text(r.cost.fpga), r.cost.frames_per_second(),
                 r.cost.latency.in(units::ms), r.cost.used.bram.value(), r.cost.used.lut.value(), r.cost.used.uram.value(),
                 r.cost.used.dsp.value(), r.seconds});
    };
    crow("most frames/s (pipelined)", "144 (thesis)", folded);
    crow("least latency (sequential)", "144 (thesis)", folded_latency);
    crow("most frames/s, range(0, 81) fixed", "144 (thesis)", folded81);
    crow("most frames/s (pipelined)", "288 (device)", folded288);
    crow("least latency (sequential)", "288 (device)", folded288_latency);
    std::printf("(c) folding (PE, SIMD, weights in BRAM or URAM per layer) and partition together, KV260 with "
                "117,120 LUT, 64 URAM, 1,248 DSP; proven optima; %zu options, %zu after dropping dominated ones\n",
                folded.options, folded.kept);
    c.print(std::cout);
    io::Table fold({{"segment", "", 1}, {"node", "", 1}, {"PE", "", 1}, {"SIMD", "", 1}, {"option", "", 1},
                    {"cycles", "", 6}});
    for (std::size_t sgi = 0; sgi < foldable.size(); ++sgi)
      for (std::size_t k = 0; k < foldable[sgi].size(); ++k) {
        const int oi = folded.choice.empty() ? -1 : folded.choice[sgi][k];
        if (oi < 0) continue;
        const auto& o = foldable[sgi][k].options[std::size_t(oi)];
        fold.add_row({g.segments[sgi].name, foldable[sgi][k].name, long(o.pe), long(o.simd), o.label, o.cycles});
      }
    io::LineChart cycles_chart;
    cycles_chart.title = "MobileNetV1 on the KV260: cycles per FPGA node (study 004)";
    cycles_chart.x_label = "dataflow node, in graph order";
    cycles_chart.y_label = "cycles per frame";
    cycles_chart.log_y = true;
    io::Series unit_series{"PE = SIMD = 1 (the thesis)", {}, {}}, folded_series{"folded, most frames/s", {}, {}};
    {
      const std::vector<Folding> one(m.layers.size() + 1);
      double x = 0;
      for (std::size_t sgi = 0; sgi < foldable.size(); ++sgi) {
        const auto detail = segment_detail(m, sgi, one);
        for (std::size_t k = 0; k < foldable[sgi].size(); ++k, ++x) {
          unit_series.x.push_back(x), unit_series.y.push_back(detail.node_cycles.at(k).second);
          const int oi = folded.choice.empty() ? -1 : folded.choice[sgi][k];
          if (oi >= 0) folded_series.x.push_back(x), folded_series.y.push_back(foldable[sgi][k].options[std::size_t(oi)].cycles);
        }
      }
    }
    unit_series.markers = folded_series.markers = false;
    cycles_chart.series = {unit_series, folded_series};
    outputs.figure("mobilenet_folding_cycles.svg", cycles_chart);
    std::printf("the folding at the most frames/s, 144 BRAM_18K (FPGA nodes only):\n");
    fold.print(std::cout);
    std::printf("\n");

    // ---- range(0, 81) at PE = SIMD = 1 ----
    const auto f81 = evaluate(g, thesis_kv260, {NodeRange{0, 81}}, Schedule::pipelined);
    io::Table r81({{"range(0, 81)", "", 1}, {"ours", "", 6}, {"thesis", "", 6}});
    r81.add_row({std::string("BRAM_18K"), f81.used.bram.value(), m.thesis_bram_0_81});
    r81.add_row({std::string("LUT"), f81.used.lut.value(), m.thesis_lut_0_81});
    r81.add_row({std::string("frames/s (FPGA alone)"), 1.0 / (f81.fpga_max_node_cycles / thesis_kv260.fpga.clock.value()),
                 m.thesis_fps_0_81});
    r81.print(std::cout);

    // ---- figure: latency of every prefix range [0, l), both readings ----
    io::LineChart chart;
    chart.title = "MobileNetV1 on the KV260: FPGA prefix range(0, l) (study 004)";
    chart.x_label = "end of the FPGA range l (node)";
    chart.y_label = "latency (ms)";
    chart.log_y = true;
    io::Series reported{"as reported (s read as ms)", {}, {}}, typed{"consistent units", {}, {}},
        cpu_line{"CPU alone", {}, {}};
    cpu_line.dashed = true, cpu_line.markers = false;
    for (std::size_t s = 1; s < g.segments.size(); ++s) {
      const NodeRange r{0, g.segments[s].end_node};
      const double x = r.end;
      reported.x.push_back(x), reported.y.push_back(evaluate(g, as_labelled, {r}).latency.in(units::ms));
      typed.x.push_back(x), typed.y.push_back(evaluate(g, thesis_kv260, {r}).latency.in(units::ms));
      cpu_line.x.push_back(x), cpu_line.y.push_back(cpu_only_ms);
    }
    chart.series = {reported, typed, cpu_line};
    outputs.figure("mobilenet_prefix_latency.svg", chart);

    outputs.add_table("as_reported", a);
    outputs.add_table("consistent", b);
    outputs.add_table("fpga_0_81", r81);
    outputs.add_table("cnv_cybsec_as_reported", small);
    outputs.add_table("faster_cpu", faster);
    outputs.add_table("folded", c);
    outputs.add_table("folding", fold);
    outputs.add_json("mobilenet_v1", [&](io::JsonWriter& json) {
      json.begin_object();
      json.key("ranges").value(static_cast<long>(g.segments.size() * (g.segments.size() + 1) / 2));
      json.key("valid_ranges").value(static_cast<long>(valid));
      json.key("cpu_only_s").value(cpu_only_ms * 1e-3);
      json.key("as_reported").begin_object();
      json.key("fpga_nodes");
      write_range(json, {best2.fpga});
      json.key("total").value(best2.total_ms).key("unit").value(std::string("ms (as labelled; FPGA terms are s)"));
      json.key("speedup").value(reported_speedup);
      json.key("ours").begin_object().key("fpga_nodes");
      write_range(json, as_reported.cost.fpga);
      json.key("total").value(as_reported.cost.latency.in(units::ms)).end_object();
      json.end_object();
      json.key("consistent").begin_object();
      json.key("status").value(std::string(to_string(consistent.status)));
      json.key("fpga_nodes");
      write_range(json, consistent.cost.fpga);
      json.key("total_s").value(consistent.cost.latency.value());
      json.key("speedup").value(cpu_only_ms * 1e-3 / consistent.cost.latency.value());
      json.key("thesis_choice_s").value(thesis_choice.latency.value());
      json.end_object();
      json.key("folded").begin_object();
      json.key("status").value(std::string(to_string(folded.status)));
      json.key("fpga_nodes");
      write_range(json, folded.cost.fpga);
      json.key("total_s").value(folded.cost.latency.value());
      json.key("fps").value(folded.cost.frames_per_second());
      json.key("bram18k").value(folded.cost.used.bram.value()).key("lut").value(folded.cost.used.lut.value());
      json.key("uram").value(folded.cost.used.uram.value()).key("dsp").value(folded.cost.used.dsp.value());
      json.key("folding").begin_array();
      for (std::size_t sgi = 0; sgi < foldable.size(); ++sgi)
        for (std::size_t k = 0; k < foldable[sgi].size(); ++k) {
          const int oi = folded.choice.empty() ? -1 : folded.choice[sgi][k];
          if (oi < 0) continue;
          const auto& o = foldable[sgi][k].options[std::size_t(oi)];
          json.begin_object().key("segment").value(g.segments[sgi].name).key("node").value(foldable[sgi][k].name);
          json.key("pe").value(o.pe).key("simd").value(o.simd).key("option").value(o.label).key("cycles").value(o.cycles);
          json.end_object();
        }
      json.end_array();
      auto brief = [&](const char* key, const FoldedPartition& r) {
        json.key(key).begin_object().key("status").value(std::string(to_string(r.status))).key("fpga_nodes");
        write_range(json, r.cost.fpga);
        json.key("total_s").value(r.cost.latency.value()).key("fps").value(r.cost.frames_per_second());
        json.key("speedup").value(cpu_only_ms * 1e-3 / r.cost.latency.value()).key("bram18k").value(r.cost.used.bram.value());
        json.end_object();
      };
      json.key("budget_bram18k").value(thesis_kv260.fpga.budget.bram.value());
      brief("least_latency", folded_latency);
      brief("device_288_bram18k", folded288);
      brief("device_288_bram18k_least_latency", folded288_latency);
      json.end_object();
      json.key("fpga_0_81").begin_object();
      json.key("bram18k").value(f81.used.bram.value()).key("lut").value(f81.used.lut.value());
      json.key("fps").value(1.0 / (f81.fpga_max_node_cycles / thesis_kv260.fpga.clock.value()));
      json.end_object();
      json.end_object();
    });
    std::printf("\nfigures in %s/\n", outputs.svg_dir().c_str());
    return outputs.finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "study004: %s\n", e.what());
    return 1;
  }
}
