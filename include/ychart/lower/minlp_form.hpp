// ychart/lower/minlp_form.hpp
// The form every mixed-integer model is lowered to (lower/lower_minlp.hpp):
// columns in log space (positive variables, discrete variables in
// monomials) and in linear space (reals, discrete values, tables, binary
// encodings), rows of GpStandardForm, and what each column stands for.
#pragma once

#include "gp_standard_form.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace ychart::lower {

/// The binary encoding of one discrete variable.
struct Encoding {
  std::uint32_t var;           // registry index
  int first = 0;               // first z column
  std::vector<double> values;  // value of each z column
};

/// What a column stands for, independent of where the lowering put it, so
/// that cuts learnt on one model can be carried to a related one.
struct ColumnKey {
  enum Kind : std::uint8_t { value, log, encoding, objective } kind;
  std::uint32_t var = 0;    // registry index (value, log, encoding)
  std::uint32_t index = 0;  // position in the encoding
  auto operator<=>(const ColumnKey&) const = default;
};

struct MinlpForm {
  GpStandardForm nlp;               // the continuous relaxation (integrality dropped)
  std::vector<ColumnKey> column_key;  // per column
  std::vector<char> integer;        // integrality of each column
  std::vector<int> value_column;    // per registry variable: column holding its value (log column for positives)
  std::vector<int> log_column;      // per registry variable: its log column, or -1
  std::vector<Encoding> encodings;
  /// The user's objective is sign * exp(phi) (log_objective) or sign * phi,
  /// where phi = c.v + c0 is what the form minimises.
  bool log_objective = false;
  double sign = 1.0;
  /// Bound propagation showed that no point exists; the reason says where.
  bool infeasible = false;
  std::string infeasible_reason;
  int objective_column = -1;        // epigraph column of the objective, if any

  double user_objective(double phi) const { return log_objective ? sign * std::exp(phi) : sign * phi; }
  int integer_count() const {
    int k = 0;
    for (char c : integer) k += c;
    return k;
  }
};

}  // namespace ychart::lower
