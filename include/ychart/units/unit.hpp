// ychart/units/unit.hpp
// Units: a dimension plus an exact rational scale to the coherent unit
// (s, B, J, Hz, W). `3 * units::ms` is a constant of dimension time holding
// 0.003; converting between ms and us uses the exact ratio 1000.
#pragma once

#include "dimension.hpp"

#include <ratio>
#include <string>
#include <string_view>

namespace ychart::units {

template <class Dimension, class Scale = std::ratio<1>>
struct unit {
  using dimension = Dimension;
  using scale = typename Scale::type;
  static constexpr double factor() { return double(scale::num) / double(scale::den); }
};

template <class T> struct is_unit : std::false_type {};
template <class D, class S> struct is_unit<unit<D, S>> : std::true_type {};
template <class T> inline constexpr bool is_unit_v = is_unit<std::remove_cvref_t<T>>::value;

template <class D1, class S1, class D2, class S2>
constexpr auto operator*(unit<D1, S1>, unit<D2, S2>) {
  return unit<dimension_product<D1, D2>, std::ratio_multiply<S1, S2>>{};
}
template <class D1, class S1, class D2, class S2>
constexpr auto operator/(unit<D1, S1>, unit<D2, S2>) {
  return unit<dimension_quotient<D1, D2>, std::ratio_divide<S1, S2>>{};
}

/// The exact factor that converts a value in unit From into unit To.
template <class From, class To>
constexpr double conversion_factor(From, To) {
  static_assert(std::is_same_v<typename From::dimension, typename To::dimension>,
                "ychart: cannot convert between units of different dimensions");
  using r = std::ratio_divide<typename From::scale, typename To::scale>;
  return double(r::num) / double(r::den);
}

inline constexpr unit<dimensionless> one{};

inline constexpr unit<dim::time> s{};
inline constexpr unit<dim::time, std::milli> ms{};
inline constexpr unit<dim::time, std::micro> us{};
inline constexpr unit<dim::time, std::nano> ns{};

inline constexpr unit<dim::data> B{};
inline constexpr unit<dim::data, std::kilo> KB{};  // 1000 B; printed "kB"
inline constexpr unit<dim::data, std::mega> MB{};
inline constexpr unit<dim::data, std::giga> GB{};
inline constexpr unit<dim::data, std::ratio<1024>> KiB{};
inline constexpr unit<dim::data, std::ratio<1024 * 1024>> MiB{};
inline constexpr unit<dim::data, std::ratio<1024 * 1024 * 1024>> GiB{};
inline constexpr unit<dim::data, std::ratio<1, 8>> bit{};  // an eighth of a byte

inline constexpr unit<dim::frequency> Hz{};
inline constexpr unit<dim::frequency, std::kilo> kHz{};
inline constexpr unit<dim::frequency, std::mega> MHz{};
inline constexpr unit<dim::frequency, std::giga> GHz{};

inline constexpr unit<dim::power> W{};
inline constexpr unit<dim::power, std::milli> mW{};

inline constexpr unit<dim::energy> J{};
inline constexpr unit<dim::energy, std::milli> mJ{};
inline constexpr unit<dim::energy, std::micro> uJ{};
inline constexpr unit<dim::energy, std::pico> pJ{};
/// Energy per bit moved (DRAM access energies): 1 pJ/bit = 8e-12 J/B.
inline constexpr unit<dimension_quotient<dim::energy, dim::data>, std::ratio<8, 1'000'000'000'000>> pJ_per_bit{};

inline constexpr unit<dim::bandwidth, std::giga> GB_per_s{};
inline constexpr unit<dim::bandwidth, std::mega> MB_per_s{};

/// Symbol for printing: the coherent symbol with a readable prefix where the
/// scale is a standard one.
template <class D, class S>
std::string symbol(unit<D, S>) {
  std::string base = symbol(D{});
  if (base.empty()) return "";
  if constexpr (std::ratio_equal_v<S, std::ratio<1>>) return base;
  else if constexpr (std::ratio_equal_v<S, std::milli>) return "m" + base;
  else if constexpr (std::ratio_equal_v<S, std::micro>) return "u" + base;
  else if constexpr (std::ratio_equal_v<S, std::nano>) return "n" + base;
  else if constexpr (std::ratio_equal_v<S, std::kilo>) return "k" + base;
  else if constexpr (std::ratio_equal_v<S, std::mega>) return "M" + base;
  else if constexpr (std::ratio_equal_v<S, std::giga>) return "G" + base;
  else if constexpr (std::ratio_equal_v<S, std::ratio<1024>>) return "Ki" + base;
  else if constexpr (std::ratio_equal_v<S, std::ratio<1024 * 1024>>) return "Mi" + base;
  else if constexpr (std::ratio_equal_v<S, std::ratio<1024 * 1024 * 1024>>) return "Gi" + base;
  else if constexpr (S::den == 1) return "(" + std::to_string(S::num) + " " + base + ")";
  else return "(" + std::to_string(S::num) + "/" + std::to_string(S::den) + " " + base + ")";
}

}  // namespace ychart::units
