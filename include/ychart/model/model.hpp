// ychart/model/model.hpp
// Model: variables, constraints and an objective. Variables come from
// positive() (continuous, log space), integer(), binary(), choice() (discrete)
// and real() (continuous, linear space); constraints from subject_to(); the
// objective from minimize() (a posynomial, an affine expression, or their
// sum) or maximize() (a monomial or an affine expression). solve() is
// declared here and defined in ychart/solve/solve.hpp, which the umbrella
// header includes.
#pragma once

#include "../expr/constraint.hpp"
#include "../expr/signomial_constraint.hpp"
#include "../expr/detail/registry.hpp"
#include "../expr/functions.hpp"
#include "../expr/operators.hpp"
#include "../expr/variable.hpp"
#include "status.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace ychart {

class Solution;
namespace detail {
struct ModelEditor;  // lets solvers build derived models (solve/)
struct SolverCache;  // solver state reused between solves (defined in solve/)
void destroy(SolverCache*);
struct SolverCacheDeleter {
  void operator()(SolverCache* c) const { destroy(c); }
};
}  // namespace detail

class Model {
 public:
  enum class Sense { minimize, maximize };

  Model() : registry_(std::make_unique<detail::Registry>()) {}
  Model(Model&&) noexcept = default;
  Model& operator=(Model&&) noexcept = default;

  /// A positive continuous dimensionless variable, optionally bounded.
  Variable<> positive(std::string name, double lower = 0.0,
                      double upper = std::numeric_limits<double>::infinity()) {
    return positive(std::move(name), units::one, lower, upper);
  }

  /// A positive continuous variable in the given unit; bounds are in that unit
  /// and so are the values the Solution reports.
  template <class D, class S>
  Variable<D> positive(std::string name, units::unit<D, S> u, double lower = 0.0,
                       double upper = std::numeric_limits<double>::infinity()) {
    if (!(lower >= 0.0) || !(upper > 0.0) || lower > upper || std::isnan(upper))
      throw model_error("ychart: variable `" + name + "` has bounds [" + detail::format_number(lower) + ", " +
                        detail::format_number(upper) + "]; positive variables need 0 <= lower <= upper, upper > 0", name);
    const auto index = registry_->add(
        detail::make_record(std::move(name), units::symbol(u), lower, upper, u.factor(), detail::VariableKind::positive));
    return Variable<D>(registry_.get(), index, u.factor());
  }

  /// An integer variable taking every integer value in [lower, upper].
  Discrete<> integer(std::string name, double lower, double upper) {
    if (!std::isfinite(lower) || !std::isfinite(upper) || std::ceil(lower) > std::floor(upper))
      throw model_error("ychart: integer variable `" + name + "` has bounds [" + detail::format_number(lower) +
                        ", " + detail::format_number(upper) + "]; it needs finite bounds with an integer between", name);
    auto r = detail::make_record(std::move(name), "", std::ceil(lower), std::floor(upper), 1.0,
                                 detail::VariableKind::discrete);
    const auto index = registry_->add(std::move(r));
    return Discrete<>(registry_.get(), index, 1.0);
  }
  /// A 0/1 variable.
  Discrete<> binary(std::string name) { return integer(std::move(name), 0, 1); }

  /// A variable taking one value of a finite set (dimensionless, or in a unit:
  /// `choice("f", units::MHz, {100, 200, 250})`).
  Discrete<> choice(std::string name, std::vector<double> values) {
    return choice(std::move(name), units::one, std::move(values));
  }
  template <class D, class S>
  Discrete<D> choice(std::string name, units::unit<D, S> u, std::vector<double> values) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    if (values.empty()) throw model_error("ychart: choice variable `" + name + "` has no values", name);
    for (double v : values)
      if (!std::isfinite(v)) throw model_error("ychart: choice variable `" + name + "` has a value that is not finite", name);
    auto r = detail::make_record(std::move(name), units::symbol(u), values.front(), values.back(), u.factor(),
                                 detail::VariableKind::discrete);
    r.values = std::move(values);
    const auto index = registry_->add(std::move(r));
    return Discrete<D>(registry_.get(), index, u.factor());
  }

  /// A continuous variable of any sign in linear space, for affine
  /// expressions only (never in a monomial). Bounds may be infinite.
  Real<> real(std::string name, double lower = -std::numeric_limits<double>::infinity(),
              double upper = std::numeric_limits<double>::infinity()) {
    return real(std::move(name), units::one, lower, upper);
  }
  template <class D, class S>
  Real<D> real(std::string name, units::unit<D, S> u, double lower = -std::numeric_limits<double>::infinity(),
               double upper = std::numeric_limits<double>::infinity()) {
    if (std::isnan(lower) || std::isnan(upper) || lower > upper || lower == std::numeric_limits<double>::infinity() ||
        upper == -std::numeric_limits<double>::infinity())
      throw model_error("ychart: real variable `" + name + "` has bounds [" + detail::format_number(lower) + ", " +
                        detail::format_number(upper) + "]", name);
    auto r = detail::make_record(std::move(name), units::symbol(u), lower, upper, u.factor(),
                                 detail::VariableKind::real);
    const auto index = registry_->add(std::move(r));
    return Real<D>(registry_.get(), index, u.factor());
  }

  /// Declares that the groups of discrete variables are interchangeable:
  /// swapping any two groups element by element (with the tabulated terms of
  /// their variables) maps the model onto itself, as the CU counts of
  /// identical devices do. The solver checks the claim (a model_error names a
  /// constraint that breaks it) and uses it to search allocations up to
  /// permutation of the groups instead of all of them.
  template <class D>
  void interchangeable(const std::vector<std::vector<Discrete<D>>>& groups) {
    std::vector<std::vector<std::uint32_t>> g;
    for (const auto& group : groups) {
      if (!groups.empty() && group.size() != groups.front().size())
        throw model_error("ychart: interchangeable(): the groups must have the same size");
      auto& out = g.emplace_back();
      for (const auto& v : group) {
        if (v.owner() != registry_.get())
          throw model_error("ychart: interchangeable(): a variable belongs to another model");
        out.push_back(v.index());
      }
    }
    if (g.size() >= 2) symmetries_.push_back(std::move(g));
  }
  /// The declared interchangeable groups (registry indices).
  const std::vector<std::vector<std::vector<std::uint32_t>>>& symmetries() const { return symmetries_; }

  friend struct detail::ModelEditor;

  /// Adds a constraint and returns its index (the same index the Solution uses).
  std::size_t subject_to(Constraint c) {
    if (c.owner() && c.owner() != registry_.get())
      throw model_error("ychart: constraint `" + c.to_string() + "` uses variables of another model", c.to_string());
    constraints_.push_back(std::move(c));
    return constraints_.size() - 1;
  }
  std::size_t subject_to(Constraint c, std::string name) { return subject_to(std::move(c).named(std::move(name))); }

  /// A signomial constraint is not GP: a Model rejects it at compile time,
  /// saying which rule it breaks; a SignomialModel accepts it.
  template <detail::SignomialReason Why>
  std::size_t subject_to(SignomialConstraintFor<Why>, std::string = {}) {
    using R = detail::SignomialReason;
    if constexpr (Why == R::subtraction)
      static_assert(Why != Why,
                    "ychart: a signomial (an expression with a subtraction) cannot appear in a GP constraint. "
                    "Move the subtracted terms to the other side: write `x - y <= z` as `x <= y + z`; or declare "
                    "the model as `ychart::SignomialModel` to solve it by sequential GP (a local optimum).");
    else if constexpr (Why == R::lower_bound_on_sum)
      static_assert(Why != Why,
                    "ychart: `posynomial >= constant` (or `constant <= posynomial`) is not a GP constraint: a lower "
                    "bound on a sum is not log-log convex. Bound a monomial from below instead "
                    "(`monomial >= constant`), or state an upper bound (`posynomial <= monomial`); or declare the "
                    "model as `ychart::SignomialModel` to solve it by sequential GP (a local optimum).");
    else if constexpr (Why == R::posynomial_upper_bound)
      static_assert(Why != Why,
                    "ychart: the larger side of an inequality must be a monomial (a single term): write "
                    "`posynomial <= monomial` or `monomial >= posynomial`. `posynomial <= posynomial` is not GP; "
                    "introduce a variable t with `p1 <= t` and `t <= ...` only where t is a monomial bound; or "
                    "declare the model as `ychart::SignomialModel` to solve it by sequential GP (a local optimum).");
    else
      static_assert(Why != Why,
                    "ychart: `posynomial == posynomial` is not a GP constraint: equality is allowed only between "
                    "monomials (single terms). If the constraint is tight at the optimum write `posynomial <= "
                    "monomial`; otherwise introduce a variable for the sum; or declare the model as "
                    "`ychart::SignomialModel` to solve the equality by sequential GP (a local optimum).");
    return 0;
  }

  template <class T>
    requires detail::operand<T>
  void minimize(const T& objective) {
    using namespace detail;
    static_assert(class_of<T> != expr_class::signomial,
                  "ychart: a signomial objective (one with a subtraction) is not a GP objective. Minimise a "
                  "posynomial; to minimise x - y, minimise x / y or move y into a constraint.");
    static_assert(class_of<T> != expr_class::constant, "ychart: the objective is a constant; it needs a variable.");
    set_objective(posy_part(objective), affine_part(objective), owner_of(objective), Sense::minimize,
                  units::symbol(dimension_of<T>{}));
  }

  template <class T>
    requires detail::operand<T>
  void maximize(const T& objective) {
    using namespace detail;
    static_assert(class_of<T> != expr_class::posynomial && class_of<T> != expr_class::signomial &&
                      class_of<T> != expr_class::mixed,
                  "ychart: maximize() takes a monomial (a single term) or an affine expression. Maximising a "
                  "posynomial is not a GP; maximise a monomial such as a single variable t, bounded by "
                  "`t <= monomial` constraints, or minimise a posynomial instead.");
    static_assert(class_of<T> != expr_class::constant, "ychart: the objective is a constant; it needs a variable.");
    set_objective(posy_part(objective), affine_part(objective), owner_of(objective), Sense::maximize,
                  units::symbol(dimension_of<T>{}));
  }

  /// Solves the model; defined in ychart/solve/solve.hpp.
  Solution solve(const SolveOptions& options = {});

  const detail::Registry& registry() const { return *registry_; }
  const std::vector<Constraint>& constraints() const { return constraints_; }
  /// The objective's log-space part (a posynomial, or a monomial when
  /// maximised); empty when the objective is affine.
  const detail::TermList& objective() const { return objective_; }
  /// The objective's linear-space part (affine; empty for a GP objective).
  const detail::TermList& objective_affine() const { return objective_affine_; }
  Sense sense() const { return sense_; }
  const std::string& objective_unit() const { return objective_unit_; }
  bool has_objective() const { return has_objective_; }
  std::size_t variable_count() const { return registry_->variables.size(); }

 private:
  void set_objective(detail::TermList t, detail::TermList affine, detail::Registry* owner, Sense sense,
                     std::string unit) {
    if (owner && owner != registry_.get())
      throw model_error("ychart: the objective uses variables of another model");
    if (t.empty() && affine.empty())
      throw model_error("ychart: the objective is zero; it needs a term with a variable");
    objective_ = std::move(t);
    objective_affine_ = std::move(affine);
    sense_ = sense;
    objective_unit_ = std::move(unit);
    has_objective_ = true;
  }

  std::unique_ptr<detail::Registry> registry_;
  std::vector<Constraint> constraints_;
  detail::TermList objective_, objective_affine_;
  std::vector<std::vector<std::vector<std::uint32_t>>> symmetries_;
  Sense sense_ = Sense::minimize;
  std::string objective_unit_;
  bool has_objective_ = false;
  std::unique_ptr<detail::SolverCache, detail::SolverCacheDeleter> cache_;  // Ipopt, reused between solves
};

}  // namespace ychart
