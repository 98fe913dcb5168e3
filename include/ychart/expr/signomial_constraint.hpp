// ychart/expr/signomial_constraint.hpp
// SignomialConstraint: what a comparison builds when it is not a GP
// constraint but a signomial one: a subtraction on either side (`x >= 1 - y`),
// a posynomial as the larger side (`p <= q`, `1 <= x + y`), or an equality
// with a posynomial side (`c_f + c_g == 16`). Only a SignomialModel accepts
// it; a Model rejects it at compile time with the rule it breaks (the
// `Reason` in its type picks the message).
//
// It is stored normalised as `positive <= negative` (or `==`): every term
// with a positive sign on the smaller side, every term subtracted from it on
// the larger, so that both lists are posynomials with positive coefficients.
#pragma once

#include "constraint.hpp"
#include "detail/registry.hpp"
#include "detail/term_list.hpp"

#include <string>
#include <utility>

namespace ychart {

namespace detail {
/// Why a comparison is signomial; Model::subject_to words its error by it.
enum class SignomialReason { subtraction, posynomial_upper_bound, lower_bound_on_sum, posynomial_equality };
}  // namespace detail

class SignomialConstraint {
 public:
  using Sense = Constraint::Sense;

  /// `smaller <= larger` (or `==`) as written, both sides any signs.
  SignomialConstraint(detail::Registry* owner, const detail::TermList& smaller, const detail::TermList& larger,
                      Sense sense, std::string text)
      : owner_(owner), sense_(sense), text_(std::move(text)) {
    for (int side = 0; side < 2; ++side) {
      const auto& t = side == 0 ? smaller : larger;
      for (std::size_t k = 0; k < t.size(); ++k) {
        const double c = side == 0 ? t.coefficient(k) : -t.coefficient(k);
        if (c > 0) positive_.push_term(c, t.factors(k));
        else if (c < 0) negative_.push_term(-c, t.factors(k));
      }
    }
  }

  /// The terms with a positive sign: `positive <= negative` (or `==`).
  const detail::TermList& positive() const { return positive_; }
  const detail::TermList& negative() const { return negative_; }
  Sense sense() const { return sense_; }
  detail::Registry* owner() const { return owner_; }
  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }
  /// The constraint as the user wrote it.
  const std::string& to_string() const { return text_; }

 private:
  detail::Registry* owner_;
  detail::TermList positive_, negative_;
  Sense sense_;
  std::string text_;
  std::string name_;
};

/// A signomial constraint that remembers, in its type, why it is not GP.
template <detail::SignomialReason Why>
class SignomialConstraintFor : public SignomialConstraint {
 public:
  using SignomialConstraint::SignomialConstraint;
  static constexpr detail::SignomialReason reason = Why;
};

}  // namespace ychart
