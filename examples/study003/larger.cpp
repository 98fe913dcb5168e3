// examples/study003/larger.cpp
// Study 003, section 4: larger instances -- MobileNet v1 as 87 operations
// (and the EA on it, beside the thesis's 29 of 69 runs), and random layered
// graphs of 200-1000 tasks on 4-8 processors under a time limit.
#include "study003/sections.hpp"
#include "study003/instances.hpp"

#include <ychart/baselines/evolutionary.hpp>
#include <ychart/model/tolerances.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace study003 {

MobileNet mobilenet_study(std::size_t runs) {
  namespace baselines = ychart::baselines;
  const auto mobile = mobilenet();
  const auto mix = mobile.validate();
  const auto mopt = ys::solve_synthesis(mobile, mix);
  if (!mopt.implementation) throw std::runtime_error("MobileNet: " + mopt.message);
  std::map<std::string, long> use;
  for (auto o : mopt.implementation->binding) ++use[resource_of(mobile, o)];
  MobileNet out{mix.processes.size(), std::string(to_string(mopt.status)), us(mopt.objective),
                mopt.breakdown.parameter_value[0], mopt.seconds, runs, 0, std::numeric_limits<double>::infinity()};
  double ea_seconds = 0;
  baselines::EvolutionaryOptions mo;
  mo.generations = 100;
  mo.checkpoints = {100};
  for (std::size_t k = 0; k < runs; ++k) {
    mo.seed = k + 1;
    const auto r = baselines::evolve(mobile, mix, mo);
    out.ea_hits += r.best_cost <= mopt.objective * (1 + ychart::tolerances::roundoff);
    out.ea_best_cost = std::min(out.ea_best_cost, us(r.best_cost));
    ea_seconds += r.seconds / double(std::max<std::size_t>(1, runs));
  }
  std::printf("\nMobileNet v1, %zu operations, %zu communications: %s, cost %.1f us, %g SHAVEs, %.1f ms exact "
              "(%zu variables)\n  binding: %ld on the host, %ld on the NCS, %ld on the Coral\n"
              "  EA, 100 generations: optimum in %zu of %zu runs (thesis: its best in 29 of 69), best %.1f us, "
              "%.1f ms per run\n",
              mix.processes.size(), mix.communications.size(), out.status.c_str(), out.cost, out.shaves,
              mopt.seconds * 1e3, mopt.variables, use["Desktop(CPU+GPU)"], use["NCS"], use["coral_edgetpu"],
              out.ea_hits, runs, out.ea_best_cost, ea_seconds * 1e3);
  return out;
}

std::vector<RandomRun> random_graphs(const std::vector<std::size_t>& sizes,
                                     const std::vector<std::size_t>& processors, double time_limit,
                                     ychart::MilpSolver milp_solver, examples::Outputs& outputs) {
  std::vector<RandomRun> runs;
  ychart::SolveOptions limited;
  limited.time_limit = time_limit;
  limited.milp_solver = milp_solver;  // automatic: GLPK below 2,000 columns, CBC from there
  for (auto n : sizes)
    for (auto p : processors) {
      const auto rs = random_layered(n, p, 7, false);
      const auto r = ys::solve_synthesis(rs, rs.validate(), {}, limited);
      runs.push_back({n, p, r.variables, std::string(to_string(r.status)), us(r.objective), r.gap, r.seconds});
    }
  const auto t = io::table_of(runs, {{"tasks", "", 4}, {"processors", "", 2}, {"variables", "", 6}, {"status", "", 1},
                                     {"cost", "us", 7}, {"gap", "", 2}, {"seconds", "s", 3}});
  std::printf("\nRandom layered graphs (host + accelerators behind their own buses; tree routing), time limit %g s, "
              "MILP back end %s:\n",
              time_limit, std::string(to_string(milp_solver)).c_str());
  t.print(std::cout);
  outputs.add_table("random", t);
  return runs;
}

}  // namespace study003
