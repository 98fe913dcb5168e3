// ychart/loopnest/evaluate.hpp
// ALOHA's layer analysis (study 002, section VI-C) on the refined nest:
// OPS_th and OPS_re, the traffic of every channel (Eq. 7, repeated transfers
// included), the per-channel roofline plus the overhead,
//   t = max(OPS_re / AP_max, max_ch traffic_ch / bw_ch) + ov      (Eqs. 8, 9)
// written as times, so that no ratio of sums is formed, and the energy
//   En = P_act t + E_bit b_acc                                    (Eq. 13).
// Beside it, the two estimates the paper compares with: the OPS count
// (Eq. 1, OPS_th / AP_max) and the Roofline (Eq. 6 with Eq. 4's traffic and,
// since the paper leaves the off-chip bandwidth unstated, the sum of the
// bandwidths of the channels the processor uses).
#pragma once

#include "../config.hpp"
#include "layer.hpp"
#include "platform.hpp"
#include "refine.hpp"

#include "../expr/operators.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ychart::loopnest {

struct ChannelLoad {
  std::size_t channel = 0;
  Constant<dim::data> traffic{0.0};
  Constant<dim::time> time{0.0};
};

struct LayerEstimate {
  RefinedNest nest;
  std::size_t processor = 0;
  Constant<dim::operations> ops_th{0.0}, ops_re{0.0};
  Constant<dim::time> compute{0.0};  // OPS_re / AP_max
  std::vector<ChannelLoad> channels;  // the channels the layer uses, in platform order
  Constant<dim::time> latency{0.0};   // Eqs. 8 and 9
  std::string bottleneck;              // the slowest channel's id, or "compute"
  Constant<dim::data> accessed{0.0};  // b_acc: every byte moved
  std::optional<Constant<dim::energy>> energy;  // Eq. 13; absent without an active power
  Constant<dim::time> ops_estimate{0.0}, roofline_estimate{0.0};

  /// 1 - OPS_th / OPS_re: the share of the refined work that rounding adds.
  double rounding_underestimation() const { return 1.0 - ops_th.value() / ops_re.value(); }
};

/// The layer on processor `processor` of the platform (which must be valid).
YCHART_DECL LayerEstimate evaluate_layer(const Layer& layer, const Platform& platform, std::size_t processor,
                                         const RefineOptions& options = {});

}  // namespace ychart::loopnest

#if YCHART_HEADER_ONLY
#include "impl/evaluate.ipp"
#endif
