// examples/study002/binding.cpp
// Definitions of binding.hpp, a source of the study002 example of its own, so
// that no one file of the example compiles the whole study.
#include "study002/binding.hpp"

namespace study002 {

std::vector<Layer> layers_of(const io::JsonValue& list) {
  std::vector<Layer> out;
  for (const auto& v : list.elements())
    out.push_back(Layer::convolution(v.at("name").string(), v.at("in").integer(), v.at("out").integer(),
                                     v.at("size").integer(), v.at("kernel").integer()));
  return out;
}

std::string binding_text(const Binding& b, const Platform& p) {
  std::string s;
  for (std::size_t i = 0; i < b.size(); ++i) {
    const auto& id = p.processors[b[i]].id;
    s += (i ? " " : "") + id.substr(0, 1) + (p.processors[b[i]].type == "CPU" ? ".cpu" : ".acc");
  }
  return s;
}

BindingTables bind_chain(const Platform& neuraghe, const Platform& jetson, const io::JsonValue& grid,
                         BindingSummary& out) {
  // Table 5 as printed cannot run a layer whose input exceeds 128 KiB on the GPU; here the GPU's
  // input memory limits FH instead (our variant, stated in docs/studies/002.md).
  Platform jetson_rows = jetson;
  jetson_rows.processors[0].model.transfer[std::size_t(DataKind::input)].limited_loop = Loop::FH;
  const Platform both = combine("NEURAghe+JetsonTX2", {neuraghe, jetson_rows});
  const auto& bc = grid.at("binding_cnn");
  const Cnn chain{bc.at("name").string(), layers_of(bc.at("layers"))};
  const auto table = cost_table(chain, both);
  const auto greedy = sequential_schedule(table);
  const auto greedy_seq = evaluate_schedule(table, both, greedy, false);
  const auto greedy_pipe = evaluate_schedule(table, both, greedy, true);
  const auto best_latency = solve_binding(table, both, {BindingGoal::latency, false, std::nullopt});
  const auto best_throughput = solve_binding(table, both, {BindingGoal::throughput, true, std::nullopt});
  const ychart::Constant<ychart::dim::time> limit = 1.25 * best_latency.metrics.latency;
  const auto best_energy = solve_binding(table, both, {BindingGoal::energy, false, limit});
  const auto greedy_energy = evaluate_schedule(table, both, greedy, false, limit);
  BindingTables t{io::Table({{"binding", "", 1}, {"status", "", 1}, {"latency", "ms", 4}, {"throughput", "1/s", 4},
                             {"energy", "mJ", 4}, {"solve", "ms", 3}, {"processors per layer", "", 1}}),
                  io::Table({{"layer", "", 1}, {"processor", "", 1}, {"ALOHA", "ms", 4}, {"OPS count", "ms", 4},
                             {"Roofline", "ms", 4}, {"bottleneck", "", 1}, {"tiles", "", 1}})};
  auto energy_mj = [](const CnnMetrics& m) { return m.energy ? m.energy->in(units::mJ) : std::nan(""); };
  t.bindings.add_row({std::string("Algorithm 1 (ALOHA), sequential"), std::string("-"),
                      greedy_seq.latency.in(units::ms), greedy_seq.throughput.value(), energy_mj(greedy_energy),
                      std::nan(""), binding_text(greedy, both)});
  t.bindings.add_row({std::string("Algorithm 1's binding, pipelined"), std::string("-"),
                      greedy_pipe.latency.in(units::ms), greedy_pipe.throughput.value(), std::nan(""), std::nan(""),
                      binding_text(greedy, both)});
  for (const auto& [what, r] : {std::pair<std::string, const BindingResult*>{"exact: least latency", &best_latency},
                                {"exact: most frames/s, contiguous stages", &best_throughput},
                                {"exact: least energy, latency <= 1.25x least", &best_energy}})
    t.bindings.add_row({what, std::string(to_string(r->status)), r->metrics.latency.in(units::ms),
                        r->metrics.throughput.value(), energy_mj(r->metrics), r->seconds * 1e3,
                        binding_text(r->binding, both)});
  std::printf("Binding %s (%zu layers) to %s (N: NEURAghe, J: Jetson; energy with Eq. 12, frame period %.3f ms)\n",
              chain.name.c_str(), chain.layers.size(), both.name.c_str(), limit.in(units::ms));
  t.bindings.print(std::cout);
  // The paper's two baselines beside ALOHA, per layer, on Algorithm 1's processors.
  double sum_aloha = 0, sum_ops = 0, sum_roof = 0;
  for (std::size_t i = 0; i < chain.layers.size(); ++i) {
    const auto x = evaluate_layer(chain.layers[i], both, greedy[i]);
    sum_aloha += x.latency.value(), sum_ops += x.ops_estimate.value(), sum_roof += x.roofline_estimate.value();
    t.estimates.add_row({chain.layers[i].name, both.processors[greedy[i]].id, x.latency.in(units::ms),
                         x.ops_estimate.in(units::ms), x.roofline_estimate.in(units::ms), x.bottleneck,
                         static_cast<long>(x.nest.tiles())});
  }
  t.estimates.add_row({std::string("sum"), std::string(""), sum_aloha * 1e3, sum_ops * 1e3, sum_roof * 1e3,
                       std::string(""), std::monostate{}});
  t.estimates.print(std::cout);
  std::printf("\n");
  out = {greedy_seq.latency.value(),
         best_latency.metrics.latency.value(),
         greedy_pipe.throughput.value(),
         best_throughput.metrics.throughput.value(),
         best_energy.metrics.energy ? best_energy.metrics.energy->value() : std::nan(""),
         greedy_energy.energy ? greedy_energy.energy->value() : std::nan(""),
         std::string(to_string(best_throughput.status))};
  return t;
}

}  // namespace study002
