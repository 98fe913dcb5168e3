// examples/study002/design.cpp
// Definitions of design.hpp, a source of the study002 example of its own, so
// that no one file of the example compiles the whole study.
#include "study002/design.hpp"

namespace study002 {

AcceleratorTemplate accelerator_template(const Platform& neuraghe, const io::JsonValue& dz) {
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
  return tpl;
}

std::vector<AcceleratorDesign> design_front(const Cnn& nas, const Platform& neuraghe,
                                            const AcceleratorTemplate& tpl, DesignOptions dopt,
                                            const AcceleratorDesign& frugal, const AcceleratorDesign& fastest) {
  std::vector<AcceleratorDesign> front{frugal};
  ychart::SolveOptions capped;
  capped.time_limit = 20;
  while (front.size() < 16 && front.back().status == ychart::Status::optimal &&
         front.back().latency.value() > fastest.latency.value() * (1 + 1e-3)) {
    dopt.latency_limit = ychart::Constant<ychart::dim::time>(front.back().latency.value() * (1 - 1e-3));
    auto next = design_accelerator(nas, neuraghe, tpl, dopt, capped);
    const bool proven = next.status == ychart::Status::optimal;
    front.push_back(std::move(next));
    if (!proven) break;
  }
  std::reverse(front.begin(), front.end());
  return front;
}

io::Table design(const Platform& neuraghe, const io::JsonValue& grid, DesignSummary& out,
                 examples::Outputs& outputs) {
  using ychart::Status;
  const auto& dz = grid.at("design");
  const auto tpl = accelerator_template(neuraghe, dz);
  const Cnn nas{"table7_max", layers_of(dz.at("cnn"))};
  DesignOptions dopt;
  dopt.area_budget = dz.at("area").at("budget").number();
  dopt.relax = true;
  const auto relaxed = design_accelerator(nas, neuraghe, tpl, dopt);
  dopt.relax = false;
  const auto fastest = design_accelerator(nas, neuraghe, tpl, dopt);
  // A rule that the template's value lists cannot say, added to the public
  // model before solving: a square array, P_IF = P_OF.
  auto square_model = build_accelerator_model(nas, neuraghe, tpl, dopt);
  const auto p_if = square_model.parallelism(0), p_of = square_model.parallelism(1);
  square_model.model().subject_to(p_if <= p_of, "square array");
  square_model.model().subject_to(p_of <= p_if, "square array");
  const auto square = square_model.solve();
  // The same space with every tile count of the limited loops, not only
  // those ALOHA's rule needs: exact for that space, and slower.
  auto every_tpl = tpl;
  every_tpl.tile_space = TileSpace::every_count;
  const auto fastest_every = design_accelerator(nas, neuraghe, every_tpl, dopt);
  dopt.goal = DesignGoal::energy;
  const auto frugal = design_accelerator(nas, neuraghe, tpl, dopt);
  const auto frugal_every = design_accelerator(nas, neuraghe, every_tpl, dopt);
  const auto front = design_front(nas, neuraghe, tpl, dopt, frugal, fastest);
  io::Table t({{"design", "", 1}, {"status", "", 1}, {"P (IF, OF, FW)", "", 1}, {"memories", "KiB", 1},
               {"area", "", 4}, {"power", "W", 4}, {"latency", "ms", 5}, {"energy", "mJ", 5}, {"solve", "ms", 4}});
  auto design_row = [&](const std::string& what, const AcceleratorDesign& d) {
    std::string p, mem;
    for (auto x : d.parallelism) p += (p.empty() ? "" : ", ") + ychart::detail::format_number(x);
    for (std::size_t k = 0; k < 3 && k < d.memory_bytes.size(); ++k)
      mem += (mem.empty() ? "" : ", ") + ychart::detail::format_number(d.memory_bytes[k] / 1024);
    t.add_row({what, std::string(to_string(d.status)), p, mem, d.area, d.power.value(),
               d.status == Status::optimal ? d.latency.in(units::ms) : std::nan(""),
               d.energy ? d.energy->in(units::mJ) : std::nan(""), d.seconds * 1e3});
  };
  t.add_row({std::string("GP relaxation (bound)"), std::string(to_string(relaxed.status)), std::string("-"),
             std::string("-"), relaxed.area, relaxed.power.value(), relaxed.objective * 1e3, std::nan(""),
             relaxed.seconds * 1e3});
  design_row("least latency, area <= budget", fastest);
  design_row("least energy, area <= budget", frugal);
  design_row("least latency, every tile count", fastest_every);
  design_row("least energy, every tile count", frugal_every);
  for (std::size_t k = 0; k < front.size(); ++k) design_row("front point " + std::to_string(k), front[k]);
  design_row("least latency, square array", square);
  // NEURAghe itself on the same CNN, for scale.
  double neuraghe_latency = 0, neuraghe_energy = 0;
  for (const auto& l : nas.layers) {
    const auto x = evaluate_layer(l, neuraghe, 0);
    neuraghe_latency += x.latency.value(), neuraghe_energy += x.energy->value();
  }
  std::printf("Accelerator design for %s (%zu layers) on NEURAghe's template, area <= %g; NEURAghe itself: %.4f ms, "
              "%.4f mJ\n",
              nas.name.c_str(), nas.layers.size(), *dopt.area_budget, neuraghe_latency * 1e3, neuraghe_energy * 1e3);
  t.print(std::cout);
  io::LineChart pareto;
  pareto.title = "Accelerator design: latency vs energy, every point proven (study 002)";
  pareto.x_label = "latency (ms)";
  pareto.y_label = "energy (mJ)";
  io::Series fs{"exact front (epsilon constraint)", {}, {}}, nn{"NEURAghe (Table 4)", {}, {}};
  nn.line = false;
  const auto every_status = fastest_every.status != Status::optimal ? fastest_every.status : frugal_every.status;
  out = {std::string(to_string(fastest.status)), relaxed.objective, fastest.latency.value(), fastest.objective,
         fastest.parallelism, fastest.seconds, {}, std::string(to_string(every_status)),
         fastest_every.latency.value(), frugal.energy ? frugal.energy->value() : std::nan(""),
         frugal_every.energy ? frugal_every.energy->value() : std::nan("")};
  for (const auto& d : front)
    if (d.status == Status::optimal && d.energy) {
      fs.x.push_back(d.latency.in(units::ms)), fs.y.push_back(d.energy->in(units::mJ));
      out.front.push_back({d.latency.value(), d.energy->value()});
    }
  nn.x = {neuraghe_latency * 1e3};
  nn.y = {neuraghe_energy * 1e3};
  pareto.series = {fs, nn};
  outputs.figure("design_front.svg", pareto);
  return t;
}

}  // namespace study002
