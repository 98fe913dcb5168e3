// examples/partition_file/main.cpp
// A CPU + FPGA partition problem read from a file (the format of
// <ychart/partition/load.hpp>, docs/partition.md): a chain of segments with
// their CPU times and FINN estimates, and the platform. For each schedule
// (frames one at a time, or streaming through CPU, link and FPGA) it prints
// the proven-optimal partition with up to --ranges FPGA ranges next to
// everything on the CPU, and checks the optimum against enumerating every
// valid partition. A last row adds a rule of the user's own through the
// public model (build_partition_model): the first segment stays on the CPU.
// The default file is study 004's MobileNetV1-w4a4 on the
// KV260 (examples/data/geel2023/mobilenet_v1_graph.json).
#include "common/cli.hpp"

#include <ychart/partition.hpp>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>

namespace {

using namespace ychart;
using namespace ychart::partition;

std::string ranges_text(const std::vector<NodeRange>& ranges) {
  if (ranges.empty()) return "CPU only";
  std::string s;
  for (const auto& r : ranges) s += (s.empty() ? "" : " ") + ("[" + std::to_string(r.begin) + ", " + std::to_string(r.end) + ")");
  return s;
}

/// The least objective among every valid partition (the oracle), or among
/// those that keep the first segment on the CPU.
double enumerated_best(const Specification& spec, Schedule schedule, int ranges, bool first_on_cpu = false) {
  EnumerateOptions eo;
  eo.max_fpga_ranges = ranges;
  eo.schedule = schedule;
  double best = std::numeric_limits<double>::infinity();
  for (const auto& c : enumerate_partitions(spec.graph, spec.platform, eo))
    if (!first_on_cpu || std::none_of(c.fpga.begin(), c.fpga.end(), [&](const NodeRange& r) {
          return r.begin == spec.graph.segments.front().first_node;  // a range that holds the first segment
        }))
      best = std::min(best, (schedule == Schedule::sequential ? c.latency : c.interval).value());
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  std::string file = std::string(YCHART_EXAMPLES_DATA_DIR) + "/geel2023/mobilenet_v1_graph.json";
  int ranges = 1;
  examples::Outputs outputs("partition_file", "");
  examples::CommandLine cli("The optimal CPU + FPGA partition of a graph read from a file");
  cli.option("--graph", file, "The partition problem (JSON, see docs/partition.md)").show_default().type_name("FILE.json");
  cli.option("--ranges", ranges, "The most separate FPGA ranges").show_default().within(1, 4);
  outputs.add_options(cli);
  if (auto rc = cli.parse(argc, argv)) return *rc;
  if (int rc = outputs.begin()) return rc;

  Specification spec;
  try {
    spec = load_specification(file);
  } catch (const io::parse_error& e) {
    std::cerr << e.what() << "\n";  // file:line: field: what is wrong
    return 2;
  }
  std::cout << spec.graph.name << ": " << spec.graph.segments.size() << " segments, " << spec.graph.node_count()
            << " nodes, on " << spec.platform.fpga.name << "\n";
  const auto cpu_only = evaluate(spec.graph, spec.platform, {});
  io::Table table({{"schedule", "", 1},
                   {"FPGA nodes", "", 1},
                   {"latency", "ms", 4},
                   {"interval", "ms", 4},
                   {"speedup over CPU", "", 3},
                   {"BRAM_18K", "", 4},
                   {"LUT", "", 6},
                   {"enumeration", "ms", 4}});
  bool agree = true;
  for (int row = 0; row < 3; ++row) {
    const auto schedule = row == 0 ? Schedule::sequential : Schedule::pipelined;
    PartitionOptions o;
    o.schedule = schedule;
    o.max_fpga_ranges = ranges;
    // The third row: the pipelined optimum under a rule of one's own, added
    // to the public model before solving.
    const bool first_on_cpu = row == 2;
    auto model = build_partition_model(spec.graph, spec.platform, o);
    if (first_on_cpu) model.model().subject_to(model.on_fpga(0) == 0.0, "first segment on the CPU");
    const auto r = model.solve();
    const std::string name = first_on_cpu ? "pipelined, first segment on CPU"
                             : schedule == Schedule::sequential ? "sequential" : "pipelined";
    if (r.status != Status::optimal) {
      std::cout << name << ": " << to_string(r.status) << " (" << r.message << ")\n";
      agree = false;
      continue;
    }
    const auto& c = r.cost;
    const double oracle = enumerated_best(spec, schedule, ranges, first_on_cpu);
    const double ours = (schedule == Schedule::sequential ? c.latency : c.interval).value();
    agree = agree && std::abs(ours - oracle) <= 1e-9 * oracle;
    const double base = (schedule == Schedule::sequential ? cpu_only.latency : cpu_only.interval).value();
    table.add_row({name, ranges_text(c.fpga), c.latency.in(units::ms), c.interval.in(units::ms), base / ours,
                   c.used.bram.in(units::BRAM_18K), c.used.lut.in(units::LUT), oracle * 1e3});
  }
  std::cout << table << "CPU only: " << cpu_only.latency.in(units::ms) << " ms per frame\n"
            << (agree ? "every optimum equals the best enumerated partition\n"
                      : "an optimum differs from the best enumerated partition\n");
  outputs.add_table("partitions", table);
  outputs.add_value("cpu_only_ms", cpu_only.latency.in(units::ms));
  outputs.add_value("enumeration_agrees", std::string(agree ? "yes" : "no"));
  const int written = outputs.finish();
  return agree ? written : 1;
}
