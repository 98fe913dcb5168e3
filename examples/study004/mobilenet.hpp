// examples/study004/mobilenet.hpp
// Study 004's MobileNetV1-w4a4 on a Kria KV260, read from
// examples/data/geel2023/mobilenet_v1.json (file:line errors): the 27
// reconstructed conv layers, the thesis's CPU range measurements and its
// partition tables; and the sequential graph built from them at a given
// folding, with FINN's estimates for every dataflow node
// (ychart/finn/estimates.hpp). Shared by the study004 example and its tests.
#pragma once

#include <ychart/finn/estimates.hpp>
#include <ychart/io/json.hpp>
#include <ychart/partition/folding_model.hpp>
#include <ychart/partition/partition_model.hpp>
#include <ychart/partition.hpp>

#include <algorithm>
#include <array>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace study004 {

using namespace ychart;

struct Layer {
  std::string name, kind;  // conv (L0, lowered to a matrix-vector unit), dw, pw
  int in_dim = 0, in_ch = 0, out_dim = 0, out_ch = 0, k = 1, stride = 1, pad = 0;
  double macs = 0, weights = 0, bram18k_digest = 0;
  int weight_bits = 4, input_bits = 4;
  int threshold_node = 0;
};

struct CpuBlock {
  int begin = 0, end = 0;  // nodes
  double ms = 0;
  std::string from;
};

struct ThesisRow {
  partition::NodeRange fpga;
  double fpga_ms = 0, cpu_ms = 0, total_ms = 0;  // as labelled in the thesis
};

struct MobileNet {
  std::vector<Layer> layers;
  int nodes = 0;
  double input_bytes = 0, preprocess_cycles = 0, pool_cycles = 0, postprocess_cycles = 0;
  double fc_in = 0, fc_out = 0;
  int fc_weight_bits = 4, fc_input_bits = 8;
  std::vector<int> cut_points;
  std::vector<CpuBlock> cpu_blocks;
  double ns_per_mac = 0, ns_per_threshold = 0, ms_per_segment = 0;
  // KV260
  double clock_mhz = 100;
  std::array<double, 4> budget{};         // BRAM_36K, LUT, URAM, DSP (the device)
  std::array<double, 4> thesis_budget{};  // BRAM_18K, LUT, URAM, DSP (as the thesis compared)
  double to_ms_per_mb = 0, to_ms = 0, from_ms_per_mb = 0, from_ms = 0;
  // the thesis
  double cpu_only_ms = 0, speedup = 0;
  int ranges = 0;
  std::vector<ThesisRow> algorithm1, algorithm2, cnv, cybsec;  // cnv, cybsec: Tables 5.8, 5.9 (Algorithm 2)
  double thesis_bram_0_81 = 0, thesis_lut_0_81 = 0, thesis_fps_0_81 = 0;
  struct FasterCpu {
    double n = 1, min_ms = 0, max_ms = 0;  // Table 5.4: Eq. 5.2 over the Algorithm 2 partitions
  };
  std::vector<FasterCpu> table_5_4;
};

MobileNet load_mobilenet(const std::filesystem::path& file);

/// The KV260 as the device is (144 BRAM_36K = 288 BRAM_18K), or as the
/// thesis compared (144 BRAM_18K).
partition::Platform kv260(const MobileNet& m, bool thesis_budget);

/// Per layer (and the fully connected layer last), its folding.
struct Folding {
  double pe = 1, simd = 1;
};

/// The FINN nodes of one segment, with their estimates.
struct SegmentDetail {
  std::vector<std::pair<std::string, double>> node_cycles;
  double cycles = 0, max_cycles = 0, bram = 0, luts = 0, macs = 0, threshold_elements = 0;
};

/// Segment s of the graph at the given folding (27 layers + the FC layer).
SegmentDetail segment_detail(const MobileNet& m, std::size_t s, const std::vector<Folding>& fold);

/// The graph at a folding (default: PE = SIMD = 1 everywhere, as the thesis ran).
partition::SequentialGraph mobilenet_graph(const MobileNet& m, std::vector<Folding> fold = {});

/// One FPGA range, frames streaming through CPU, link and FPGA at once.
partition::PartitionOptions pipelined_options();

std::vector<double> divisors(int n);

/// Every segment's FPGA nodes with their legal foldings (FINN: PE divides the
/// output channels, SIMD the input channels, or the k^2 taps of a VVAU), a
/// matrix-vector unit's weights in block RAM or in UltraRAM. Each node has
/// the FINN attributes its op type has (Thresholding: PE; FMPadding and
/// ConvolutionInputGenerator: SIMD; VVAU: PE and SIMD; MVAU: PE, SIMD and
/// ram_style) and is named after its layer, as the study does not publish
/// the node names of FINN's graph.
partition::FoldableGraph foldable_mobilenet(const MobileNet& m);

}  // namespace study004
