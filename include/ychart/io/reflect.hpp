// ychart/io/reflect.hpp
// Results as data. A struct declared with BOOST_HANA_DEFINE_STRUCT (or
// adapted with BOOST_HANA_ADAPT_STRUCT) is written to JSON as an object,
// member by member under the members' names; numbers, strings, booleans,
// enums with a to_string(), std::optional (null when empty), io::Omittable
// (a member left out of its object when empty), vectors (arrays), std::map
// with string keys (an object in key order), io::Members (an object whose
// keys are data, in insertion order) and nested structs as themselves. table_of() makes an io::Table of a vector
// of such structs, one column per member, so one struct gives a study's
// printed table, its CSV and its JSON. A study declares what it found and
// hands it over, instead of writing a document key by key.
#pragma once

#include "../error.hpp"
#include "json.hpp"
#include "table.hpp"

#include <boost/hana/accessors.hpp>
#include <boost/hana/define_struct.hpp>
#include <boost/hana/first.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/second.hpp>
#include <boost/hana/size.hpp>
#include <boost/hana/string.hpp>

#include <concepts>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace ychart::io {

/// An object whose keys are data (a binding by task name), written in the
/// order the members were added.
template <class T>
using Members = std::vector<std::pair<std::string, T>>;

/// An optional member that write_json leaves out of its object when it is
/// empty, where std::optional writes null: for documents whose readers test
/// whether a key is there (serde's skip_serializing_if, in C++).
template <class T>
struct Omittable : std::optional<T> {
  using std::optional<T>::optional;  // assignment converts through these (optional's own is ambiguous here)
};

namespace detail {

template <class T>
concept Reflected = boost::hana::Struct<T>::value;

template <class T>
concept NamedEnum = std::is_enum_v<T> && requires(const T& t) {
  { to_string(t) } -> std::convertible_to<std::string_view>;
};

template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};

template <class T>
struct is_members : std::false_type {};
template <class T>
struct is_members<Members<T>> : std::true_type {};

template <class T>
struct is_string_map : std::false_type {};
template <class T, class C, class A>
struct is_string_map<std::map<std::string, T, C, A>> : std::true_type {};

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};
template <class T>
struct is_optional<Omittable<T>> : std::true_type {};

template <class T>
struct is_omittable : std::false_type {};
template <class T>
struct is_omittable<Omittable<T>> : std::true_type {};

/// Calls f(name, value) for every member of a reflected struct, in order.
template <Reflected S, class F>
void for_each_member(const S& s, F&& f) {
  boost::hana::for_each(boost::hana::accessors<S>(), [&](auto pair) {
    f(std::string_view(boost::hana::to<const char*>(boost::hana::first(pair))), boost::hana::second(pair)(s));
  });
}

}  // namespace detail

/// Writes `value` as one JSON value (see the header's list of what is
/// understood); a type outside it is a compile error naming it.
template <class T>
void write_json(JsonWriter& json, const T& value) {
  if constexpr (std::is_arithmetic_v<T>) {  // bool included: JsonWriter has an overload for it
    json.value(value);
  } else if constexpr (std::is_convertible_v<const T&, std::string_view>) {
    json.value(std::string_view(value));
  } else if constexpr (detail::NamedEnum<T>) {
    json.value(std::string_view(to_string(value)));
  } else if constexpr (detail::is_optional<T>::value) {
    if (value) write_json(json, *value);
    else json.value(nullptr);
  } else if constexpr (detail::is_members<T>::value || detail::is_string_map<T>::value) {
    json.begin_object();
    for (const auto& [key, member] : value) {
      json.key(key);
      write_json(json, member);
    }
    json.end_object();
  } else if constexpr (detail::is_vector<T>::value) {
    json.begin_array();
    for (const auto& element : value) write_json(json, element);
    json.end_array();
  } else if constexpr (detail::Reflected<T>) {
    json.begin_object();
    detail::for_each_member(value, [&](std::string_view name, const auto& member) {
      if constexpr (detail::is_omittable<std::remove_cvref_t<decltype(member)>>::value)
        if (!member) return;
      json.key(name);
      write_json(json, member);
    });
    json.end_object();
  } else {
    static_assert(sizeof(T) == 0,
                  "ychart::io::write_json: declare the type with BOOST_HANA_DEFINE_STRUCT (or adapt it with "
                  "BOOST_HANA_ADAPT_STRUCT), or give it a to_string() if it is an enum");
  }
}

namespace detail {

template <class T>
Cell cell_of(const T& value) {
  if constexpr (std::is_same_v<T, bool>) return std::string(value ? "yes" : "no");
  else if constexpr (std::is_arithmetic_v<T>) return static_cast<double>(value);
  else if constexpr (std::is_convertible_v<const T&, std::string_view>) return std::string(std::string_view(value));
  else if constexpr (NamedEnum<T>) return std::string(to_string(value));
  else if constexpr (is_optional<T>::value) return value ? cell_of(*value) : Cell{};
  else
    static_assert(sizeof(T) == 0,
                  "ychart::io::table_of: a table cell is a number, a string, a bool, an enum with to_string() or "
                  "an optional of one; write nested data with write_json instead");
}

}  // namespace detail

/// The rows as a table: one column per member of Row, described by
/// `columns` in the members' order (a ychart::error if the counts differ).
/// Numbers, integers too, are double cells, as in the tables the examples
/// build by hand; a bool is "yes" or "no", an empty optional an empty cell.
template <detail::Reflected Row>
Table table_of(const std::vector<Row>& rows, std::vector<Column> columns) {
  constexpr std::size_t members = decltype(boost::hana::size(boost::hana::accessors<Row>()))::value;
  if (columns.size() != members)
    throw ychart::error("ychart: table_of: " + std::to_string(columns.size()) + " columns described for a row of " +
                        std::to_string(members) + " members");
  Table table(std::move(columns));
  for (const auto& row : rows) {
    std::vector<Cell> cells;
    cells.reserve(members);
    detail::for_each_member(row, [&](std::string_view, const auto& member) { cells.push_back(detail::cell_of(member)); });
    table.add_row(std::move(cells));
  }
  return table;
}

}  // namespace ychart::io
