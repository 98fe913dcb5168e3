// examples/study000/flydel.hpp
// Study 000's single-feature performance models ("flydels", Table 2.4
// families) of the channel count c, read from examples/data/carballo2022/:
// lin a0 + a1 c, quad and poly sum a_j c^j, reci a0 + a1 / c, log
// a0 + a1 ln c. A flydel is a posynomial in c when its family is not log
// and no coefficient is negative; then it can enter a GP or SP, and the
// integer models tabulate it at every channel count.
#pragma once

#include <ychart/io/json.hpp>
#include <ychart/core.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace study000 {

struct Flydel {
  std::string family;             // lin, quad, poly, reci, log
  std::vector<double> a;          // coefficients, a[0] the constant
  std::string where;              // file:line of its definition, for errors

  double operator()(double c) const {
    if (family == "reci") return a[0] + a[1] / c;
    if (family == "log") return a[0] + a[1] * std::log(c);
    double v = 0, p = 1;
    for (double coefficient : a) v += coefficient * p, p *= c;
    return v;
  }

  /// The flydel as a posynomial of `c` (dimensionless); a model_error for a
  /// log family or a negative coefficient, which no GP can take.
  ychart::Posynomial<> of(const ychart::Variable<>& c) const {
    if (family == "log")
      throw ychart::model_error(where + ": a log flydel is not a posynomial (Table 2.2); a GP cannot use it");
    ychart::Posynomial<> p;
    for (std::size_t j = 0; j < a.size(); ++j) {
      if (a[j] < 0)
        throw ychart::model_error(where + ": coefficient a" + std::to_string(j) + " = " + std::to_string(a[j]) +
                                  " is negative: the flydel is not a posynomial");
      if (a[j] == 0) continue;
      if (j == 0) {
        p += ychart::Constant<>(a[0]);
        continue;
      }
      const double exponent = family == "reci" ? -double(j) : double(j);
      p += a[j] * ychart::pow(c, exponent);
    }
    return p;
  }
};

/// Reads {"family": ..., "coefficients": [...]} with file:line errors.
Flydel read_flydel(const ychart::io::JsonValue& v);

}  // namespace study000
