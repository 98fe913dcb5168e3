// examples/study003/sections.hpp
// The sections of the study 003 example, one source file each, compiled on
// their own (so that no one file of the example compiles the whole study):
//   example13.cpp     1. the 13-node example: design space, proven optimum
//                        beside Fig. 7.2, Table 7.1 evaluated, a row of
//                        one's own on the public model;
//   fronts.cpp        2. the exact fronts (SHAVEs, power, processors);
//   evolutionary.cpp  3. the thesis's evolutionary baseline over many seeds;
//   larger.cpp        4. MobileNet v1 and random layered graphs.
// Each prints its tables, hands them and its figures to Outputs, and fills
// its part of the results declared in results.hpp.
#pragma once

#include "common/cli.hpp"
#include "study003/results.hpp"

#include <ychart/synthesis/synthesis_model.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace study003 {

namespace ys = ychart::synthesis;
namespace io = ychart::io;

inline double us(double seconds) { return seconds * 1e6; }

inline const std::string& resource_of(const ys::Specification& spec, std::size_t option) {
  return spec.architecture.resources[spec.mappings[option].resource].id;
}

/// Footnote 4's card(R)^card(P) and the bindings the mapping options allow.
void design_space(const ys::Specification& spec, const ys::IndexedSpecification& ix, Example13& out,
                  examples::Outputs& outputs);

/// The proven optimum beside Fig. 7.2, with its routes and what it allocates.
ys::SynthesisResult exact_optimum(const ys::Specification& spec, const ys::IndexedSpecification& ix, Example13& out,
                                  examples::Outputs& outputs);

/// Table 7.1's implementations, evaluated, and Fig. 7.3's binding with
/// SHAVEs and routes chosen exactly.
void table71(const ys::Specification& spec, const ys::IndexedSpecification& ix, Example13& out,
             examples::Outputs& outputs);

/// What the NCS is worth: the optimum with a row of one's own that leaves it
/// unallocated.
void without_the_ncs(const ys::Specification& spec, const ys::IndexedSpecification& ix,
                     const ys::SynthesisResult& optimum);

/// The exact fronts of cost against SHAVEs, power and allocated processors.
void exact_fronts(const ys::Specification& spec, const ys::IndexedSpecification& ix, Example13& out,
                  examples::Outputs& outputs);

/// The thesis's evolutionary search over `runs` seeds against the optimum.
void evolutionary_baseline(const ys::Specification& spec, const ys::IndexedSpecification& ix,
                           const ys::SynthesisResult& optimum, std::size_t runs, Example13& out,
                           examples::Outputs& outputs);

/// MobileNet v1 as 87 operations, exactly and by the EA over `runs` seeds.
MobileNet mobilenet_study(std::size_t runs);

/// Random layered graphs of the given sizes under a time limit per solve.
std::vector<RandomRun> random_graphs(const std::vector<std::size_t>& sizes, const std::vector<std::size_t>& processors,
                                     double time_limit, ychart::MilpSolver milp_solver, examples::Outputs& outputs);

}  // namespace study003
