// examples/mpi_sweep/main.cpp
// A sweep spread over MPI ranks: study 001's exact compute-unit allocation
// (chapter 3, beta = 0: the proven-optimal II) for Alex-16 on 2 FPGAs and
// Alex-32 on 4, over a grid of resource caps. explore::sweep is the same call as
// on one machine; built with the ychart::mpi target and started by mpirun,
// each rank solves its share of the points and every rank gets all results
// in grid order. Rank 0 prints them.
//
//   mpi_sweep [--caps 30,35,...] [--threads N] [--json] [--csv FILE]
//   mpirun -np 4 mpi_sweep --json      # the same output as without mpirun
//
// The figure (II against the cap) goes to --svg-dir. The output leaves out solve times, so a run on any number of ranks can be
// compared byte for byte with the serial one (the CI test does).
#include "common/cli.hpp"
#include "study001/common/study.hpp"

#include <ychart/explore.hpp>
#include <ychart/io/svg.hpp>

#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>

#include <cstdio>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

namespace {

using namespace ychart;
using namespace ychart::pipeline;
using namespace ychart::explore;

/// One grid point's answer; serialize() lets it travel between ranks.
struct PointResult {
  std::string status;
  double ii_ms = 0;     // proven-optimal II (NaN when there is none)
  double bound_ms = 0;  // the solver's bound
  std::vector<int> cus;  // CUs per kernel, summed over the FPGAs

  template <class Archive>
  void serialize(Archive& archive, unsigned /*version*/) {
    archive & status & ii_ms & bound_ms & cus;
  }
};

struct GridPoint {
  std::string case_id;
  double cap;
};

}  // namespace

int main(int argc, char** argv) {
  boost::mpi::environment environment(argc, argv);
  const boost::mpi::communicator world;
  std::vector<double> caps = {30, 35, 40, 45, 50, 55, 61, 65, 70, 76, 82, 88, 92};
  unsigned threads = 1;
  examples::Outputs outputs("mpi_sweep", "mpi_sweep");
  examples::CommandLine cli("Study 001's exact CU allocation over a cap grid, spread over MPI ranks (run under mpirun)");
  cli.option("--caps", caps, "Resource caps per FPGA (%)").comma_separated().show_default().within(1.0, 100.0);
  cli.option("--threads", threads, "Threads per rank (0: one per core)").show_default();
  outputs.add_options(cli);
  if (auto rc = cli.parse(argc, argv)) return *rc;
  const bool root = world.rank() == 0;
  // Every rank stops if rank 0 cannot set up its outputs.
  int rc = root ? outputs.begin() : 0;
  boost::mpi::broadcast(world, rc, 0);
  if (rc) return rc;
  try {
    struct Case {
      std::string id, file, title;
      int fpgas;
    };
    const std::vector<Case> cases = {{"alex16", "ch3_alex16.csv", "Alex-16", 2},
                                     {"alex32", "ch3_alex32.csv", "Alex-32", 4}};
    std::vector<GridPoint> grid;
    for (const auto& c : cases)
      for (double cap : caps) grid.push_back({c.id, cap});
    std::vector<study001::App> apps;
    for (const auto& c : cases) apps.push_back(load_pipeline<FpgaResources>(study001::data_dir() / c.file, c.title));

    SweepOptions so;
    so.threads = threads;
    so.label = "CU allocation";
    const auto results = sweep(grid, [&](const GridPoint& p) {
      const std::size_t k = p.case_id == "alex16" ? 0 : 1;
      MappingModelOptions<FpgaResources> o;
      o.cap() = uniform_resources<FpgaResources>(p.cap);
      o.beta = 0.0;
      auto mm = build_mapping_model(apps[k], study001::aws_f1(cases[k].fpgas), o);
      SolveOptions solve_options;
      solve_options.time_limit = 60;
      const auto s = mm.model.solve(solve_options);
      PointResult r;
      r.status = std::string(to_string(s.status()));
      r.ii_ms = s.has_values() ? mm.initiation_interval(s).in(units::ms) : std::numeric_limits<double>::quiet_NaN();
      r.bound_ms = s.status() == Status::infeasible ? std::numeric_limits<double>::quiet_NaN() : s.bound() * 1e3;
      if (s.has_values()) {
        const auto mapping = mm.mapping(s);
        for (const auto& per_fpga : mapping.cus) {
          int total = 0;
          for (int n : per_fpga) total += n;
          r.cus.push_back(total);
        }
      }
      return r;
    }, so);

    if (!root) return 0;
    io::Table table({{"case", "", 1}, {"cap", "%", 3}, {"status", "", 1}, {"II", "ms", 6}, {"bound", "ms", 6},
                     {"CUs per kernel", "", 1}});
    for (std::size_t i = 0; i < grid.size(); ++i) {
      std::string cus;
      for (int n : results[i].cus) cus += (cus.empty() ? "" : " ") + std::to_string(n);
      table.add_row({grid[i].case_id, grid[i].cap, results[i].status, results[i].ii_ms, results[i].bound_ms, cus});
    }
    io::LineChart chart;
    chart.title = "Proven-optimal II against the cap (study 001, ch. 3, beta = 0)";
    chart.x_label = "resource cap per FPGA (%)";
    chart.y_label = "II (ms)";
    chart.log_y = true;
    for (const auto& c : cases) {
      io::Series series{c.title + " on " + std::to_string(c.fpgas) + " FPGAs", {}, {}};
      for (std::size_t i = 0; i < grid.size(); ++i)
        if (grid[i].case_id == c.id) series.x.push_back(grid[i].cap), series.y.push_back(results[i].ii_ms);
      chart.series.push_back(series);
    }
    outputs.figure("ii_against_cap.svg", chart);
    std::printf("%zu points on %d rank(s)\n", grid.size(), world.size());
    table.print(std::cout);
    outputs.add_table("allocation", table);
    return outputs.finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mpi_sweep (rank %d): %s\n", world.rank(), e.what());
    return 1;
  }
}
