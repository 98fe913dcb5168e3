// study000/setup1.cpp
// Definitions of setup1.hpp, compiled once (the ychart_studies library).
#include "study000/setup1.hpp"

namespace study000 {

Setup1 load_setup1(const std::filesystem::path& file) {
  const auto doc = io::JsonValue::read(file);
  Setup1 s;
  s.channels = static_cast<double>(doc.at("layer").at("c").integer());
  for (const char* d : {"cpu", "gpu", "fpga"}) s.latency_ms[d] = read_flydel(doc.at("latency_ms").at(d));
  s.comm_t0_ms = doc.at("communication_ms").at("t0").number();
  s.comm_per_channel_ms = doc.at("communication_ms").at("per_channel").number();
  for (const auto& [name, r] : doc.at("fpga_resources").items())
    s.resources.push_back({name, read_flydel(r), r.at("budget").number()});
  const auto& t = doc.at("thesis");
  s.hat_fpga = t.at("condensation_point").at("fpga").number();
  s.hat_gpu = t.at("condensation_point").at("gpu").number();
  s.thesis_alpha_step = t.at("alpha_step").number();
  s.thesis_iteration = static_cast<int>(t.at("accepted_iteration").integer());
  s.thesis_alpha = t.at("accepted_alpha").number();
  s.thesis_fpga = t.at("split").at("fpga").number();
  s.thesis_gpu = t.at("split").at("gpu").number();
  return s;
}

double comm_ms(const Setup1& s, double c_fpga) { return c_fpga > 0 ? s.comm_t0_ms + s.comm_per_channel_ms * c_fpga : 0; }

SplitModel split_model(const Setup1& s, const std::vector<std::string>& devices) {
  SplitModel m;
  Posynomial<dim::time> latency;
  Posynomial<> total;
  for (const auto& d : devices) {
    auto v = m.model.positive("C_" + d, 1.0, s.channels);  // GP variables are positive: one channel at least
    m.c.emplace(d, v);
    latency += s.latency_ms.at(d).of(v) * units::ms;
    total += v;
  }
  const auto& f = m.c.at("fpga");
  latency += (s.comm_t0_ms + s.comm_per_channel_ms * f) * units::ms;
  for (const auto& r : s.resources) m.model.subject_to(r.model.of(f) <= r.budget, r.name);
  m.model.subject_to(total == s.channels, "partition");
  m.model.minimize(latency);
  return m;
}

double latency_ms(const Setup1& s, const std::map<std::string, double>& split) {
  double t = 0;
  for (const auto& [d, c] : split) t += c > 0 ? s.latency_ms.at(d)(c) : 0.0;
  return t + comm_ms(s, split.at("fpga"));
}

ExactSplit exact_split(const Setup1& s, const std::vector<std::string>& devices) {
  Model m;
  std::map<std::string, Discrete<>> n;
  Affine<> latency, total;
  for (const auto& d : devices) {
    auto v = m.integer("n_" + d, 0, s.channels);
    n.emplace(d, v);
    const Flydel& f = s.latency_ms.at(d);
    latency += tabulate(v, [&](double c) { return c > 0 ? f(c) : 0.0; }, "LAT_" + d);
    total += v;
  }
  const auto& nf = n.at("fpga");
  latency += tabulate(nf, [&](double c) { return comm_ms(s, c); }, "LAT_Comm");
  for (const auto& r : s.resources)
    m.subject_to(tabulate(nf, [&](double c) { return c > 0 ? r.model(c) : 0.0; }, r.name) <= r.budget, r.name);
  m.subject_to(total == s.channels, "partition");
  m.minimize(latency);
  const auto t0 = std::chrono::steady_clock::now();
  const auto sol = m.solve();
  ExactSplit e;
  e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  e.status = sol.status();
  if (sol.has_values()) {
    for (const auto& [d, v] : n) e.split[d] = sol[v];
    e.latency_ms = sol.objective();
  }
  return e;
}

}  // namespace study000
