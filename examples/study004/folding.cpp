// examples/study004/folding.cpp
// Definitions of folding.hpp, a source of the study004 example of its own,
// so that no one file of the example compiles the whole study.
#include "study004/folding.hpp"

#include <ychart/io/file.hpp>

#include <sstream>

namespace study004 {

namespace {

FoldedBrief brief(const Setting& s, const partition::FoldedPartition& r) {
  return {std::string(to_string(r.status)), fpga_nodes(r.cost.fpga), r.cost.latency.value(),
          r.cost.frames_per_second(), s.cpu_only_ms * 1e-3 / r.cost.latency.value(), r.cost.used.bram.value()};
}

/// The option chosen for node k of segment sgi, or nullptr when the node is
/// not on the FPGA (or there is no partition).
const auto* chosen_option(const partition::FoldableGraph& foldable, const partition::FoldedPartition& folded,
                          std::size_t sgi, std::size_t k) {
  const int oi = folded.choice.empty() ? -1 : folded.choice[sgi][k];
  return oi >= 0 ? &foldable[sgi][k].options[std::size_t(oi)] : nullptr;
}

/// The chosen option of every FPGA node, in graph order: (segment, node, option).
template <class F>
void for_each_chosen(const partition::FoldableGraph& foldable, const partition::FoldedPartition& folded, F&& f) {
  for (std::size_t sgi = 0; sgi < foldable.size(); ++sgi)
    for (std::size_t k = 0; k < foldable[sgi].size(); ++k)
      if (const auto* o = chosen_option(foldable, folded, sgi, k)) f(sgi, k, *o);
}

/// Cycles per FPGA node at PE = SIMD = 1 and at the chosen folding.
void draw_folding_cycles(const Setting& s, const partition::FoldableGraph& foldable,
                         const partition::FoldedPartition& folded, examples::Outputs& outputs) {
  io::LineChart chart;
  chart.title = "MobileNetV1 on the KV260: cycles per FPGA node (study 004)";
  chart.x_label = "dataflow node, in graph order";
  chart.y_label = "cycles per frame";
  chart.log_y = true;
  io::Series unit_series{"PE = SIMD = 1 (the thesis)", {}, {}}, folded_series{"folded, most frames/s", {}, {}};
  const std::vector<Folding> one(s.m.layers.size() + 1);
  double x = 0;
  for (std::size_t sgi = 0; sgi < foldable.size(); ++sgi) {
    const auto detail = segment_detail(s.m, sgi, one);
    for (std::size_t k = 0; k < foldable[sgi].size(); ++k, ++x) {
      unit_series.x.push_back(x), unit_series.y.push_back(detail.node_cycles.at(k).second);
      if (const auto* o = chosen_option(foldable, folded, sgi, k)) folded_series.x.push_back(x), folded_series.y.push_back(o->cycles);
    }
  }
  unit_series.markers = folded_series.markers = false;
  chart.series = {unit_series, folded_series};
  outputs.figure("mobilenet_folding_cycles.svg", chart);
}

}  // namespace

/// Fills `out`'s folded.
FoldingTables folding_and_partition(const Setting& s, MobileNetV1& out, examples::Outputs& outputs) {
  const auto& g = s.g;
  const partition::FoldableGraph foldable = foldable_mobilenet(s.m);
  partition::PartitionOptions fastest;
  fastest.schedule = partition::Schedule::pipelined;
  // The and the thesis's limits (BRAM_18K 144), then the device's (288 BRAM_18K).
  const auto folded = solve_folded_partition(g, foldable, s.thesis_kv260, fastest);
  const auto folded_latency = solve_folded_partition(g, foldable, s.thesis_kv260, partition::PartitionOptions{});
  const auto folded288 = solve_folded_partition(g, foldable, s.device_kv260, fastest);
  const auto folded288_latency = solve_folded_partition(g, foldable, s.device_kv260, partition::PartitionOptions{});
  partition::PartitionOptions fixed81 = fastest;
  fixed81.fixed_fpga = {partition::NodeRange{0, 81}};
  const auto folded81 = solve_folded_partition(g, foldable, s.thesis_kv260, fixed81);
  FoldingTables t{io::Table({{"objective", "", 1}, {"BRAM_18K budget", "", 1}, {"status", "", 1},
                             {"FPGA range", "", 1}, {"frames/s", "", 4}, {"latency", "ms", 4}, {"BRAM_18K", "", 4},
                             {"LUT", "", 6}, {"URAM", "", 3}, {"DSP", "", 1}, {"solve", "s", 3}}),
                  io::Table({{"segment", "", 1}, {"node", "", 1}, {"PE", "", 1}, {"SIMD", "", 1}, {"option", "", 1},
                             {"cycles", "", 6}})};
  auto row = [&](const std::string& what, const std::string& budget, const partition::FoldedPartition& r) {
    t.optima.add_row({what, budget, std::string(to_string(r.status)), range_text(r.cost.fpga),
                      r.cost.frames_per_second(), r.cost.latency.in(units::ms), r.cost.used.bram.value(),
                      r.cost.used.lut.value(), r.cost.used.uram.value(), r.cost.used.dsp.value(), r.seconds});
  };
  row("most frames/s (pipelined)", "144 (thesis)", folded);
  row("least latency (sequential)", "144 (thesis)", folded_latency);
  row("most frames/s, range(0, 81) fixed", "144 (thesis)", folded81);
  row("most frames/s (pipelined)", "288 (device)", folded288);
  row("least latency (sequential)", "288 (device)", folded288_latency);
  std::printf("(c) folding (PE, SIMD, weights in BRAM or URAM per layer) and partition together, KV260 with "
              "117,120 LUT, 64 URAM, 1,248 DSP; proven optima; %zu options, %zu after dropping dominated ones\n",
              folded.options, folded.kept);
  t.optima.print(std::cout);
  auto& f = out.folded;
  f = {std::string(to_string(folded.status)), fpga_nodes(folded.cost.fpga), folded.cost.latency.value(),
       folded.cost.frames_per_second(), folded.cost.used.bram.value(), folded.cost.used.lut.value(),
       folded.cost.used.uram.value(), folded.cost.used.dsp.value(), {}, s.thesis_kv260.fpga.budget.bram.value(),
       brief(s, folded_latency), brief(s, folded288), brief(s, folded288_latency)};
  for_each_chosen(foldable, folded, [&](std::size_t sgi, std::size_t k, const auto& o) {
    t.folding.add_row({g.segments[sgi].name, foldable[sgi][k].name, long(o.pe), long(o.simd), o.label, o.cycles});
    f.folding.push_back({g.segments[sgi].name, foldable[sgi][k].name, o.pe, o.simd, o.label, o.cycles});
  });
  draw_folding_cycles(s, foldable, folded, outputs);
  std::printf("the folding at the most frames/s, 144 BRAM_18K (FPGA nodes only):\n");
  t.folding.print(std::cout);
  if (!outputs.svg_dir().empty()) {  // FINN's folding configuration, for its ApplyConfig (docs/partition.md)
    std::ostringstream config;
    partition::write_finn_folding(config, foldable, folded);
    io::write_text_file(outputs.svg("mobilenet_finn_folding.json"), config.str());
    std::printf("that folding as FINN's folding configuration: %s\n", outputs.svg("mobilenet_finn_folding.json").c_str());
  }
  std::printf("\n");
  return t;
}

/// range(0, 81) at PE = SIMD = 1 beside the thesis's synthesis report; fills `out`'s fpga_0_81.
io::Table range_0_81(const Setting& s, MobileNetV1& out) {
  const auto f81 = evaluate(s.g, s.thesis_kv260, {partition::NodeRange{0, 81}}, partition::Schedule::pipelined);
  const double fps = 1.0 / (f81.fpga_max_node_cycles / s.thesis_kv260.fpga.clock.value());
  io::Table r81({{"range(0, 81)", "", 1}, {"ours", "", 6}, {"thesis", "", 6}});
  r81.add_row({std::string("BRAM_18K"), f81.used.bram.value(), s.m.thesis_bram_0_81});
  r81.add_row({std::string("LUT"), f81.used.lut.value(), s.m.thesis_lut_0_81});
  r81.add_row({std::string("frames/s (FPGA alone)"), fps, s.m.thesis_fps_0_81});
  r81.print(std::cout);
  out.fpga_0_81 = {f81.used.bram.value(), f81.used.lut.value(), fps};
  return r81;
}

}  // namespace study004
