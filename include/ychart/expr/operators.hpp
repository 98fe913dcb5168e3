// ychart/expr/operators.hpp
// + - * / on constants, variables and expressions, and the comparisons that
// build constraints. The result class and dimension are computed at compile
// time; forms that leave geometric programming fail with a static_assert that
// says which rule was broken and what to write instead.
#pragma once

#include "constraint.hpp"
#include "expression.hpp"
#include "variable.hpp"

#include <concepts>
#include <type_traits>

namespace ychart {
namespace detail {

template <class T>
struct operand_traits;
template <class T>
  requires std::is_arithmetic_v<T>
struct operand_traits<T> {
  static constexpr expr_class cls = expr_class::constant;
  using dimension = units::dimensionless;
};
template <expr_class C, class D>
struct operand_traits<Expr<C, D>> {
  static constexpr expr_class cls = C;
  using dimension = D;
};
template <class D>
struct operand_traits<Variable<D>> {
  static constexpr expr_class cls = expr_class::monomial;
  using dimension = D;
};

template <class T>
concept operand = requires { operand_traits<std::remove_cvref_t<T>>::cls; };
template <class T>
concept symbolic = operand<T> && !std::is_arithmetic_v<std::remove_cvref_t<T>>;
template <class L, class R>
concept operands = operand<L> && operand<R> && (symbolic<L> || symbolic<R>);

template <class T> constexpr expr_class class_of = operand_traits<std::remove_cvref_t<T>>::cls;
template <class T> using dimension_of = typename operand_traits<std::remove_cvref_t<T>>::dimension;

template <class T>
double constant_value(const T& v) {
  if constexpr (std::is_arithmetic_v<T>) return static_cast<double>(v);
  else return v.value();
}
template <class T>
Registry* owner_of(const T& v) {
  if constexpr (std::is_arithmetic_v<T>) return nullptr;
  else return v.owner();
}
/// The terms of an operand; moved out of an rvalue expression.
template <class T>
TermList terms_of(T&& v) {
  using U = std::remove_cvref_t<T>;
  if constexpr (std::is_arithmetic_v<U>) return TermList::constant(static_cast<double>(v));
  else if constexpr (is_expr<U>::value && !std::is_lvalue_reference_v<T> && U::class_value != expr_class::constant)
    return std::move(v).terms();
  else return v.terms();
}
template <class T>
std::string text_of(const T& v) {
  if constexpr (std::is_arithmetic_v<T>) return format_number(static_cast<double>(v));
  else if constexpr (is_expr<T>::value && T::class_value == expr_class::constant) return format_number(v.value());
  else if constexpr (is_variable<T>::value) return v.name();
  else return v.to_string();
}

template <class L, class R>
constexpr void check_same_dimension() {
  static_assert(std::is_same_v<dimension_of<L>, dimension_of<R>>,
                "ychart: the two sides have different physical dimensions (e.g. time and data). "
                "Convert one side with the right unit, e.g. `t + bytes / bandwidth`, or give plain numbers "
                "a unit: `x + 2 * units::ms`.");
}

}  // namespace detail

// ---- + ----
template <class L, class R>
  requires detail::operands<L, R>
auto operator+(L&& l, R&& r) {
  using namespace detail;
  check_same_dimension<L, R>();
  using D = dimension_of<L>;
  constexpr auto C = sum_class(class_of<L>, class_of<R>);
  if constexpr (C == expr_class::constant) {
    return Constant<D>(constant_value(l) + constant_value(r));
  } else {
    Registry* owner = common_owner(owner_of(l), owner_of(r));
    if constexpr (class_of<L> == expr_class::constant)
      require_coefficient(constant_value(l), C, text_of(l) + " + " + text_of(r));
    if constexpr (class_of<R> == expr_class::constant)
      require_coefficient(constant_value(r), C, text_of(l) + " + " + text_of(r));
    TermList t = terms_of(std::forward<L>(l));
    t.append(terms_of(std::forward<R>(r)));
    return Expr<C, D>(owner, std::move(t));
  }
}

// ---- - ----
template <class L, class R>
  requires detail::operands<L, R>
auto operator-(L&& l, R&& r) {
  using namespace detail;
  check_same_dimension<L, R>();
  using D = dimension_of<L>;
  constexpr auto C = difference_class(class_of<L>, class_of<R>);
  if constexpr (C == expr_class::constant) {
    return Constant<D>(constant_value(l) - constant_value(r));
  } else {
    TermList t = terms_of(std::forward<L>(l));
    TermList neg = terms_of(std::forward<R>(r));
    neg.scale(-1.0);
    t.append(neg);
    return Signomial<D>(common_owner(owner_of(l), owner_of(r)), std::move(t));
  }
}

template <class T>
  requires detail::symbolic<T>
auto operator-(T&& v) {
  using namespace detail;
  using D = dimension_of<T>;
  if constexpr (class_of<T> == expr_class::constant) {
    return Constant<D>(-v.value());
  } else {
    TermList t = terms_of(std::forward<T>(v));
    t.scale(-1.0);
    return Signomial<D>(owner_of(v), std::move(t));
  }
}

// ---- * ----
template <class L, class R>
  requires detail::operands<L, R>
auto operator*(L&& l, R&& r) {
  using namespace detail;
  using D = units::dimension_product<dimension_of<L>, dimension_of<R>>;
  constexpr auto C = product_class(class_of<L>, class_of<R>);
  if constexpr (C == expr_class::constant) {
    return Constant<D>(constant_value(l) * constant_value(r));
  } else if constexpr (class_of<L> == expr_class::constant) {
    const double c = constant_value(l);
    require_coefficient(c, C, text_of(l) + " * (" + text_of(r) + ")");
    TermList t = terms_of(std::forward<R>(r));
    t.scale(c);
    return Expr<C, D>(owner_of(r), std::move(t));
  } else if constexpr (class_of<R> == expr_class::constant) {
    const double c = constant_value(r);
    require_coefficient(c, C, "(" + text_of(l) + ") * " + text_of(r));
    TermList t = terms_of(std::forward<L>(l));
    t.scale(c);
    return Expr<C, D>(owner_of(l), std::move(t));
  } else {
    Registry* owner = common_owner(owner_of(l), owner_of(r));
    return Expr<C, D>(owner, TermList::product(terms_of(l), terms_of(r)));
  }
}

// ---- / ----
template <class L, class R>
  requires detail::operands<L, R>
auto operator/(L&& l, R&& r) {
  using namespace detail;
  static_assert(class_of<R> != expr_class::posynomial,
                "ychart: dividing by a posynomial is not allowed in a geometric program (1/(x+y) is not a "
                "posynomial). Introduce a variable t with `x + y <= t` and divide by t instead.");
  static_assert(class_of<R> != expr_class::signomial,
                "ychart: dividing by a signomial (an expression with a subtraction) is not allowed; "
                "divide by a monomial (a single term) only.");
  using D = units::dimension_quotient<dimension_of<L>, dimension_of<R>>;
  constexpr auto C = product_class(class_of<L>, class_of<R>);
  if constexpr (C == expr_class::constant) {
    const double den = constant_value(r);
    if (den == 0.0) throw invalid_coefficient("ychart: division by the constant 0 in `" + text_of(l) + " / 0`");
    return Constant<D>(constant_value(l) / den);
  } else if constexpr (class_of<R> == expr_class::constant) {
    const double den = constant_value(r);
    const double c = 1.0 / den;
    if (den == 0.0 || (C != expr_class::signomial && !(den > 0.0 && std::isfinite(den))))
      throw invalid_coefficient("ychart: dividing the " + std::string(class_name(C)) + " `" + text_of(l) +
                                "` by " + format_number(den) + " needs a positive finite divisor");
    TermList t = terms_of(std::forward<L>(l));
    t.scale(c);
    return Expr<C, D>(owner_of(l), std::move(t));
  } else {
    TermList den = terms_of(r);
    if (den.empty())
      throw invalid_coefficient("ychart: division by a monomial that is zero in `" + text_of(l) + " / (" +
                                text_of(r) + ")`");
    Registry* owner = common_owner(owner_of(l), owner_of(r));
    if constexpr (class_of<L> == expr_class::constant) {
      const double c = constant_value(l);
      require_coefficient(c, C, text_of(l) + " / (" + text_of(r) + ")");
      TermList t = den.power(-1.0);
      t.scale(c);
      return Expr<C, D>(owner, std::move(t));
    } else {
      return Expr<C, D>(owner, TermList::product(terms_of(l), den.power(-1.0)));
    }
  }
}

// ---- comparisons: constraints ----
namespace detail {

// The rules of GP for `lhs <= rhs`; `flipped` is true when the user wrote `rhs >= lhs`.
template <expr_class Lhs, expr_class Rhs, bool Flipped>
constexpr void check_less_equal() {
  // One rule at a time (if constexpr), so a broken model gets one message.
  if constexpr (Lhs == expr_class::constant && Rhs == expr_class::constant)
    static_assert(Lhs != Rhs, "ychart: this inequality compares two constants; a constraint needs a variable.");
  else if constexpr (Lhs == expr_class::signomial || Rhs == expr_class::signomial)
    static_assert(Lhs != Lhs,
                  "ychart: a signomial (an expression with a subtraction) cannot appear in a GP constraint. "
                  "Move the subtracted terms to the other side: write `x - y <= z` as `x <= y + z`.");
  else if constexpr (Rhs == expr_class::posynomial && Lhs == expr_class::constant)
    static_assert(Lhs != Lhs,
                  "ychart: `posynomial >= constant` (or `constant <= posynomial`) is not a GP constraint: a lower "
                  "bound on a sum is not log-log convex. Bound a monomial from below instead "
                  "(`monomial >= constant`), or state an upper bound (`posynomial <= monomial`).");
  else if constexpr (Rhs == expr_class::posynomial)
    static_assert(Lhs != Lhs,
                  "ychart: the larger side of an inequality must be a monomial (a single term): write "
                  "`posynomial <= monomial` or `monomial >= posynomial`. `posynomial <= posynomial` is not GP; "
                  "introduce a variable t with `p1 <= t` and `t <= ...` only where t is a monomial bound.");
}

template <class L, class R>
Constraint make_less_equal(L&& l, R&& r, bool written_reversed) {
  Registry* owner = common_owner(owner_of(l), owner_of(r));
  if constexpr (class_of<L> == expr_class::constant)
    require_coefficient(constant_value(l), expr_class::posynomial, text_of(l));
  if constexpr (class_of<R> == expr_class::constant)
    require_coefficient(constant_value(r), expr_class::monomial, text_of(r));
  TermList rhs = terms_of(std::forward<R>(r));
  if (rhs.empty())
    throw invalid_coefficient("ychart: the monomial side of `" + text_of(l) + (written_reversed ? " >= " : " <= ") +
                              text_of(r) + "` is zero; a GP bound must be positive");
  return Constraint(owner, terms_of(std::forward<L>(l)), std::move(rhs), Constraint::Sense::less_equal,
                    written_reversed);
}

}  // namespace detail

template <class L, class R>
  requires detail::operands<L, R>
Constraint operator<=(L&& l, R&& r) {
  detail::check_same_dimension<L, R>();
  detail::check_less_equal<detail::class_of<L>, detail::class_of<R>, false>();
  return detail::make_less_equal(std::forward<L>(l), std::forward<R>(r), false);
}

template <class L, class R>
  requires detail::operands<L, R>
Constraint operator>=(L&& l, R&& r) {
  detail::check_same_dimension<L, R>();
  detail::check_less_equal<detail::class_of<R>, detail::class_of<L>, true>();
  return detail::make_less_equal(std::forward<R>(r), std::forward<L>(l), true);
}

template <class L, class R>
  requires detail::operands<L, R>
Constraint operator==(L&& l, R&& r) {
  using namespace detail;
  check_same_dimension<L, R>();
  static_assert(!(class_of<L> == expr_class::constant && class_of<R> == expr_class::constant),
                "ychart: this equality compares two constants; a constraint needs a variable.");
  static_assert(class_of<L> != expr_class::signomial && class_of<R> != expr_class::signomial,
                "ychart: a signomial equality is not a GP constraint. Equalities are allowed only between "
                "monomials (single terms).");
  static_assert(class_of<L> != expr_class::posynomial && class_of<R> != expr_class::posynomial,
                "ychart: `posynomial == posynomial` is not a GP constraint: equality is allowed only between "
                "monomials (single terms). If the constraint is tight at the optimum write `posynomial <= "
                "monomial`; otherwise introduce a variable for the sum.");
  Registry* owner = common_owner(owner_of(l), owner_of(r));
  TermList a = terms_of(std::forward<L>(l));
  TermList b = terms_of(std::forward<R>(r));
  if (a.empty() || b.empty() || a.coefficient(0) <= 0.0 || b.coefficient(0) <= 0.0 ||
      !std::isfinite(a.coefficient(0)) || !std::isfinite(b.coefficient(0)))
    throw invalid_coefficient("ychart: both sides of the equality `" + to_string(a, owner) + " == " +
                              to_string(b, owner) + "` must be positive monomials");
  return Constraint(owner, std::move(a), std::move(b), Constraint::Sense::equal, false);
}

template <class L, class R>
  requires detail::operands<L, R>
void operator<(L&&, R&&) {
  static_assert(sizeof(L) == 0,
                "ychart: strict inequalities are not supported (the optimum may lie on the boundary); use <=.");
}
template <class L, class R>
  requires detail::operands<L, R>
void operator>(L&&, R&&) {
  static_assert(sizeof(L) == 0,
                "ychart: strict inequalities are not supported (the optimum may lie on the boundary); use >=.");
}

// ---- units: an expression times a unit ----
template <expr_class C, class D1, class D, class S>
auto operator*(const Expr<C, D1>& e, units::unit<D, S> u) {
  return e * Constant<D>(u.factor());
}
template <class D1, class D, class S>
auto operator*(const Variable<D1>& e, units::unit<D, S> u) {
  return e * Constant<D>(u.factor());
}
template <expr_class C, class D1, class D, class S>
auto operator*(units::unit<D, S> u, const Expr<C, D1>& e) {
  return Constant<D>(u.factor()) * e;
}
template <class D1, class D, class S>
auto operator*(units::unit<D, S> u, const Variable<D1>& e) {
  return Constant<D>(u.factor()) * e;
}
template <expr_class C, class D1, class D, class S>
auto operator/(const Expr<C, D1>& e, units::unit<D, S> u) {
  return e / Constant<D>(u.factor());
}
template <class D1, class D, class S>
auto operator/(const Variable<D1>& e, units::unit<D, S> u) {
  return e / Constant<D>(u.factor());
}

}  // namespace ychart

// A number times a unit is a constant. Declared in ychart::units, beside
// unit, so that argument-dependent lookup finds it without a using-directive:
// `250 * ychart::units::us` works anywhere.
namespace ychart::units {
template <class N, class D, class S>
  requires std::is_arithmetic_v<N>
constexpr Constant<D> operator*(N value, unit<D, S> u) {
  return Constant<D>(static_cast<double>(value) * u.factor());
}
template <class N, class D, class S>
  requires std::is_arithmetic_v<N>
constexpr Constant<dimension_power<D, -1>> operator/(N value, unit<D, S> u) {
  return Constant<dimension_power<D, -1>>(static_cast<double>(value) / u.factor());
}
}  // namespace ychart::units
