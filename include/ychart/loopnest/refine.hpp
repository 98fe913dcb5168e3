// ychart/loopnest/refine.hpp
// ALOHA's four refinement steps (study 002, section VI-B): the layer's
// computational tensor is reordered by the processor's loop order, unrolled
// onto its parallelism grid with round-up (a loop of extent d on a level of
// P runs ceil(d / P) times around a par loop of P), given its transfers at
// their loop levels, and tiled where a memory overflows (an outermost tile
// loop of T = ceil(n / floor(capacity / bytes per iteration)) and an inner
// count of ceil(n / T)). RefinedNest::listing() prints the result like the
// paper's Listings 3-6. The rules, checked on every number of Listings 4-6:
//  * par loops are spatial: every transfer holds all of them;
//  * a transfer at level k sits inside the sequential loops of the levels
//    before k (a load before, a store after their body) and holds the full
//    range of the loops from level k on;
//  * the executions of a transfer are the trips of the loops around it,
//    tile loops included (the "repeated transfers");
//  * OPS_re stops at the rounded extent (footnote 3: 520 OFs, not 6 x 9 x 10);
//    transfers move whole tiles (Listing 6).
// A tile that fits no memory throws tiling_error naming memory and bytes.
#pragma once

#include "../config.hpp"
#include "layer.hpp"
#include "platform.hpp"

#include "../error.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace ychart::loopnest {

/// One loop of the refined nest: a sequential loop of `trip` iterations
/// (`inner` after tiling, `tiles` tile iterations outside everything) around
/// a par loop of `par`; several loops when a grid level unrolls them together.
struct NestLoop {
  unsigned members = 0;  // bit l: Loop(l) belongs to this loop
  int level = 0;         // in the processor's loop order; -1: the batch loop outside level 0
  int grid_level = -1;   // the parallelism level that unrolls it, -1: none
  long long extent = 1, par = 1, trip = 1, tiles = 1, inner = 1;

  bool has(Loop l) const { return (members >> unsigned(l)) & 1u; }
  /// Whether the loop selects elements of data kind d.
  bool indexes(const ComputationalTensor& t, DataKind d) const {
    for (int l = 0; l < loop_count; ++l)
      if (has(Loop(l)) && t.indexes[std::size_t(d)][std::size_t(l)]) return true;
    return false;
  }
  /// A loop of the kernel window only (KH, KW): the part of ALOHA's (KH * KW + 1).
  bool is_kernel() const { return (members & ~((1u << unsigned(Loop::KH)) | (1u << unsigned(Loop::KW)))) == 0; }
};

struct TransferSite {
  bool present = false;
  int level = 0;
  std::size_t channel = 0, memory = 0;
  double bytes = 0;       // per execution
  double executions = 0;  // the trips of the loops around it
  double total() const { return bytes * executions; }
};

struct RefinedNest {
  std::vector<NestLoop> loops;  // outermost first
  std::array<TransferSite, data_kind_count> transfers{};
  ComputationalTensor tensor;
  double element = 2;  // bytes per element
  double ops_re = 0;  // operations after rounding (Eq. 2 on the refined tensor)

  Constant<dim::operations> ops_theoretical() const { return tensor.operations(); }
  Constant<dim::operations> ops_refined() const { return Constant<dim::operations>(ops_re); }
  /// The loop of the nest that runs loop l (every loop is in the nest).
  std::size_t index_of(Loop l) const {
    for (std::size_t i = 0; i < loops.size(); ++i)
      if (loops[i].has(l)) return i;
    return 0;
  }
  const NestLoop& loop_of(Loop l) const { return loops[index_of(l)]; }
  long long tiles() const {
    long long t = 1;
    for (const auto& n : loops) t *= n.tiles;
    return t;
  }
  /// The nest as Python-like text, like the paper's Listings 3-6 (without
  /// the loads and stores: Listings 3 and 4).
  std::string listing(const Platform& platform, bool transfers = true) const;
};

struct RefineOptions {
  /// tiles[l] > 0: tile loop l into that many tiles instead of ALOHA's rule
  /// (the accelerator design model's choice); the fit is still checked.
  std::array<long long, loop_count> tiles{};
};

YCHART_DECL RefinedNest refine(const Layer& layer, const Processor& p, const Platform& platform,
                               const RefineOptions& options = {});

}  // namespace ychart::loopnest

#if YCHART_HEADER_ONLY
#include "impl/refine.ipp"
#endif
