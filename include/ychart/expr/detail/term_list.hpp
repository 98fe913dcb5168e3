// ychart/expr/detail/term_list.hpp
// Flat storage of a sum of terms c_k * prod_j x_j^a_kj. Terms live in three
// arrays (coefficients, term starts, factors) rather than a vector of vectors
// so that building a model allocates little and lowering to a sparse matrix
// is a copy: it already is compressed-row storage.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace ychart::detail {

struct Factor {
  std::uint32_t var;
  double exponent;
  bool operator==(const Factor&) const = default;
};

class TermList {
 public:
  TermList() = default;
  /// The same terms in the same order (an objective left as it was set).
  bool operator==(const TermList&) const = default;
  static TermList constant(double c) {
    TermList t;
    if (c != 0.0) t.push_term(c, {});
    return t;
  }
  static TermList variable(std::uint32_t var, double coefficient) {
    TermList t;
    const Factor f{var, 1.0};
    t.push_term(coefficient, std::span<const Factor>(&f, 1));
    return t;
  }

  std::size_t size() const { return coef_.size(); }
  bool empty() const { return coef_.empty(); }
  double coefficient(std::size_t k) const { return coef_[k]; }
  std::span<const Factor> factors(std::size_t k) const {
    return {factors_.data() + start_[k], factors_.data() + start_[k + 1]};
  }
  std::size_t factor_count() const { return factors_.size(); }

  void reserve(std::size_t terms, std::size_t factors) {
    coef_.reserve(terms);
    start_.reserve(terms + 1);
    factors_.reserve(factors);
  }

  /// Appends a term; `f` must be sorted by variable with no zero exponent.
  void push_term(double c, std::span<const Factor> f) {
    if (c == 0.0) return;  // a term whose coefficient is exactly 0 is dropped
    coef_.push_back(c);
    factors_.insert(factors_.end(), f.begin(), f.end());
    start_.push_back(static_cast<std::uint32_t>(factors_.size()));
  }

  void append(const TermList& o) {
    const auto offset = static_cast<std::uint32_t>(factors_.size());
    coef_.insert(coef_.end(), o.coef_.begin(), o.coef_.end());
    factors_.insert(factors_.end(), o.factors_.begin(), o.factors_.end());
    for (std::size_t k = 1; k < o.start_.size(); ++k) start_.push_back(o.start_[k] + offset);
  }

  void scale(double c) {
    if (c == 0.0) {
      *this = TermList{};
      return;
    }
    for (auto& v : coef_) v *= c;
  }

  /// The product of two sums: every pair of terms, factors merged by variable.
  static TermList product(const TermList& a, const TermList& b) {
    TermList out;
    out.reserve(a.size() * b.size(), a.factor_count() * b.size() + b.factor_count() * a.size());
    std::vector<Factor> merged;
    for (std::size_t i = 0; i < a.size(); ++i)
      for (std::size_t j = 0; j < b.size(); ++j) {
        merge(a.factors(i), b.factors(j), merged);
        out.push_term(a.coef_[i] * b.coef_[j], merged);
      }
    return out;
  }

  /// A single term raised to a real power.
  TermList power(double p) const {
    TermList out;
    if (empty()) return out;
    std::vector<Factor> f(factors(0).begin(), factors(0).end());
    for (auto& x : f) x.exponent *= p;
    std::erase_if(f, [](const Factor& x) { return x.exponent == 0.0; });
    out.push_term(std::pow(coef_[0], p), f);
    return out;
  }

  /// Value of the sum at a point given in the variables' own units.
  template <class Values>
  double evaluate(const Values& x) const {
    double total = 0.0;
    for (std::size_t k = 0; k < size(); ++k) {
      double t = coef_[k];
      for (const auto& f : factors(k)) t *= std::pow(x[f.var], f.exponent);
      total += t;
    }
    return total;
  }

 private:
  static void merge(std::span<const Factor> a, std::span<const Factor> b, std::vector<Factor>& out) {
    out.clear();
    std::size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
      if (j == b.size() || (i < a.size() && a[i].var < b[j].var)) out.push_back(a[i++]);
      else if (i == a.size() || b[j].var < a[i].var) out.push_back(b[j++]);
      else {
        const double e = a[i].exponent + b[j].exponent;
        if (e != 0.0) out.push_back({a[i].var, e});
        ++i, ++j;
      }
    }
  }

  std::vector<double> coef_;
  std::vector<std::uint32_t> start_{0};
  std::vector<Factor> factors_;
};

}  // namespace ychart::detail
