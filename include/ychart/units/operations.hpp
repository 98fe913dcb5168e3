// ychart/units/operations.hpp
// Operations as a dimension of their own (study 002: a layer's OPS count, a
// processor's peak in OPS/s), so that OPS / (OPS/s) is a time and an
// operation count cannot be added to a byte count: dim::operations and
// dim::throughput (operations per second), with the units op, GOP, and
// GOPS (1e9 op/s).
#pragma once

#include "dimension.hpp"
#include "unit.hpp"

#include <ratio>

namespace ychart::dim {
using operations = units::base_dimension<"op">;
using throughput = units::dimension_quotient<operations, time>;
}  // namespace ychart::dim

namespace ychart::units {
inline constexpr unit<dim::operations> op{};
inline constexpr unit<dim::operations, std::giga> GOP{};
inline constexpr unit<dim::throughput, std::giga> GOPS{};
}  // namespace ychart::units
