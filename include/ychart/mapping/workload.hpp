// ychart/mapping/workload.hpp
// The workload of the loop-nest mapping class: one convolution (or matrix
// product) as seven loops N, K, C, P, Q, R, S with strides, and the three
// tensors it touches: weights W[K,C,R,S], inputs I[N,C,H,W] (H the exact
// window of P and R under the stride) and outputs O[N,K,P,Q]. Which loops
// index which tensor (`indexes`) is what every reuse rule of `evaluate`
// reads.
#pragma once

#include "../config.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace ychart::mapping {

/// The seven loops, in Timeloop's and ZigZag's letters: batch, output
/// channel, input channel, output row and column, filter row and column.
enum class Dim : int { N, K, C, P, Q, R, S };
inline constexpr int dim_count = 7;
inline constexpr std::array<Dim, dim_count> all_dims{Dim::N, Dim::K, Dim::C, Dim::P, Dim::Q, Dim::R, Dim::S};

enum class Tensor : int { weights, inputs, outputs };
inline constexpr int tensor_count = 3;
inline constexpr std::array<Tensor, tensor_count> all_tensors{Tensor::weights, Tensor::inputs, Tensor::outputs};

YCHART_DECL std::string_view name(Dim d);
YCHART_DECL std::string_view name(Tensor t);

/// Whether loop `d` indexes tensor `t`. Inputs are indexed by P and R (and
/// Q and S) through the window h = p * stride + r, so every loop but K.
constexpr bool indexes(Tensor t, Dim d) {
  switch (t) {
    case Tensor::weights: return d == Dim::K || d == Dim::C || d == Dim::R || d == Dim::S;
    case Tensor::inputs: return d != Dim::K;
    case Tensor::outputs: return d == Dim::N || d == Dim::K || d == Dim::P || d == Dim::Q;
  }
  return false;
}

/// The tensor a loop does not index: each loop ignores exactly one
/// (N, P, Q the weights; K the inputs; C, R, S the outputs). Loops that
/// ignore the same tensor form a group, and only the order of the three
/// groups within a level changes any access count.
constexpr Tensor ignored_by(Dim d) {
  for (Tensor t : all_tensors)
    if (!indexes(t, d)) return t;
  return Tensor::weights;
}

/// A vector over the seven loops (extents, factors, tile shapes).
using DimVector = std::array<std::int64_t, dim_count>;
constexpr std::int64_t& at(DimVector& v, Dim d) { return v[static_cast<std::size_t>(d)]; }
constexpr std::int64_t at(const DimVector& v, Dim d) { return v[static_cast<std::size_t>(d)]; }

/// Rows covered by `p` output rows and `r` filter rows at stride `stride`:
/// touching windows (r >= stride) form one run, others stay apart.
constexpr std::int64_t window(std::int64_t p, std::int64_t r, std::int64_t stride) {
  const std::int64_t run = (p - 1) * stride + r, apart = p * r;
  return run < apart ? run : apart;
}

struct Workload {
  std::string name;
  DimVector extent{1, 1, 1, 1, 1, 1, 1};
  std::int64_t stride_h = 1, stride_w = 1;

  /// A convolution layer: `k` filters over `c` channels, a `p` x `q` output,
  /// an `r` x `s` filter.
  static Workload convolution(std::string name, std::int64_t n, std::int64_t k, std::int64_t c, std::int64_t p,
                              std::int64_t q, std::int64_t r, std::int64_t s, std::int64_t stride = 1) {
    return Workload{std::move(name), {n, k, c, p, q, r, s}, stride, stride};
  }

  std::int64_t operator[](Dim d) const { return at(extent, d); }
  /// Multiply-accumulates: the product of the seven extents.
  YCHART_DECL double macs() const;
  /// Elements of tensor `t` in a tile that spans `shape` of every loop.
  YCHART_DECL double tile_size(Tensor t, const DimVector& shape) const;
  /// Elements of the whole tensor.
  double size(Tensor t) const { return tile_size(t, extent); }
  /// Throws loopnest_error naming the workload and the loop when an extent
  /// or a stride is not positive.
  YCHART_DECL void validate() const;
};

}  // namespace ychart::mapping

#if YCHART_HEADER_ONLY
#include "impl/workload.ipp"
#endif
