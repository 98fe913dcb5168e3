// examples/study004/setting.cpp
// Definitions of setting.hpp, a source of the study004 example of its own, so
// that no one file of the example compiles the whole study.
#include "study004/setting.hpp"

namespace study004 {

Setting load_setting(const std::filesystem::path& file) {
  Setting s;
  s.m = load_mobilenet(file);
  s.g = mobilenet_graph(s.m);
  s.thesis_kv260 = kv260(s.m, true);
  s.device_kv260 = kv260(s.m, false);
  s.as_labelled = s.thesis_kv260;
  s.as_labelled.fpga.clock = 100 * ychart::units::GHz;
  s.cpu_only_ms = evaluate(s.g, s.thesis_kv260, {}).latency.in(ychart::units::ms);
  return s;
}

std::string range_text(const std::vector<partition::NodeRange>& r) {
  if (r.empty()) return "none (all on the CPU)";
  std::string s;
  for (const auto& x : r)
    s += (s.empty() ? "" : ", ") + std::string("range(") + std::to_string(x.begin) + ", " + std::to_string(x.end) + ")";
  return s;
}

}  // namespace study004
