// ychart/pipeline/resources.hpp
// Resource records: what one device of a kind offers and what one compute
// unit uses, declared once per kind as a Boost.Hana struct of doubles
// (FpgaResources{bram, dsp, lut, ff, bw}). Per-resource constraints are
// generated for every member, a misspelt member does not compile, and
// resource<"dsp">(r) checks a name given as a string at compile time.
// Loaders map column names onto members with set_resource(), which throws
// for a name the kind does not have.
#pragma once

#include "../error.hpp"
#include "../units/dimension.hpp"

#include <boost/hana/accessors.hpp>
#include <boost/hana/define_struct.hpp>
#include <boost/hana/first.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/second.hpp>
#include <boost/hana/size.hpp>
#include <boost/hana/string.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ychart::pipeline {

namespace hana = boost::hana;

/// An FPGA's resources, in percent of one device (BW: of its DDR bandwidth).
struct FpgaResources {
  BOOST_HANA_DEFINE_STRUCT(FpgaResources, (double, bram), (double, dsp), (double, lut), (double, ff), (double, bw));
};

/// A GPU's resources: streaming multiprocessors, memory, memory bandwidth.
struct GpuResources {
  BOOST_HANA_DEFINE_STRUCT(GpuResources, (double, sm), (double, memory), (double, bw));
};

/// A CPU's resources: cores, memory, memory bandwidth.
struct CpuResources {
  BOOST_HANA_DEFINE_STRUCT(CpuResources, (double, cores), (double, memory), (double, bw));
};

namespace detail {

template <class R>
constexpr bool all_members_double() {
  bool all = true;
  hana::for_each(hana::accessors<R>(), [&](auto pair) {
    using member = std::remove_cvref_t<decltype(hana::second(pair)(std::declval<R&>()))>;
    all = all && std::is_same_v<member, double>;
  });
  return all;
}

template <class R, class Name>
constexpr bool has_member(Name name) {
  bool found = false;
  hana::for_each(hana::accessors<R>(), [&](auto pair) { found = found || (hana::first(pair) == name); });
  return found;
}

}  // namespace detail

/// A Hana struct whose every member is a double: one value per resource.
template <class R>
concept ResourceRecord = hana::Struct<R>::value && std::is_default_constructible_v<R> &&
                         detail::all_members_double<R>();

/// The members' names, in declaration order.
template <ResourceRecord R>
std::vector<std::string> resource_names() {
  std::vector<std::string> names;
  hana::for_each(hana::accessors<R>(), [&](auto pair) { names.emplace_back(hana::to<const char*>(hana::first(pair))); });
  return names;
}

/// Number of resources of the kind.
template <ResourceRecord R>
constexpr std::size_t resource_count() {
  return hana::size(hana::accessors<R>());
}

/// Calls f(name, value) for every resource, in declaration order.
template <ResourceRecord R, class F>
void for_each_resource(const R& r, F&& f) {
  hana::for_each(hana::accessors<R>(), [&](auto pair) {
    f(std::string_view(hana::to<const char*>(hana::first(pair))), hana::second(pair)(r));
  });
}

/// The values as a vector, in declaration order.
template <ResourceRecord R>
std::vector<double> resource_values(const R& r) {
  std::vector<double> values;
  for_each_resource(r, [&](std::string_view, double v) { values.push_back(v); });
  return values;
}

/// A record with every resource set to `value` (a cap that applies to all).
template <ResourceRecord R>
R uniform_resources(double value) {
  R r{};
  hana::for_each(hana::accessors<R>(), [&](auto pair) { hana::second(pair)(r) = value; });
  return r;
}

/// The i-th resource (declaration order), for loops over resource types.
template <ResourceRecord R>
double resource_at(const R& r, std::size_t i) {
  double out = 0.0;
  std::size_t index = 0;
  for_each_resource(r, [&](std::string_view, double v) {
    if (index++ == i) out = v;
  });
  return out;
}

/// Access by a name written as a string literal, checked at compile time:
/// resource<"dsp">(r). A name the kind does not have stops compilation.
template <units::fixed_string Name, ResourceRecord R>
constexpr auto& resource(R& r) {
  constexpr auto name = units::detail::hana_string_t<Name>{};
  static_assert(detail::has_member<std::remove_const_t<R>>(name),
                "ychart: this device kind has no resource of that name; use one of the members of its resource "
                "record (for FpgaResources: bram, dsp, lut, ff, bw)");
  double* out = nullptr;
  hana::for_each(hana::accessors<std::remove_const_t<R>>(), [&](auto pair) {
    if constexpr (decltype(hana::first(pair) == name)::value) out = &hana::second(pair)(const_cast<std::remove_const_t<R>&>(r));
  });
  if constexpr (std::is_const_v<R>) return static_cast<const double&>(*out);
  else return *out;
}

/// Sets the resource named at run time (a column of a data file); throws
/// model_error naming the valid names when the kind has no such resource.
template <ResourceRecord R>
void set_resource(R& r, std::string_view name, double value) {
  bool found = false;
  hana::for_each(hana::accessors<R>(), [&](auto pair) {
    if (!found && name == hana::to<const char*>(hana::first(pair))) {
      hana::second(pair)(r) = value;
      found = true;
    }
  });
  if (!found) {
    std::string valid;
    for (const auto& n : resource_names<R>()) valid += (valid.empty() ? "" : ", ") + n;
    throw model_error("ychart: no resource named '" + std::string(name) + "' (this kind has: " + valid + ")", std::string(name));
  }
}

/// The position of the resource named at run time (declaration order), if
/// the kind has it.
template <ResourceRecord R>
std::optional<std::size_t> resource_index(std::string_view name) {
  const auto names = resource_names<R>();
  for (std::size_t t = 0; t < names.size(); ++t)
    if (names[t] == name) return t;
  return std::nullopt;
}

/// True when `name` is one of the kind's resources.
template <ResourceRecord R>
bool has_resource(std::string_view name) {
  return resource_index<R>(name).has_value();
}

}  // namespace ychart::pipeline
