// ychart/synthesis/application.hpp
// The application graph of system-level synthesis (study 003, OpenDSE's
// Application<Task, Dependency>): a bipartite graph of process tasks
// (operations) and communication tasks (tensors). Every communication has
// one sender and at least one receiver; a dependency written straight
// from one process task to another gets a communication of its own, named
// "sender->receiver". communications() gives each with its ends.
#pragma once

#include "../config.hpp"
#include "../error.hpp"
#include "../expr/expression.hpp"
#include "../units/unit.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ychart::synthesis {

enum class TaskKind { process, communication };

struct Task {
  std::string id;
  TaskKind kind = TaskKind::process;
  std::string operation;           // process tasks: "conv2d", "add", ... (informative)
  Constant<dim::data> bytes{0.0};  // communication tasks: the tensor's size
};

/// A communication with its ends, as task indices.
struct Communication {
  std::size_t task = 0;  // the communication task
  std::size_t sender = 0;
  std::vector<std::size_t> receivers;
};

class Application {
 public:
  std::vector<Task> tasks;
  std::vector<std::pair<std::size_t, std::size_t>> dependencies;  // task -> task

  std::size_t add_process(std::string id, std::string operation = {}) {
    return add({std::move(id), TaskKind::process, std::move(operation), Constant<dim::data>{0.0}});
  }
  std::size_t add_communication(std::string id, Constant<dim::data> bytes = Constant<dim::data>{0.0}) {
    return add({std::move(id), TaskKind::communication, {}, bytes});
  }
  /// A communication with its sender and receivers, in one call.
  std::size_t add_communication(std::string id, const std::string& sender, const std::vector<std::string>& receivers,
                                Constant<dim::data> bytes = Constant<dim::data>{0.0}) {
    const auto c = add_communication(std::move(id), bytes);
    add_dependency(sender, tasks[c].id);
    for (const auto& r : receivers) add_dependency(tasks[c].id, r);
    return c;
  }
  std::size_t add(Task t) {
    if (t.id.empty()) throw specification_error("ychart: a task needs an id", "");
    if (find(t.id)) throw specification_error("ychart: task `" + t.id + "` is declared twice", t.id);
    tasks.push_back(std::move(t));
    return tasks.size() - 1;
  }

  /// A dependency between declared tasks. Process -> process inserts a
  /// communication "from->to" of 0 bytes.
  void add_dependency(const std::string& from, const std::string& to);

  std::optional<std::size_t> find(const std::string& id) const {
    for (std::size_t k = 0; k < tasks.size(); ++k)
      if (tasks[k].id == id) return k;
    return std::nullopt;
  }

  std::vector<std::size_t> processes() const {
    std::vector<std::size_t> p;
    for (std::size_t k = 0; k < tasks.size(); ++k)
      if (tasks[k].kind == TaskKind::process) p.push_back(k);
    return p;
  }

  /// Every communication with its sender and receivers. A communication
  /// with no sender, two senders or no receiver is a specification_error
  /// naming it.
  std::vector<Communication> communications() const;

 private:
  std::size_t index(const std::string& id, const std::string& where) const {
    if (auto k = find(id)) return *k;
    throw specification_error("ychart: " + where + " names unknown task `" + id + "`", id);
  }
};

}  // namespace ychart::synthesis

#if YCHART_HEADER_ONLY
#include "impl/application.ipp"
#endif
