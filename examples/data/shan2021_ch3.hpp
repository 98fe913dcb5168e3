// examples/data/shan2021_ch3.hpp
// Kernel data of study 001 (J. Shan, "Performance and Power Optimization of
// Multi-kernel Applications on Multi-FPGA Platforms", PhD thesis, Politecnico
// di Torino, 2021), chapter 3, transcribed verbatim:
//   Table 3.2 - Alex-32 (32-bit float) and Alex-16 (16-bit fixed) kernels,
//   Table 3.3 - VGG (16-bit fixed) kernels; rows naming several layers
//               ("CONV6, 7") are identical kernels, one pipeline stage each,
//               so VGG has 17 kernels (13 rows with multiplicities),
//   Table 3.4 - spreading weights alpha, beta per case.
// Resources are % of one xcvu9p FPGA (BRAM, DSP) or of its DDR bandwidth
// (BW); WCET is the single-CU latency in ms.
#pragma once

#include <array>
#include <string_view>
#include <vector>

namespace shan2021 {

struct Kernel {
  std::string_view name;
  double bram_pct, dsp_pct, bw_pct;  // per compute unit, % of one FPGA
  double wcet_ms;                    // latency with one compute unit
  int multiplicity;                  // pipeline stages using this kernel type
};

struct Case {
  std::string_view name;
  std::vector<Kernel> kernels;  // table rows
  int fpgas;                    // F, Table 3.4
  double alpha, beta;           // Table 3.4
  /// One entry per pipeline stage (rows expanded by multiplicity).
  std::vector<Kernel> stages() const {
    std::vector<Kernel> out;
    for (const auto& k : kernels)
      for (int i = 0; i < k.multiplicity; ++i) out.push_back(k);
    return out;
  }
};

// Table 3.2, Alex-16 columns.
inline Case alex16() {
  return {"Alex-16 on 2 FPGAs",
          {{"CONV1", 10.59, 4.31, 1.8, 5.16, 1},
           {"POOL1", 0.05, 0, 3.5, 1.78, 1},
           {"NORM1", 2.53, 0.06, 3.1, 0.78, 1},
           {"CONV2", 4.39, 7.63, 2.1, 4.11, 1},
           {"NORM2", 6.66, 0.06, 2.2, 0.67, 1},
           {"CONV3", 2.63, 5.66, 2.9, 6.7, 1},
           {"CONV4", 1.91, 7.55, 3.2, 5.06, 1},
           {"CONV5", 4.39, 7.55, 3.1, 3.29, 1}},
          2, 1.0, 0.7};
}

// Table 3.2, Alex-32 columns.
inline Case alex32() {
  return {"Alex-32 on 4 FPGAs",
          {{"CONV1", 13.07, 21.24, 1.3, 13, 1},
           {"POOL1", 2.84, 0, 7.03, 1.78, 1},
           {"NORM1", 6.1, 2.11, 5.7, 0.839, 1},
           {"CONV2", 8.73, 37.59, 2.4, 7.19, 1},
           {"NORM2", 7.75, 2.11, 3.7, 0.807, 1},
           {"CONV3", 5.22, 28.13, 5.0, 7.78, 1},
           {"CONV4", 2.13, 37.5, 3.7, 9.08, 1},
           {"CONV5", 8.73, 37.5, 4.2, 4.84, 1}},
          4, 1.0, 6.0};
}

// Table 3.3.
inline Case vgg() {
  return {"VGG on 8 FPGAs",
          {{"CONV1", 3.67, 2.95, 2.0, 28.8, 1},
           {"CONV2", 9.97, 15.14, 2.1, 67.8, 1},
           {"POOL2", 11.62, 0.03, 5.2, 13.3, 1},
           {"CONV3", 9.97, 15.14, 2.3, 22.7, 1},
           {"CONV4", 9.97, 15.14, 2.4, 32.1, 1},
           {"POOL4", 2.94, 0.03, 5.1, 6.9, 1},
           {"CONV5", 8.32, 15.07, 2.0, 22.8, 1},
           {"CONV6,7", 8.32, 15.05, 2.3, 32.9, 2},
           {"POOL7", 1.5, 0.03, 5.0, 3.5, 1},
           {"CONV8", 2.12, 15.02, 2.1, 24.5, 1},
           {"CONV9,10", 2.12, 15.02, 2.5, 37.7, 2},
           {"POOL10", 0.05, 0.01, 4.0, 2.1, 1},
           {"CONV11,12,13", 2.12, 14.99, 2.6, 20.3, 3}},
          8, 1.0, 50.0};
}

}  // namespace shan2021
