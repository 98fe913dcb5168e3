// ychart/expr/functions.hpp
// pow (a monomial to a real power, or to a rational power when it has a
// dimension), max (of posynomials, through an epigraph variable) and sum
// (over any input range, std or range-v3).
#pragma once

#include "operators.hpp"

#include <cmath>
#include <initializer_list>
#include <iterator>
#include <ratio>
#include <utility>

namespace ychart {

/// A monomial (or constant) to a real power. Dimensioned monomials need a
/// compile-time exponent: `pow<1, 2>(area)`.
template <class T>
  requires detail::operand<T>
auto pow(T&& base, double exponent) {
  using namespace detail;
  static_assert(class_of<T> <= expr_class::monomial,
                "ychart: pow(e, a) takes a monomial or a constant. A posynomial to a power is not a monomial: "
                "introduce a variable t with `posynomial <= t` and use pow(t, a) (a > 0).");
  static_assert(units::is_dimensionless<dimension_of<T>>,
                "ychart: pow(e, double) needs a dimensionless e, because the result's dimension must be known at "
                "compile time. Write pow<N, D>(e) for the rational power N/D of a dimensioned expression.");
  if constexpr (class_of<T> == expr_class::constant) {
    const double b = constant_value(base);
    return Constant<>(std::pow(b, exponent));
  } else {
    if (!std::isfinite(exponent))
      throw invalid_coefficient("ychart: pow(" + text_of(base) + ", " + format_number(exponent) +
                                ") needs a finite exponent");
    TermList t = terms_of(base);
    if (t.empty() && exponent < 0)
      throw invalid_coefficient("ychart: pow of a zero monomial to a negative power in pow(" + text_of(base) +
                                ", " + format_number(exponent) + ")");
    return Monomial<>(owner_of(base), t.power(exponent));
  }
}

/// A monomial with a dimension to the rational power Num/Den.
template <std::intmax_t Num, std::intmax_t Den = 1, class T>
  requires detail::operand<T>
auto pow(T&& base) {
  using namespace detail;
  static_assert(class_of<T> <= expr_class::monomial,
                "ychart: pow<N, D>(e) takes a monomial or a constant (a single term).");
  using D = units::dimension_power<dimension_of<T>, Num, Den>;
  constexpr double exponent = double(Num) / double(Den);
  if constexpr (class_of<T> == expr_class::constant) {
    return Constant<D>(std::pow(constant_value(base), exponent));
  } else {
    TermList t = terms_of(base);
    if (t.empty() && exponent < 0)
      throw invalid_coefficient("ychart: pow of a zero monomial to a negative power: " + text_of(base));
    return Monomial<D>(owner_of(base), t.power(exponent));
  }
}

namespace detail {

template <class First, class... Rest>
Registry* first_owner(const First& f, const Rest&... r) {
  Registry* o = owner_of(f);
  ((o = common_owner(o, owner_of(r))), ...);
  return o;
}

}  // namespace detail

/// max(e1, e2, ...) of posynomials of one dimension. It is a posynomial-class
/// expression, usable wherever a posynomial is (left of <=, minimised). It is
/// lowered to an epigraph variable t with e_i <= t, which is exact in those
/// positions because t can always be lowered to the max.
template <class First, class... Rest>
  requires(detail::operand<First> && (detail::operand<Rest> && ...) && sizeof...(Rest) >= 1)
auto max(const First& first, const Rest&... rest) {
  using namespace detail;
  using D = dimension_of<First>;
  static_assert((std::is_same_v<D, dimension_of<Rest>> && ...),
                "ychart: max() of expressions with different physical dimensions");
  static_assert(class_of<First> <= expr_class::posynomial && ((class_of<Rest> <= expr_class::posynomial) && ...),
                "ychart: max() takes constants, monomials and posynomials; a signomial has no GP epigraph.");
  constexpr bool all_constant =
      class_of<First> == expr_class::constant && ((class_of<Rest> == expr_class::constant) && ...);
  if constexpr (all_constant) {
    double m = constant_value(first);
    ((m = std::max(m, constant_value(rest))), ...);
    return Constant<D>(m);
  } else {
    Registry* owner = first_owner(first, rest...);
    std::string name = "max(" + text_of(first);
    ((name += ", " + text_of(rest)), ...);
    name += ")";
    const std::uint32_t t = owner->add({name, "", 0.0, std::numeric_limits<double>::infinity(), 1.0, true});
    auto define = [&](const auto& e) {
      if constexpr (class_of<std::remove_cvref_t<decltype(e)>> == expr_class::constant)
        require_coefficient(constant_value(e), expr_class::posynomial, name);
      owner->epigraphs.push_back({terms_of(e), t});
    };
    define(first);
    (define(rest), ...);
    return Posynomial<D>(owner, TermList::variable(t, 1.0));
  }
}

/// sum(range, f): the sum of f(e) over the elements of any input range.
/// Appends in place, so building a sum of n terms costs O(n).
template <class Range, class F>
auto sum(Range&& range, F&& f) {
  using Item = decltype(f(*std::begin(range)));
  using D = detail::dimension_of<Item>;
  constexpr auto C = detail::sum_class(detail::class_of<Item>, detail::class_of<Item>);
  if constexpr (C == expr_class::constant) {
    double total = 0.0;
    for (auto&& e : range) total += detail::constant_value(f(e));
    return Constant<D>(total);
  } else {
    Expr<C, D> total;
    for (auto&& e : range) total += Expr<C, D>(f(e));
    return total;
  }
}

/// sum(range): the sum of the elements themselves.
template <class Range>
auto sum(Range&& range) {
  return sum(std::forward<Range>(range), [](const auto& e) -> decltype(auto) { return e; });
}

}  // namespace ychart
