// examples/heterogeneous/alexnet16.hpp
// Study 001's Alex-16 (Table 3.2) as a task graph for an FPGA + GPU
// platform: the measured FPGA implementation of each stage and a GPU
// implementation derived from the layer's operations under stated
// assumptions (README.md). Shared by the example and its benchmark.
#pragma once

#include <ychart/pipeline.hpp>
#include <ychart/io/csv.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace heterogeneous {

using namespace ychart;
using namespace ychart::pipeline;

using Tasks = Application<FpgaResources, GpuResources>;
using Plat = Platform<FpgaResources, GpuResources>;
using AlexTask = Task<FpgaResources, GpuResources>;

/// What the GPU implementation of a layer is derived from.
struct GpuAssumptions {
  double tflops = 8.1;       // FP32 peak of the whole GPU
  double efficiency = 0.30;  // share of a slice's peak a batch-1 layer reaches
  int slices = 8;            // CUs the GPU holds: one CU = 1/slices of the SMs
  double overhead_us = 10;   // launch and synchronisation per run of a layer
  double memory_gb = 16;
  double board_watts = 70;   // T4 board power at full load
  double idle_watts = 10;    // powered on, idle: the GPU's static power
  /// Dynamic power of one busy CU: the board's dynamic range shared by the slices.
  double cu_watts() const { return (board_watts - idle_watts) / slices; }
};

/// Floating-point operations of one layer: 2 per multiply-accumulate of a
/// convolution; one comparison per window element of a max-pool; for a
/// local response normalisation, a square and an add per window element
/// plus a few per output (counted as 2 x window + 3).
double layer_flops(const io::CsvRecord& r);

/// 16-bit weights of a layer (0 for pooling and normalisation).
double layer_weight_bytes(const io::CsvRecord& r);

Tasks alexnet16(const std::filesystem::path& data, const GpuAssumptions& gpu);

/// fpgas xcvu9p FPGAs (static power of study 001's AWS F1, aws_f1.json: logic
/// and DDR) and gpus GPUs (idle power of the assumptions) on one PCIe host.
Plat platform(int fpgas, int gpus, double pcie_gb_s, const DeviceKind<FpgaResources>& fpga = {},
              const GpuAssumptions& gpu = {});

}  // namespace heterogeneous
