// ychart/expr/functions.hpp
// pow (a monomial to a real power, or to a rational power when it has a
// dimension), max (of posynomials, through an epigraph variable), sum (over
// any input range, std or range-v3) and tabulate (any function of one
// discrete variable, as an affine term).
#pragma once

#include "operators.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <initializer_list>
#include <string>
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
  if constexpr (class_of<T> == expr_class::discrete) {  // n^a: n as a monomial factor
    return pow(Monomial<dimension_of<T>>(Expr<expr_class::discrete, dimension_of<T>>(base)), exponent);
  } else {
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
}

/// A monomial with a dimension to the rational power Num/Den.
template <std::intmax_t Num, std::intmax_t Den = 1, class T>
  requires detail::operand<T>
auto pow(T&& base) {
  using namespace detail;
  if constexpr (class_of<T> == expr_class::discrete) {
    return pow<Num, Den>(Monomial<dimension_of<T>>(Expr<expr_class::discrete, dimension_of<T>>(base)));
  } else {
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
    const std::uint32_t t = owner->add(
        make_record(name, "", 0.0, std::numeric_limits<double>::infinity(), 1.0, VariableKind::positive, true));
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

namespace ychart {

/// tabulate(n, f): the function f of one discrete variable n, as an affine
/// term. f is called once per value of n (so any function works: n / (1 + n),
/// a lookup, a measured curve); the solvers see f(n) = sum_v f(v) [n == v],
/// which is linear in the binary encoding of n. The name labels reports.
template <class D, class F>
  requires std::is_invocable_r_v<double, F, double>
Affine<> tabulate(const Discrete<D>& n, F&& f, std::string name = {}) {
  auto* owner = n.owner();
  if (!owner) throw model_error("ychart: tabulate() of a variable that belongs to no model");
  const auto& arg = owner->variables.at(n.index());
  constexpr double largest_domain = 1e6;
  if (!(arg.domain_size() <= largest_domain))
    throw model_error("ychart: tabulate(" + arg.name + "): the variable has " +
                      detail::format_number(arg.domain_size()) + " values; a table needs a domain of at most 10^6");
  detail::VariableRecord r;
  r.name = name.empty() ? "f(" + arg.name + ")" : std::move(name);
  r.kind = detail::VariableKind::tabulated;
  r.argument = n.index();
  const auto count = static_cast<std::size_t>(arg.domain_size());
  r.table.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    // f sees the value in n's own unit.
    const double v = static_cast<double>(std::invoke(f, arg.value_at(i)));
    if (!std::isfinite(v))
      throw invalid_coefficient("ychart: tabulate(" + arg.name + "): f(" + detail::format_number(arg.value_at(i)) +
                                ") = " + detail::format_number(v) + " is not finite");
    r.table.push_back(v);
  }
  r.lower = count ? *std::min_element(r.table.begin(), r.table.end()) : 0.0;
  r.upper = count ? *std::max_element(r.table.begin(), r.table.end()) : 0.0;
  const auto index = owner->add(std::move(r));
  return Affine<>(owner, detail::TermList::variable(index, 1.0));
}

}  // namespace ychart
