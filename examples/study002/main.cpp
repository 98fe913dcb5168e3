// Study 002 (Busia, Minakova et al., "ALOHA", IEEE Access 2021): CNN layers
// as loop nests refined against a platform model, evaluated analytically,
// and then optimised where ALOHA only evaluates.
//   1. layer l1 on NEURAghe end to end, every intermediate beside the paper's
//      (Listings 4-6) and the digest's derived latency and energy;
//   2. the rounding effect over the Table 6 grid;
//   3. a chain of Table 6 layers bound to NEURAghe + Jetson TX2: Algorithm 1,
//      and exact bindings for latency, pipelined throughput and energy;
//   4. an accelerator designed on NEURAghe's template: GP relaxation, proven
//      optimum, and the latency-energy Pareto front.
// Each section is a header of its own (worked_example.hpp, rounding.hpp,
// binding.hpp, design.hpp) that prints its tables and fills its part of the
// results declared in results.hpp, which --json writes as they are.
// Data: examples/data/aloha2021/ (Tables 4, 5, 6 and the worked example;
// every assumption is stated there). --json prints
// {"l1_neuraghe": {...}, "rounding_effect": {...}, "binding": {...}, "design": {...}}.
#include "common/cli.hpp"
#include "study002/binding.hpp"
#include "study002/design.hpp"
#include "study002/results.hpp"
#include "study002/rounding.hpp"
#include "study002/worked_example.hpp"

#include <ychart/loopnest/load.hpp>

#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>

int main(int argc, char** argv) {
  std::string data;
  examples::Outputs outputs("study002", "study002_figures");
  examples::CommandLine cli("Study 002: ALOHA's platform-aware layer evaluation, with exact binding and accelerator design");
  cli.option("--data", data, "Directory of the transcribed tables (default: the source tree's examples/data)");
  outputs.add_options(cli);
  if (auto rc = cli.parse(argc, argv)) return *rc;
  try {
    using namespace study002;
    if (int rc = outputs.begin()) return rc;
    const std::filesystem::path dir =
        (data.empty() ? std::filesystem::path(YCHART_EXAMPLES_DATA_DIR) : std::filesystem::path(data)) / "aloha2021";
    const Platform neuraghe = load_platform(dir / "neuraghe.json");
    const Platform jetson = load_platform(dir / "jetson_tx2.json");
    const auto worked = io::JsonValue::read(dir / "worked_example.json");
    const auto grid = io::JsonValue::read(dir / "table6.json");

    WorkedExample l1;
    RoundingEffect rounding;
    BindingSummary binding;
    DesignSummary accelerator;
    outputs.add_table("l1_neuraghe", worked_example(neuraghe, worked, l1));
    outputs.add_table("rounding_effect", rounding_effect(neuraghe, jetson, grid, rounding, outputs));
    auto [bindings, estimates] = bind_chain(neuraghe, jetson, grid, binding);
    outputs.add_table("binding", std::move(bindings));
    outputs.add_table("binding_estimates", std::move(estimates));
    outputs.add_table("design", design(neuraghe, grid, accelerator, outputs));
    outputs.add_result("l1_neuraghe", l1);
    outputs.add_result("rounding_effect", rounding);
    outputs.add_result("binding", binding);
    outputs.add_result("design", accelerator);
    std::printf("\nfigures in %s/\n", outputs.svg_dir().c_str());
    return outputs.finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "study002: %s\n", e.what());
    return 1;
  }
}
