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
// Data: examples/data/aloha2021/ (Tables 4, 5, 6 and the worked example;
// every assumption is stated there). --json prints
// {"l1_neuraghe": {...}, "rounding_effect": {...}, "binding": {...}, "design": {...}}.
#include "common/cli.hpp"

#include <ychart/io/json.hpp>
#include <ychart/io/svg.hpp>
#include <ychart/loopnest/binding_model.hpp>
#include <ychart/loopnest/design_model.hpp>
#include <ychart/loopnest/load.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace {

using namespace ychart;
using namespace ychart::loopnest;

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

}  // namespace

int main(int argc, char** argv) {
  std::string data;
  examples::Outputs outputs("study002", "study002_figures");
  examples::CommandLine cli("Study 002: ALOHA's platform-aware layer evaluation, with exact binding and accelerator design");
  cli.option("--data", data, "Directory of the transcribed tables (default: the source tree's examples/data)");
  outputs.add_options(cli);
  if (auto rc = cli.parse(argc, argv)) return *rc;
  try {
    if (int rc = outputs.begin()) return rc;
    const std::filesystem::path dir =
        (data.empty() ? std::filesystem::path(YCHART_EXAMPLES_DATA_DIR) : std::filesystem::path(data)) / "aloha2021";
    const Platform neuraghe = load_platform(dir / "neuraghe.json");
    const Platform jetson = load_platform(dir / "jetson_tx2.json");
    const auto worked = io::JsonValue::read(dir / "worked_example.json");
    const auto grid = io::JsonValue::read(dir / "table6.json");

    // ---- 1. l1 on NEURAghe ----
    const auto& wl = worked.at("layer");
    const Layer l1 = Layer::convolution("l1", wl.at("in").integer(), wl.at("out").integer(), wl.at("size").integer(),
                                        wl.at("kernel").integer());
    const auto e = evaluate_layer(l1, neuraghe, 0);
    const auto& paper = worked.at("paper");
    const auto& derived = worked.at("derived");
    Platform unbounded = neuraghe;  // Listing 5: the nest before tiling
    for (auto& m : unbounded.memories) m.capacity = Constant<dim::data>(1e18);
    const auto untiled = refine(l1, neuraghe.processors[0], unbounded);
    // The four refinement steps, as Listings 3-6: reordered (no grid), unrolled, with transfers, tiled.
    Platform no_grid = unbounded;
    no_grid.processors[0].model.unrolls.clear();
    std::printf("Study 002: layer l1 (1x1 conv, 128 -> 512 channels, 28x28) on NEURAghe\n\n"
                "Step 1, reorder (Listing 3):\n%s\nStep 2, unroll with round-up (Listing 4):\n%s\n"
                "Step 3, transfers (Listing 5):\n%s\nStep 4, tile for memory (Listing 6):\n%s\n",
                refine(l1, no_grid.processors[0], no_grid).listing(no_grid, false).c_str(),
                untiled.listing(unbounded, false).c_str(), untiled.listing(unbounded).c_str(),
                e.nest.listing(neuraghe).c_str());
    io::Table t1({{"quantity", "", 1}, {"paper", "", 10}, {"ychart", "", 10}, {"source", "", 1}});
    auto row = [&](const std::string& q, double theirs, double ours, const std::string& src) {
      t1.add_row({q, theirs, ours, src});
    };
    const auto& nest = e.nest;
    row("trip count IF", paper.at("trip_counts").at("IF").number(), double(nest.loop_of(Loop::IF).trip), "Listing 4");
    row("trip count OF", paper.at("trip_counts").at("OF").number(), double(nest.loop_of(Loop::OF).trip), "Listing 4");
    row("trip count FW", paper.at("trip_counts").at("FW").number(), double(nest.loop_of(Loop::FW).trip), "Listing 4");
    for (auto d : {DataKind::input, DataKind::weights, DataKind::output})
      row(std::string("untiled ") + data_kind_name(d) + " bytes", paper.at("untiled_bytes").at(data_kind_name(d)).number(),
          untiled.transfers[std::size_t(d)].bytes, "Listing 5");
    row("tiles (out_tile)", paper.at("tiles").number(), double(nest.loop_of(Loop::OF).tiles), "Listing 6");
    row("OF iterations per tile", paper.at("of_per_tile").number(), double(nest.loop_of(Loop::OF).inner), "Listing 6");
    row("tiled output bytes", paper.at("tiled_output_bytes").number(), nest.transfers[1].bytes, "Listing 6");
    row("OPS_th", paper.at("ops_th").number(), e.ops_th.value(), "Eq. 2");
    row("OPS_re", paper.at("ops_re").number(), e.ops_re.value(), "footnote 3");
    for (const auto& c : e.channels)
      row("traffic " + neuraghe.channels[c.channel].id + " [B]",
          derived.at("traffic_bytes").at(neuraghe.channels[c.channel].id).number(), c.traffic.value(), "derived (digest 2.4)");
    row("compute time [ms]", std::nan(""), e.compute.in(units::ms), "OPS_re / 129.6 GOPS");
    row("latency [ms]", derived.at("latency_ms").number(), e.latency.in(units::ms), "derived, Eqs. 8-9");
    row("energy [mJ]", derived.at("energy_mj").number(), e.energy->in(units::mJ), "derived, Eq. 13");
    row("OPS estimate [ms]", derived.at("ops_estimate_ms").number(), e.ops_estimate.in(units::ms), "Eq. 1");
    row("Roofline estimate [ms]", std::nan(""), e.roofline_estimate.in(units::ms), "Eq. 6, bw = sum of channels");
    t1.print(std::cout);
    std::printf("bottleneck: %s (paper's derivation: %s)\n\n", e.bottleneck.c_str(),
                derived.at("bottleneck").string().c_str());

    // ---- 2. the rounding effect over Table 6 ----
    std::vector<long long> ifs, ofs, sizes, kernels;
    for (const auto& v : grid.at("input_features").elements()) ifs.push_back(v.integer());
    for (const auto& v : grid.at("output_features").elements()) ofs.push_back(v.integer());
    for (const auto& v : grid.at("image_sizes").elements()) sizes.push_back(v.integer());
    for (const auto& v : grid.at("kernel_sizes").elements()) kernels.push_back(v.integer());
    double worst = 0, sum = 0, sum_fitting = 0;
    long count = 0, fitting = 0, tiled = 0, jetson_gpu_errors = 0;
    std::string worst_layer;
    std::vector<double> ratio_by_if(ifs.size(), 0.0);
    for (std::size_t a = 0; a < ifs.size(); ++a)
      for (auto of : ofs)
        for (auto s : sizes)
          for (auto k : kernels) {
            const auto l = Layer::convolution("g", ifs[a], of, s, k);
            const auto n = refine(l, neuraghe.processors[0], unbounded);
            const double u = 1.0 - n.ops_theoretical().value() / n.ops_re;
            sum += u, ++count, ratio_by_if[a] += u;
            if (k <= s) sum_fitting += u, ++fitting;
            if (u > worst) worst = u, worst_layer = std::to_string(ifs[a]) + "->" + std::to_string(of) + ", " +
                                                   std::to_string(s) + "x" + std::to_string(s) + ", k" + std::to_string(k);
            try {
              tiled += refine(l, neuraghe.processors[0], neuraghe).tiles() > 1;
            } catch (const tiling_error&) {
            }
            try {
              (void)refine(l, jetson.processors[0], jetson);
            } catch (const tiling_error&) {
              ++jetson_gpu_errors;
            }
          }
    const auto& pr = grid.at("paper_rounding");
    io::Table t2({{"rounding effect 1 - OPS_th / OPS_re", "", 1}, {"paper", "", 4}, {"ychart", "", 4}});
    t2.add_row({std::string("mean over the grid"), pr.at("mean_underestimation").number(), sum / double(count)});
    t2.add_row({std::string("mean, kernel <= image"), std::nan(""), sum_fitting / double(fitting)});
    t2.add_row({std::string("maximum (" + worst_layer + ")"), pr.at("max_underestimation_over").number(), worst});
    t2.print(std::cout);
    std::printf("%ld layers; %ld tiled on NEURAghe; %ld whose input exceeds the Jetson GPU's 128 KiB memory 1, which\n"
                "Table 5 limits by OF (a loop that does not index the input): tiling_error, as the paper's rules give\n\n",
                count, tiled, jetson_gpu_errors);
    io::LineChart rounding;
    rounding.title = "Rounding effect on NEURAghe over Table 6 (study 002)";
    rounding.x_label = "input features";
    rounding.y_label = "mean 1 - OPS_th / OPS_re";
    rounding.log_x = true;
    io::Series by_if{"mean over OF, size, kernel", {}, {}};
    for (std::size_t a = 0; a < ifs.size(); ++a)
      by_if.x.push_back(double(ifs[a])), by_if.y.push_back(ratio_by_if[a] / double(count / long(ifs.size())));
    rounding.series = {by_if};
    outputs.figure("rounding_effect.svg", rounding);

    // ---- 3. binding a chain of Table 6 layers to NEURAghe + Jetson TX2 ----
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
    const Constant<dim::time> limit = 1.25 * best_latency.metrics.latency;
    const auto best_energy = solve_binding(table, both, {BindingGoal::energy, false, limit});
    const auto greedy_energy = evaluate_schedule(table, both, greedy, false, limit);
    io::Table t3({{"binding", "", 1}, {"status", "", 1}, {"latency", "ms", 4}, {"throughput", "1/s", 4},
                  {"energy", "mJ", 4}, {"solve", "ms", 3}, {"processors per layer", "", 1}});
    auto energy_mj = [](const CnnMetrics& m) { return m.energy ? m.energy->in(units::mJ) : std::nan(""); };
    t3.add_row({std::string("Algorithm 1 (ALOHA), sequential"), std::string("-"), greedy_seq.latency.in(units::ms),
                greedy_seq.throughput.value(), energy_mj(greedy_energy), std::nan(""), binding_text(greedy, both)});
    t3.add_row({std::string("Algorithm 1's binding, pipelined"), std::string("-"), greedy_pipe.latency.in(units::ms),
                greedy_pipe.throughput.value(), std::nan(""), std::nan(""), binding_text(greedy, both)});
    for (const auto& [what, r] : {std::pair<std::string, const BindingResult*>{"exact: least latency", &best_latency},
                                  {"exact: most frames/s, contiguous stages", &best_throughput},
                                  {"exact: least energy, latency <= 1.25x least", &best_energy}})
      t3.add_row({what, std::string(to_string(r->status)), r->metrics.latency.in(units::ms), r->metrics.throughput.value(),
                  energy_mj(r->metrics), r->seconds * 1e3, binding_text(r->binding, both)});
    std::printf("Binding %s (%zu layers) to %s (N: NEURAghe, J: Jetson; energy with Eq. 12, frame period %.3f ms)\n", chain.name.c_str(),
                chain.layers.size(), both.name.c_str(), limit.in(units::ms));
    t3.print(std::cout);
    // The paper's two baselines beside ALOHA, per layer, on Algorithm 1's processors.
    io::Table t3e({{"layer", "", 1}, {"processor", "", 1}, {"ALOHA", "ms", 4}, {"OPS count", "ms", 4},
                   {"Roofline", "ms", 4}, {"bottleneck", "", 1}, {"tiles", "", 1}});
    double sum_aloha = 0, sum_ops = 0, sum_roof = 0;
    for (std::size_t i = 0; i < chain.layers.size(); ++i) {
      const auto x = evaluate_layer(chain.layers[i], both, greedy[i]);
      sum_aloha += x.latency.value(), sum_ops += x.ops_estimate.value(), sum_roof += x.roofline_estimate.value();
      t3e.add_row({chain.layers[i].name, both.processors[greedy[i]].id, x.latency.in(units::ms),
                   x.ops_estimate.in(units::ms), x.roofline_estimate.in(units::ms), x.bottleneck,
                   static_cast<long>(x.nest.tiles())});
    }
    t3e.add_row({std::string("sum"), std::string(""), sum_aloha * 1e3, sum_ops * 1e3, sum_roof * 1e3, std::string(""),
                 std::monostate{}});
    t3e.print(std::cout);
    std::printf("\n");

    // ---- 4. accelerator design on NEURAghe's template ----
    const auto& dz = grid.at("design");
    AcceleratorTemplate tpl;
    tpl.processor = 0;
    for (const auto& level : dz.at("parallelism").elements()) {
      tpl.parallelism.emplace_back();
      for (const auto& v : level.elements()) tpl.parallelism.back().push_back(v.integer());
    }
    tpl.memory_bytes.resize(neuraghe.memories.size());
    for (const auto& [id, values] : dz.at("memory_kib").items())
      for (std::size_t k = 0; k < neuraghe.memories.size(); ++k)
        if (neuraghe.memories[k].id == id)
          for (const auto& v : values.elements()) tpl.memory_bytes[k].push_back(v.number() * 1024);
    tpl.max_tiles = dz.at("max_tiles").integer();
    tpl.area_per_mac = dz.at("area").at("per_mac").number();
    tpl.area_per_kib = dz.at("area").at("per_kib").number();
    tpl.power_fixed = dz.at("power_w").at("fixed").number() * units::W;
    tpl.power_per_mac = dz.at("power_w").at("per_mac").number() * units::W;
    tpl.power_per_kib = dz.at("power_w").at("per_kib").number() * units::W;
    const Cnn nas{"table7_max", layers_of(dz.at("cnn"))};
    DesignOptions dopt;
    dopt.area_budget = dz.at("area").at("budget").number();
    dopt.relax = true;
    const auto relaxed = design_accelerator(nas, neuraghe, tpl, dopt);
    dopt.relax = false;
    const auto fastest = design_accelerator(nas, neuraghe, tpl, dopt);
    dopt.goal = DesignGoal::energy;
    const auto frugal = design_accelerator(nas, neuraghe, tpl, dopt);
    // The front, walked by the epsilon-constraint method from the least-energy end: the least energy
    // with latency below the previous point's, until the limit passes the least latency. Every
    // point is proven, so this is the whole front (at a latency resolution of 0.1 %).
    std::vector<AcceleratorDesign> front{frugal};
    SolveOptions capped;
    capped.time_limit = 20;  // a point not proven by then says time_limit, with its gap
    while (front.size() < 16 && front.back().status == Status::optimal &&
           front.back().latency.value() > fastest.latency.value() * (1 + 1e-3)) {
      dopt.latency_limit = Constant<dim::time>(front.back().latency.value() * (1 - 1e-3));
      auto next = design_accelerator(nas, neuraghe, tpl, dopt, capped);
      if (next.status != Status::optimal) {
        front.push_back(std::move(next));
        break;
      }
      front.push_back(std::move(next));
    }
    std::reverse(front.begin(), front.end());
    io::Table t4({{"design", "", 1}, {"status", "", 1}, {"P (IF, OF, FW)", "", 1}, {"memories", "KiB", 1},
                  {"area", "", 4}, {"power", "W", 4}, {"latency", "ms", 5}, {"energy", "mJ", 5}, {"solve", "ms", 4}});
    auto design_row = [&](const std::string& what, const AcceleratorDesign& d) {
      std::string p, mem;
      for (auto x : d.parallelism) p += (p.empty() ? "" : ", ") + ychart::detail::format_number(x);
      for (std::size_t k = 0; k < 3 && k < d.memory_bytes.size(); ++k)
        mem += (mem.empty() ? "" : ", ") + ychart::detail::format_number(d.memory_bytes[k] / 1024);
      t4.add_row({what, std::string(to_string(d.status)), p, mem, d.area, d.power.value(),
                  d.status == Status::optimal && !dopt.relax ? d.latency.in(units::ms) : std::nan(""),
                  d.energy ? d.energy->in(units::mJ) : std::nan(""), d.seconds * 1e3});
    };
    t4.add_row({std::string("GP relaxation (bound)"), std::string(to_string(relaxed.status)), std::string("-"),
                std::string("-"), relaxed.area, relaxed.power.value(), relaxed.objective * 1e3, std::nan(""),
                relaxed.seconds * 1e3});
    design_row("least latency, area <= budget", fastest);
    design_row("least energy, area <= budget", frugal);
    for (std::size_t k = 0; k < front.size(); ++k) design_row("front point " + std::to_string(k), front[k]);
    // NEURAghe itself on the same CNN, for scale.
    double neuraghe_latency = 0, neuraghe_energy = 0;
    for (const auto& l : nas.layers) {
      const auto x = evaluate_layer(l, neuraghe, 0);
      neuraghe_latency += x.latency.value(), neuraghe_energy += x.energy->value();
    }
    std::printf("Accelerator design for %s (%zu layers) on NEURAghe's template, area <= %g; NEURAghe itself: %.4f ms, "
                "%.4f mJ\n",
                nas.name.c_str(), nas.layers.size(), *dopt.area_budget, neuraghe_latency * 1e3, neuraghe_energy * 1e3);
    t4.print(std::cout);
    io::LineChart pareto;
    pareto.title = "Accelerator design: latency vs energy, every point proven (study 002)";
    pareto.x_label = "latency (ms)";
    pareto.y_label = "energy (mJ)";
    io::Series fs{"exact front (epsilon constraint)", {}, {}}, nn{"NEURAghe (Table 4)", {}, {}};
    nn.line = false;
    for (const auto& d : front)
      if (d.status == Status::optimal && d.energy) fs.x.push_back(d.latency.in(units::ms)), fs.y.push_back(d.energy->in(units::mJ));
    nn.x = {neuraghe_latency * 1e3};
    nn.y = {neuraghe_energy * 1e3};
    pareto.series = {fs, nn};
    outputs.figure("design_front.svg", pareto);

    outputs.add_table("l1_neuraghe", t1);
    outputs.add_table("rounding_effect", t2);
    outputs.add_table("binding", t3);
    outputs.add_table("binding_estimates", t3e);
    outputs.add_table("design", t4);
    outputs.add_json("l1_neuraghe", [&](io::JsonWriter& json) {
      json.begin_object();
      json.key("ops_th").value(e.ops_th.value()).key("ops_re").value(e.ops_re.value());
      json.key("trip_counts").begin_object();
      for (auto l : {Loop::IF, Loop::OF, Loop::FW}) json.key(loop_name(l)).value(nest.loop_of(l).trip);
      json.end_object();
      json.key("tiles").value(nest.tiles()).key("of_per_tile").value(nest.loop_of(Loop::OF).inner);
      json.key("traffic_bytes").begin_object();
      for (const auto& c : e.channels) json.key(neuraghe.channels[c.channel].id).value(c.traffic.value());
      json.end_object();
      json.key("latency_s").value(e.latency.value()).key("energy_j").value(e.energy->value());
      json.key("bottleneck").value(e.bottleneck);
      json.key("ops_estimate_s").value(e.ops_estimate.value()).key("roofline_estimate_s").value(e.roofline_estimate.value());
      json.end_object();
    });
    outputs.add_json("rounding_effect", [&](io::JsonWriter& json) {
      json.begin_object().key("max_underestimation").value(worst).key("mean_underestimation").value(sum / double(count));
      json.key("layers").value(count).key("mean_kernel_fits").value(sum_fitting / double(fitting));
      json.end_object();
    });
    outputs.add_json("binding", [&](io::JsonWriter& json) {
      json.begin_object();
      json.key("algorithm1_latency_s").value(greedy_seq.latency.value());
      json.key("latency_s").value(best_latency.metrics.latency.value());
      json.key("algorithm1_pipelined_fps").value(greedy_pipe.throughput.value());
      json.key("pipelined_fps").value(best_throughput.metrics.throughput.value());
      json.key("energy_j").value(best_energy.metrics.energy ? best_energy.metrics.energy->value() : std::nan(""));
      json.key("algorithm1_energy_j").value(greedy_energy.energy ? greedy_energy.energy->value() : std::nan(""));
      json.key("status").value(std::string(to_string(best_throughput.status)));
      json.end_object();
    });
    outputs.add_json("design", [&](io::JsonWriter& json) {
      json.begin_object();
      json.key("status").value(std::string(to_string(fastest.status)));
      json.key("relaxation_s").value(relaxed.objective).key("latency_s").value(fastest.latency.value());
      json.key("model_latency_s").value(fastest.objective);
      json.key("parallelism").begin_array();
      for (auto p : fastest.parallelism) json.value(p);
      json.end_array();
      json.key("seconds").value(fastest.seconds);
      json.key("front").begin_array();
      for (const auto& d : front)
        if (d.status == Status::optimal && d.energy)
          json.begin_object().key("latency_s").value(d.latency.value()).key("energy_j").value(d.energy->value()).end_object();
      json.end_array();
      json.end_object();
    });
    std::printf("\nfigures in %s/\n", outputs.svg_dir().c_str());
    return outputs.finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "study002: %s\n", e.what());
    return 1;
  }
}
