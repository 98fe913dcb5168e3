// ychart/pipeline/heterogeneous_application.hpp
// An application for a platform of several device kinds: each task says
// what it moves (data in, data out) once, and how it runs on each kind --
// one compute unit's latency, resource use in that kind's record, dynamic
// power -- or that it cannot run there. Task<FpgaResources, GpuResources>
// holds an optional Implementation<FpgaResources> and one for the GPU, in
// the order of the platform's device groups; task.with(impl) files an
// implementation under its record's kind, and one for a kind the task does
// not list does not compile.
#pragma once

#include "detail/task_graph.hpp"
#include "resources.hpp"

#include "../error.hpp"
#include "../expr/expression.hpp"
#include "../units/unit.hpp"

#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace ychart::pipeline {

/// How one task runs on one device kind.
template <ResourceRecord R>
struct Implementation {
  R use{};                       // one compute unit, in the kind's units
  Constant<dim::time> wcet{};    // latency of the whole task with one compute unit
  Constant<dim::power> power{};  // dynamic power of one busy compute unit
};

/// One task of a heterogeneous application; `on` lists its implementation
/// per device kind (std::nullopt: it cannot run on that kind).
template <ResourceRecord... Rs>
struct Task {
  std::string name{};
  std::string type{};               // empty: its own type
  Constant<dim::data> data_in{};    // input per run, sent to every device that runs part of it
  Constant<dim::data> data_out{};   // output per run, split between them
  std::tuple<std::optional<Implementation<Rs>>...> on{};

  const std::string& type_name() const { return type.empty() ? name : type; }
  template <std::size_t G>
  const std::optional<Implementation<std::tuple_element_t<G, std::tuple<Rs...>>>>& implementation() const {
    return std::get<G>(on);
  }
  /// Gives the task an implementation on the kind whose record is R.
  template <ResourceRecord R>
  Task& with(Implementation<R> impl) {
    constexpr int kinds_with_record = (0 + ... + int(std::is_same_v<R, Rs>));
    static_assert(kinds_with_record > 0,
                  "ychart: the platform has no device kind with this resource record; implement the task on one of "
                  "the kinds in Task<...> (its template arguments), or add the kind to Task and Platform");
    static_assert(kinds_with_record < 2,
                  "ychart: several device kinds share this resource record; set the implementation by position: "
                  "std::get<G>(task.on) = impl");
    std::get<std::optional<Implementation<R>>>(on) = std::move(impl);
    return *this;
  }
  /// Whether it runs on kind g.
  bool runs_on(std::size_t g) const {
    bool out = false;
    std::size_t i = 0;
    std::apply([&](const auto&... impl) { ((out = out || (i++ == g && impl.has_value())), ...); }, on);
    return out;
  }
};

/// Tasks plus edges, for a Platform<Rs...>.
template <ResourceRecord... Rs>
class HeterogeneousApplication : public detail::TaskGraph<Task<Rs...>> {
 public:
  static_assert(sizeof...(Rs) >= 1, "ychart: a heterogeneous application needs at least one device kind");
  using detail::TaskGraph<Task<Rs...>>::TaskGraph;

  /// A linear pipeline: edge k-1 -> k carries task k's input.
  static HeterogeneousApplication pipeline(std::string name, std::vector<Task<Rs...>> stages) {
    HeterogeneousApplication a(std::move(name));
    for (auto& s : stages) a.add(std::move(s));
    a.chain();
    return a;
  }

  /// Adds a task; returns its index.
  std::size_t add(Task<Rs...> t) {
    auto bad = [&](const std::string& what) {
      throw model_error("ychart: task '" + t.name + "' of application '" + this->name() + "': " + what, t.name);
    };
    for (double d : {t.data_in.value(), t.data_out.value()})
      if (!(d >= 0.0) || !std::isfinite(d)) bad("data volumes must be finite and not negative");
    bool runs = false;
    std::apply(
        [&](const auto&... impl) {
          auto check = [&](const auto& i) {
            if (!i) return;
            runs = true;
            if (!(i->wcet.value() > 0.0) || !std::isfinite(i->wcet.value())) bad("wcet must be positive and finite");
            if (!(i->power.value() >= 0.0) || !std::isfinite(i->power.value()))
              bad("power must be finite and not negative");
            for_each_resource(i->use, [&](std::string_view r, double v) {
              if (!(v >= 0.0) || !std::isfinite(v)) bad("use of " + std::string(r) + " must be finite and not negative");
            });
          };
          (check(impl), ...);
        },
        t.on);
    if (!runs) bad("it has no implementation on any device kind");
    return this->push(std::move(t));
  }
};

}  // namespace ychart::pipeline
