// examples/study002/worked_example.cpp
// Definitions of worked_example.hpp, a source of the study002 example of its own, so
// that no one file of the example compiles the whole study.
#include "study002/worked_example.hpp"

namespace study002 {

Platform unbounded(const Platform& p) {
  Platform u = p;
  for (auto& m : u.memories) m.capacity = ychart::Constant<ychart::dim::data>(1e18);
  return u;
}

io::Table worked_example(const Platform& neuraghe, const io::JsonValue& worked, WorkedExample& out) {
  const auto& wl = worked.at("layer");
  const Layer l1 = Layer::convolution("l1", wl.at("in").integer(), wl.at("out").integer(), wl.at("size").integer(),
                                      wl.at("kernel").integer());
  const auto e = evaluate_layer(l1, neuraghe, 0);
  const auto& paper = worked.at("paper");
  const auto& derived = worked.at("derived");
  const Platform whole = unbounded(neuraghe);
  const auto untiled = refine(l1, neuraghe.processors[0], whole);
  // The four refinement steps, as Listings 3-6: reordered (no grid), unrolled, with transfers, tiled.
  Platform no_grid = whole;
  no_grid.processors[0].model.unrolls.clear();
  std::printf("Study 002: layer l1 (1x1 conv, 128 -> 512 channels, 28x28) on NEURAghe\n\n"
              "Step 1, reorder (Listing 3):\n%s\nStep 2, unroll with round-up (Listing 4):\n%s\n"
              "Step 3, transfers (Listing 5):\n%s\nStep 4, tile for memory (Listing 6):\n%s\n",
              refine(l1, no_grid.processors[0], no_grid).listing(no_grid, false).c_str(),
              untiled.listing(whole, false).c_str(), untiled.listing(whole).c_str(), e.nest.listing(neuraghe).c_str());
  io::Table t({{"quantity", "", 1}, {"paper", "", 10}, {"ychart", "", 10}, {"source", "", 1}});
  auto row = [&](const std::string& q, double theirs, double ours, const std::string& src) {
    t.add_row({q, theirs, ours, src});
  };
  const auto& nest = e.nest;
  for (auto l : {Loop::IF, Loop::OF, Loop::FW}) {
    row(std::string("trip count ") + loop_name(l), paper.at("trip_counts").at(loop_name(l)).number(),
        double(nest.loop_of(l).trip), "Listing 4");
    out.trip_counts.emplace_back(loop_name(l), nest.loop_of(l).trip);
  }
  for (auto d : {DataKind::input, DataKind::weights, DataKind::output})
    row(std::string("untiled ") + data_kind_name(d) + " bytes", paper.at("untiled_bytes").at(data_kind_name(d)).number(),
        untiled.transfers[std::size_t(d)].bytes, "Listing 5");
  row("tiles (out_tile)", paper.at("tiles").number(), double(nest.loop_of(Loop::OF).tiles), "Listing 6");
  row("OF iterations per tile", paper.at("of_per_tile").number(), double(nest.loop_of(Loop::OF).inner), "Listing 6");
  row("tiled output bytes", paper.at("tiled_output_bytes").number(), nest.transfers[1].bytes, "Listing 6");
  row("OPS_th", paper.at("ops_th").number(), e.ops_th.value(), "Eq. 2");
  row("OPS_re", paper.at("ops_re").number(), e.ops_re.value(), "footnote 3");
  for (const auto& c : e.channels) {
    const auto& id = neuraghe.channels[c.channel].id;
    row("traffic " + id + " [B]", derived.at("traffic_bytes").at(id).number(), c.traffic.value(),
        "derived (digest 2.4)");
    out.traffic_bytes.emplace_back(id, c.traffic.value());
  }
  row("compute time [ms]", std::nan(""), e.compute.in(units::ms), "OPS_re / 129.6 GOPS");
  row("latency [ms]", derived.at("latency_ms").number(), e.latency.in(units::ms), "derived, Eqs. 8-9");
  row("energy [mJ]", derived.at("energy_mj").number(), e.energy->in(units::mJ), "derived, Eq. 13");
  row("OPS estimate [ms]", derived.at("ops_estimate_ms").number(), e.ops_estimate.in(units::ms), "Eq. 1");
  row("Roofline estimate [ms]", std::nan(""), e.roofline_estimate.in(units::ms), "Eq. 6, bw = sum of channels");
  t.print(std::cout);
  std::printf("bottleneck: %s (paper's derivation: %s)\n\n", e.bottleneck.c_str(),
              derived.at("bottleneck").string().c_str());
  out.ops_th = e.ops_th.value();
  out.ops_re = e.ops_re.value();
  out.tiles = nest.tiles();
  out.of_per_tile = nest.loop_of(Loop::OF).inner;
  out.latency_s = e.latency.value();
  out.energy_j = e.energy->value();
  out.bottleneck = e.bottleneck;
  out.ops_estimate_s = e.ops_estimate.value();
  out.roofline_estimate_s = e.roofline_estimate.value();
  return t;
}

}  // namespace study002
