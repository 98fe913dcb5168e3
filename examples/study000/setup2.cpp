// study000/setup2.cpp
// Definitions of setup2.hpp, compiled once (the ychart_studies library).
#include "study000/setup2.hpp"

namespace study000 {

ProductFlydel read_product_flydel(const io::JsonValue& v) {
  return {read_flydel(v.at("hw")), read_flydel(v.at("c")), read_flydel(v.at("k")), read_flydel(v.at("n"))};
}

Setup2 load_setup2(const std::filesystem::path& file) {
  const auto doc = io::JsonValue::read(file);
  Setup2 s;
  const auto& fly = doc.at("flydels");
  for (std::size_t d = 0; d < 3; ++d) s.latency_ms[d] = read_product_flydel(fly.at(device_names[d]).at("latency_ms"));
  for (const auto& [name, r] : fly.at("fpga").at("resources").items()) {
    const double budget = r.at("budget").number();
    if (!(budget > 0))
      throw io::parse_error(r.source_name(), r.line(), r.column(), r.path() + ".budget", "a budget must be positive");
    s.resources.push_back({name, read_product_flydel(r), budget});
  }
  s.t0_ms = doc.at("communication").at("t0_ms").number();
  s.ms_per_byte = doc.at("communication").at("ms_per_byte").number();
  for (const auto& [net, layers] : doc.at("networks").items()) {
    std::vector<ConvLayer> list;
    std::map<std::string, int> index;
    for (const auto& v : layers.elements()) {
      ConvLayer l;
      l.name = v.at("name").string();
      auto positive = [&](const char* key) {
        const auto x = v.at(key).integer();
        if (x < (std::string(key) == "p" ? 0 : 1))
          throw io::parse_error(v.source_name(), v.line(), v.column(), v.path() + "." + key,
                                std::string(key) + " = " + std::to_string(x) + " must be " +
                                    (std::string(key) == "p" ? "at least 0" : "positive"));
        return static_cast<int>(x);
      };
      l.h = positive("h"), l.c = positive("c"), l.n = positive("n"), l.k = positive("k"), l.s = positive("s");
      l.p = positive("p");
      if (l.h_out() < 1)
        throw io::parse_error(v.source_name(), v.line(), v.column(), v.path(),
                              "layer " + l.name + " has no output pixel (Eq. 2.2 gives " + std::to_string(l.h_out()) + ")");
      l.producer = static_cast<int>(list.size()) - 1;
      if (const auto* input = v.find("input")) {
        const auto& in = *input;
        const auto it = index.find(in.string());
        if (it == index.end())
          throw io::parse_error(in.source_name(), in.line(), in.column(), in.path(),
                                "input `" + in.string() + "` names no earlier layer of " + net);
        l.producer = it->second;
      }
      if (!index.emplace(l.name, static_cast<int>(list.size())).second)
        throw io::parse_error(v.source_name(), v.line(), v.column(), v.path(), "layer name `" + l.name + "` repeats");
      list.push_back(l);
    }
    if (list.empty()) throw io::parse_error(layers.source_name(), layers.line(), layers.column(), layers.path(), "no layers");
    s.network_names.push_back(net);
    s.networks.emplace(net, std::move(list));
  }
  for (const auto& [net, range] : doc.at("thesis").at("speedup_vs_cpu").items())
    s.thesis_speedup[net] = {range.elements().at(0).number(), range.elements().at(1).number()};
  s.fused_k = static_cast<int>(doc.at("thesis").at("fused_k").integer());
  return s;
}

double device_ms(const Setup2& s, Device d, const ConvLayer& l, double channels) {
  return channels > 0 ? s.latency_ms[d].at(l, channels) : 0.0;
}

double in_bytes(const ConvLayer& l, double fpga_channels) { return double(l.h) * l.h * fpga_channels; }

double out_bytes(const ConvLayer& l, double fpga_channels) {
  return double(l.h_out()) * l.h_out() * l.n * fpga_channels / l.c;
}

double comm_ms(const Setup2& s, const ConvLayer& l, double fpga_channels) {
  return fpga_channels > 0 ? s.t0_ms + s.ms_per_byte * (in_bytes(l, fpga_channels) + out_bytes(l, fpga_channels)) : 0.0;
}

double cpu_only_ms(const Setup2& s, const ConvLayer& l) { return device_ms(s, cpu, l, l.c); }

double fusion_saving_ms(const Setup2& s, const ConvLayer& producer, const ConvLayer& consumer) {
  return s.ms_per_byte * (out_bytes(producer, producer.c) + in_bytes(consumer, consumer.c));
}

bool all_on_fpga(const ConvLayer& l, const LayerSplit& x) { return x[fpga] >= l.c * (1 - 1e-9); }

NetworkCost evaluate(const Setup2& s, const std::vector<ConvLayer>& net, const std::vector<LayerSplit>& split,
                     bool fused, bool integer_resources) {
  NetworkCost r;
  r.resources.assign(s.resources.size(), 0.0);
  for (std::size_t i = 0; i < net.size(); ++i) {
    const auto& l = net[i];
    double t = comm_ms(s, l, split[i][fpga]);
    for (std::size_t d = 0; d < 3; ++d) t += device_ms(s, Device(d), l, split[i][d]);
    r.layer_ms.push_back(t);
    for (std::size_t k = 0; k < s.resources.size(); ++k) {
      const double need = split[i][fpga] > 0 ? s.resources[k].model.at(l, split[i][fpga]) : 0.0;
      r.resources[k] += integer_resources ? std::ceil(need - 1e-9) : need;
    }
  }
  if (fused)
    for (std::size_t i = 0; i < net.size(); ++i) {
      const int p = net[i].producer;
      if (p >= 0 && all_on_fpga(net[std::size_t(p)], split[std::size_t(p)]) && all_on_fpga(net[i], split[i])) {
        r.layer_ms[std::size_t(p)] -= s.ms_per_byte * out_bytes(net[std::size_t(p)], net[std::size_t(p)].c);
        r.layer_ms[i] -= s.ms_per_byte * in_bytes(net[i], net[i].c);
        ++r.fused_pairs;
      }
    }
  for (std::size_t i = 0; i < net.size(); ++i) {
    r.total_ms += r.layer_ms[i];
    r.cpu_only_total_ms += cpu_only_ms(s, net[i]);
    r.speedup.push_back(cpu_only_ms(s, net[i]) / r.layer_ms[i]);
  }
  for (std::size_t k = 0; k < s.resources.size(); ++k)
    if (r.resources[k] > s.resources[k].budget * (1 + 1e-9)) r.fits = false;
  return r;
}

ContinuousSplit continuous_model(const Setup2& s, const std::vector<ConvLayer>& net,
                                 const ContinuousOptions& o) {
  ContinuousSplit m;
  Posynomial<dim::time> latency;
  std::vector<Posynomial<>> used(s.resources.size());
  for (const auto& l : net) {
    std::array<Variable<>, 3> v;
    Posynomial<> sum;
    for (std::size_t d = 0; d < 3; ++d) {
      v[d] = m.model.positive(l.name + "." + device_names[d], o.min_share, double(l.c));
      latency += s.latency_ms[d].of(l, v[d]) * units::ms;
      sum += v[d];
    }
    const double per_channel = s.ms_per_byte * (in_bytes(l, 1.0) + out_bytes(l, 1.0));
    Posynomial<> comm = s.t0_ms + per_channel * v[fpga];
    if (o.fused_surrogate) comm = comm * pow(v[fpga] / double(l.c), 2.0 * o.k);
    latency += comm * units::ms;
    for (std::size_t k = 0; k < s.resources.size(); ++k) used[k] += s.resources[k].model.of(l, v[fpga]);
    m.partition.push_back(m.model.subject_to(sum == double(l.c), l.name + " partition"));
    m.channels.push_back(v);
  }
  for (std::size_t k = 0; k < s.resources.size(); ++k)
    m.model.subject_to(used[k] <= s.resources[k].budget, s.resources[k].name);
  m.model.minimize(latency);
  return m;
}

std::vector<LayerSplit> split_of(const ContinuousSplit& m, const std::vector<double>& values) {
  std::vector<LayerSplit> out;
  for (const auto& v : m.channels) out.push_back({values[v[0].index()], values[v[1].index()], values[v[2].index()]});
  return out;
}

std::vector<LayerSplit> split_of(const ContinuousSplit& m, const Solution& solution) {
  std::vector<LayerSplit> out;
  for (const auto& v : m.channels) out.push_back({solution[v[0]], solution[v[1]], solution[v[2]]});
  return out;
}

LayerOptions layer_options(const Setup2& s, const ConvLayer& l, bool fused) {
  LayerOptions o;
  double best = std::numeric_limits<double>::infinity();
  std::vector<double> previous(s.resources.size(), 0.0);
  bool monotone = true;
  for (int n = 0; n <= l.c; ++n) {
    std::vector<double> need(s.resources.size(), 0.0);
    bool fits = true;
    for (std::size_t k = 0; k < s.resources.size(); ++k) {
      need[k] = n > 0 ? std::ceil(s.resources[k].model.at(l, n) - 1e-9) : 0.0;
      if (need[k] > s.resources[k].budget) fits = false;
      if (need[k] < previous[k]) monotone = false;
    }
    previous = need;
    if (!fits) continue;
    // the remainder, CPU share m: an O(C) scan, done only for the counts that fit
    const int rest = l.c - n;
    double rest_best = std::numeric_limits<double>::infinity(), cpu_best = 0;
    for (int m = 0; m <= rest; ++m) {
      const double t = device_ms(s, cpu, l, m) + device_ms(s, gpu, l, rest - m);
      if (t < rest_best) rest_best = t, cpu_best = m;
    }
    const double t = rest_best + device_ms(s, fpga, l, n) + comm_ms(s, l, n);
    const bool dominated = monotone && !(t < best);
    if (dominated && !(fused && n == l.c)) continue;
    best = std::min(best, t);
    o.fpga.push_back(n), o.cpu.push_back(cpu_best), o.latency_ms.push_back(t), o.resources.push_back(need);
  }
  return o;
}

ExactResult exact_network(const Setup2& s, const std::vector<ConvLayer>& net, bool fused,
                          const SolveOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  ExactResult r;
  std::vector<LayerOptions> opts;
  for (const auto& l : net) {
    opts.push_back(layer_options(s, l, fused));
    r.kept += opts.back().fpga.size();
    r.counts += std::size_t(l.c) + 1;
  }
  Model m;
  std::vector<std::optional<Discrete<>>> n(net.size());
  Affine<> latency;
  std::vector<Affine<>> used(s.resources.size());
  auto position = [&](std::size_t i, double v) {  // index of value v among layer i's kept counts
    return std::size_t(std::lower_bound(opts[i].fpga.begin(), opts[i].fpga.end(), v) - opts[i].fpga.begin());
  };
  for (std::size_t i = 0; i < net.size(); ++i) {
    const auto& o = opts[i];
    if (o.fpga.size() == 1) {  // only n = 0 is worth anything: a constant
      latency += Constant<>(o.latency_ms[0]);
      continue;
    }
    n[i] = m.choice("nF_" + net[i].name, o.fpga);
    latency += tabulate(*n[i], [&, i](double v) { return opts[i].latency_ms[position(i, v)]; }, "LAT_" + net[i].name);
    for (std::size_t k = 0; k < s.resources.size(); ++k)
      used[k] += tabulate(*n[i], [&, i, k](double v) { return opts[i].resources[position(i, v)][k]; },
                          s.resources[k].name + "_" + net[i].name);
  }
  if (fused)
    for (std::size_t i = 0; i < net.size(); ++i) {
      const int p = net[i].producer;
      if (p < 0 || !n[i] || !n[std::size_t(p)]) continue;
      const auto& pl = net[std::size_t(p)];
      if (opts[std::size_t(p)].fpga.back() != pl.c || opts[i].fpga.back() != net[i].c) continue;  // cannot be whole
      auto u = m.binary("fuse_" + pl.name + "_" + net[i].name);
      m.subject_to(u <= tabulate(*n[std::size_t(p)], [c = pl.c](double v) { return v == c ? 1.0 : 0.0; }));
      m.subject_to(u <= tabulate(*n[i], [c = net[i].c](double v) { return v == c ? 1.0 : 0.0; }));
      latency += (-fusion_saving_ms(s, pl, net[i])) * u;
    }
  for (std::size_t k = 0; k < s.resources.size(); ++k)
    if (m.variable_count() > 0) m.subject_to(used[k] <= s.resources[k].budget, s.resources[k].name);
  r.split.assign(net.size(), LayerSplit{});
  if (m.variable_count() == 0) {  // nothing to choose: every layer keeps the FPGA out
    r.status = Status::optimal;
  } else {
    m.minimize(latency);
    const auto sol = m.solve(options);
    r.status = sol.status();
    r.message = sol.message();
    if (!sol.has_values()) {
      r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      return r;
    }
    for (std::size_t i = 0; i < net.size(); ++i)
      if (n[i]) r.split[i][fpga] = sol[*n[i]];
  }
  for (std::size_t i = 0; i < net.size(); ++i) {
    const std::size_t j = position(i, r.split[i][fpga]);
    r.split[i][cpu] = opts[i].cpu[j];
    r.split[i][gpu] = net[i].c - opts[i].cpu[j] - opts[i].fpga[j];
  }
  r.latency_ms = evaluate(s, net, r.split, fused, true).total_ms;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace study000
