// examples/study000/setup2.hpp
// Study 000, Setup 2 (Eqs. 4.10-4.14, Fig. 4.8): every conv layer of a CNN
// split by input channels across CPU, GPU and FPGA, one FPGA budget summed
// over the layers, one partition equality per layer. Provides the data
// (examples/data/carballo2022/setup2.json), the evaluation of a split
// (latency per layer, resources, speed-up against CPU-only), the continuous
// split as a SignomialModel (optionally with the thesis's x^2k fused-layer
// surrogate, Eq. 4.13), and the exact integer split with an exact
// fused-layer decision, solved by the MIGP engine. Shared by the study000
// example, its tests and its benchmark.
#pragma once

#include "study000/flydel.hpp"

#include <ychart/core.hpp>

#include <array>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace study000 {

using namespace ychart;

/// One convolution (a fully connected layer is a 1x1 convolution over a 1x1
/// input). h is the input's height (= width).
struct ConvLayer {
  std::string name;
  int h = 0, c = 0, n = 0, k = 0, s = 1, p = 0;
  int producer = -1;  // index of the layer whose OFM is this layer's IFM; -1: the network's input

  int h_out() const { return (h - k + 2 * p) / s + 1; }  // Eq. 2.2
  double hw_feature() const { return std::pow(double(h) / s, 2); }  // H_I W_I fed to the flydels (stride divided out)
  double macs() const { return std::pow(double(h_out()), 2) * c * n * k * k; }
};

enum Device : std::size_t { cpu = 0, gpu = 1, fpga = 2 };
inline constexpr std::array<const char*, 3> device_names = {"cpu", "gpu", "fpga"};

/// A multi-feature flydel (Eq. 2.11): the product of single-feature models
/// of H_I W_I, C, k and N. In a channel split only C varies, so per layer it
/// is a constant times the C model.
struct ProductFlydel {
  Flydel hw, c, k, n;

  /// The product of the H_I W_I, k and N models at this layer; a
  /// model_error when it is not positive (a log model below zero).
  double scale(const ConvLayer& l) const {
    const double v = hw(l.hw_feature()) * k(double(l.k)) * n(double(l.n));
    if (!(v > 0) || !std::isfinite(v))
      throw model_error(hw.where + ": the flydel's H_I W_I, k and N factors give " + std::to_string(v) + " at layer " +
                        l.name + "; a flydel must be positive");
    return v;
  }
  double at(const ConvLayer& l, double channels) const { return scale(l) * c(channels); }
  Posynomial<> of(const ConvLayer& l, const Variable<>& channels) const { return scale(l) * c.of(channels); }
};

struct Setup2 {
  std::array<ProductFlydel, 3> latency_ms;  // per Device
  struct Resource {
    std::string name;
    ProductFlydel model;
    double budget = 0;
  };
  std::vector<Resource> resources;
  double t0_ms = 0, ms_per_byte = 0;
  std::vector<std::string> network_names;  // in the file's order
  std::map<std::string, std::vector<ConvLayer>> networks;
  std::map<std::string, std::array<double, 2>> thesis_speedup;
  int fused_k = 100;
};

ProductFlydel read_product_flydel(const io::JsonValue& v);

Setup2 load_setup2(const std::filesystem::path& file);

// ---- the cost of a split ----------------------------------------------

/// Channels per device of one layer (continuous or integer).
using LayerSplit = std::array<double, 3>;

double device_ms(const Setup2& s, Device d, const ConvLayer& l, double channels);
/// Bytes the FPGA receives (its IFM share) and returns (its OFM share), 8-bit.
double in_bytes(const ConvLayer& l, double fpga_channels);
double out_bytes(const ConvLayer& l, double fpga_channels);
double comm_ms(const Setup2& s, const ConvLayer& l, double fpga_channels);
double cpu_only_ms(const Setup2& s, const ConvLayer& l);

/// What a fused pair saves (Eq. 4.11 with an exact decision): the
/// producer's OFM return and the consumer's IFM transfer, both whole layers.
double fusion_saving_ms(const Setup2& s, const ConvLayer& producer, const ConvLayer& consumer);

bool all_on_fpga(const ConvLayer& l, const LayerSplit& x);

struct NetworkCost {
  std::vector<double> layer_ms;  // compute + communication, fusion savings applied
  std::vector<double> speedup;   // CPU-only / layer_ms
  double total_ms = 0, cpu_only_total_ms = 0;
  std::vector<double> resources;  // per Setup2::resources, summed over the layers (rounded up per layer if integer)
  bool fits = true;
  int fused_pairs = 0;
};

/// The latency and resources of a split. `fused`: pairs of layers that both
/// run entirely on the FPGA skip their transfer (else every FPGA share pays).
NetworkCost evaluate(const Setup2& s, const std::vector<ConvLayer>& net, const std::vector<LayerSplit>& split,
                     bool fused, bool integer_resources);

// ---- the continuous split (Eq. 4.10 / 4.14) as a SignomialModel ----------

struct ContinuousOptions {
  /// Smallest share of a device, in channels: GP variables are positive, so
  /// Eq. 4.14's 0 <= X_D / X becomes min_share <= X_D.
  double min_share = 0.01;
  /// Eq. 4.13 as printed: each layer's FPGA transfer is weighted by
  /// S = (C_F / C)^(2k), so it is charged only when the FPGA holds the whole
  /// layer (see docs/studies/000.md on what that does).
  bool fused_surrogate = false;
  int k = 100;
};

struct ContinuousSplit {
  SignomialModel model;
  std::vector<std::array<Variable<>, 3>> channels;  // per layer, per Device
  std::vector<std::size_t> partition;               // per layer, the index of its equality among the signomial ones
};

ContinuousSplit continuous_model(const Setup2& s, const std::vector<ConvLayer>& net,
                                 const ContinuousOptions& o = {});

/// The split at a point given per registry index (an alpha iteration's values).
std::vector<LayerSplit> split_of(const ContinuousSplit& m, const std::vector<double>& values);
std::vector<LayerSplit> split_of(const ContinuousSplit& m, const Solution& solution);

// ---- the exact integer split ---------------------------------------------

/// Per layer, what the search needs of each FPGA channel count n it keeps:
/// the best CPU/GPU split of the other C - n channels (the remainder does
/// not touch the FPGA budget, so minimising it per layer first is exact),
/// the layer's latency and its resources, rounded up.
struct LayerOptions {
  std::vector<double> fpga;                    // kept FPGA channel counts, increasing, 0 first
  std::vector<double> cpu;                     // the best CPU share for each
  std::vector<double> latency_ms;              // compute + communication
  std::vector<std::vector<double>> resources;  // per kept count, per resource
};

/// Keeps the counts that fit the budget on their own and that no smaller
/// count dominates (resources grow with n, so a larger n that is not faster
/// is never better); with `fused`, C itself is also kept (it can earn a
/// fusion saving).
LayerOptions layer_options(const Setup2& s, const ConvLayer& l, bool fused);

struct ExactResult {
  Status status = Status::numerical_error;
  std::string message;
  std::vector<LayerSplit> split;
  double latency_ms = std::numeric_limits<double>::quiet_NaN();
  double seconds = 0;       // building the options and the model, and solving
  std::size_t kept = 0;     // FPGA counts kept over all layers
  std::size_t counts = 0;   // FPGA counts before pruning (sum of C + 1)
};

ExactResult exact_network(const Setup2& s, const std::vector<ConvLayer>& net, bool fused,
                          const SolveOptions& options = {});

}  // namespace study000
