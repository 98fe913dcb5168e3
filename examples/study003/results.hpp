// examples/study003/results.hpp
// What study 003 reports, as data: each struct is declared with
// BOOST_HANA_DEFINE_STRUCT, so `--json` writes it member by member
// (ychart/io/reflect.hpp) and a vector of rows is also a printed table.
// Costs are in microseconds, times of a run in seconds.
#pragma once

#include <ychart/io/reflect.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace study003 {

using ychart::io::Members;

struct Hop {
  BOOST_HANA_DEFINE_STRUCT(Hop, (std::string, link), (std::string, from), (std::string, to));
};

/// The 13-node example's proven optimum.
struct Optimum {
  BOOST_HANA_DEFINE_STRUCT(Optimum, (std::string, status), (double, cost), (std::string, cost_unit), (double, shaves),
                           (Members<std::string>, binding),     // task -> resource
                           (Members<std::vector<Hop>>, routes),  // communication -> its hops
                           (std::vector<std::string>, allocated), (bool, host_to_ncs_via_bus12));
};

/// A Table 7.1 implementation: the thesis's cost and evaluate()'s.
struct Table71Row {
  BOOST_HANA_DEFINE_STRUCT(Table71Row, (std::string, implementation), (double, thesis), (double, ychart));
};

struct ShavePoint {
  BOOST_HANA_DEFINE_STRUCT(ShavePoint, (double, cost), (double, shaves));
};

struct PowerPoint {
  BOOST_HANA_DEFINE_STRUCT(PowerPoint, (double, cost), (double, power_w));
};

/// The evolutionary baseline over many seeds.
struct Evolutionary {
  BOOST_HANA_DEFINE_STRUCT(Evolutionary, (std::size_t, runs), (double, hit_rate_100), (double, hit_rate_400),
                           (double, best_cost), (double, seconds_per_run));
};

struct Example13 {
  BOOST_HANA_DEFINE_STRUCT(Example13, (std::size_t, process_tasks), (std::size_t, communications),
                           (double, design_space), (double, design_space_with_shaves), (double, bindings),
                           (Optimum, optimum), (std::vector<Table71Row>, table71), (std::vector<ShavePoint>, pareto),
                           (bool, pareto_proven), (double, pareto_seconds), (std::vector<PowerPoint>, power_pareto),
                           (Evolutionary, ea), (double, exact_seconds));
};

struct MobileNet {
  BOOST_HANA_DEFINE_STRUCT(MobileNet, (std::size_t, process_tasks), (std::string, status), (double, cost),
                           (double, shaves), (double, exact_seconds), (std::size_t, ea_runs), (std::size_t, ea_hits),
                           (double, ea_best_cost));
};

/// One random layered graph solved under a time limit.
struct RandomRun {
  BOOST_HANA_DEFINE_STRUCT(RandomRun, (std::size_t, tasks), (std::size_t, processors), (std::size_t, variables),
                           (std::string, status), (double, cost), (double, gap), (double, seconds));
};

}  // namespace study003
