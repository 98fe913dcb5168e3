// ychart/model/detail/model_editor.hpp
// ModelEditor builds derived models below the typed interface: the symmetric
// decomposition's master problem, the GP subproblems of sequential GP. A
// derived model copies the variables of the original at the same indices, so
// terms copy unchanged.
#pragma once

#include "../model.hpp"

#include <cstddef>
#include <string>
#include <utility>

namespace ychart::detail {

struct ModelEditor {
  static Registry& registry(Model& m) { return *m.registry_; }
  /// A model with `from`'s variables (same indices) and constraints, no
  /// objective: the start of a derived model.
  static Model copy_of(const Model& from) {
    Model m;
    Registry& reg = *m.registry_;
    reg = *from.registry_;
    for (const auto& c : from.constraints_)
      m.constraints_.push_back(
          Constraint(&reg, c.smaller(), c.larger(), c.sense(), c.written_reversed(), c.form()).named(c.name()));
    return m;
  }
  static void add_constraint(Model& m, Constraint c) { m.constraints_.push_back(std::move(c)); }
  static void set_objective(Model& m, const Model& from) {
    m.objective_ = from.objective_;
    m.objective_affine_ = from.objective_affine_;
    m.sense_ = from.sense_;
    m.objective_unit_ = from.objective_unit_;
    m.has_objective_ = from.has_objective_;
  }
  /// A model's objective, to put back after a derived solve changed it.
  struct SavedObjective {
    TermList terms, affine;
    Model::Sense sense = Model::Sense::minimize;
    std::string unit;
    bool present = false;
    bool operator==(const SavedObjective&) const = default;
  };
  static SavedObjective objective_of(const Model& m) {
    return {m.objective_, m.objective_affine_, m.sense_, m.objective_unit_, m.has_objective_};
  }
  static void restore(Model& m, SavedObjective saved, std::size_t rows) {
    m.objective_ = std::move(saved.terms);
    m.objective_affine_ = std::move(saved.affine);
    m.sense_ = saved.sense;
    m.objective_unit_ = std::move(saved.unit);
    m.has_objective_ = saved.present;
    if (m.constraints_.size() > rows) m.constraints_.erase(m.constraints_.begin() + std::ptrdiff_t(rows), m.constraints_.end());
  }
  /// The objective replaced by `terms` (log space), minimised, in `unit`.
  static void set_objective(Model& m, TermList terms, std::string unit) {
    m.objective_ = std::move(terms);
    m.objective_affine_ = TermList{};
    m.sense_ = Model::Sense::minimize;
    m.objective_unit_ = std::move(unit);
    m.has_objective_ = true;
  }
};

}  // namespace ychart::detail
