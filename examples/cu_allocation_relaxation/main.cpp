// examples/cu_allocation_relaxation/main.cpp
// Study 001 (Shan 2021), chapter 3: the GP relaxation of the compute-unit
// allocation (eqs. 3.14-3.21) for Alex-16 on 2 FPGAs, Alex-32 on 4 and VGG on
// 8 (kernel data: Tables 3.2 and 3.3, examples/data/shan2021), swept over the
// per-FPGA resource cap. Prints ychart's relaxed II next to the values of the
// study digest's section 10.2 (a closed form), the binding resource, its
// sensitivity, and the solve time. The thesis solved this relaxation with
// GPkit as the first step of its GP+A heuristic. --svg-dir gets the figure
// (II against the cap, ours and the digest's, log scale), --csv and --json
// the table.
#include "common/cli.hpp"
#include "study001/common/study.hpp"

#include <ychart/io/svg.hpp>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  using namespace ychart::pipeline;
  const std::vector<double> caps = {30, 40, 50, 55, 61, 70, 76, 82, 92, 100};
  examples::Outputs outputs("cu_allocation_relaxation", "cu_allocation_relaxation");
  std::string only;
  examples::CommandLine cli("Study 001, chapter 3: the GP relaxation of the compute-unit allocation, swept over the cap");
  cli.option("--case", only, "Only this case").one_of({"alex16", "alex32", "vgg"});
  outputs.add_options(cli);
  if (auto rc = cli.parse(argc, argv)) return *rc;
  if (int rc = outputs.begin()) return rc;
  ychart::io::Table table({{"case", "", 1}, {"cap", "%", 3}, {"II ychart", "ms", 5}, {"II digest", "ms", 5},
                           {"status", "", 1}, {"binding", "", 1}, {"dlogII/dlogR", "", 4}, {"time", "ms", 3}});
  ychart::io::LineChart chart;
  chart.title = "GP relaxation of the CU allocation (study 001, ch. 3)";
  chart.x_label = "resource cap per FPGA (%)";
  chart.y_label = "relaxed II (ms)";
  chart.log_y = true;
  const double none = std::numeric_limits<double>::quiet_NaN();
  struct Case {
    const char* key;
    const char* file;
    const char* title;
    int fpgas;
    std::vector<double> digest;  // 001_shan.md section 10.2 (closed form from the thesis tables; "—": infeasible)
  };
  const std::vector<Case> cases = {
      {"alex16", "ch3_alex16.csv", "Alex-16 on 2 FPGAs", 2, {2.581, 1.935, 1.547, 1.407, 1.268, 1.105, 1.018, 0.943, 0.841, 0.773}},
      {"alex32", "ch3_alex32.csv", "Alex-32 on 4 FPGAs", 4, {none, none, 6.986, 6.202, 5.466, 4.668, 4.294, 3.976, 3.539, 3.252}},
      {"vgg", "ch3_vgg16.csv", "VGG on 8 FPGAs", 8,
       {24.851, 17.782, 14.225, 12.931, 11.659, 10.160, 9.358, 8.673, 7.730, 7.112}},
  };
  std::vector<std::string> resource = resource_names<FpgaResources>();
  for (auto& name : resource)
    for (auto& ch : name) ch = static_cast<char>(std::toupper(ch));  // "DSP", as the thesis writes it
  int mismatches = 0;
  for (const auto& c : cases) {
    if (!only.empty() && only != c.key) continue;
    ychart::io::Series ours{std::string(c.title) + ", ychart", {}, {}}, digest{std::string(c.title) + ", digest", {}, {}};
    digest.line = false;
    const auto app = load_pipeline<FpgaResources>(study001::data_dir() / c.file, c.title);
    const auto arch = study001::aws_f1(c.fpgas);
    std::printf("\n%s (%zu kernels)\n", c.title, app.size());
    std::printf("%6s  %12s  %12s  %8s  %12s  %10s\n", "R (%)", "II ychart", "II digest", "binding", "dlogII/dlogR",
                "time (ms)");
    for (std::size_t i = 0; i < caps.size(); ++i) {
      auto r = build_relaxation(app, arch, uniform_resources<FpgaResources>(caps[i]));
      const auto s = r.model.solve();
      if (i == 0) outputs.report().model(ychart::report::summarize(r.model, std::string(c.title) + ", GP relaxation"));
      // One row per resource some kernel uses (LUT and FF are not in the tables).
      std::vector<std::size_t> used;
      for (std::size_t t = 0; t < r.resource_row.size(); ++t)
        if (r.resource_row[t] != std::size_t(-1)) used.push_back(t);
      if (s.status() != ychart::Status::optimal) {
        // Infeasible: report which resource must be relaxed and by how much.
        std::printf("%6.0f  %12s  %12s", caps[i], std::string(ychart::to_string(s.status())).c_str(),
                    std::isnan(c.digest[i]) ? "—" : "?");
        for (std::size_t t : used)
          if (s.constraint(r.resource_row[t]).relaxation > 1)
            std::printf("  relax %s x%.3f", resource[t].c_str(), s.constraint(r.resource_row[t]).relaxation);
        std::printf("\n");
        table.add_row({c.key, caps[i], std::monostate{}, c.digest[i], std::string(ychart::to_string(s.status())),
                       std::monostate{}, std::monostate{}, s.solve_time() * 1e3});
        mismatches += !std::isnan(c.digest[i]);
        continue;
      }
      std::size_t binding = used.front();
      for (std::size_t t : used)
        if (std::abs(s.constraint(r.resource_row[t]).sensitivity) >
            std::abs(s.constraint(r.resource_row[binding]).sensitivity))
          binding = t;
      const double ii = s.value(r.ii);
      std::printf("%6.0f  %12.3f  %12.3f  %8s  %12.3f  %10.2f\n", caps[i], ii, c.digest[i], resource[binding].c_str(),
                  s.constraint(r.resource_row[binding]).sensitivity, s.solve_time() * 1e3);
      mismatches += std::isnan(c.digest[i]) || std::abs(ii - c.digest[i]) > 0.0005;
      table.add_row({c.key, caps[i], ii, c.digest[i], std::string(ychart::to_string(s.status())), resource[binding],
                     s.constraint(r.resource_row[binding]).sensitivity, s.solve_time() * 1e3});
      ours.x.push_back(caps[i]), ours.y.push_back(ii);
      digest.x.push_back(caps[i]), digest.y.push_back(c.digest[i]);
    }
    chart.series.push_back(ours);
    chart.series.push_back(digest);
  }
  outputs.figure("relaxed_ii.svg", chart);
  outputs.add_table("relaxation", table);
  outputs.add_value("mismatches", long{mismatches});
  std::printf("\n%s\n", mismatches ? "MISMATCH with the digest's values" : "all points match the digest's values");
  const int written = outputs.finish();
  return mismatches ? 1 : written;
}
