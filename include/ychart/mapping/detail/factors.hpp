// ychart/mapping/detail/factors.hpp
// Prime factors and divisors of loop extents: a tile factor is a product of
// the extent's prime factors, so these are every factor a mapper may pick.
#pragma once

#include <cstdint>
#include <vector>

namespace ychart::mapping::detail {

inline std::vector<std::int64_t> prime_factors(std::int64_t n) {
  std::vector<std::int64_t> p;
  for (std::int64_t f = 2; f * f <= n; ++f)
    while (n % f == 0) p.push_back(f), n /= f;
  if (n > 1) p.push_back(n);
  return p;
}

/// The divisors of `n`, ascending.
inline std::vector<std::int64_t> divisors(std::int64_t n) {
  std::vector<std::int64_t> low, high;
  for (std::int64_t f = 1; f * f <= n; ++f)
    if (n % f == 0) {
      low.push_back(f);
      if (f != n / f) high.push_back(n / f);
    }
  low.insert(low.end(), high.rbegin(), high.rend());
  return low;
}

}  // namespace ychart::mapping::detail
