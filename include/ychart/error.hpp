// ychart/error.hpp
// The exceptions ychart throws. All derive from ychart::error, which derives
// from std::runtime_error, so `catch (const std::exception&)` sees them too.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace ychart {

struct error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A coefficient that is negative, zero where it must not be, NaN or infinite
/// where a monomial or posynomial needs a positive finite one.
struct invalid_coefficient : error {
  using error::error;
};

/// A model that cannot be built or solved as written (variables of two
/// models mixed, an objective missing, bounds that contradict each other).
/// Every error about the model or a problem class's data is one of these,
/// and `element` names what is at fault where there is one thing: the
/// variable, constraint, kernel, task, layer, processor, memory, segment,
/// node or platform (as the message spells it; empty when the error is
/// about no one element, e.g. an option out of range).
struct model_error : error {
  explicit model_error(const std::string& message, std::string element_name = {})
      : error(message), element(std::move(element_name)) {}
  std::string element;
};

/// A graph or node table that is malformed: a non-positive count or size, a
/// range that is empty, overlaps another or does not start and end at cut
/// points. `element` is the segment, node, graph or platform.
struct graph_error : model_error {
  using model_error::model_error;
};

/// A layer, processor or platform of the loop-nest evaluator (study 002)
/// that is malformed: a non-positive extent or capacity, a computational
/// model that names a loop twice or a parallelism level the processor lacks.
/// `element` is the layer, processor or platform.
struct loopnest_error : model_error {
  using model_error::model_error;
};

/// A layer whose tile fits no memory: even one iteration of the loop the
/// memory limits needs more bytes than the memory holds. `element` is the
/// memory; `bytes` what it would need and `capacity` what it holds.
struct tiling_error : loopnest_error {
  tiling_error(const std::string& message, std::string memory_id, double bytes_needed, double capacity_bytes)
      : loopnest_error(message, std::move(memory_id)), bytes(bytes_needed), capacity(capacity_bytes) {}
  double bytes = 0, capacity = 0;
};

/// A system-synthesis specification (study 003) that is malformed: a task
/// with no mapping option, a link or mapping to an unknown resource, a
/// communication without sender or receivers, or one that no route within
/// the hop bound connects. `element` is the task, communication, link or
/// resource at fault.
struct specification_error : model_error {
  using model_error::model_error;
};

/// Asking a Solution for something it does not have (values of an
/// infeasible model, a variable of another model).
struct solution_error : error {
  using error::error;
};

/// Two solvers that should agree did not: SolveOptions::gp_solver ==
/// GpSolver::cross_check found the native GP solver and Ipopt apart.
struct solver_disagreement : error {
  using error::error;
};

}  // namespace ychart
