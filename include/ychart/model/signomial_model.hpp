// ychart/model/signomial_model.hpp
// SignomialModel: a Model that also takes signomial constraints, a
// subtraction on either side (`x >= 1 - y`), a posynomial as the larger side
// (`p <= q`), or a posynomial equality (`c_f + c_g == 16`). Such a model is
// not convex; solve() runs sequential GP (solve/signomial/sequential_gp.hpp) and ends
// `local_optimum`, a KKT point with no global claim. When every constraint
// turns out to be GP, it is solved as a GP and can end `optimal`.
//
// The opt-in is the type: a plain Model rejects signomial constraints at
// compile time. A SignomialModel has continuous variables only (positive
// and real); integer(), binary() and choice() do not compile, since
// sequential GP gives no proof at a branch-and-bound node. Solve integer
// versions as a Model with the MIGP engine (an integer split sums exactly:
// `n_f + n_g == 16` is affine).
#pragma once

#include "../expr/signomial_constraint.hpp"
#include "model.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace ychart {

/// Options of sequential GP beyond SolveOptions (which bounds the time and
/// sets the verbosity; its max_iterations bounds each GP's interior-point run).
struct SpOptions {
  int max_iterations = 100;          // GP solves of the main phase
  int max_feasibility_iterations = 50;
  /// Converged when no positive variable moves by more than this in log
  /// space (|log x_new - log x_old|; reals: relative change).
  double step_tolerance = 1e-6;
  /// Also converged when the objective changes by less than this, relative
  /// to its size; 0 (the default) lets the step alone decide, since near
  /// the optimum the objective is flat while the point still moves.
  double objective_tolerance = 0.0;
  /// Trust region: each GP keeps every positive variable within this factor
  /// of its current value, which keeps the condensations good where they
  /// are used. > 1.
  double trust_region = 10.0;
  /// A signomial constraint holds when its sides agree to this relative
  /// tolerance (feasibility of a point, and the feasibility phase's target).
  double feasibility_tolerance = 1e-7;
  /// Once the GP steps converge slowly (three steps running each more than
  /// half the one before) or a step changes the objective by less than
  /// polish_after (relative), solve the exact program with Ipopt in log space from there
  /// (solve/signomial/ipopt_sp.hpp), and keep its point if it is feasible and no
  /// worse; the GP steps then confirm it. Off by default.
  bool polish = false;
  double polish_after = 1e-4;
};

class SignomialModel : private Model {
 public:
  SignomialModel() = default;
  SignomialModel(SignomialModel&&) noexcept = default;
  SignomialModel& operator=(SignomialModel&&) noexcept = default;

  using Model::constraints;
  using Model::has_objective;
  using Model::maximize;
  using Model::minimize;
  using Model::objective;
  using Model::objective_affine;
  using Model::objective_unit;
  using Model::positive;
  using Model::real;
  using Model::registry;
  using Model::Sense;
  using Model::sense;
  using Model::subject_to;
  using Model::variable_count;

  /// A signomial constraint; returns its index among signomial_constraints().
  /// One that is GP after all (a single term on its larger side) is added as
  /// a GP constraint instead, and the index is then that of constraints(),
  /// as Model::subject_to returns it.
  template <detail::SignomialReason Why>
  std::size_t subject_to(SignomialConstraintFor<Why> c, std::string name = {}) {
    return add_signomial(std::move(c), std::move(name));
  }

  template <class... A>
  Discrete<> integer(A&&...) {
    static_assert(sizeof...(A) != sizeof...(A),
                  "ychart: a SignomialModel has continuous variables only: sequential GP proves nothing at a "
                  "branch-and-bound node. Solve the integer version as a ychart::Model (an integer split is "
                  "affine: `n_f + n_g == 16`), or relax the variable to `positive(...)`.");
    return {};
  }
  template <class... A>
  Discrete<> binary(A&&...) {
    static_assert(sizeof...(A) != sizeof...(A),
                  "ychart: a SignomialModel has continuous variables only; solve models with binaries as a "
                  "ychart::Model.");
    return {};
  }
  template <class... A>
  Discrete<> choice(A&&...) {
    static_assert(sizeof...(A) != sizeof...(A),
                  "ychart: a SignomialModel has continuous variables only; solve models with choices as a "
                  "ychart::Model.");
    return {};
  }

  /// Where sequential GP starts: a value (in the variable's unit) for some
  /// variables; the others start from the GP relaxation.
  template <class D>
  void start(const Variable<D>& v, double value) {
    if (v.owner() != &Model::registry())
      throw model_error("ychart: start(): the variable belongs to another model");
    if (!(value > 0) || !std::isfinite(value))
      throw model_error("ychart: start(): a positive variable starts at a positive finite value");
    start_.resize(variable_count(), std::numeric_limits<double>::quiet_NaN());
    start_[v.index()] = value;
  }
  /// Start values by registry index; NaN where none was given.
  const std::vector<double>& start_values() const { return start_; }

  const std::vector<SignomialConstraint>& signomial_constraints() const { return signomial_; }
  /// The GP part: variables, GP constraints and the objective.
  const Model& gp_part() const { return *this; }

  /// Sequential GP; defined in ychart/solve/signomial/sequential_gp.hpp.
  Solution solve(const SolveOptions& options = {}, const SpOptions& sp = {});

 private:
  std::size_t add_signomial(SignomialConstraint c, std::string name) {
    if (c.owner() && c.owner() != &Model::registry())
      throw model_error("ychart: constraint `" + c.to_string() + "` uses variables of another model", c.to_string());
    for (const auto* list : {&c.positive(), &c.negative()})
      for (std::size_t k = 0; k < list->size(); ++k)
        for (const auto& f : list->factors(k))
          if (Model::registry().variables[f.var].kind != detail::VariableKind::positive)
            throw model_error("ychart: signomial constraint `" + c.to_string() + "` uses `" +
                              Model::registry().variables[f.var].name +
                              "`, which is not a positive variable; signomial terms take positive variables only", c.to_string());
    if (c.positive().empty() && c.negative().empty())
      throw model_error("ychart: signomial constraint `" + c.to_string() + "` has no terms", c.to_string());
    if (c.sense() == Constraint::Sense::less_equal) {
      if (c.negative().empty())
        throw model_error("ychart: `" + c.to_string() +
                          "` can never hold: its positive terms are bounded above by nothing (0)", c.to_string());
      if (c.negative().size() == 1 && !c.positive().empty())  // posynomial <= monomial: GP after all
        return Model::subject_to(Constraint(c.owner(), c.positive(), c.negative(), Constraint::Sense::less_equal,
                                            false),
                                 name.empty() ? c.to_string() : std::move(name));
    } else {
      if (c.positive().empty() || c.negative().empty())
        throw model_error("ychart: `" + c.to_string() + "` can never hold: one side of the equality is 0", c.to_string());
      if (c.positive().size() == 1 && c.negative().size() == 1)  // monomial == monomial
        return Model::subject_to(Constraint(c.owner(), c.positive(), c.negative(), Constraint::Sense::equal, false),
                                 name.empty() ? c.to_string() : std::move(name));
    }
    c.set_name(name.empty() ? c.to_string() : std::move(name));
    signomial_.push_back(std::move(c));
    return signomial_.size() - 1;
  }

  std::vector<SignomialConstraint> signomial_;
  std::vector<double> start_;
};

}  // namespace ychart
