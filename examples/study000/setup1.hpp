// examples/study000/setup1.hpp
// Study 000, Setup 1 (Eq. 4.7) and its CPU+GPU+FPGA extension (Eq. 4.9):
// the data (examples/data/carballo2022/setup1.json), the continuous split as
// a SignomialModel, and the exact integer split (0 channels = the device is
// left out) as a Model over tabulated flydels. Shared by the study000
// example and its tests.
#pragma once

#include "study000/flydel.hpp"

#include <ychart/core.hpp>

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace study000 {

using namespace ychart;

struct Setup1 {
  double channels = 16;
  std::map<std::string, Flydel> latency_ms;  // cpu, gpu, fpga
  double comm_t0_ms = 0, comm_per_channel_ms = 0;
  struct Resource {
    std::string name;
    Flydel model;
    double budget;
  };
  std::vector<Resource> resources;
  double hat_fpga = 8, hat_gpu = 8, thesis_alpha_step = 10, thesis_alpha = 170, thesis_fpga = 14, thesis_gpu = 2;
  int thesis_iteration = 17;
};

Setup1 load_setup1(const std::filesystem::path& file);

double comm_ms(const Setup1& s, double c_fpga);

/// Eq. 4.7 (devices fpga, gpu) or Eq. 4.9 (cpu, fpga, gpu) as a SignomialModel.
struct SplitModel {
  SignomialModel model;
  std::map<std::string, Variable<>> c;
};

SplitModel split_model(const Setup1& s, const std::vector<std::string>& devices);

double latency_ms(const Setup1& s, const std::map<std::string, double>& split);

/// Integer channels, 0 meaning the device is left out (no latency, no
/// transfer, no resources): tabulated flydels, solved exactly.
struct ExactSplit {
  Status status;
  std::map<std::string, double> split;
  double latency_ms = 0, seconds = 0;
};

ExactSplit exact_split(const Setup1& s, const std::vector<std::string>& devices);

}  // namespace study000
