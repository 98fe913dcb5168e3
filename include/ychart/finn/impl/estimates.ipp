// ychart/finn/impl/estimates.ipp
// The implementation of ychart/finn/estimates.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../estimates.hpp"

namespace ychart::finn {


YCHART_DECL double accumulator_bits(double length, const Bits& b) {
  const double alpha = std::log2(length) + b.weight + b.input - 1 - (b.input_signed ? 1 : 0);
  return std::min(32.0, std::ceil(alpha + std::log2(1 + std::pow(2.0, -alpha)) + 1));
}

YCHART_DECL double dot_product_luts(double pe, double simd, double length, const Bits& b) {
  const double w = b.weight, a = b.input;
  const double mult = simd * (2 * std::ceil((w + a) / 6) - 1) * (w + a);
  const double adder = (w + a) * (2 * simd - 1);
  const double acc = accumulator_bits(length, b);
  return std::floor(300 + 1.1 * (pe * (mult + adder + acc)));
}

YCHART_DECL double weight_bram18(double depth, double width) {
  if (width == 1) return std::ceil(depth / 16384);
  if (width == 2) return std::ceil(depth / 8192);
  if (width <= 4) return std::ceil(depth / 4096) * std::ceil(width / 4);
  if (width <= 9) return std::ceil(depth / 2048) * std::ceil(width / 9);
  if (width <= 18 || depth > 512) return std::ceil(depth / 1024) * std::ceil(width / 18);
  return std::ceil(depth / 512) * std::ceil(width / 36);
}

}  // namespace ychart::finn
