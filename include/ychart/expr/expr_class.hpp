// ychart/expr/expr_class.hpp
// The class of an expression is part of its type: constant, monomial,
// posynomial or signomial. These constexpr rules say what class the result
// of an operation has; operators that would leave GP are rejected elsewhere
// with a static_assert.
#pragma once

namespace ychart {

enum class expr_class : int { constant = 0, monomial = 1, posynomial = 2, signomial = 3 };

namespace detail {

constexpr expr_class sum_class(expr_class a, expr_class b) {
  if (a == expr_class::signomial || b == expr_class::signomial) return expr_class::signomial;
  if (a == expr_class::constant && b == expr_class::constant) return expr_class::constant;
  return expr_class::posynomial;
}

constexpr expr_class difference_class(expr_class a, expr_class b) {
  if (a == expr_class::constant && b == expr_class::constant) return expr_class::constant;
  return expr_class::signomial;
}

constexpr expr_class product_class(expr_class a, expr_class b) { return a > b ? a : b; }

constexpr const char* class_name(expr_class c) {
  switch (c) {
    case expr_class::constant: return "constant";
    case expr_class::monomial: return "monomial";
    case expr_class::posynomial: return "posynomial";
    case expr_class::signomial: return "signomial";
  }
  return "?";
}

}  // namespace detail
}  // namespace ychart
