// ychart/expr/variable.hpp
// Variable<D>: a cheap, copyable handle (model pointer, index, unit scale)
// to a positive continuous variable of dimension D. Handles are created by
// Model::positive and convert to Monomial<D>. They hash and order by index, so
// they work as keys of std::map, std::set and std::unordered_map.
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

/// `p += x` for a variable x: appends the term x.
template <expr_class C, class D>
  requires(C == expr_class::posynomial || C == expr_class::signomial)
Expr<C, D>& operator+=(Expr<C, D>& e, const Variable<D>& v) {
  return e += v.monomial();
}

namespace detail {
template <class T> struct is_variable : std::false_type {};
template <class D> struct is_variable<Variable<D>> : std::true_type {};
}  // namespace detail

}  // namespace ychart

// `a == b` on variables builds a constraint, so the standard containers get
// identity comparisons through these specialisations instead.
template <class D>
struct std::hash<ychart::Variable<D>> {
  std::size_t operator()(const ychart::Variable<D>& v) const noexcept {
    return std::hash<const void*>{}(v.owner()) ^ (std::size_t(v.index()) * 0x9E3779B97F4A7C15ull);
  }
};
template <class D>
struct std::equal_to<ychart::Variable<D>> {
  bool operator()(const ychart::Variable<D>& a, const ychart::Variable<D>& b) const noexcept {
    return same_variable(a, b);
  }
};
template <class D>
struct std::less<ychart::Variable<D>> {
  bool operator()(const ychart::Variable<D>& a, const ychart::Variable<D>& b) const noexcept {
    return a.owner() != b.owner() ? std::less<const void*>{}(a.owner(), b.owner()) : a.index() < b.index();
  }
};
