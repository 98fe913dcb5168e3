// examples/study002/rounding.cpp
// Definitions of rounding.hpp, a source of the study002 example of its own, so
// that no one file of the example compiles the whole study.
#include "study002/rounding.hpp"

namespace study002 {

io::Table rounding_effect(const Platform& neuraghe, const Platform& jetson, const io::JsonValue& grid,
                          RoundingEffect& out, examples::Outputs& outputs) {
  const Platform whole = unbounded(neuraghe);
  auto integers = [&](const char* key) {
    std::vector<long long> v;
    for (const auto& x : grid.at(key).elements()) v.push_back(x.integer());
    return v;
  };
  const auto ifs = integers("input_features"), ofs = integers("output_features"), sizes = integers("image_sizes"),
             kernels = integers("kernel_sizes");
  double worst = 0, sum = 0, sum_fitting = 0;
  long count = 0, fitting = 0, tiled = 0, jetson_gpu_errors = 0;
  std::map<std::string, long> too_small;  // per memory the tiling_error names (its element)
  std::string worst_layer;
  std::vector<double> ratio_by_if(ifs.size(), 0.0);
  for (std::size_t a = 0; a < ifs.size(); ++a)
    for (auto of : ofs)
      for (auto s : sizes)
        for (auto k : kernels) {
          const auto l = Layer::convolution("g", ifs[a], of, s, k);
          const auto n = refine(l, neuraghe.processors[0], whole);
          const double u = 1.0 - n.ops_theoretical().value() / n.ops_re;
          sum += u, ++count, ratio_by_if[a] += u;
          if (k <= s) sum_fitting += u, ++fitting;
          if (u > worst)
            worst = u, worst_layer = std::to_string(ifs[a]) + "->" + std::to_string(of) + ", " + std::to_string(s) +
                                     "x" + std::to_string(s) + ", k" + std::to_string(k);
          try {
            tiled += refine(l, neuraghe.processors[0], neuraghe).tiles() > 1;
          } catch (const ychart::tiling_error&) {
          }
          try {
            (void)refine(l, jetson.processors[0], jetson);
          } catch (const ychart::tiling_error& e) {
            ++jetson_gpu_errors, ++too_small[e.element];
          }
        }
  const auto& pr = grid.at("paper_rounding");
  io::Table t({{"rounding effect 1 - OPS_th / OPS_re", "", 1}, {"paper", "", 4}, {"ychart", "", 4}});
  t.add_row({std::string("mean over the grid"), pr.at("mean_underestimation").number(), sum / double(count)});
  t.add_row({std::string("mean, kernel <= image"), std::nan(""), sum_fitting / double(fitting)});
  t.add_row({std::string("maximum (" + worst_layer + ")"), pr.at("max_underestimation_over").number(), worst});
  t.print(std::cout);
  std::string memories;
  for (const auto& [memory, layers] : too_small)
    memories += (memories.empty() ? "" : ", ") + std::string("memory ") + memory + ": " + std::to_string(layers);
  std::printf("%ld layers; %ld tiled on NEURAghe; %ld whose input exceeds a Jetson GPU memory (%s), which\n"
              "Table 5 limits by OF (a loop that does not index the input): tiling_error, as the paper's rules give\n\n",
              count, tiled, jetson_gpu_errors, memories.empty() ? "none" : memories.c_str());
  io::LineChart rounding;
  rounding.title = "Rounding effect on NEURAghe over Table 6 (study 002)";
  rounding.x_label = "input features";
  rounding.y_label = "mean 1 - OPS_th / OPS_re";
  rounding.log_x = true;
  io::Series by_if{"mean over OF, size, kernel", {}, {}};
  for (std::size_t a = 0; a < ifs.size(); ++a)
    by_if.x.push_back(double(ifs[a])), by_if.y.push_back(ratio_by_if[a] / double(count / long(ifs.size())));
  rounding.series = {by_if};
  outputs.figure("rounding_effect.svg", rounding);
  out = {worst, sum / double(count), count, sum_fitting / double(fitting)};
  return t;
}

}  // namespace study002
