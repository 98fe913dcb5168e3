// ychart/result/solution.hpp
// Solution: what a solve returns. Status, objective, values in each
// variable's own unit, solve time, and per-constraint reports: sensitivity
// (d log objective / d log right-hand side as written; GPs only), whether it
// is tight, and for an infeasible model by how much it must be relaxed.
// Mixed-integer solves add the proven bound, the gap and the node count; a
// search stopped by a limit keeps its incumbent. Prints as a table with
// operator<< and writes JSON.
#pragma once

#include "../model/tolerances.hpp"
#include "../expr/expression.hpp"
#include "../expr/variable.hpp"
#include "../model/status.hpp"

#include <cmath>
#include <cstdio>
#include <iomanip>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace ychart::solve::mixed_integer::detail {
struct CutPool;  // tangent cuts learnt by outer approximation (solve/mixed_integer/migp_context.hpp)
}

namespace ychart {

namespace detail {
/// A GP solve's log-space primal-dual point, kept for warm starts of related models.
struct GpPoint {
  std::vector<double> y, lambda, z_lower, z_upper;
};
}

struct VariableReport {
  std::string name;
  std::string unit;
  double value = std::nan("");
  bool auxiliary = false;
};

struct ConstraintReport {
  std::string name;            // the user's name, or "c<index>"
  std::string text;            // the constraint as written
  double sensitivity = 0.0;    // d log(objective*) / d log(right-hand side as written); NaN for mixed-integer
  bool tight = false;          // holds with equality at the optimum
  double relaxation = 1.0;     // infeasible models: the factor by which to relax it (1: leave it)
};

/// A variable that runs to 0 or to infinity in an unbounded model.
struct UnboundedVariable {
  std::string name;
  bool to_zero;  // true: runs to 0; false: runs to infinity
};

/// A bound of a variable that an infeasible model must relax.
struct BoundRelaxation {
  std::string variable;
  bool lower;     // the lower bound (true) or the upper bound (false)
  double factor;  // lower bound / factor, or upper bound * factor, restores feasibility
};

class Solution {
 public:
  Status status() const { return status_; }
  bool optimal() const { return status_ == Status::optimal; }
  /// True when values are available: an optimum, or the incumbent of a
  /// mixed-integer search stopped by a limit.
  bool has_values() const { return has_point_; }
  const std::string& message() const { return message_; }

  /// The optimal objective in coherent SI units (s, B, J, W ...).
  double objective() const {
    require_point("objective()");
    return objective_;
  }
  template <class U>
  double objective(U unit) const {
    const std::string want = units::symbol(typename U::dimension{});
    if (want != objective_dimension_)
      throw solution_error("ychart: objective(unit): the objective has dimension `" + objective_dimension_ +
                           "`, not `" + want + "`");
    return objective() / unit.factor();
  }
  const std::string& objective_unit() const { return objective_dimension_; }

  /// The value of a variable (positive, discrete or real), in the unit it
  /// was declared in.
  template <class H>
    requires detail::is_variable<H>::value
  double value(const H& v) const {
    // Checked before anything touches the variable's model, which may be gone.
    if (v.owner() != model_id_ || v.index() >= variables_.size())
      throw solution_error("ychart: value(): the variable does not belong to the solved model");
    if (!has_point_) require_point("value(" + variables_[v.index()].name + ")");
    return variables_[v.index()].value;
  }
  template <class H>
    requires detail::is_variable<H>::value
  double operator[](const H& v) const {
    return value(v);
  }
  /// The value of a variable in another unit of the same dimension.
  template <class D, class S>
  double value(const Variable<D>& v, units::unit<D, S> u) const {
    return value(v) * v.si_scale() / u.factor();
  }
  /// The value of an expression at the solution, in coherent SI units.
  template <expr_class C, class D>
  double value(const Expr<C, D>& e) const {
    if constexpr (C == expr_class::constant) return e.value();
    else if constexpr (C == expr_class::mixed) {
      require_point("value(expression)");
      if (e.owner() && e.owner() != model_id_)
        throw solution_error("ychart: value(): the expression uses variables of another model");
      return e.posynomial().evaluate(point_) + e.affine().evaluate(point_);
    } else {
      require_point("value(expression)");
      if (e.owner() && e.owner() != model_id_)
        throw solution_error("ychart: value(): the expression uses variables of another model");
      return e.terms().evaluate(point_);
    }
  }
  /// Value by variable name (first match), in its declared unit.
  double value(const std::string& name) const {
    require_point("value(" + name + ")");
    for (const auto& v : variables_)
      if (v.name == name) return v.value;
    throw solution_error("ychart: value(): no variable named `" + name + "`");
  }

  double solve_time() const { return solve_time_; }  // seconds, lowering included
  int iterations() const { return iterations_; }
  /// GP solves (whole models, branch-and-bound nodes, sequential GP steps)
  /// that the native interior-point method failed and Ipopt was given
  /// (SolveOptions::gp_solver = automatic or cross_check). Zero means the
  /// native method solved every one.
  int gp_fallbacks() const { return gp_fallbacks_; }
  /// Mixed-integer solves: the proven bound on the objective (a lower bound
  /// when minimising), the relative gap |objective - bound| / |objective|,
  /// nodes (branch and bound) or iterations (outer approximation), and the
  /// method that ran. For a GP the bound is the objective and the gap 0.
  double bound() const { return bound_; }
  double gap() const { return gap_; }
  long nodes() const { return nodes_; }
  const std::string& method() const { return method_; }
  const std::vector<VariableReport>& variables() const { return variables_; }
  const std::vector<ConstraintReport>& constraints() const { return constraints_; }
  const ConstraintReport& constraint(std::size_t index) const { return constraints_.at(index); }
  const std::vector<UnboundedVariable>& unbounded_variables() const { return unbounded_; }
  const std::vector<BoundRelaxation>& bound_relaxations() const { return bound_relaxations_; }

  void write_json(std::ostream& os) const;
  std::string to_json() const {
    std::ostringstream os;
    write_json(os);
    return os.str();
  }
  friend std::ostream& operator<<(std::ostream& os, const Solution& s);

 private:
  friend struct SolutionBuilder;
  void require_point(const std::string& what) const {
    if (!has_point_)
      throw solution_error("ychart: " + what + " is not available: the solve ended with status `" +
                           std::string(to_string(status_)) + "` (" + message_ + ")");
  }

  Status status_ = Status::numerical_error;
  std::string message_;
  double objective_ = std::nan("");
  std::string objective_dimension_;
  const detail::Registry* model_id_ = nullptr;
  std::vector<VariableReport> variables_;
  std::vector<double> point_;  // values in the variables' units, aux included (for evaluate)
  std::vector<ConstraintReport> constraints_;
  std::vector<UnboundedVariable> unbounded_;
  std::vector<BoundRelaxation> bound_relaxations_;
  double solve_time_ = 0.0;
  int iterations_ = 0;
  int gp_fallbacks_ = 0;
  bool has_point_ = false;
  double bound_ = std::nan("");
  double gap_ = std::nan("");
  long nodes_ = 0;
  std::string method_;
  std::shared_ptr<const solve::mixed_integer::detail::CutPool> cuts_;  // for warm starts of related models
  std::shared_ptr<const detail::GpPoint> gp_point_;  // likewise (GPs)
};

/// Fills a Solution; used by the solvers.
struct SolutionBuilder {
  Solution& s;
  Status& status() { return s.status_; }
  std::string& message() { return s.message_; }
  double& objective() { return s.objective_; }
  std::string& objective_dimension() { return s.objective_dimension_; }
  const detail::Registry*& model_id() { return s.model_id_; }
  static const detail::Registry* model_of(const Solution& solution) { return solution.model_id_; }
  std::vector<VariableReport>& variables() { return s.variables_; }
  std::vector<double>& point() { return s.point_; }
  std::vector<ConstraintReport>& constraints() { return s.constraints_; }
  std::vector<UnboundedVariable>& unbounded() { return s.unbounded_; }
  std::vector<BoundRelaxation>& bound_relaxations() { return s.bound_relaxations_; }
  double& solve_time() { return s.solve_time_; }
  int& iterations() { return s.iterations_; }
  int& gp_fallbacks() { return s.gp_fallbacks_; }
  bool& has_point() { return s.has_point_; }
  double& bound() { return s.bound_; }
  double& gap() { return s.gap_; }
  long& nodes() { return s.nodes_; }
  std::string& method() { return s.method_; }
  std::shared_ptr<const solve::mixed_integer::detail::CutPool>& cuts() { return s.cuts_; }
  static const std::shared_ptr<const solve::mixed_integer::detail::CutPool>& cuts(const Solution& from) { return from.cuts_; }
  std::shared_ptr<const detail::GpPoint>& gp_point() { return s.gp_point_; }
  static const std::shared_ptr<const detail::GpPoint>& gp_point(const Solution& from) { return from.gp_point_; }
};

namespace detail {
inline void write_json_string(std::ostream& os, const std::string& s) {
  os << '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': os << "\\\""; break;
      case '\\': os << "\\\\"; break;
      case '\n': os << "\\n"; break;
      case '\t': os << "\\t"; break;
      case '\r': os << "\\r"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          os << buf;
        } else {
          os << c;
        }
    }
  }
  os << '"';
}
inline void write_json_number(std::ostream& os, double v) {
  if (!std::isfinite(v)) {
    os << "null";  // JSON has no NaN or infinity
    return;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  os << buf;
}
}  // namespace detail

inline void Solution::write_json(std::ostream& os) const {
  using detail::write_json_number;
  using detail::write_json_string;
  os << "{\n  \"status\": ";
  write_json_string(os, std::string(to_string(status_)));
  os << ",\n  \"message\": ";
  write_json_string(os, message_);
  os << ",\n  \"objective\": ";
  write_json_number(os, has_point_ ? objective_ : std::nan(""));
  os << ",\n  \"bound\": ";
  write_json_number(os, bound_);
  os << ",\n  \"gap\": ";
  write_json_number(os, gap_);
  os << ",\n  \"method\": ";
  write_json_string(os, method_);
  os << ",\n  \"nodes\": " << nodes_;
  os << ",\n  \"objective_unit\": ";
  write_json_string(os, objective_dimension_);
  os << ",\n  \"solve_time_s\": ";
  write_json_number(os, solve_time_);
  os << ",\n  \"iterations\": " << iterations_;
  os << ",\n  \"gp_fallbacks\": " << gp_fallbacks_ << ",\n  \"variables\": [";
  bool first = true;
  for (const auto& v : variables_) {
    if (v.auxiliary) continue;
    os << (first ? "\n" : ",\n") << "    {\"name\": ";
    first = false;
    write_json_string(os, v.name);
    os << ", \"unit\": ";
    write_json_string(os, v.unit);
    os << ", \"value\": ";
    write_json_number(os, has_point_ ? v.value : std::nan(""));
    os << "}";
  }
  os << "\n  ],\n  \"constraints\": [";
  for (std::size_t i = 0; i < constraints_.size(); ++i) {
    const auto& c = constraints_[i];
    os << (i ? ",\n" : "\n") << "    {\"name\": ";
    write_json_string(os, c.name);
    os << ", \"text\": ";
    write_json_string(os, c.text);
    os << ", \"sensitivity\": ";
    write_json_number(os, c.sensitivity);
    os << ", \"tight\": " << (c.tight ? "true" : "false") << ", \"relaxation\": ";
    write_json_number(os, c.relaxation);
    os << "}";
  }
  os << "\n  ],\n  \"unbounded_variables\": [";
  for (std::size_t i = 0; i < unbounded_.size(); ++i) {
    os << (i ? ", " : "") << "{\"name\": ";
    write_json_string(os, unbounded_[i].name);
    os << ", \"to\": " << (unbounded_[i].to_zero ? "\"0\"" : "\"infinity\"") << "}";
  }
  os << "],\n  \"bound_relaxations\": [";
  for (std::size_t i = 0; i < bound_relaxations_.size(); ++i) {
    os << (i ? ", " : "") << "{\"variable\": ";
    write_json_string(os, bound_relaxations_[i].variable);
    os << ", \"bound\": " << (bound_relaxations_[i].lower ? "\"lower\"" : "\"upper\"") << ", \"factor\": ";
    write_json_number(os, bound_relaxations_[i].factor);
    os << "}";
  }
  os << "]\n}\n";
}

inline std::ostream& operator<<(std::ostream& os, const Solution& s) {
  const auto flags = os.flags();
  const auto precision = os.precision();
  os << "status: " << s.status_;
  if (!s.message_.empty()) os << " (" << s.message_ << ")";
  os << "\n";
  if (s.has_point_) {
    os << "objective: " << std::setprecision(6) << s.objective_ << (s.objective_dimension_.empty() ? "" : " ")
       << s.objective_dimension_ << "\n";
  }
  if (!s.method_.empty()) {
    os << "method: " << s.method_ << ", bound " << std::setprecision(6) << s.bound_ << ", gap "
       << std::setprecision(3) << s.gap_ * 100 << " %, " << s.nodes_ << " nodes\n";
  }
  os << "solve time: " << std::setprecision(3) << s.solve_time_ * 1e3 << " ms, " << s.iterations_ << " iterations";
  if (s.gp_fallbacks_ > 0) os << ", " << s.gp_fallbacks_ << " GP fallbacks to Ipopt";
  os << "\n";
  std::size_t w = 8;
  for (const auto& v : s.variables_)
    if (!v.auxiliary) w = std::max(w, v.name.size());
  if (s.has_point_) {
    os << "\n" << std::left << std::setw(int(w)) << "variable" << "  " << std::right << std::setw(14) << "value"
       << "  unit\n";
    for (const auto& v : s.variables_) {
      if (v.auxiliary) continue;
      os << std::left << std::setw(int(w)) << v.name << "  " << std::right << std::setw(14) << std::setprecision(6)
         << v.value << "  " << v.unit << "\n";
    }
    os << "\n" << std::left << std::setw(12) << "constraint" << "  " << std::right << std::setw(12) << "sensitivity"
       << "  tight  text\n";
    for (const auto& c : s.constraints_) {
      os << std::left << std::setw(12) << c.name << "  " << std::right << std::setw(12) << std::setprecision(4);
      if (std::isnan(c.sensitivity)) os << "-";
      else os << c.sensitivity;
      os << "  " << (c.tight ? "yes  " : "     ") << "  " << c.text << "\n";
    }
  }
  if (s.status_ == Status::infeasible) {
    os << "\nto make the model feasible, relax:\n";
    for (const auto& c : s.constraints_)
      if (c.relaxation > 1.0 + tolerances::slack)
        os << "  " << c.name << " (" << c.text << ") by a factor " << std::setprecision(6) << c.relaxation << "\n";
    for (const auto& b : s.bound_relaxations_)
      os << "  the " << (b.lower ? "lower" : "upper") << " bound of " << b.variable << " by a factor "
         << std::setprecision(6) << b.factor << "\n";
  }
  if (s.status_ == Status::unbounded) {
    os << "\nthe objective improves without limit as:\n";
    for (const auto& u : s.unbounded_) os << "  " << u.name << " -> " << (u.to_zero ? "0" : "infinity") << "\n";
  }
  os.flags(flags);
  os.precision(precision);
  return os;
}

}  // namespace ychart
