// study000/setup2_report.cpp
// Definitions of setup2_report.hpp and Setup 2's section of the example
// (sections.hpp), compiled once (the ychart_studies library).
#include "study000/setup2_report.hpp"
#include "study000/sections.hpp"
#include <ychart/baselines/alpha_penalty.hpp>

namespace study000 {

std::pair<double, double> speedup_range(const NetworkCost& c) {
  if (c.speedup.empty()) return {std::nan(""), std::nan("")};
  const auto [lo, hi] = std::minmax_element(c.speedup.begin(), c.speedup.end());
  return {*lo, *hi};
}

NetworkReport run_network(const Setup2& s, const std::string& name, double alpha_step) {
  const auto& net = s.networks.at(name);
  NetworkReport r;
  r.name = name;
  // exact integer split, without and with fusion
  for (bool fused : {false, true}) {
    const auto e = exact_network(s, net, fused);
    MethodResult& m = fused ? r.fused_exact : r.exact;
    m.method = fused ? "exact integer, fused layers" : "exact integer";
    m.status = std::string(to_string(e.status));
    m.split = e.split;
    m.seconds = e.seconds;
    if (!e.split.empty() && e.status == Status::optimal) m.cost = evaluate(s, net, e.split, fused, true);
    m.model_ms = e.latency_ms;
  }
  // sequential GP, polished with Ipopt
  SpOptions spo;
  spo.polish = true;
  {
    auto cm = continuous_model(s, net);
    const auto sol = cm.model.solve({}, spo);
    r.sp.method = "sequential GP";
    r.sp.status = std::string(to_string(sol.status()));
    r.sp.solves = sol.iterations();
    r.sp.seconds = sol.solve_time();
    if (sol.has_values()) {
      r.sp.split = split_of(cm, sol);
      r.sp.cost = evaluate(s, net, r.sp.split, false, false);
      r.sp.model_ms = sol.objective() * 1e3;
    }
  }
  // the thesis's alpha sweep: balanced condensation point, alpha_l = a * (layer latency there)
  {
    auto cm = continuous_model(s, net);
    ychart::baselines::AlphaSweepOptions ao;
    std::vector<LayerSplit> hat;
    for (std::size_t i = 0; i < net.size(); ++i) {
      const double third = net[i].c / 3.0;
      for (std::size_t d = 0; d < 3; ++d) cm.model.start(cm.channels[i][d], third);
      hat.push_back({third, third, third});
    }
    const auto at_hat = evaluate(s, net, hat, false, false);
    for (double ms : at_hat.layer_ms) ao.scale.push_back(ms * 1e-3);
    ao.alpha_start = ao.alpha_step = alpha_step;
    ao.freeze_satisfied = true;
    ao.max_iterations = 400;
    const auto sweep = ychart::baselines::alpha_penalty_sweep(cm.model, ao);
    r.alpha.method = "alpha sweep (thesis)";
    r.alpha.seconds = sweep.seconds;
    r.alpha_iterations = static_cast<int>(sweep.iterations.size());
    r.alpha.solves = r.alpha_iterations;
    if (sweep.accepted >= 0) {
      const auto& it = sweep.iterations[std::size_t(sweep.accepted)];
      r.alpha.status = "accepted";
      r.alpha.split = split_of(cm, it.values);
      r.alpha.cost = evaluate(s, net, r.alpha.split, false, false);
      r.alpha.model_ms = it.objective * 1e3;
    } else {
      r.alpha.status = "not accepted in " + std::to_string(ao.max_iterations) + " iterations";
    }
  }
  // the thesis's fused-layer surrogate: transfers weighted by (C_F / C)^(2k)
  {
    ContinuousOptions co;
    co.fused_surrogate = true;
    co.k = s.fused_k;
    auto cm = continuous_model(s, net, co);
    const auto sol = cm.model.solve({}, spo);
    r.fused_surrogate.method = "x^" + std::to_string(2 * s.fused_k) + " surrogate (SP)";
    r.fused_surrogate.status = std::string(to_string(sol.status()));
    r.fused_surrogate.solves = sol.iterations();
    r.fused_surrogate.seconds = sol.solve_time();
    if (sol.has_values()) {
      r.fused_surrogate.split = split_of(cm, sol);
      r.fused_surrogate.cost = evaluate(s, net, r.fused_surrogate.split, true, false);  // transfers as they happen
      r.fused_surrogate.model_ms = sol.objective() * 1e3;
    }
  }
  return r;
}

std::string layer_share_text(const LayerSplit& x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g/%.4g/%.4g", x[cpu], x[gpu], x[fpga]);
  return buf;
}

/// What --json says of one method: its status, latency and speed-ups (null
/// without a point), and with `channels` its split per layer and resources.
MethodAnswer method_answer(const Setup2& s, const std::vector<ConvLayer>& net, const MethodResult& m, bool channels) {
  static_assert(device_names[0] == std::string_view("cpu") && device_names[1] == std::string_view("gpu") &&
                    device_names[2] == std::string_view("fpga"),
                "LayerChannels's members are named for the devices");
  const bool point = !m.split.empty() && !m.cost.layer_ms.empty();
  const auto [a, b] = speedup_range(m.cost);
  MethodAnswer out{m.status, point ? m.cost.total_ms * 1e-3 : std::nan(""), point ? a : std::nan(""),
                   point ? b : std::nan(""), {}, m.seconds, {}, {}};
  if (m.solves) out.gp_solves = m.solves;
  if (channels && point) {
    std::vector<LayerChannels> split;
    for (std::size_t i = 0; i < net.size(); ++i) split.push_back({net[i].name, m.split[i][0], m.split[i][1], m.split[i][2]});
    out.channels = std::move(split);
    io::Members<double> resources;
    for (std::size_t k = 0; k < s.resources.size(); ++k) resources.emplace_back(s.resources[k].name, m.cost.resources[k]);
    out.resources = std::move(resources);
  }
  return out;
}

NetworkAnswer network_answer(const Setup2& s, const NetworkReport& r) {
  const auto& net = s.networks.at(r.name);
  const auto [lo, hi] = speedup_range(r.exact.cost);
  const auto& th = s.thesis_speedup.at(r.name);
  return {static_cast<long>(net.size()),
          lo,
          hi,
          {th[0], th[1]},
          r.exact.cost.cpu_only_total_ms * 1e-3,
          method_answer(s, net, r.exact, true),
          method_answer(s, net, r.sp, false),
          method_answer(s, net, r.alpha, false),
          {method_answer(s, net, r.fused_exact, false), method_answer(s, net, r.fused_surrogate, false),
           r.fused_surrogate.model_ms * 1e-3, static_cast<long>(r.fused_exact.cost.fused_pairs)}};
}

void report_setup2(examples::Outputs& outputs, const Setup2& s, const std::vector<NetworkReport>& reports) {
  io::Table summary({{"network", "", 1}, {"method", "", 1}, {"status", "", 1}, {"latency", "ms", 4},
                     {"its objective", "ms", 4}, {"speed-up min", "x", 3}, {"speed-up max", "x", 3},
                     {"GP solves", "", 1}, {"time", "ms", 3}});
  for (const auto& r : reports) {
    const auto& th = s.thesis_speedup.at(r.name);
    summary.add_row({r.name, std::string("thesis (reported, Fig. 4.8)"), std::string("-"), std::monostate{},
                     std::monostate{}, th[0], th[1], std::monostate{}, std::monostate{}});
    summary.add_row({r.name, std::string("CPU only"), std::string("-"), r.exact.cost.cpu_only_total_ms,
                     std::monostate{}, 1.0, 1.0, std::monostate{}, std::monostate{}});
    for (const MethodResult* m : {&r.exact, &r.sp, &r.alpha, &r.fused_exact, &r.fused_surrogate}) {
      const auto [lo, hi] = speedup_range(m->cost);
      const bool point = !m->split.empty() && !m->cost.layer_ms.empty();
      summary.add_row({r.name, m->method, m->status, point ? m->cost.total_ms : std::nan(""), m->model_ms,
                       point ? lo : std::nan(""), point ? hi : std::nan(""),
                       m->solves ? io::Cell{long{m->solves}} : io::Cell{std::monostate{}}, m->seconds * 1e3});
    }
  }
  std::printf("\nSetup 2 (Eq. 4.10): every layer split across CPU, GPU and FPGA, one FPGA budget; latency is the sum "
              "over layers (flydels are assumptions, carballo2022/setup2.json)\n");
  summary.print(std::cout);
  outputs.add_table("setup2", summary);

  for (const auto& r : reports) {
    const auto& net = s.networks.at(r.name);
    io::Table layers({{"layer", "", 1}, {"C", "", 1}, {"exact C/G/F", "", 1}, {"exact", "x", 3},
                      {"SP C/G/F", "", 1}, {"SP", "x", 3}, {"alpha C/G/F", "", 1}, {"alpha", "x", 3}});
    for (std::size_t i = 0; i < net.size(); ++i) {
      auto share = [&](const MethodResult& m) {
        return m.split.empty() ? io::Cell{std::monostate{}} : io::Cell{layer_share_text(m.split[i])};
      };
      auto up = [&](const MethodResult& m) { return m.cost.speedup.empty() ? std::nan("") : m.cost.speedup[i]; };
      layers.add_row({net[i].name, long{net[i].c}, share(r.exact), up(r.exact), share(r.sp), up(r.sp), share(r.alpha),
                      up(r.alpha)});
    }
    std::printf("\n%s, per layer (channels CPU/GPU/FPGA; speed-up against CPU only):\n", r.name.c_str());
    layers.print(std::cout);
    outputs.add_table("setup2_" + r.name, layers);

    // Fig. 4.8: the exact split per layer (shares of C) and the speed-ups.
    io::StackedBarChart bars;
    bars.title = r.name + ": exact channel split per layer (study 000, Fig. 4.8)";
    bars.y_label = "share of the layer's channels";
    for (const auto& l : net) bars.categories.push_back(l.name);
    for (std::size_t d = 0; d < 3; ++d) {
      io::StackedBarChart::Segment seg{std::string(d == cpu ? "CPU" : d == gpu ? "GPU" : "FPGA"), {}};
      for (std::size_t i = 0; i < net.size(); ++i)
        seg.values.push_back(r.exact.split.empty() ? std::nan("") : r.exact.split[i][d] / net[i].c);
      bars.segments.push_back(seg);
    }
    outputs.figure("fig4_8_" + r.name + "_split.svg", bars);
    io::LineChart speed;
    speed.title = r.name + ": speed-up per layer against CPU only (study 000, Fig. 4.8)";
    speed.x_label = "layer (1 = first)";
    speed.y_label = "speed-up (x)";
    for (const MethodResult* m : {&r.exact, &r.sp, &r.alpha}) {
      io::Series line{m->method, {}, {}};
      for (std::size_t i = 0; i < m->cost.speedup.size(); ++i) line.x.push_back(double(i + 1)), line.y.push_back(m->cost.speedup[i]);
      speed.series.push_back(line);
    }
    const auto& th = s.thesis_speedup.at(r.name);
    for (double v : th) {
      io::Series band{v == th[0] ? "thesis's range (bottom)" : "thesis's range (top)", {1.0, double(net.size())}, {v, v}};
      band.dashed = true, band.markers = false;
      speed.series.push_back(band);
    }
    outputs.figure("fig4_8_" + r.name + "_speedup.svg", speed);
  }

  io::Members<NetworkAnswer> answers;
  for (const auto& r : reports) answers.emplace_back(r.name, network_answer(s, r));
  outputs.add_result("setup2", std::move(answers));
}

int run_setup2(examples::Outputs& outputs, const std::filesystem::path& data_dir, std::vector<std::string> networks,
               double alpha_step) {
  const Setup2 s2 = load_setup2(data_dir / "carballo2022" / "setup2.json");
  if (networks.empty()) networks = s2.network_names;
  std::vector<NetworkReport> reports;
  for (const auto& name : networks) {
    if (!s2.networks.count(name)) {
      std::fprintf(stderr, "study000: --networks: no network `%s` in setup2.json\n", name.c_str());
      return 2;
    }
    reports.push_back(run_network(s2, name, alpha_step));
  }
  report_setup2(outputs, s2, reports);
  return 0;
}

}  // namespace study000
