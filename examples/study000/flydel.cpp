// study000/flydel.cpp
// Definitions of flydel.hpp, compiled once (the ychart_studies library).
#include "study000/flydel.hpp"

namespace study000 {

Flydel read_flydel(const ychart::io::JsonValue& v) {
  Flydel f;
  f.family = v.at("family").string();
  f.where = v.source_name() + ":" + std::to_string(v.line());
  for (const auto& c : v.at("coefficients").elements()) f.a.push_back(c.number());
  const std::size_t n = f.a.size();
  const bool ok = (f.family == "lin" && n == 2) || (f.family == "quad" && n == 3) ||
                  (f.family == "poly" && n >= 2) || (f.family == "reci" && n == 2) || (f.family == "log" && n == 2);
  if (!ok)
    throw ychart::io::parse_error(v.source_name(), v.line(), v.column(), v.path(),
                                  "family `" + f.family + "` with " + std::to_string(n) +
                                      " coefficients (lin 2, quad 3, poly >= 2, reci 2, log 2)");
  return f;
}

}  // namespace study000
