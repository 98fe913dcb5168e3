// ychart/finn/estimates.hpp
// FINN's analytical estimates for its dataflow layers, transcribed from the
// FINN compiler (github.com/Xilinx/finn, src/finn/custom_op/fpgadataflow/:
// matrixvectoractivation.py, vectorvectoractivation.py, thresholding.py,
// convolutioninputgenerator.py, fmpadding.py and their hls/ backends; the
// LUT and BRAM models are FINN-R's, Blott et al. 2018). Per layer and
// folding (PE, SIMD): expected cycles, BRAM_18K and LUTs, with FINN's
// default memory styles: weights in block RAM (MVAU: internal_decoupled,
// ram_style auto), thresholds and sliding-window buffers in LUTRAM
// (ram_style distributed), multipliers in LUTs (resType auto, 0 DSPs).
// FINN requires PE to divide the output channels and SIMD the input
// channels (times k^2 for a VVAU's SIMD): legal_folding() checks it.
// Why our own: FINN is Python; ychart needs these numbers as C++ tables to
// put the folding into a model (study 004).
#pragma once

#include "../config.hpp"
#include "../error.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace ychart::finn {

/// Data types of a layer: bits of weights, of inputs and of outputs, and
/// whether the input is signed.
struct Bits {
  int weight = 4, input = 4, output = 4;
  bool input_signed = false;
};

/// FINN's accumulator width for a dot product of `length` terms (the
/// bound of arXiv:2301.13376 FINN uses when no datatype is set), at most 32.
YCHART_DECL double accumulator_bits(double length, const Bits& b);

/// Block RAMs (18 Kb) of a weight memory `depth` deep and `width` bits wide,
/// by FINN's MVAU rule (SDP-mode RAMB18, UG573 Table 1-10).
YCHART_DECL double weight_bram18(double depth, double width);

/// LUTs of `pe` dot-product lanes of `simd` multipliers each, over dot
/// products of `length` terms (FINN-R's model, the MVAU's and the VVAU's):
/// floor(300 + 1.1 pe (multipliers + adder tree + accumulator)).
YCHART_DECL double dot_product_luts(double pe, double simd, double length, const Bits& b);

/// A matrix-vector unit: an (mh x mw) weight matrix applied to `vectors`
/// input vectors (the output pixels), mh / PE x mw / SIMD cycles each.
struct Mvau {
  double mh = 1, mw = 1, vectors = 1;
  Bits bits;

  double cycles(double pe, double simd) const { return (mh / pe) * (mw / simd) * vectors; }
  /// Weights in block RAM (ram_style block or auto).
  double bram18(double pe, double simd) const { return weight_bram18(mh * mw / (pe * simd), pe * simd * bits.weight); }
  /// Weights in UltraRAM (ram_style ultra): 72 bits x 4096 per URAM.
  double uram(double pe, double simd) const {
    return std::ceil(pe * simd * bits.weight / 72) * std::ceil(mh * mw / (pe * simd) / 4096);
  }
  /// Thresholds are separate Thresholding layers.
  double luts(double pe, double simd) const { return dot_product_luts(pe, simd, mw, bits); }
  bool legal(double pe, double simd) const { return divides(pe, mh) && divides(simd, mw); }
  static bool divides(double d, double n) { return d >= 1 && std::fmod(n, d) == 0; }
};

/// A vector-vector unit (depthwise convolution): `channels` k x k filters
/// over `pixels` output pixels; PE splits the channels, SIMD the k^2 taps.
struct Vvau {
  double channels = 1, k = 3, pixels = 1;
  Bits bits;

  double cycles(double pe, double simd) const { return channels * k * k / pe / simd * pixels; }
  double weight_depth(double pe, double simd) const { return std::floor(std::floor(k * k * channels / pe) / simd); }
  double bram18(double pe, double simd) const {
    const double depth = weight_depth(pe, simd), width = simd * bits.weight * pe;
    if (depth <= 128) return 0;  // ram_style auto: small memories go to LUTs
    if (width == 1) return std::ceil(depth / 16384);
    if (width == 2) return std::ceil(depth / 8192);
    if (width <= 4) return std::ceil(depth / 4096) * std::ceil(width / 4);
    if (width <= 9) return std::ceil(depth / 2048) * std::ceil(width / 8);
    if (width <= 18 || depth > 512) return std::ceil(depth / 1024) * std::ceil(width / 16);
    return std::ceil(depth / 512) * std::ceil(width / 32);
  }
  double luts(double pe, double simd) const { return dot_product_luts(pe, simd, k * k, bits); }
  bool legal(double pe, double simd) const { return Mvau::divides(pe, channels) && Mvau::divides(simd, k * k); }
};

/// A multi-threshold activation over `pixels` x `channels` values whose
/// input has `input_bits` (the accumulator before it); thresholds in LUTRAM.
struct Thresholding {
  double channels = 1, pixels = 1, input_bits = 16;

  double cycles(double pe) const { return pixels * channels / pe; }
  double luts(double pe) const {
    const double memory = channels / pe;  // TMEM
    return input_bits * pe + (memory > 1 ? pe * input_bits * std::ceil(memory / 64) : 0.0);
  }
  bool legal(double pe) const { return Mvau::divides(pe, channels); }
};

/// The sliding-window generator before a k x k convolution (2-D, HLS), its
/// buffer in LUTRAM.
struct SlidingWindow {
  double ifm_dim = 1, channels = 1, k = 3, ofm_dim = 1, stride = 1, input_bits = 4;

  double cycles(double simd) const {
    const double write = ofm_dim * k * k * (channels / simd);
    const double read = stride * ifm_dim * (channels / simd);
    return ifm_dim * k * (channels / simd) + ofm_dim * std::max(write, read);
  }
  double luts(double simd) const {
    return 300 + (k + stride) * (simd * input_bits * std::ceil(ifm_dim * channels / simd / 64));
  }
  bool legal(double simd) const { return Mvau::divides(simd, channels); }
};

/// Zero padding to `padded_dim` x `padded_dim` (no LUT model in FINN).
struct Padding {
  double padded_dim = 1, channels = 1;
  double cycles(double simd) const { return channels / simd * padded_dim * padded_dim; }
};

}  // namespace ychart::finn

#if YCHART_HEADER_ONLY
#include "impl/estimates.ipp"
#endif
