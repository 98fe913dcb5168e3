// ychart/solve/detail/solution_skeleton.hpp
// The part of a Solution every strategy of Model::solve starts its report
// from: the model's variables and constraints, named as the model names
// them (an unnamed constraint is c<index>), with no values yet.
#pragma once

#include "../../model/model.hpp"
#include "../../result/solution.hpp"

#include <cmath>
#include <string>

namespace ychart::solve::detail {

inline void describe_model(const Model& model, SolutionBuilder& b) {
  b.model_id() = &model.registry();
  b.objective_dimension() = model.objective_unit();
  const auto& vars = model.registry().variables;
  b.variables().resize(vars.size());
  for (std::size_t j = 0; j < vars.size(); ++j)
    b.variables()[j] = {vars[j].name, vars[j].unit, std::nan(""), vars[j].auxiliary};
  const auto& constraints = model.constraints();
  b.constraints().resize(constraints.size());
  for (std::size_t i = 0; i < constraints.size(); ++i) {
    auto& c = b.constraints()[i];
    c.name = constraints[i].name().empty() ? "c" + std::to_string(i) : constraints[i].name();
    c.text = constraints[i].to_string();
  }
}

}  // namespace ychart::solve::detail
