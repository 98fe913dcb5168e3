// ychart/pipeline/detail/solution_mapping.hpp
// Reading a solved model's CU counts back as a pipeline::Mapping, for every
// mapping model.
#pragma once

#include "../mapping.hpp"

#include "../../expr/expression.hpp"
#include "../../result/solution.hpp"

#include <cmath>
#include <vector>

namespace ychart::pipeline::detail {

/// cus[k][f] of solution s, rounded to the integers they are.
inline Mapping solution_mapping(const std::vector<std::vector<Discrete<>>>& cus, const Solution& s) {
  Mapping m;
  m.cus.resize(cus.size());
  for (std::size_t k = 0; k < cus.size(); ++k)
    for (const auto& n : cus[k]) m.cus[k].push_back(static_cast<int>(std::lround(s.value(n))));
  return m;
}

}  // namespace ychart::pipeline::detail
