// examples/mapping_search/main.cpp
// The mapper that proves, on the layers accelerator papers map: every
// VGG-16 and ResNet-50 layer on an Eyeriss-like and a Simba-like hierarchy
// (examples/data/mapping/, sources and assumptions in each file), each
// layer's optimum with its proof (or bound and gap), the random mapper's
// best after 10^3, 10^4 and 10^5 samples on the same cost model and how far
// it misses, the networks' totals, and the exact energy-latency front of
// one layer. --json prints {"example", "summary", "tables": {"layers", "networks", "front"}},
// each table as {"columns", "rows"}.
#include "common/cli.hpp"

#include <ychart/baselines/mappers.hpp>
#include <ychart/mapping.hpp>
#include <ychart/mapping/load.hpp>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

using namespace ychart;
using namespace ychart::mapping;

namespace {

struct Settings {
  std::filesystem::path data;
  double time_limit = 10;
  unsigned threads = 0;
  std::uint64_t first_pass_nodes = SearchOptions{}.first_pass_nodes;
  std::vector<std::size_t> samples{1000, 10000, 100000};
  std::string front_layer = "conv5_1";
  std::string objective = "energy";
};

Objective objective_of(const std::string& name) {
  if (name == "latency") return Objective::latency;
  if (name == "edp") return Objective::energy_delay;
  return Objective::energy;
}

io::Column column(std::string name, std::string unit = "") { return {std::move(name), std::move(unit), 5}; }

io::LineChart chart(std::string title, std::string x, std::string y, std::vector<io::Series> series) {
  io::LineChart c;
  c.title = std::move(title), c.x_label = std::move(x), c.y_label = std::move(y), c.series = std::move(series);
  return c;
}

/// One row per layer: the proven optimum and the random mapper's misses.
void search_layers(const Settings& s, const Architecture& a, const Network& n, io::Table& layers, io::Table& totals,
                   examples::Outputs& outputs) {
  SearchOptions options;
  options.objective = objective_of(s.objective);
  options.time_limit = s.time_limit;
  options.threads = s.threads;
  options.first_pass_nodes = s.first_pass_nodes;
  std::vector<io::Series> misses(s.samples.size());
  io::Series unproven{"stopped at the time limit (not proven)", {}, {}, true, false, false};
  for (std::size_t k = 0; k < s.samples.size(); ++k) misses[k].name = "random, " + std::to_string(s.samples[k]) + " samples";
  const auto network = search_network(n, a, options);
  for (std::size_t i = 0; i < n.layers.size(); ++i) {
    const auto& r = network.layers[i];
    std::printf("  %-10s %-12s %s %.5g (bound %.5g, gap %.2g %%) in %.2f s, %llu nodes\n", a.name.c_str(),
                n.layers[i].name.c_str(), std::string(to_string(r.status)).c_str(), r.objective, r.bound, 100 * r.gap,
                r.seconds, static_cast<unsigned long long>(r.nodes));
    std::vector<io::Cell> row{a.name, n.layers[i].name, static_cast<long>(n.times(i)), std::string(to_string(r.status)),
                              r.objective, r.bound, r.gap, r.seconds, static_cast<long>(r.nodes),
                              r.evaluation->utilisation, r.evaluation->bottleneck, r.evaluation->binding_level};
    for (std::size_t k = 0; k < s.samples.size(); ++k) {
      const auto random = baselines::random_mapper(n.layers[i], a, options.objective, s.samples[k], 1 + k);
      const double miss = random.best ? (random.objective - r.objective) / r.objective : std::numeric_limits<double>::quiet_NaN();
      if (random.best && random.objective < r.bound * (1 - 1e-9))
        std::printf("    random mapper below the bound: the bound is wrong (%.6g < %.6g)\n", random.objective, r.bound);
      std::printf("    random %7zu samples: %s %.5g, misses by %.1f %% (%.2f s, %llu fit)\n", s.samples[k],
                  random.best ? "best" : "none fits", random.objective, 100 * miss, random.seconds,
                  static_cast<unsigned long long>(random.fitting));
      row.push_back(miss), row.push_back(random.seconds);
      misses[k].x.push_back(static_cast<double>(i + 1)), misses[k].y.push_back(1 + miss);
    }
    if (r.status != Status::optimal) unproven.x.push_back(static_cast<double>(i + 1)), unproven.y.push_back(1.0);
    layers.add_row(std::move(row));
  }
  totals.add_row({a.name, n.name, network.energy.value(), network.latency.value(), network.proven ? "yes" : "no",
                  network.seconds});
  std::printf("  %s on %s: %.5g J, %.5g s, %s, in %.1f s\n\n", n.name.c_str(), a.name.c_str(), network.energy.value(),
              network.latency.value(), network.proven ? "every layer proven" : "not every layer proven", network.seconds);
  auto figure = chart(n.name + " on " + a.name + ": the random mapper's best over ychart's mapping",
                      "layer (" + n.name + " order)", s.objective + " / ychart's", misses);
  figure.series.push_back({"ychart (proven optimum)", misses[0].x, std::vector<double>(misses[0].x.size(), 1.0), false, true, true});
  if (!unproven.x.empty()) figure.series.push_back(unproven);
  outputs.figure(n.name + "_" + a.name + "_random.svg", figure);
}

void front_of(const Settings& s, const Architecture& a, const Network& n, io::Table& front, examples::Outputs& outputs) {
  for (const auto& layer : n.layers) {
    if (layer.name != s.front_layer) continue;
    SearchOptions options;
    options.time_limit = s.time_limit;
    options.threads = s.threads;
    options.first_pass_nodes = s.first_pass_nodes;
    const auto f = energy_latency_front(layer, a, options);
    io::Series points{layer.name, {}, {}, true, true, false};
    for (const auto& p : f.points) {
      front.add_row({a.name, layer.name, p.energy.value(), p.latency.value(), std::string(to_string(p.result.status))});
      points.x.push_back(p.latency.value() * 1e3), points.y.push_back(p.energy.value() * 1e3);
    }
    std::printf("  front of %s on %s: %zu points, %s\n", layer.name.c_str(), a.name.c_str(), f.points.size(),
                f.exact ? "exact" : "not every point proven");
    outputs.figure(layer.name + "_" + a.name + "_front.svg",
                   chart(layer.name + " on " + a.name + (f.exact ? ": the exact energy-latency front" : ": energy against latency (not every point proven)"),
                         "latency [ms]", "energy [mJ]", {points}));
  }
}

}  // namespace

int main(int argc, char** argv) {
  Settings s;
  std::string data;
  std::vector<std::string> networks{"vgg16", "resnet50"}, architectures{"eyeriss_like", "simba_like"};
  examples::Outputs outputs("mapping_search", "mapping_search_figures");
  examples::CommandLine cli("The mapper that proves: VGG-16 and ResNet-50 layers on Eyeriss-like and Simba-like "
                            "hierarchies, against the random mapper on the same cost model");
  cli.option("--data", data, "Directory of the data files (default: the source tree's examples/data)");
  cli.option("--time-limit", s.time_limit, "Seconds per layer search").positive().show_default();
  cli.option("--threads", s.threads, "Threads per search, sharing its level shapes (0: the machine's cores, at most 4)")
      .within(0, 64)
      .show_default();
  cli.option("--first-pass-nodes", s.first_pass_nodes,
             "Nodes per level shape in the search's first pass; the rest are taken up where they stopped (0: one pass)")
      .show_default();
  cli.option("--samples", s.samples, "The random mapper's sample budgets").comma_separated();
  cli.option("--front-layer", s.front_layer, "The layer (of the first network) whose energy-latency front is drawn");
  cli.option("--objective", s.objective, "energy, latency or edp").one_of({"energy", "latency", "edp"});
  outputs.add_options(cli);
  if (auto rc = cli.parse(argc, argv)) return *rc;
  try {
    if (int rc = outputs.begin()) return rc;
    s.data = (data.empty() ? std::filesystem::path(YCHART_EXAMPLES_DATA_DIR) : std::filesystem::path(data)) / "mapping";
    const std::string unit = s.objective == "energy" ? "J" : s.objective == "latency" ? "s" : "J s";
    std::vector<io::Column> columns{column("architecture"), column("layer"), column("repeat"), column("status"),
                                    column("optimum", unit), column("bound", unit), column("gap"), column("seconds", "s"),
                                    column("nodes"), column("utilisation"), column("bottleneck"), column("binding capacity")};
    for (auto n : s.samples)
      columns.push_back(column("random " + std::to_string(n) + " misses by")),
          columns.push_back(column("random " + std::to_string(n) + " seconds", "s"));
    io::Table layers(columns);
    io::Table totals({column("architecture"), column("network"), column("energy", "J"), column("latency", "s"),
                      column("proven"), column("seconds", "s")});
    io::Table front({column("architecture"), column("layer"), column("energy", "J"), column("latency", "s"), column("status")});
    for (const auto& arch : architectures) {
      const auto a = load_architecture((s.data / (arch + ".yaml")).string());
      for (const auto& net : networks) {
        const auto n = load_network((s.data / (net + ".yaml")).string());
        std::printf("%s on %s (%s, %.0f s per layer at most)\n", n.name.c_str(), a.name.c_str(), s.objective.c_str(),
                    s.time_limit);
        search_layers(s, a, n, layers, totals, outputs);
        if (net == networks.front()) front_of(s, a, n, front, outputs);
      }
    }
    outputs.add_table("layers", layers);
    outputs.add_table("networks", totals);
    outputs.add_table("front", front);
    std::printf("\nfigures in %s/\n", outputs.svg_dir().c_str());
    return outputs.finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mapping_search: %s\n", e.what());
    return 1;
  }
}
