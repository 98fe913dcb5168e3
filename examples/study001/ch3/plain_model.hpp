// examples/study001/ch3/plain_model.hpp
// Study 001, chapter 3's CU allocation (Shan 2021, eqs. 3.1-3.10) written the
// way a user writes it first: an integer n[k][f] per kernel and FPGA, the
// totals N_k, the II rows, one resource row per FPGA and resource, and the
// spreading rows, with no Model::interchangeable(). Model::solve finds that
// the FPGAs are interchangeable (solve/symmetry/symmetry.hpp) and uses the symmetric
// decomposition as if they had been declared.
#pragma once

#include <ychart/core.hpp>

#include "../../data/shan2021_ch3.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace study001::ch3 {

struct PlainAllocation {
  ychart::Model model;
  std::vector<std::vector<ychart::Discrete<>>> n;  // [kernel][fpga]
  std::vector<ychart::Discrete<>> total;           // N_k
  ychart::Variable<ychart::dim::time> ii;
  std::optional<ychart::Real<>> phi;               // with beta > 0
};

/// The plain model of `kernels` on `fpgas` FPGAs at `cap_pct` % of every
/// resource: minimise alpha II / ms + beta phi (II alone when beta is 0).
PlainAllocation plain_allocation(const std::vector<shan2021::Kernel>& kernels, int fpgas, double cap_pct,
                                 double alpha, double beta);

}  // namespace study001::ch3
