// ychart/pipeline/detail/task_graph.hpp
// The graph both application kinds share: kernels in order and the edges
// carrying data between them, with the look-ups the models need (incoming
// and outgoing edges, kernel types). Application<R> (one device kind) and
// Application<Rs...> (several) add their kernel validation.
#pragma once

#include "../../error.hpp"
#include "../../expr/expression.hpp"
#include "../../units/unit.hpp"

#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace ychart::pipeline {

/// Data flowing from one kernel to another, per run.
struct Edge {
  std::size_t from = 0, to = 0;
  Constant<dim::data> volume{};
};

namespace detail {

/// Kernels of type `K` (which has `name` and `type_name()`) plus edges.
template <class K>
class TaskGraph {
 public:
  TaskGraph() = default;
  explicit TaskGraph(std::string name) : name_(std::move(name)) {}

  void connect(std::size_t from, std::size_t to, Constant<dim::data> volume) {
    if (from >= kernels_.size() || to >= kernels_.size() || from == to)
      throw model_error("ychart: edge " + std::to_string(from) + " -> " + std::to_string(to) + " of application '" +
                        name_ + "' does not join two different kernels of its " + std::to_string(kernels_.size()), name_);
    if (!(volume.value() >= 0.0) || !std::isfinite(volume.value()))
      throw model_error("ychart: edge volume must be finite and not negative");
    outgoing_[from].push_back(edges_.size());
    incoming_[to].push_back(edges_.size());
    edges_.push_back({from, to, volume});
  }

  const std::string& name() const { return name_; }
  const std::vector<K>& kernels() const { return kernels_; }
  const K& kernel(std::size_t k) const { return kernels_.at(k); }
  std::size_t size() const { return kernels_.size(); }
  const std::vector<Edge>& edges() const { return edges_; }

  /// Indices of the edges into / out of kernel k, in edge order (kept as
  /// edges are added: host_traffic asks on every mapping priced).
  const std::vector<std::size_t>& incoming(std::size_t k) const { return k < incoming_.size() ? incoming_[k] : none_; }
  const std::vector<std::size_t>& outgoing(std::size_t k) const { return k < outgoing_.size() ? outgoing_[k] : none_; }

  /// Index of each kernel's type among the distinct types, in first-seen order.
  std::vector<std::size_t> type_index() const {
    std::vector<std::string> seen;
    std::vector<std::size_t> out;
    for (const auto& k : kernels_) {
      std::size_t i = 0;
      while (i < seen.size() && seen[i] != k.type_name()) ++i;
      if (i == seen.size()) seen.push_back(k.type_name());
      out.push_back(i);
    }
    return out;
  }

 protected:
  /// Appends an already validated kernel; returns its index.
  std::size_t push(K k) {
    kernels_.push_back(std::move(k));
    incoming_.emplace_back();
    outgoing_.emplace_back();
    return kernels_.size() - 1;
  }
  /// Joins consecutive kernels, edge k-1 -> k carrying kernel k's input.
  void chain() {
    for (std::size_t k = 1; k < kernels_.size(); ++k) connect(k - 1, k, kernels_[k].data_in);
  }

 private:
  std::string name_;
  std::vector<K> kernels_;
  std::vector<Edge> edges_;
  std::vector<std::vector<std::size_t>> incoming_, outgoing_;  // [kernel]: edge indices
  inline static const std::vector<std::size_t> none_{};
};

}  // namespace detail
}  // namespace ychart::pipeline
