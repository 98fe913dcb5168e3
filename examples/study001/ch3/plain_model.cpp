// study001/ch3/plain_model.cpp
// Definitions of plain_model.hpp, compiled once (the ychart_studies library).
#include "study001/ch3/plain_model.hpp"

namespace study001::ch3 {

PlainAllocation plain_allocation(const std::vector<shan2021::Kernel>& kernels, int fpgas, double cap_pct,
                                 double alpha, double beta) {
  using namespace ychart;
  PlainAllocation p;
  auto& m = p.model;
  p.ii = m.positive("II", units::ms);
  if (beta > 0) p.phi = m.real("phi", 0, double(fpgas));
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    const auto& kn = kernels[k];
    // No more CUs on one FPGA than the cap holds of each resource it uses.
    int most = 64;
    for (double use : {kn.bram_pct, kn.dsp_pct, kn.bw_pct})
      if (use > 0) most = std::min(most, int(std::floor(cap_pct / use + 1e-9)));
    const std::string id = std::string(kn.name) + "#" + std::to_string(k);
    p.total.push_back(m.integer("N_" + id, 1, std::max(1, fpgas * most)));
    Affine<> sum;
    auto& row = p.n.emplace_back();
    for (int f = 0; f < fpgas; ++f) {
      row.push_back(m.integer("n_" + id + "_" + std::to_string(f + 1), 0, std::max(0, most)));
      sum += row.back();
    }
    m.subject_to(p.total[k] == sum);
    m.subject_to(p.ii >= kn.wcet_ms * units::ms / p.total[k]);
    if (p.phi) {
      Affine<> spread;
      for (int f = 0; f < fpgas; ++f) spread += tabulate(row[std::size_t(f)], [](double v) { return v / (1.0 + v); });
      m.subject_to(spread <= *p.phi);
    }
  }
  for (int f = 0; f < fpgas; ++f)
    for (int t = 0; t < 3; ++t) {
      Affine<> use;
      for (std::size_t k = 0; k < kernels.size(); ++k) {
        const double r = t == 0 ? kernels[k].bram_pct : t == 1 ? kernels[k].dsp_pct : kernels[k].bw_pct;
        if (r > 0) use += r * p.n[k][std::size_t(f)];
      }
      m.subject_to(use <= cap_pct, std::string(t == 0 ? "BRAM" : t == 1 ? "DSP" : "BW") + " of FPGA " +
                                       std::to_string(f + 1));
    }
  if (p.phi) m.minimize(alpha * (p.ii / units::ms) + beta * *p.phi);
  else m.minimize(p.ii);
  return p;
}

}  // namespace study001::ch3
