// ychart/model/model.hpp
// Model: variables, constraints and an objective. Variables come from
// positive(); constraints from subject_to(); the objective from minimize()
// (a posynomial) or maximize() (a monomial). solve() is declared here and
// defined in ychart/solve/solve.hpp, which the umbrella header includes.
#pragma once

#include "../expr/constraint.hpp"
#include "../expr/detail/registry.hpp"
#include "../expr/functions.hpp"
#include "../expr/operators.hpp"
#include "../expr/variable.hpp"
#include "status.hpp"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace ychart {

class Solution;
namespace detail {
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
                        detail::format_number(upper) + "]; positive variables need 0 <= lower <= upper, upper > 0");
    const auto index = registry_->add({std::move(name), units::symbol(u), lower, upper, u.factor(), false});
    return Variable<D>(registry_.get(), index, u.factor());
  }

  /// Adds a constraint and returns its index (the same index the Solution uses).
  std::size_t subject_to(Constraint c) {
    if (c.owner() && c.owner() != registry_.get())
      throw model_error("ychart: constraint `" + c.to_string() + "` uses variables of another model");
    constraints_.push_back(std::move(c));
    return constraints_.size() - 1;
  }
  std::size_t subject_to(Constraint c, std::string name) { return subject_to(std::move(c).named(std::move(name))); }

  template <class T>
    requires detail::operand<T>
  void minimize(const T& objective) {
    using namespace detail;
    static_assert(class_of<T> != expr_class::signomial,
                  "ychart: a signomial objective (one with a subtraction) is not a GP objective. Minimise a "
                  "posynomial; to minimise x - y, minimise x / y or move y into a constraint.");
    static_assert(class_of<T> != expr_class::constant, "ychart: the objective is a constant; it needs a variable.");
    set_objective(terms_of(objective), owner_of(objective), Sense::minimize, units::symbol(dimension_of<T>{}));
  }

  template <class T>
    requires detail::operand<T>
  void maximize(const T& objective) {
    using namespace detail;
    static_assert(class_of<T> != expr_class::posynomial && class_of<T> != expr_class::signomial,
                  "ychart: maximize() takes a monomial (a single term). Maximising a posynomial is not a GP; "
                  "maximise a monomial such as a single variable t, bounded by `t <= monomial` constraints, or "
                  "minimise a posynomial instead.");
    static_assert(class_of<T> != expr_class::constant, "ychart: the objective is a constant; it needs a variable.");
    set_objective(terms_of(objective), owner_of(objective), Sense::maximize, units::symbol(dimension_of<T>{}));
  }

  /// Solves the model; defined in ychart/solve/solve.hpp.
  Solution solve(const SolveOptions& options = {});

  const detail::Registry& registry() const { return *registry_; }
  const std::vector<Constraint>& constraints() const { return constraints_; }
  const detail::TermList& objective() const { return objective_; }
  Sense sense() const { return sense_; }
  const std::string& objective_unit() const { return objective_unit_; }
  bool has_objective() const { return has_objective_; }
  std::size_t variable_count() const { return registry_->variables.size(); }

 private:
  void set_objective(detail::TermList t, detail::Registry* owner, Sense sense, std::string unit) {
    if (owner && owner != registry_.get())
      throw model_error("ychart: the objective uses variables of another model");
    if (t.empty()) throw model_error("ychart: the objective is zero; it needs a term with a variable");
    objective_ = std::move(t);
    sense_ = sense;
    objective_unit_ = std::move(unit);
    has_objective_ = true;
  }

  std::unique_ptr<detail::Registry> registry_;
  std::vector<Constraint> constraints_;
  detail::TermList objective_;
  Sense sense_ = Sense::minimize;
  std::string objective_unit_;
  bool has_objective_ = false;
  std::unique_ptr<detail::SolverCache, detail::SolverCacheDeleter> cache_;  // Ipopt, reused between solves
};

}  // namespace ychart
