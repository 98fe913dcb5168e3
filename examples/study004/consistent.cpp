// examples/study004/consistent.cpp
// Definitions of consistent.hpp, a source of the study004 example of its own, so
// that no one file of the example compiles the whole study.
#include "study004/consistent.hpp"

namespace study004 {

io::Table consistent_units(const Setting& s, MobileNetV1& out) {
  const auto& g = s.g;
  const auto consistent = solve_partition(g, s.thesis_kv260);
  const auto consistent_device = solve_partition(g, s.device_kv260);
  const auto pipelined = solve_partition(g, s.device_kv260, pipelined_options());
  const auto thesis_choice = evaluate(g, s.thesis_kv260, {partition::NodeRange{0, 81}});
  const auto whole = evaluate(g, s.thesis_kv260, {partition::NodeRange{0, g.node_count()}});
  io::Table b({{"case", "", 1}, {"FPGA range", "", 1}, {"status", "", 1}, {"CPU", "ms", 4}, {"FPGA compute", "ms", 4},
               {"transfers", "ms", 4}, {"latency", "ms", 4}, {"vs CPU alone", "x", 4}, {"fits", "", 1}});
  auto row = [&](const std::string& what, const partition::PartitionCost& c, const std::string& status) {
    b.add_row({what, range_text(c.fpga), status, c.cpu.in(units::ms), c.fpga_compute.in(units::ms),
               (c.to_fpga + c.from_fpga).in(units::ms), c.latency.in(units::ms),
               s.cpu_only_ms / c.latency.in(units::ms), std::string(c.fits ? "yes" : "no: " + c.over_budget)});
  };
  row("exact optimum, thesis's budget", consistent.cost, std::string(to_string(consistent.status)));
  row("exact optimum, 288 BRAM_18K", consistent_device.cost, std::string(to_string(consistent_device.status)));
  row("the thesis's choice", thesis_choice, "-");
  row("whole network on the FPGA", whole, "-");
  std::printf("(b) consistent units, PE = SIMD = 1: cycles / (100 MHz) is a time\n");
  b.print(std::cout);
  std::printf("pipelined (frames stream through CPU, link and FPGA at once): exact optimum %s, %.2f frames/s "
              "(CPU alone %.2f)\n\n",
              range_text(pipelined.cost.fpga).c_str(), pipelined.cost.frames_per_second(), 1e3 / s.cpu_only_ms);
  out.cpu_only_s = s.cpu_only_ms * 1e-3;
  out.consistent = {std::string(to_string(consistent.status)), fpga_nodes(consistent.cost.fpga),
                    consistent.cost.latency.value(), s.cpu_only_ms * 1e-3 / consistent.cost.latency.value(),
                    thesis_choice.latency.value()};
  return b;
}

void draw_prefix_latency(const Setting& s, examples::Outputs& outputs) {
  io::LineChart chart;
  chart.title = "MobileNetV1 on the KV260: FPGA prefix range(0, l) (study 004)";
  chart.x_label = "end of the FPGA range l (node)";
  chart.y_label = "latency (ms)";
  chart.log_y = true;
  io::Series reported{"as reported (s read as ms)", {}, {}}, typed{"consistent units", {}, {}},
      cpu_line{"CPU alone", {}, {}};
  cpu_line.dashed = true, cpu_line.markers = false;
  for (std::size_t i = 1; i < s.g.segments.size(); ++i) {
    const partition::NodeRange r{0, s.g.segments[i].end_node};
    const double x = r.end;
    reported.x.push_back(x), reported.y.push_back(evaluate(s.g, s.as_labelled, {r}).latency.in(units::ms));
    typed.x.push_back(x), typed.y.push_back(evaluate(s.g, s.thesis_kv260, {r}).latency.in(units::ms));
    cpu_line.x.push_back(x), cpu_line.y.push_back(s.cpu_only_ms);
  }
  chart.series = {reported, typed, cpu_line};
  outputs.figure("mobilenet_prefix_latency.svg", chart);
}

}  // namespace study004
