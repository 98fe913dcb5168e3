// ychart/expr/detail/registry.hpp
// The variables of one model, as expressions see them: names (for messages),
// kinds (positive, discrete, real, tabulated), units and bounds, and the
// auxiliary variables that epigraph atoms such as max() introduce together
// with their defining constraints. The Model owns one Registry; expressions
// hold a pointer to it.
#pragma once

#include "term_list.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

namespace ychart::detail {

/// positive: continuous, > 0, lives in log space (y = log x).
/// discrete: integer, binary or choice; one value of a finite set.
/// real: continuous, any sign, linear space (affine uses only).
/// tabulated: f(n) for a discrete n, given by a table over n's values.
enum class VariableKind : std::uint8_t { positive, discrete, real, tabulated };

struct VariableRecord {
  std::string name;
  std::string unit;        // symbol of the unit the user declared it in
  double lower = 0.0;      // bounds in the user's unit; 0 means none (positive)
  double upper = std::numeric_limits<double>::infinity();
  double si_scale = 1.0;   // value in coherent SI units = si_scale * value
  bool auxiliary = false;  // introduced by a reduction (epigraph), not by the user
  VariableKind kind = VariableKind::positive;
  /// discrete: the allowed values, sorted (empty: every integer in [lower, upper]).
  std::vector<double> values;
  /// tabulated: the discrete argument and f at each of its values, in order.
  std::uint32_t argument = 0;
  std::vector<double> table;

  bool is_integer_range() const { return kind == VariableKind::discrete && values.empty(); }
  /// Number of values of a discrete variable.
  double domain_size() const {
    return values.empty() ? std::floor(upper) - std::ceil(lower) + 1.0 : double(values.size());
  }
  /// The i-th value of a discrete variable.
  double value_at(std::size_t i) const { return values.empty() ? std::ceil(lower) + double(i) : values[i]; }
};

inline VariableRecord make_record(std::string name, std::string unit, double lower, double upper, double si_scale,
                                  VariableKind kind, bool auxiliary = false) {
  VariableRecord r;
  r.name = std::move(name);
  r.unit = std::move(unit);
  r.lower = lower;
  r.upper = upper;
  r.si_scale = si_scale;
  r.kind = kind;
  r.auxiliary = auxiliary;
  return r;
}

/// `lhs <= x_var` where x_var is an auxiliary epigraph variable.
struct EpigraphDefinition {
  TermList lhs;
  std::uint32_t var;
};

struct Registry {
  std::vector<VariableRecord> variables;
  std::vector<EpigraphDefinition> epigraphs;

  std::uint32_t add(VariableRecord r) {
    variables.push_back(std::move(r));
    return static_cast<std::uint32_t>(variables.size() - 1);
  }
};

inline std::string format_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

/// Human-readable text of a sum of terms, with variable names when known.
inline std::string to_string(const TermList& t, const Registry* names) {
  if (t.empty()) return "0";
  std::string out;
  for (std::size_t k = 0; k < t.size(); ++k) {
    const double c = t.coefficient(k);
    if (k > 0) out += c < 0 ? " - " : " + ";
    const double shown = k > 0 && c < 0 ? -c : c;
    const auto f = t.factors(k);
    bool first = true;
    if (shown != 1.0 || f.empty()) {
      out += format_number(shown);
      first = false;
    }
    for (const auto& x : f) {
      if (!first) out += "*";
      first = false;
      if (names && x.var < names->variables.size()) {
        out += names->variables[x.var].name;
      } else {  // piecewise: `"x" + std::to_string(v)` trips GCC 12's -Wrestrict false positive (bug 105651)
        out += 'x';
        out += std::to_string(x.var);
      }
      if (x.exponent != 1.0) out += "^" + format_number(x.exponent);
    }
  }
  return out;
}

}  // namespace ychart::detail
