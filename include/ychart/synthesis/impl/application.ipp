// ychart/synthesis/impl/application.ipp
// The implementation of ychart/synthesis/application.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../application.hpp"

namespace ychart::synthesis {

YCHART_DECL void Application::add_dependency(const std::string& from, const std::string& to) {
  const auto a = index(from, "dependency `" + from + "` -> `" + to + "`");
  const auto b = index(to, "dependency `" + from + "` -> `" + to + "`");
  if (a == b) throw specification_error("ychart: task `" + from + "` depends on itself", from);
  if (tasks[a].kind == TaskKind::communication && tasks[b].kind == TaskKind::communication)
    throw specification_error("ychart: dependency `" + from + "` -> `" + to +
                                  "` joins two communications; a process task must sit between them",
                              from);
  if (tasks[a].kind == TaskKind::process && tasks[b].kind == TaskKind::process) {
    const auto c = add_communication(from + "->" + to);
    dependencies.emplace_back(a, c);
    dependencies.emplace_back(c, b);
    return;
  }
  for (const auto& d : dependencies)
    if (d.first == a && d.second == b)
      throw specification_error("ychart: dependency `" + from + "` -> `" + to + "` is declared twice", from);
  dependencies.emplace_back(a, b);
}

YCHART_DECL std::vector<Communication> Application::communications() const {
  std::vector<Communication> out;
  std::vector<std::size_t> slot(tasks.size(), tasks.size());
  std::vector<int> senders;
  for (std::size_t k = 0; k < tasks.size(); ++k)
    if (tasks[k].kind == TaskKind::communication) {
      slot[k] = out.size();
      out.push_back({k, 0, {}});
      senders.push_back(0);
    }
  for (const auto& [a, b] : dependencies) {
    if (tasks[b].kind == TaskKind::communication) {
      out[slot[b]].sender = a;
      ++senders[slot[b]];
    } else {
      out[slot[a]].receivers.push_back(b);
    }
  }
  for (std::size_t k = 0; k < out.size(); ++k) {
    const auto& id = tasks[out[k].task].id;
    if (senders[k] == 0) throw specification_error("ychart: communication `" + id + "` has no sender", id);
    if (senders[k] > 1)
      throw specification_error("ychart: communication `" + id + "` has " + std::to_string(senders[k]) +
                                    " senders; a tensor has one producer",
                                id);
    if (out[k].receivers.empty()) throw specification_error("ychart: communication `" + id + "` has no receiver", id);
  }
  return out;
}

}  // namespace ychart::synthesis
