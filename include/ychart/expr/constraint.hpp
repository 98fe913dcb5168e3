// ychart/expr/constraint.hpp
// Constraint: what the comparisons build. Three forms:
//   gp:     `posynomial <= monomial`, `monomial >= posynomial`,
//           `monomial == monomial` (log space);
//   affine: `affine <= affine`, `==`, `>=` over integers, reals and
//           tabulated terms, any signs (linear space);
//   mixed:  `posynomial <= affine` (convex in both spaces together).
// It is stored normalised (smaller side, larger side) and remembers which
// side the user wrote on the right, so sensitivities can be reported against
// the right-hand side as written.
#pragma once

#include "detail/registry.hpp"
#include "detail/term_list.hpp"

#include <cstdint>
#include <map>
#include <string>

namespace ychart {

class Constraint {
 public:
  enum class Sense { less_equal, equal };
  enum class Form { gp, affine, mixed };

  Constraint(detail::Registry* owner, detail::TermList posynomial, detail::TermList monomial, Sense sense,
             bool written_reversed, Form form = Form::gp)
      : owner_(owner),
        posynomial_(std::move(posynomial)),
        monomial_(std::move(monomial)),
        sense_(sense),
        written_reversed_(written_reversed),
        form_(form) {}

  /// Gives the constraint a name used in solution tables and reports.
  Constraint&& named(std::string name) && {
    name_ = std::move(name);
    return std::move(*this);
  }
  Constraint& named(std::string name) & {
    name_ = std::move(name);
    return *this;
  }

  const std::string& name() const { return name_; }
  Sense sense() const { return sense_; }
  /// True when the user wrote the monomial on the left (`m >= p`, `m == ...`
  /// counts as not reversed): the right-hand side as written is the posynomial.
  bool written_reversed() const { return written_reversed_; }
  Form form() const { return form_; }
  /// The smaller side: a posynomial (gp, mixed) or an affine expression.
  const detail::TermList& posynomial() const { return posynomial_; }
  /// The larger side: a monomial (gp) or an affine expression (affine, mixed).
  const detail::TermList& monomial() const { return monomial_; }
  const detail::TermList& smaller() const { return posynomial_; }
  const detail::TermList& larger() const { return monomial_; }
  detail::Registry* owner() const { return owner_; }

  /// An affine constraint as one row: smaller - larger, with a coefficient
  /// per variable (repeated variables merged, zeros dropped) and a constant,
  /// so that it reads `sum coef * x + constant <= 0` (or `== 0`).
  struct NetAffine {
    std::map<std::uint32_t, double> coef;
    double constant = 0.0;
  };
  NetAffine net_affine() const {
    NetAffine net;
    for (int side = 0; side < 2; ++side) {
      const auto& t = side == 0 ? posynomial_ : monomial_;
      const double sign = side == 0 ? 1.0 : -1.0;
      for (std::size_t k = 0; k < t.size(); ++k) {
        const auto f = t.factors(k);
        if (f.empty()) net.constant += sign * t.coefficient(k);
        else net.coef[f[0].var] += sign * t.coefficient(k);
      }
    }
    std::erase_if(net.coef, [](const auto& kv) { return kv.second == 0.0; });
    return net;
  }

  std::string to_string() const {
    const auto p = detail::to_string(posynomial_, owner_);
    const auto m = detail::to_string(monomial_, owner_);
    if (sense_ == Sense::equal) return written_reversed_ ? m + " == " + p : p + " == " + m;
    return written_reversed_ ? m + " >= " + p : p + " <= " + m;
  }

 private:
  detail::Registry* owner_;
  detail::TermList posynomial_;
  detail::TermList monomial_;
  Sense sense_;
  bool written_reversed_;
  Form form_;
  std::string name_;
};

}  // namespace ychart
