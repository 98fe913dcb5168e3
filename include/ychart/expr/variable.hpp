// ychart/expr/variable.hpp
// Variable handles: cheap, copyable values (model pointer, index, unit
// scale). Variable<D> is a positive continuous variable (Model::positive),
// which converts to Monomial<D>; Discrete<D> an integer, binary or choice
// (Model::integer/binary/choice), usable in affine expressions and, when its
// values are >= 1, in monomials; Real<D> a continuous variable of any sign in
// linear space (Model::real), usable in affine expressions only. Handles hash
// and order by index, so they work as keys of std::map, std::set and
// std::unordered_map.
#pragma once

#include "expression.hpp"

#include <cstdint>
#include <functional>

namespace ychart {

template <class D = units::dimensionless>
class Variable {
 public:
  using dimension = D;
  static constexpr expr_class class_value = expr_class::monomial;

  Variable() = default;
  Variable(detail::Registry* owner, std::uint32_t index, double si_scale)
      : owner_(owner), index_(index), si_scale_(si_scale) {}

  std::uint32_t index() const { return index_; }
  detail::Registry* owner() const { return owner_; }
  double si_scale() const { return si_scale_; }
  const std::string& name() const { return owner_->variables.at(index_).name; }

  Monomial<D> monomial() const { return {owner_, detail::TermList::variable(index_, si_scale_)}; }
  operator Monomial<D>() const { return monomial(); }
  operator Posynomial<D>() const { return monomial(); }
  detail::TermList terms() const { return detail::TermList::variable(index_, si_scale_); }

  friend bool same_variable(const Variable& a, const Variable& b) {
    return a.owner_ == b.owner_ && a.index_ == b.index_;
  }

 private:
  detail::Registry* owner_ = nullptr;
  std::uint32_t index_ = 0;
  double si_scale_ = 1.0;
};

/// The handle shared by discrete and real variables.
template <expr_class Class, class D>
class LinearHandle {
 public:
  using dimension = D;
  static constexpr expr_class class_value = Class;

  LinearHandle() = default;
  LinearHandle(detail::Registry* owner, std::uint32_t index, double si_scale)
      : owner_(owner), index_(index), si_scale_(si_scale) {}

  std::uint32_t index() const { return index_; }
  detail::Registry* owner() const { return owner_; }
  double si_scale() const { return si_scale_; }
  const std::string& name() const { return owner_->variables.at(index_).name; }
  detail::TermList terms() const { return detail::TermList::variable(index_, si_scale_); }
  Expr<Class, D> expr() const { return {owner_, terms()}; }
  operator Expr<Class, D>() const { return expr(); }
  operator Affine<D>() const
    requires(Class != expr_class::affine)
  {
    return {owner_, terms()};
  }

  friend bool same_variable(const LinearHandle& a, const LinearHandle& b) {
    return a.owner_ == b.owner_ && a.index_ == b.index_;
  }

 private:
  detail::Registry* owner_ = nullptr;
  std::uint32_t index_ = 0;
  double si_scale_ = 1.0;
};

/// An integer, binary or choice variable: one value of a finite set.
template <class D = units::dimensionless>
class Discrete : public LinearHandle<expr_class::discrete, D> {
 public:
  using LinearHandle<expr_class::discrete, D>::LinearHandle;
  /// As a factor of monomials (its values must be >= 1 if it appears in one).
  Monomial<D> monomial() const { return {this->owner(), this->terms()}; }
  operator Monomial<D>() const { return monomial(); }
  operator Posynomial<D>() const { return monomial(); }
};
/// A continuous variable of any sign, in linear space (affine uses only).
template <class D = units::dimensionless>
class Real : public LinearHandle<expr_class::affine, D> {
 public:
  using LinearHandle<expr_class::affine, D>::LinearHandle;
};

/// `a += x` for an affine a and a discrete or real variable x.
template <class D, expr_class C2>
Affine<D>& operator+=(Affine<D>& e, const LinearHandle<C2, D>& v) {
  return e += Affine<D>(v.owner(), v.terms());
}

/// `p += x` for a variable x: appends the term x.
template <expr_class C, class D>
  requires(C == expr_class::posynomial || C == expr_class::signomial)
Expr<C, D>& operator+=(Expr<C, D>& e, const Variable<D>& v) {
  return e += v.monomial();
}

namespace detail {
template <class T> struct is_variable : std::false_type {};
template <class D> struct is_variable<Variable<D>> : std::true_type {};
template <class D> struct is_variable<Discrete<D>> : std::true_type {};
template <class D> struct is_variable<Real<D>> : std::true_type {};
}  // namespace detail

}  // namespace ychart

// `a == b` on variables builds a constraint, so the standard containers get
// identity comparisons through these specialisations instead, one set for
// every kind of handle (Variable, Discrete, Real).
template <class H>
  requires ychart::detail::is_variable<H>::value
struct std::hash<H> {
  std::size_t operator()(const H& v) const noexcept {
    return std::hash<const void*>{}(v.owner()) ^ (std::size_t(v.index()) * 0x9E3779B97F4A7C15ull);
  }
};
template <class H>
  requires ychart::detail::is_variable<H>::value
struct std::equal_to<H> {
  bool operator()(const H& a, const H& b) const noexcept { return a.owner() == b.owner() && a.index() == b.index(); }
};
template <class H>
  requires ychart::detail::is_variable<H>::value
struct std::less<H> {
  bool operator()(const H& a, const H& b) const noexcept {
    return a.owner() != b.owner() ? std::less<const void*>{}(a.owner(), b.owner()) : a.index() < b.index();
  }
};
