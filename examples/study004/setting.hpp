// examples/study004/setting.hpp
// What every section of the study004 example works on: the MobileNet data,
// its graph at PE = SIMD = 1 (as the thesis ran FINN), the KV260 with the
// thesis's BRAM budget and with the device's, the thesis's arithmetic as a
// platform, and the CPU-only latency.
#pragma once

#include "study004/mobilenet.hpp"

#include <ychart/partition.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace study004 {

struct Setting {
  MobileNet m;
  partition::SequentialGraph g;
  partition::Platform thesis_kv260;  // 144 BRAM_18K, the thesis's comparison
  partition::Platform device_kv260;  // 144 BRAM_36K = 288 BRAM_18K
  // The thesis's arithmetic: runtime = cycles * 1e-8 (seconds at 10 ns per
  // cycle), labelled ms and added to milliseconds. In ychart a bare number
  // cannot be added to a time; said in units, it is a clock of 100 GHz:
  // cycles / (100 GHz) = cycles * 1e-8 ms.
  partition::Platform as_labelled;
  double cpu_only_ms = 0;
};

Setting load_setting(const std::filesystem::path& file);

std::string range_text(const std::vector<partition::NodeRange>& r);

}  // namespace study004
