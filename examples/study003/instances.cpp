// study003/instances.cpp
// Definitions of instances.hpp, compiled once (the ychart_studies library).
#include "study003/instances.hpp"

namespace study003 {

void thesis_architecture(ys::Specification& spec, double bandwidth_mb_per_s) {
  auto& a = spec.architecture;
  a.add_processor("NCS", ychart::Constant<ychart::dim::time>{0.0}, 0.5 * units::W);
  a.add_bus("bus12");
  a.add_bus("bus23");
  a.add_processor("Desktop(CPU+GPU)", ychart::Constant<ychart::dim::time>{0.0}, 60.0 * units::W);
  a.add_processor("coral_edgetpu", ychart::Constant<ychart::dim::time>{0.0}, 2.0 * units::W);
  std::vector<double> shaves;
  std::vector<ychart::Constant<ychart::dim::power>> power;
  for (int s = 1; s <= 12; ++s) shaves.push_back(s), power.push_back(0.07 * s * units::W);
  a.add_parameter("NCS", "num_of_shaves", shaves, power);
  const char* ends[4][2] = {{"NCS", "bus12"}, {"bus12", "Desktop(CPU+GPU)"}, {"Desktop(CPU+GPU)", "bus23"},
                            {"bus23", "coral_edgetpu"}};
  const double cost_us[4] = {9.0, 9.0, 6.0, 6.0};
  for (int l = 0; l < 4; ++l) {
    a.add_link("l" + std::to_string(l + 1), ends[l][0], ends[l][1], cost_us[l] * units::us);
    if (bandwidth_mb_per_s > 0) a.links.back().bandwidth = bandwidth_mb_per_s * units::MB_per_s;
  }
}

ys::Specification mobilenet() {
  ys::Specification spec;
  thesis_architecture(spec, 400.0);
  auto& app = spec.application;
  struct Op {
    std::string id, kind;
    double elements, macs;  // input elements; multiply-accumulates for convolutions
  };
  std::vector<Op> ops;
  ops.push_back({"input", "Placeholder", 224.0 * 224 * 3, 0});
  auto layer = [&](const std::string& name, const std::string& kind, double in_elems, double macs, double out_elems) {
    ops.push_back({name, kind, in_elems, macs});
    ops.push_back({name + "/bias", "Add", out_elems, 0});
    ops.push_back({name + "/relu6", "Relu6", out_elems, 0});
  };
  // MobileNet v1: conv 3x3/2 to 32 channels, then 13 depthwise-separable blocks.
  double hw = 112, ch = 32;
  layer("conv0", "Conv2D", 224.0 * 224 * 3, hw * hw * ch * 27, hw * hw * ch);
  const std::array<std::pair<double, int>, 13> blocks{{{64, 1}, {128, 2}, {128, 1}, {256, 2}, {256, 1}, {512, 2},
                                                       {512, 1}, {512, 1}, {512, 1}, {512, 1}, {512, 1}, {1024, 2},
                                                       {1024, 1}}};
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const auto [out_ch, stride] = blocks[b];
    const double in = hw * hw * ch;
    hw /= stride;
    const std::string n = "block" + std::to_string(b + 1);
    layer(n + "/dw", "DepthwiseConv2D", in, hw * hw * ch * 9, hw * hw * ch);
    layer(n + "/pw", "Conv2D", hw * hw * ch, hw * hw * ch * out_ch, hw * hw * out_ch);
    ch = out_ch;
  }
  ops.push_back({"avgpool", "AvgPool", hw * hw * ch, 0});
  ops.push_back({"fc", "MatMul", ch, ch * 1000});
  ops.push_back({"fc/bias", "Add", 1000, 0});
  ops.push_back({"softmax", "Softmax", 1000, 0});
  ops.push_back({"output", "Identity", 1000, 0});
  for (const auto& op : ops) app.add_process(op.id, op.kind);
  for (std::size_t k = 0; k + 1 < ops.size(); ++k)
    app.add_communication(ops[k].id + ":0", ops[k].id, {ops[k + 1].id}, 4.0 * ops[k + 1].elements * units::B);
  // Per device: (us per MAC, us per element, intercept us); which kinds it runs.
  struct Device {
    const char* id;
    double per_mac, per_element, intercept;
    std::vector<std::string> kinds;
  };
  const std::vector<Device> devices{
      {"Desktop(CPU+GPU)", 2.0e-5, 1.0e-3, 5.0, {}},
      {"NCS", 0.35e-5, 1.6e-3, 12.0, {"Conv2D", "DepthwiseConv2D", "Add", "Relu6", "AvgPool"}},
      {"coral_edgetpu", 0.5e-5, 1.4e-3, 10.0, {"Conv2D", "DepthwiseConv2D", "Add", "Relu6"}}};
  for (const auto& op : ops) {
    const bool io = op.kind == "Placeholder" || op.kind == "Identity";
    for (const auto& d : devices) {
      bool runs = d.kinds.empty();
      for (const auto& k : d.kinds) runs = runs || k == op.kind;
      if (!runs || (io && std::string(d.id) != "Desktop(CPU+GPU)")) continue;
      const double us = io ? 0.0 : d.per_mac * op.macs + d.per_element * (op.macs > 0 ? 0 : op.elements) + d.intercept;
      if (std::string(d.id) == "NCS") {
        std::vector<ychart::Constant<ychart::dim::time>> costs;
        for (double f : shave_factor) costs.push_back(us * f * units::us);
        spec.add_mapping(op.id, d.id, "num_of_shaves", costs);
      } else {
        spec.add_mapping(op.id, d.id, us * units::us);
      }
    }
  }
  return spec;
}

ys::Specification random_layered(std::size_t tasks, std::size_t processors, std::uint64_t seed,
                                 bool cross_bus) {
  std::mt19937_64 rng(seed);
  auto uniform = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  ys::Specification spec;
  auto& a = spec.architecture;
  a.add_processor("host", ychart::Constant<ychart::dim::time>{0.0}, 30.0 * units::W);
  for (std::size_t p = 1; p < processors; ++p) {
    const auto id = "acc" + std::to_string(p);
    a.add_processor(id, uniform(0, 40) * units::us, uniform(1, 10) * units::W);
    a.add_bus("bus" + std::to_string(p));
    a.add_link("h" + std::to_string(p), "host", "bus" + std::to_string(p), uniform(2, 10) * units::us);
    a.add_link("a" + std::to_string(p), "bus" + std::to_string(p), id, uniform(2, 10) * units::us);
  }
  if (cross_bus && processors >= 3) {
    a.add_bus("bus_x");
    a.add_link("x1", "acc1", "bus_x", uniform(2, 6) * units::us);
    a.add_link("x2", "bus_x", "acc2", uniform(2, 6) * units::us);
  }
  const std::array<const char*, 6> kinds{"Conv2D", "Add", "Mul", "Relu", "MatMul", "Maximum"};
  std::vector<std::vector<bool>> runs(processors, std::vector<bool>(kinds.size(), true));
  for (std::size_t p = 1; p < processors; ++p)
    for (auto&& r : runs[p]) r = uniform(0, 1) < 0.6;
  std::vector<std::vector<double>> speed(processors, std::vector<double>(kinds.size(), 1.0));
  for (std::size_t p = 1; p < processors; ++p)
    for (auto& s : speed[p]) s = uniform(0.2, 1.2);
  // Layers of 4-12 tasks; each task reads one or two tasks of the layer before.
  auto& app = spec.application;
  std::vector<std::vector<std::size_t>> layers;
  std::vector<std::string> names;
  std::vector<std::size_t> kind_of;
  while (names.size() < tasks) {
    layers.emplace_back();
    const auto width = layers.size() == 1 ? 1 : std::uniform_int_distribution<std::size_t>(4, 12)(rng);
    for (std::size_t k = 0; k < width && names.size() < tasks; ++k) {
      layers.back().push_back(names.size());
      names.push_back("t" + std::to_string(names.size()));
      kind_of.push_back(std::uniform_int_distribution<std::size_t>(0, kinds.size() - 1)(rng));
      app.add_process(names.back(), kinds[kind_of.back()]);
    }
  }
  std::vector<std::vector<std::string>> readers(names.size());
  for (std::size_t l = 1; l < layers.size(); ++l)
    for (auto t : layers[l]) {
      const auto& prev = layers[l - 1];
      const auto first = prev[std::uniform_int_distribution<std::size_t>(0, prev.size() - 1)(rng)];
      readers[first].push_back(names[t]);
      const auto second = prev[std::uniform_int_distribution<std::size_t>(0, prev.size() - 1)(rng)];
      if (second != first && uniform(0, 1) < 0.4) readers[second].push_back(names[t]);
    }
  for (std::size_t t = 0; t < names.size(); ++t)
    if (!readers[t].empty()) app.add_communication(names[t] + ":0", names[t], readers[t], uniform(1e3, 1e5) * units::B);
  for (std::size_t t = 0; t < names.size(); ++t) {
    const double host = uniform(20, 200);
    for (std::size_t p = 0; p < processors; ++p)
      if (runs[p][kind_of[t]])
        spec.add_mapping(names[t], p == 0 ? "host" : "acc" + std::to_string(p), host * speed[p][kind_of[t]] * units::us);
  }
  return spec;
}

}  // namespace study003
