// examples/common/cu_relaxation.hpp
// The GP relaxation of study 001, chapter 3 (eqs. 3.14-3.21): with spreading
// dropped and CU counts made real, the F identical FPGAs share every kernel
// equally, and the model is
//   minimise II  s.t.  WCET_k / N_k <= II,  N_k >= 1,
//                      sum_k N_k * R_kt / F <= R   for t in {BRAM, DSP, BW}.
// One N_k per pipeline stage (table rows expanded by multiplicity).
#pragma once

#include "../data/shan2021_ch3.hpp"

#include <ychart/ychart.hpp>

#include <array>
#include <vector>

namespace cu_relaxation {

struct Relaxation {
  ychart::Model model;
  ychart::Variable<ychart::dim::time> ii;
  std::vector<ychart::Variable<>> cus;  // N_k, one per stage
  std::array<std::size_t, 3> resource_constraint{};  // BRAM, DSP, BW
};

/// Builds the relaxation for `stages` on `fpgas` FPGAs with every resource
/// capped at `cap_pct` percent of one FPGA.
inline Relaxation build(const std::vector<shan2021::Kernel>& stages, int fpgas, double cap_pct) {
  using namespace ychart;
  Relaxation r;
  r.ii = r.model.positive("II", units::ms);
  r.cus.reserve(stages.size());
  for (std::size_t k = 0; k < stages.size(); ++k) {
    const auto& s = stages[k];
    auto n = r.model.positive("N_" + std::string(s.name) + "#" + std::to_string(k), 1.0);  // (3.19)
    r.cus.push_back(n);
    r.model.subject_to(s.wcet_ms * units::ms / n <= r.ii);  // (3.15), (3.18)
  }
  const double share = 1.0 / fpgas;
  Posynomial<> bram, dsp, bw;
  for (std::size_t k = 0; k < stages.size(); ++k) {
    // A kernel without any use of a resource adds no term (coefficient 0 is dropped).
    bram += share * stages[k].bram_pct * r.cus[k];
    dsp += share * stages[k].dsp_pct * r.cus[k];
    bw += share * stages[k].bw_pct * r.cus[k];
  }
  r.resource_constraint[0] = r.model.subject_to(bram <= cap_pct, "BRAM");  // (3.20)
  r.resource_constraint[1] = r.model.subject_to(dsp <= cap_pct, "DSP");
  r.resource_constraint[2] = r.model.subject_to(bw <= cap_pct, "BW");  // (3.21)
  r.model.minimize(r.ii);  // (3.17)
  return r;
}

}  // namespace cu_relaxation
