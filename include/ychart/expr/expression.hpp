// ychart/expr/expression.hpp
// Expr<Class, Dimension>: a typed expression. Constants hold a value in
// coherent SI units; monomials, posynomials, signomials, affine and discrete
// expressions hold a TermList over the variables of one model (in the
// variables' own units, with the unit scale folded into the coefficients, so
// every expression's value is SI); mixed expressions hold a posynomial part
// and an affine part. Aliases Constant<D>, Monomial<D>, Posynomial<D>,
// Signomial<D>, Affine<D>, Mixed<D>.
#pragma once

#include "../error.hpp"
#include "../units/unit.hpp"
#include "detail/registry.hpp"
#include "detail/term_list.hpp"
#include "expr_class.hpp"

#include <cmath>
#include <string>
#include <type_traits>
#include <utility>

namespace ychart {

template <expr_class C, class D = units::dimensionless>
class Expr;

template <class D = units::dimensionless> using Constant = Expr<expr_class::constant, D>;
template <class D = units::dimensionless> using Monomial = Expr<expr_class::monomial, D>;
template <class D = units::dimensionless> using Posynomial = Expr<expr_class::posynomial, D>;
template <class D = units::dimensionless> using Signomial = Expr<expr_class::signomial, D>;
template <class D = units::dimensionless> using Affine = Expr<expr_class::affine, D>;
template <class D = units::dimensionless> using Mixed = Expr<expr_class::mixed, D>;

namespace detail {

/// A constant that enters a monomial or posynomial as a coefficient must be
/// finite and not negative (0 drops the term); signomials and the linear
/// classes take any finite sign.
inline void require_coefficient(double c, expr_class result, const std::string& expression) {
  if (!std::isfinite(c))
    throw invalid_coefficient("ychart: coefficient " + format_number(c) + " in `" + expression +
                              "` must be finite");
  if (result == expr_class::signomial || is_linear_class(result) || result == expr_class::mixed) return;
  if (!(c >= 0.0))
    throw invalid_coefficient("ychart: coefficient " + format_number(c) + " in the " + class_name(result) + " `" +
                              expression + "` must be positive and finite");
}

}  // namespace detail

/// A constant with a dimension; its value is in coherent SI units.
template <class D>
class Expr<expr_class::constant, D> {
 public:
  using dimension = D;
  static constexpr expr_class class_value = expr_class::constant;

  constexpr Expr() = default;
  // The parameter is not named si_value: glibc's <csignal> defines that as a macro.
  constexpr explicit Expr(double value_in_si_units) : value_(value_in_si_units) {}

  /// Value in coherent SI units (s, B, J, Hz, W ...).
  constexpr double value() const { return value_; }
  /// Value expressed in the given unit of the same dimension.
  template <class U>
  constexpr double in(U) const {
    static_assert(std::is_same_v<typename U::dimension, D>,
                  "ychart: Constant::in(unit): the unit has a different dimension than the constant");
    return value_ / U::factor();
  }

  detail::TermList terms() const { return detail::TermList::constant(value_); }
  detail::Registry* owner() const { return nullptr; }

 private:
  double value_ = 0.0;
};

/// A monomial, posynomial or signomial over the variables of one model.
template <expr_class C, class D>
class Expr {
 public:
  using dimension = D;
  static constexpr expr_class class_value = C;

  Expr() = default;
  Expr(detail::Registry* owner, detail::TermList terms) : owner_(owner), terms_(std::move(terms)) {}

  /// A lower class converts implicitly to a higher one of the same dimension
  /// (a monomial is a posynomial, a constant is a monomial, c * n is both a
  /// monomial and an affine term).
  template <expr_class C2>
    requires(detail::converts(C2, C) && C2 != expr_class::constant)
  Expr(const Expr<C2, D>& e) : owner_(e.owner()), terms_(e.terms()) {
    if constexpr (C2 == expr_class::discrete && detail::is_gp_class(C) && C != expr_class::signomial)
      if (!terms_.empty()) detail::require_coefficient(terms_.coefficient(0), C, to_string());
  }
  template <expr_class C2>
    requires(C2 == expr_class::constant && detail::converts(C2, C))
  Expr(const Expr<C2, D>& e) : owner_(nullptr), terms_(detail::TermList::constant(e.value())) {
    detail::require_coefficient(e.value(), C, detail::format_number(e.value()));  // 0 is the empty sum
  }

  const detail::TermList& terms() const& { return terms_; }
  detail::TermList&& terms() && { return std::move(terms_); }
  detail::Registry* owner() const { return owner_; }

  /// Appends terms in place: the fast path that sum() uses.
  template <expr_class C2>
    requires(detail::sum_class(C, C2) == C)
  Expr& operator+=(const Expr<C2, D>& e);

  std::string to_string() const { return detail::to_string(terms_, owner_); }

 private:
  detail::Registry* owner_ = nullptr;
  detail::TermList terms_;
};

/// A posynomial plus an affine part: p(x) + a(n, r). Convex in the log-space
/// variables and the linear ones together, so it may be minimised or bounded
/// above by an affine expression.
template <class D>
class Expr<expr_class::mixed, D> {
 public:
  using dimension = D;
  static constexpr expr_class class_value = expr_class::mixed;

  Expr() = default;
  Expr(detail::Registry* owner, detail::TermList posynomial, detail::TermList affine)
      : owner_(owner), posynomial_(std::move(posynomial)), affine_(std::move(affine)) {}
  template <expr_class C2>
    requires(detail::converts(C2, expr_class::mixed))
  Expr(const Expr<C2, D>& e) : owner_(e.owner()) {
    if constexpr (detail::is_posy_class(C2)) posynomial_ = e.terms();
    else affine_ = e.terms();
  }

  const detail::TermList& posynomial() const { return posynomial_; }
  const detail::TermList& affine() const { return affine_; }
  detail::TermList& posynomial() { return posynomial_; }
  detail::TermList& affine() { return affine_; }
  detail::Registry* owner() const { return owner_; }

  std::string to_string() const {
    std::string a = detail::to_string(affine_, owner_);
    if (affine_.empty()) return detail::to_string(posynomial_, owner_);
    if (!a.empty() && a[0] == '-') return detail::to_string(posynomial_, owner_) + " - " + a.substr(1);
    return detail::to_string(posynomial_, owner_) + " + " + a;
  }

 private:
  detail::Registry* owner_ = nullptr;
  detail::TermList posynomial_, affine_;
};

namespace detail {

template <class T> struct is_expr : std::false_type {};
template <expr_class C, class D> struct is_expr<Expr<C, D>> : std::true_type {};

inline Registry* common_owner(Registry* a, Registry* b) {
  if (a && b && a != b)
    throw model_error("ychart: an expression combines variables of two different models");
  return a ? a : b;
}


}  // namespace detail

template <expr_class C, class D>
template <expr_class C2>
  requires(detail::sum_class(C, C2) == C)
Expr<C, D>& Expr<C, D>::operator+=(const Expr<C2, D>& e) {
  if constexpr (C2 == expr_class::constant) {
    detail::require_coefficient(e.value(), C, to_string() + " + " + detail::format_number(e.value()));
    terms_.append(detail::TermList::constant(e.value()));
  } else {
    owner_ = detail::common_owner(owner_, e.owner());
    terms_.append(e.terms());
  }
  return *this;
}

}  // namespace ychart
