// ychart/expr/operators.hpp
// + - * / on constants, variables and expressions, and the comparisons that
// build constraints. The result class and dimension are computed at compile
// time; forms that leave the solvable class (geometric programming, affine
// constraints over integers and reals, and posynomials plus affine parts)
// fail with a static_assert that says which rule was broken and what to write
// instead.
#pragma once

#include "constraint.hpp"
#include "signomial_constraint.hpp"
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
template <expr_class C, class D>
struct operand_traits<LinearHandle<C, D>> {
  static constexpr expr_class cls = C;
  using dimension = D;
};
template <class D>
struct operand_traits<Discrete<D>> : operand_traits<LinearHandle<expr_class::discrete, D>> {};
template <class D>
struct operand_traits<Real<D>> : operand_traits<LinearHandle<expr_class::affine, D>> {};

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
  else if constexpr (is_expr<U>::value && U::class_value == expr_class::mixed) static_assert(sizeof(U) == 0);
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

/// The log-space (posynomial) and linear-space (affine) parts of an operand.
template <class T>
TermList posy_part(const T& v) {
  constexpr auto c = class_of<T>;
  if constexpr (c == expr_class::mixed) return v.posynomial();
  else if constexpr (is_posy_class(c)) return v.terms();
  else return {};
}
template <class T>
TermList affine_part(const T& v) {
  constexpr auto c = class_of<T>;
  if constexpr (c == expr_class::mixed) return v.affine();
  else if constexpr (is_linear_class(c) || c == expr_class::constant) return terms_of(v);
  else return {};
}

/// Products and quotients that land in a monomial or posynomial need positive
/// coefficients; a discrete factor c * n may carry a negative c.
inline void require_positive_terms(const TermList& t, expr_class c, Registry* owner) {
  if (c != expr_class::monomial && c != expr_class::posynomial) return;
  for (std::size_t k = 0; k < t.size(); ++k) require_coefficient(t.coefficient(k), c, to_string(t, owner));
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
  static_assert(C != expr_class::invalid,
                "ychart: a signomial (an expression with a subtraction of posynomials) cannot be added to an "
                "affine expression of integers or reals. Keep log-space and linear-space parts separate: "
                "posynomial + affine is allowed.");
  if constexpr (C == expr_class::constant) {
    return Constant<D>(constant_value(l) + constant_value(r));
  } else if constexpr (C == expr_class::mixed) {
    TermList p = posy_part(l), a = affine_part(l);
    p.append(posy_part(r));
    a.append(affine_part(r));
    return Mixed<D>(common_owner(owner_of(l), owner_of(r)), std::move(p), std::move(a));
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
  static_assert(C != expr_class::invalid,
                "ychart: subtracting a posynomial (or a monomial) from an affine expression is not convex. "
                "Move it to the other side: write `a - p <= b` as `p + b >= a`... that is, `p <= a - b` with "
                "p on the smaller side of an inequality whose larger side is affine.");
  if constexpr (C == expr_class::constant) {
    return Constant<D>(constant_value(l) - constant_value(r));
  } else if constexpr (C == expr_class::mixed) {
    TermList a = affine_part(r);
    a.scale(-1.0);
    TermList all = affine_part(l);
    all.append(a);
    return Mixed<D>(common_owner(owner_of(l), owner_of(r)), posy_part(l), std::move(all));
  } else {
    TermList t = terms_of(std::forward<L>(l));
    TermList neg = terms_of(std::forward<R>(r));
    neg.scale(-1.0);
    t.append(neg);
    return Expr<C, D>(common_owner(owner_of(l), owner_of(r)), std::move(t));
  }
}

template <class T>
  requires detail::symbolic<T>
auto operator-(T&& v) {
  using namespace detail;
  using D = dimension_of<T>;
  constexpr auto C = class_of<T>;
  static_assert(C != expr_class::mixed, "ychart: the negation of a posynomial-plus-affine expression is not convex.");
  if constexpr (C == expr_class::constant) {
    return Constant<D>(-v.value());
  } else {
    constexpr auto R = is_linear_class(C) ? C : expr_class::signomial;
    TermList t = terms_of(std::forward<T>(v));
    t.scale(-1.0);
    return Expr<R, D>(owner_of(v), std::move(t));
  }
}

// ---- * ----
template <class L, class R>
  requires detail::operands<L, R>
auto operator*(L&& l, R&& r) {
  using namespace detail;
  using D = units::dimension_product<dimension_of<L>, dimension_of<R>>;
  constexpr auto C = product_class(class_of<L>, class_of<R>);
  static_assert(C != expr_class::invalid,
                "ychart: the product of an affine expression (integers, reals, tabulated terms) and a variable is "
                "not linear. Multiply affine expressions by constants only; to use an integer n >= 1 as a factor "
                "of a monomial, multiply the variable n itself (n * x), not a sum.");
  if constexpr (C == expr_class::constant) {
    return Constant<D>(constant_value(l) * constant_value(r));
  } else if constexpr (C == expr_class::mixed) {
    constexpr bool left_constant = class_of<L> == expr_class::constant;
    const double c = left_constant ? constant_value(l) : constant_value(r);
    const auto& e = [&]() -> const auto& {
      if constexpr (left_constant) return r;
      else return l;
    }();
    if (!(c >= 0.0) || !std::isfinite(c))
      throw invalid_coefficient("ychart: a posynomial-plus-affine expression can only be scaled by a positive "
                                "finite constant, not " + format_number(c));
    TermList p = e.posynomial(), a = e.affine();
    p.scale(c);
    a.scale(c);
    return Mixed<D>(e.owner(), std::move(p), std::move(a));
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
    TermList t = TermList::product(terms_of(l), terms_of(r));
    if constexpr (class_of<L> == expr_class::discrete || class_of<R> == expr_class::discrete)
      require_positive_terms(t, C, owner);
    return Expr<C, D>(owner, std::move(t));
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
  static_assert(class_of<R> != expr_class::affine && class_of<R> != expr_class::mixed,
                "ychart: dividing by an affine expression (a sum over integers or reals) is not allowed. Divide "
                "by a single integer variable n (values >= 1), a monomial, or a constant.");
  static_assert(!((class_of<L> == expr_class::affine || class_of<L> == expr_class::mixed) &&
                  class_of<R> != expr_class::constant),
                "ychart: an affine expression divided by a variable is not linear. Divide affine expressions by "
                "constants only.");
  using D = units::dimension_quotient<dimension_of<L>, dimension_of<R>>;
  constexpr auto C = quotient_class(class_of<L>, class_of<R>);
  if constexpr (C == expr_class::constant) {
    const double den = constant_value(r);
    if (den == 0.0) throw invalid_coefficient("ychart: division by the constant 0 in `" + text_of(l) + " / 0`");
    return Constant<D>(constant_value(l) / den);
  } else if constexpr (class_of<R> == expr_class::constant) {
    const double den = constant_value(r);
    const bool any_sign = C == expr_class::signomial || is_linear_class(C) || C == expr_class::mixed;
    if (den == 0.0 || !std::isfinite(den) || (!any_sign && !(den > 0.0)) || (C == expr_class::mixed && den < 0))
      throw invalid_coefficient("ychart: dividing the " + std::string(class_name(C)) + " `" + text_of(l) +
                                "` by " + format_number(den) + " needs a " + (any_sign ? "nonzero" : "positive") +
                                " finite divisor");
    if constexpr (C == expr_class::mixed) {
      TermList p = l.posynomial(), a = l.affine();
      p.scale(1.0 / den);
      a.scale(1.0 / den);
      return Mixed<D>(l.owner(), std::move(p), std::move(a));
    } else {
      TermList t = terms_of(std::forward<L>(l));
      t.scale(1.0 / den);
      return Expr<C, D>(owner_of(l), std::move(t));
    }
  } else {
    TermList den = terms_of(r);
    if (den.empty())
      throw invalid_coefficient("ychart: division by a monomial that is zero in `" + text_of(l) + " / (" +
                                text_of(r) + ")`");
    Registry* owner = common_owner(owner_of(l), owner_of(r));
    if constexpr (class_of<R> == expr_class::discrete)
      require_coefficient(den.coefficient(0), expr_class::monomial, text_of(r));
    if constexpr (class_of<L> == expr_class::constant) {
      const double c = constant_value(l);
      require_coefficient(c, C, text_of(l) + " / (" + text_of(r) + ")");
      TermList t = den.power(-1.0);
      t.scale(c);
      return Expr<C, D>(owner, std::move(t));
    } else {
      TermList t = TermList::product(terms_of(l), den.power(-1.0));
      if constexpr (class_of<L> == expr_class::discrete) require_positive_terms(t, C, owner);
      return Expr<C, D>(owner, std::move(t));
    }
  }
}

// ---- comparisons: constraints ----
namespace detail {

/// How `lhs <= rhs` is read: a GP constraint, an affine one, a posynomial
/// bounded by an affine expression (mixed), or not at all.
enum class relation { gp, affine, mixed, invalid };

constexpr relation less_equal_relation(expr_class lhs, expr_class rhs) {
  using E = expr_class;
  const bool lin_l = is_linear_class(lhs) || lhs == E::constant, lin_r = is_linear_class(rhs) || rhs == E::constant;
  if (lhs == E::affine || rhs == E::affine || lhs == E::mixed) {
    if (lin_l && lin_r) return relation::affine;
    if ((is_posy_class(lhs) || lhs == E::mixed) && lin_r) return relation::mixed;
    return relation::invalid;
  }
  if (lhs == E::discrete && rhs == E::discrete) return relation::affine;
  if ((lhs == E::discrete && rhs == E::constant) || (lhs == E::constant && rhs == E::discrete))
    return relation::affine;
  return relation::gp;  // a discrete term next to log-space terms is a monomial
}

constexpr expr_class gp_view(expr_class c) { return c == expr_class::discrete ? expr_class::monomial : c; }

/// The rules for `lhs <= rhs`; a discrete term among GP terms is a monomial.
/// Comparisons that are signomial (a subtraction, a posynomial as the larger
/// side) are not errors here: they build a SignomialConstraint, which only
/// a SignomialModel accepts (Model::subject_to words the error).
template <expr_class L0, expr_class R0, bool Flipped>
constexpr void check_less_equal() {
  // One rule at a time (if constexpr), so a broken model gets one message.
  constexpr auto rel = less_equal_relation(L0, R0);
  constexpr auto Lhs = gp_view(L0), Rhs = gp_view(R0);
  if constexpr (rel == relation::invalid)
    static_assert(L0 != L0,
                  "ychart: an affine expression (integers, reals, tabulated terms) can be bounded above only by "
                  "an affine expression or a constant, and a posynomial-plus-affine expression only by an affine "
                  "expression: `affine <= posynomial` is not convex. Write `posynomial <= affine` or "
                  "`affine <= affine`.");
  else if constexpr (rel != relation::gp)
    return;
  else if constexpr (Lhs == expr_class::constant && Rhs == expr_class::constant)
    static_assert(L0 != L0, "ychart: this inequality compares two constants; a constraint needs a variable.");
}

/// Why `lhs <= rhs` (GP classes) is signomial, or nothing when it is GP.
constexpr int signomial_reason_of(expr_class l0, expr_class r0) {
  const auto l = gp_view(l0), r = gp_view(r0);
  if (less_equal_relation(l0, r0) != relation::gp) return -1;
  if (l == expr_class::signomial || r == expr_class::signomial) return int(SignomialReason::subtraction);
  if (r == expr_class::posynomial && l == expr_class::constant) return int(SignomialReason::lower_bound_on_sum);
  if (r == expr_class::posynomial) return int(SignomialReason::posynomial_upper_bound);
  return -1;
}

template <SignomialReason Why, class L, class R>
SignomialConstraintFor<Why> make_signomial(L&& l, R&& r, Constraint::Sense sense, bool written_reversed) {
  Registry* owner = common_owner(owner_of(l), owner_of(r));
  const char* op = sense == Constraint::Sense::equal ? " == " : written_reversed ? " >= " : " <= ";
  std::string text = written_reversed ? text_of(r) + op + text_of(l) : text_of(l) + op + text_of(r);
  return SignomialConstraintFor<Why>(owner, terms_of(std::forward<L>(l)), terms_of(std::forward<R>(r)), sense,
                                     std::move(text));
}

template <class L, class R>
Constraint make_less_equal(L&& l, R&& r, bool written_reversed) {
  Registry* owner = common_owner(owner_of(l), owner_of(r));
  constexpr auto rel = less_equal_relation(class_of<L>, class_of<R>);
  if constexpr (rel == relation::affine) {
    return Constraint(owner, terms_of(std::forward<L>(l)), terms_of(std::forward<R>(r)),
                      Constraint::Sense::less_equal, written_reversed, Constraint::Form::affine);
  } else if constexpr (rel == relation::mixed) {
    // p + a_l <= a_r  ->  p <= a_r - a_l
    TermList rhs = affine_part(r), moved = affine_part(l);
    moved.scale(-1.0);
    rhs.append(moved);
    return Constraint(owner, posy_part(l), std::move(rhs), Constraint::Sense::less_equal, written_reversed,
                      Constraint::Form::mixed);
  } else {
    if constexpr (class_of<L> == expr_class::constant)
      require_coefficient(constant_value(l), expr_class::posynomial, text_of(l));
    if constexpr (class_of<R> == expr_class::constant)
      require_coefficient(constant_value(r), expr_class::monomial, text_of(r));
    TermList lhs = terms_of(std::forward<L>(l));
    TermList rhs = terms_of(std::forward<R>(r));
    if constexpr (class_of<L> == expr_class::discrete) require_positive_terms(lhs, expr_class::posynomial, owner);
    if constexpr (class_of<R> == expr_class::discrete) require_positive_terms(rhs, expr_class::monomial, owner);
    if (rhs.empty())
      throw invalid_coefficient("ychart: the monomial side of `" + text_of(l) +
                                (written_reversed ? " >= " : " <= ") + text_of(r) +
                                "` is zero; a GP bound must be positive");
    return Constraint(owner, std::move(lhs), std::move(rhs), Constraint::Sense::less_equal, written_reversed);
  }
}

}  // namespace detail

template <class L, class R>
  requires detail::operands<L, R>
auto operator<=(L&& l, R&& r) {
  using namespace detail;
  check_same_dimension<L, R>();
  check_less_equal<class_of<L>, class_of<R>, false>();
  constexpr int why = signomial_reason_of(class_of<L>, class_of<R>);
  if constexpr (why >= 0)
    return make_signomial<SignomialReason(why)>(std::forward<L>(l), std::forward<R>(r), Constraint::Sense::less_equal,
                                                false);
  else
    return make_less_equal(std::forward<L>(l), std::forward<R>(r), false);
}

template <class L, class R>
  requires detail::operands<L, R>
auto operator>=(L&& l, R&& r) {
  using namespace detail;
  check_same_dimension<L, R>();
  check_less_equal<class_of<R>, class_of<L>, true>();
  constexpr int why = signomial_reason_of(class_of<R>, class_of<L>);
  if constexpr (why >= 0)
    return make_signomial<SignomialReason(why)>(std::forward<R>(r), std::forward<L>(l), Constraint::Sense::less_equal,
                                                true);
  else
    return make_less_equal(std::forward<R>(r), std::forward<L>(l), true);
}

template <class L, class R>
  requires detail::operands<L, R>
auto operator==(L&& l, R&& r) {
  using namespace detail;
  check_same_dimension<L, R>();
  constexpr auto cl = class_of<L>, cr = class_of<R>;
  static_assert(!(cl == expr_class::constant && cr == expr_class::constant),
                "ychart: this equality compares two constants; a constraint needs a variable.");
  constexpr bool linear = (is_linear_class(cl) || cl == expr_class::constant) &&
                          (is_linear_class(cr) || cr == expr_class::constant);
  static_assert(cl != expr_class::mixed && cr != expr_class::mixed,
                "ychart: an equality with a posynomial-plus-affine side is not convex. Bound it above instead: "
                "`p + a <= b`.");
  static_assert(linear || (cl != expr_class::affine && cr != expr_class::affine),
                "ychart: an affine expression (integers, reals) can equal only another affine expression or a "
                "constant; equating it with a monomial is not convex.");
  constexpr bool signomial = !linear && (gp_view(cl) == expr_class::signomial || gp_view(cr) == expr_class::signomial ||
                                         gp_view(cl) == expr_class::posynomial || gp_view(cr) == expr_class::posynomial);
  if constexpr (signomial) {
    constexpr auto why = (gp_view(cl) == expr_class::signomial || gp_view(cr) == expr_class::signomial)
                             ? SignomialReason::subtraction
                             : SignomialReason::posynomial_equality;
    return make_signomial<why>(std::forward<L>(l), std::forward<R>(r), Constraint::Sense::equal, false);
  } else {
    Registry* owner = common_owner(owner_of(l), owner_of(r));
    TermList a = terms_of(std::forward<L>(l));
    TermList b = terms_of(std::forward<R>(r));
    if constexpr (linear) {
      return Constraint(owner, std::move(a), std::move(b), Constraint::Sense::equal, false, Constraint::Form::affine);
    } else {
      if (a.empty() || b.empty() || a.coefficient(0) <= 0.0 || b.coefficient(0) <= 0.0 ||
          !std::isfinite(a.coefficient(0)) || !std::isfinite(b.coefficient(0)))
        throw invalid_coefficient("ychart: both sides of the equality `" + to_string(a, owner) + " == " +
                                  to_string(b, owner) + "` must be positive monomials");
      return Constraint(owner, std::move(a), std::move(b), Constraint::Sense::equal, false);
    }
  }
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
template <class E, class D, class S>
  requires detail::symbolic<E>
auto operator*(const E& e, units::unit<D, S> u) {
  return e * Constant<D>(u.factor());
}
template <class E, class D, class S>
  requires detail::symbolic<E>
auto operator*(units::unit<D, S> u, const E& e) {
  return Constant<D>(u.factor()) * e;
}
template <class E, class D, class S>
  requires detail::symbolic<E>
auto operator/(const E& e, units::unit<D, S> u) {
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
