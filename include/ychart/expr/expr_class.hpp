// ychart/expr/expr_class.hpp
// The class of an expression is part of its type. The GP classes (constant,
// monomial, posynomial, signomial) live in log space; `affine` expressions
// (integers, binaries, choices, real variables, tabulated functions, any
// signs) live in linear space; `discrete` is c * n for one discrete variable
// n, usable on either side; `mixed` is a posynomial plus an affine part (an
// objective such as II + 50 * r, or the left side of `mixed <= affine`).
// These constexpr rules say what class the result of an operation has;
// `invalid` results are rejected by the operators with a static_assert.
#pragma once

namespace ychart {

enum class expr_class : int {
  constant = 0,
  monomial = 1,
  posynomial = 2,
  signomial = 3,
  affine = 4,
  discrete = 5,
  mixed = 6,
  invalid = 7,
};

namespace detail {

constexpr bool is_gp_class(expr_class c) { return c <= expr_class::signomial; }
/// Classes that live in linear space.
constexpr bool is_linear_class(expr_class c) { return c == expr_class::affine || c == expr_class::discrete; }
/// Monomials and posynomials: the log-space part a mixed expression can hold.
constexpr bool is_posy_class(expr_class c) { return c == expr_class::monomial || c == expr_class::posynomial; }

/// Implicit conversions between expression classes of one dimension.
constexpr bool converts(expr_class from, expr_class to) {
  if (from == to) return false;
  if (is_gp_class(from) && is_gp_class(to)) return from < to;
  if (from == expr_class::discrete) return to != expr_class::constant;  // c*n is a monomial and an affine term
  if (to == expr_class::affine) return from == expr_class::constant;
  if (to == expr_class::mixed) return from != expr_class::signomial && from != expr_class::invalid;
  return false;
}

constexpr expr_class sum_class(expr_class a, expr_class b) {
  using E = expr_class;
  if (a == E::invalid || b == E::invalid) return E::invalid;
  if (is_gp_class(a) && is_gp_class(b)) {
    if (a == E::signomial || b == E::signomial) return E::signomial;
    if (a == E::constant && b == E::constant) return E::constant;
    return E::posynomial;
  }
  if (a == E::signomial || b == E::signomial) return E::invalid;
  const bool lin_a = is_linear_class(a) || a == E::constant, lin_b = is_linear_class(b) || b == E::constant;
  if (lin_a && lin_b) return E::affine;
  return E::mixed;  // a posynomial part and an affine part
}

/// a - b.
constexpr expr_class difference_class(expr_class a, expr_class b) {
  using E = expr_class;
  if (a == E::invalid || b == E::invalid) return E::invalid;
  if (is_gp_class(a) && is_gp_class(b)) {
    if (a == E::constant && b == E::constant) return E::constant;
    return E::signomial;
  }
  const bool lin_a = is_linear_class(a) || a == E::constant, lin_b = is_linear_class(b) || b == E::constant;
  if (lin_a && lin_b) return E::affine;
  // Subtracting an affine part from a posynomial stays convex; subtracting
  // a posynomial does not.
  if ((is_posy_class(a) || a == E::mixed) && (lin_b || b == E::constant)) return E::mixed;
  return E::invalid;
}

constexpr expr_class product_class(expr_class a, expr_class b) {
  using E = expr_class;
  if (a == E::invalid || b == E::invalid) return E::invalid;
  if (is_gp_class(a) && is_gp_class(b)) return a > b ? a : b;
  if (a == E::constant) return b;
  if (b == E::constant) return a;
  // A discrete variable times anything of log space is a monomial factor.
  if (a == E::discrete && b == E::discrete) return E::monomial;
  if (a == E::discrete && is_gp_class(b)) return b;
  if (b == E::discrete && is_gp_class(a)) return a;
  return E::invalid;  // affine or mixed times a variable is not linear
}

/// a / b.
constexpr expr_class quotient_class(expr_class a, expr_class b) {
  using E = expr_class;
  if (b == E::constant) return a;
  if (b == E::posynomial || b == E::signomial || b == E::affine || b == E::mixed || b == E::invalid)
    return E::invalid;
  // b is a monomial or a discrete variable (a monomial in log space).
  if (a == E::affine || a == E::mixed || a == E::invalid) return E::invalid;
  if (a == E::discrete || a == E::constant) return E::monomial;
  return a;
}

constexpr const char* class_name(expr_class c) {
  switch (c) {
    case expr_class::constant: return "constant";
    case expr_class::monomial: return "monomial";
    case expr_class::posynomial: return "posynomial";
    case expr_class::signomial: return "signomial";
    case expr_class::affine: return "affine expression";
    case expr_class::discrete: return "discrete term";
    case expr_class::mixed: return "posynomial-plus-affine expression";
    case expr_class::invalid: return "invalid expression";
  }
  return "?";
}

}  // namespace detail
}  // namespace ychart
