// ychart/synthesis/impl/architecture.ipp
// The implementation of ychart/synthesis/architecture.hpp (compiled once with
// YCHART_SEPARATE_COMPILATION, included by the header otherwise).
#pragma once

#include "../../config.hpp"
#include "../architecture.hpp"

namespace ychart::synthesis {

YCHART_DECL std::size_t Architecture::add_link(Link l) {
  if (l.id.empty()) throw specification_error("ychart: a link needs an id", "");
  for (const auto& k : links)
    if (k.id == l.id) throw specification_error("ychart: link `" + l.id + "` is declared twice", l.id);
  if (l.from >= resources.size() || l.to >= resources.size())
    throw specification_error("ychart: link `" + l.id + "` joins a resource index that does not exist", l.id);
  if (l.from == l.to)
    throw specification_error("ychart: link `" + l.id + "` joins resource `" + resources[l.from].id + "` to itself",
                              l.id);
  links.push_back(std::move(l));
  return links.size() - 1;
}

YCHART_DECL std::vector<Arc> Architecture::arcs() const {
  std::vector<Arc> a;
  for (std::size_t l = 0; l < links.size(); ++l) {
    a.push_back({l, links[l].from, links[l].to});
    if (!links[l].directed) a.push_back({l, links[l].to, links[l].from});
  }
  return a;
}

YCHART_DECL std::size_t Architecture::resource_for_link(const std::string& link, const std::string& id) const {
  if (auto r = find_resource(id)) return *r;
  std::string known;
  for (const auto& r : resources) known += (known.empty() ? "" : ", ") + r.id;
  throw specification_error("ychart: link `" + link + "` names unknown resource `" + id + "` (declared: " + known + ")",
                            link);
}

}  // namespace ychart::synthesis
