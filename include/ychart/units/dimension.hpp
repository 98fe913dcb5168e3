// ychart/units/dimension.hpp
// Physical dimensions as compile-time exponent lists. A dimension is a sorted
// list of (base name, rational exponent) pairs, computed with Boost.Hana, so
// two expressions of the same dimension have the same C++ type and adding
// time to data is a compile error. Base dimensions are named by strings, so
// users add their own (DSP blocks, BRAM, LUTs) with `base_dimension<"dsp">`.
#pragma once

#include <boost/hana/at_key.hpp>
#include <boost/hana/contains.hpp>
#include <boost/hana/erase_key.hpp>
#include <boost/hana/filter.hpp>
#include <boost/hana/fold_left.hpp>
#include <boost/hana/insert.hpp>
#include <boost/hana/keys.hpp>
#include <boost/hana/less.hpp>
#include <boost/hana/map.hpp>
#include <boost/hana/pair.hpp>
#include <boost/hana/sort.hpp>
#include <boost/hana/string.hpp>
#include <boost/hana/core/to.hpp>
#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>
#include <boost/hana/unpack.hpp>

#include <cstddef>
#include <ratio>
#include <string>
#include <utility>

namespace ychart::units {

namespace hana = boost::hana;

/// A string usable as a template argument: `base_dimension<"dsp">`.
template <std::size_t N>
struct fixed_string {
  char chars[N]{};
  constexpr fixed_string(const char (&s)[N]) {
    for (std::size_t i = 0; i < N; ++i) chars[i] = s[i];
  }
  static constexpr std::size_t size() { return N - 1; }
};

/// One base dimension raised to a rational power Num/Den (reduced). The
/// exponent is held as two integers rather than a std::ratio so that
/// argument-dependent lookup on expression types never reaches namespace std
/// (an unqualified `max(a, b)` must find ychart::max, not std::max).
template <class Name, std::intmax_t Num, std::intmax_t Den = 1>
struct base_power {
  using name = Name;  // a hana::string type
  using exponent = std::ratio<Num, Den>;
};

/// A dimension: base powers sorted by name, no zero exponents. Build them
/// with base_dimension, dimension_product, dimension_quotient, dimension_power.
template <class... BasePowers>
struct dimension {};

using dimensionless = dimension<>;

namespace detail {

template <fixed_string S, std::size_t... I>
auto to_hana_string(std::index_sequence<I...>) -> hana::string<S.chars[I]...>;

template <fixed_string S>
using hana_string_t = decltype(to_hana_string<S>(std::make_index_sequence<S.size()>{}));

template <class... P>
constexpr auto exponent_map(dimension<P...>) {
  return hana::make_map(hana::make_pair(typename P::name{}, hana::type_c<typename P::exponent>)...);
}

// Multiply two dimensions: add exponents name by name.
template <class M1, class M2>
constexpr auto add_exponents(M1 m1, M2 m2) {
  return hana::fold_left(hana::keys(m2), m1, [](auto acc, auto key) {
    using E2 = typename decltype(+hana::at_key(M2{}, key))::type;
    if constexpr (decltype(hana::contains(acc, key))::value) {
      using E1 = typename decltype(+hana::at_key(acc, key))::type;
      using Sum = typename std::ratio_add<E1, E2>::type;
      return hana::insert(hana::erase_key(acc, key), hana::make_pair(key, hana::type_c<Sum>));
    } else {
      return hana::insert(acc, hana::make_pair(key, hana::type_c<E2>));
    }
  });
}

template <class Map, class Scale>
constexpr auto scale_exponents(Map m, Scale) {
  return hana::fold_left(hana::keys(m), hana::make_map(), [](auto acc, auto key) {
    using E = typename decltype(+hana::at_key(Map{}, key))::type;
    using P = typename std::ratio_multiply<E, Scale>::type;
    return hana::insert(acc, hana::make_pair(key, hana::type_c<P>));
  });
}

// Canonical form: names sorted, zero exponents dropped. This is what makes
// equal dimensions the same C++ type.
template <class Map>
constexpr auto canonical(Map) {
  auto sorted = hana::sort(hana::to_tuple(hana::keys(Map{})), hana::less);
  auto nonzero = hana::filter(sorted, [](auto key) {
    using E = typename decltype(+hana::at_key(Map{}, key))::type;
    return hana::bool_c<E::num != 0>;
  });
  return hana::unpack(nonzero, [](auto... key) {
    return hana::type_c<dimension<base_power<decltype(key), decltype(+hana::at_key(Map{}, key))::type::num,
                                             decltype(+hana::at_key(Map{}, key))::type::den>...>>;
  });
}

template <class D1, class D2>
using product_t = typename decltype(canonical(add_exponents(exponent_map(D1{}), exponent_map(D2{}))))::type;

template <class D, class Scale>
using power_t = typename decltype(canonical(scale_exponents(exponent_map(D{}), Scale{})))::type;

}  // namespace detail

/// A new base dimension with the given name, e.g. `base_dimension<"dsp">`.
template <fixed_string Name>
using base_dimension = dimension<base_power<detail::hana_string_t<Name>, 1, 1>>;

template <class D1, class D2>
using dimension_product = detail::product_t<D1, D2>;

template <class D, std::intmax_t Num, std::intmax_t Den = 1>
using dimension_power = detail::power_t<D, std::ratio<Num, Den>>;

template <class D1, class D2>
using dimension_quotient = dimension_product<D1, dimension_power<D2, -1>>;

template <class D>
inline constexpr bool is_dimensionless = std::is_same_v<D, dimensionless>;

}  // namespace ychart::units

/// The library's base and derived dimensions, in their own namespace so that
/// `using namespace ychart::units;` does not hide ::time. Frequency and power
/// are derived, so that cycles / Hz is a time and W * s is an energy.
namespace ychart::dim {
using dimensionless = units::dimensionless;
using time = units::base_dimension<"time">;
using data = units::base_dimension<"data">;
using energy = units::base_dimension<"energy">;
using frequency = units::dimension_power<time, -1>;
using power = units::dimension_quotient<energy, time>;
using bandwidth = units::dimension_quotient<data, time>;
}  // namespace ychart::dim

namespace ychart::units {

namespace detail {
template <class Name>
std::string base_symbol() {
  std::string n = hana::to<const char*>(Name{});
  if (n == "time") return "s";
  if (n == "data") return "B";
  if (n == "energy") return "J";
  return n;
}
template <class E>
std::string exponent_text() {
  if constexpr (E::num == 1 && E::den == 1) return "";
  else if constexpr (E::den == 1) return "^" + std::to_string(E::num);
  else return "^(" + std::to_string(E::num) + "/" + std::to_string(E::den) + ")";
}
}  // namespace detail

/// The SI-coherent symbol of a dimension, e.g. "s", "W", "Hz", "dsp*s^-1".
template <class... P>
std::string symbol(dimension<P...>) {
  using D = dimension<P...>;
  if constexpr (std::is_same_v<D, dim::frequency>) return "Hz";
  else if constexpr (std::is_same_v<D, dim::power>) return "W";
  else if constexpr (std::is_same_v<D, dim::bandwidth>) return "B/s";
  std::string out;
  auto append = [&out](const std::string& base, const std::string& exponent) {
    if (!out.empty()) out += '*';
    out += base;
    out += exponent;
  };
  (append(detail::base_symbol<typename P::name>(), detail::exponent_text<typename P::exponent>()), ...);
  (void)append;  // unused for the dimensionless (empty) pack
  return out;
}

}  // namespace ychart::units
