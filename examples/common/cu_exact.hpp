// examples/common/cu_exact.hpp
// The exact model of study 001, chapter 3 (eqs. 3.1-3.10): integer CUs per
// kernel per FPGA, F identical FPGAs, every resource capped at R percent:
//   minimise alpha * II + beta * phi
//   s.t.  II >= WCET_k / N_k,  N_k = sum_f n_kf,  N_k >= 1,
//         sum_k n_kf * R_kt <= R        for every FPGA f and t in {BRAM, DSP, BW},
//         phi >= sum_f n_kf / (1 + n_kf)  for every kernel k   (only if beta > 0).
// II is in ms as in the thesis, so alpha weighs milliseconds and beta the
// dimensionless spreading. The spreading term is a tabulated function of
// each n_kf. The FPGAs are declared interchangeable, which lets the solver
// break their symmetry.
#pragma once

#include "../data/shan2021_ch3.hpp"

#include <ychart/ychart.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace cu_exact {

struct Allocation {
  ychart::Model model;
  ychart::Variable<ychart::dim::time> ii;
  std::vector<ychart::Discrete<>> total;                 // N_k, one per stage
  std::vector<std::vector<ychart::Discrete<>>> per_fpga;  // n_kf
  ychart::Real<> spreading;                              // phi (beta > 0 only)
  bool has_spreading = false;
};

inline std::array<double, 3> resources(const shan2021::Kernel& k) { return {k.bram_pct, k.dsp_pct, k.bw_pct}; }

/// Declared upper bound of every CU count.
inline constexpr int max_cus = 1000;

inline Allocation build(const std::vector<shan2021::Kernel>& stages, int fpgas, double cap_pct, double alpha,
                        double beta) {
  using namespace ychart;
  Allocation a;
  auto& m = a.model;
  a.ii = m.positive("II", units::ms);
  const std::size_t K = stages.size();
  a.per_fpga.resize(K);
  for (std::size_t k = 0; k < K; ++k) {
    const auto& s = stages[k];
    const std::string name = std::string(s.name) + "#" + std::to_string(k);
    // Loose declared bounds: the solver derives the tight ones (CUs of one
    // kernel that fit one FPGA, and all of them) from the resource rows.
    a.total.push_back(m.integer("N_" + name, 1, max_cus));  // (3.8)
    Affine<> placed;
    for (int f = 0; f < fpgas; ++f) {
      a.per_fpga[k].push_back(m.integer("n_" + name + "_" + std::to_string(f), 0, max_cus));
      placed += a.per_fpga[k].back();
    }
    m.subject_to(a.total[k] == placed);                        // (3.3)
    m.subject_to(a.ii >= s.wcet_ms * units::ms / a.total[k]);  // (3.1), (3.2), (3.6)
  }
  static constexpr const char* resource_name[] = {"BRAM", "DSP", "BW"};
  for (int f = 0; f < fpgas; ++f)
    for (int t = 0; t < 3; ++t) {
      Affine<> use;
      for (std::size_t k = 0; k < K; ++k)
        if (const double r = resources(stages[k])[t]; r > 0) use += r * a.per_fpga[k][f];
      m.subject_to(use <= cap_pct, std::string(resource_name[t]) + "_" + std::to_string(f));  // (3.9), (3.10)
    }
  std::vector<std::vector<Discrete<>>> devices(fpgas);
  for (int f = 0; f < fpgas; ++f)
    for (std::size_t k = 0; k < K; ++k) devices[f].push_back(a.per_fpga[k][f]);
  m.interchangeable(devices);
  if (beta > 0) {
    a.has_spreading = true;
    a.spreading = m.real("phi", 0, fpgas);
    for (std::size_t k = 0; k < K; ++k) {
      Affine<> phi_k;  // (3.4)
      for (int f = 0; f < fpgas; ++f)
        phi_k += tabulate(a.per_fpga[k][f], [](double n) { return n / (1.0 + n); });
      m.subject_to(phi_k <= a.spreading);  // (3.7)
    }
    m.minimize(alpha * (a.ii / units::ms) + beta * a.spreading);  // (3.5)
  } else {
    m.minimize(a.ii);
  }
  return a;
}

/// II in ms of the allocation in a solution.
inline double ii_ms(const Allocation& a, const ychart::Solution& s) { return s.value(a.ii); }

}  // namespace cu_exact
