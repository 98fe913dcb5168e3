// libFuzzer harness: study 003's synthesis specifications from arbitrary
// JSON text (the format of synthesis/load.hpp). Any input must load, or
// throw io::parse_error / ychart::error naming what is wrong. A small
// specification (at most 6 process tasks, 6 resources, 300 bindings with
// their parameter values) is then solved exactly and checked against
// enumeration: evaluate() of the optimum equals its cost; no binding that
// route() can route costs less; and where the links form a forest (one
// path between two resources, so route() is exact) the optimum equals the
// cheapest routed binding, and `infeasible` means none is routable.
#include <ychart/synthesis/load.hpp>
#include <ychart/synthesis/synthesis_model.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string_view>
#include <vector>

using namespace ychart;
using namespace ychart::synthesis;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto doc = io::JsonValue::parse(text, "fuzz.json");
    const auto spec = parse_specification(doc);
    const auto ix = spec.validate();
    if (ix.processes.size() > 6 || spec.architecture.resources.size() > 6 || spec.architecture.links.size() > 8) return 0;
    double points = 1;
    for (const auto& o : ix.options) points *= double(o.size());
    for (const auto& p : spec.architecture.parameters) points *= double(p.values.size());
    if (points > 300) return 0;
    const auto r = solve_synthesis(spec, ix);
    if (r.status != Status::optimal && r.status != Status::infeasible) std::abort();
    if (r.status == Status::optimal && !(std::fabs(evaluate(spec, ix, *r.implementation).cost - r.objective) <= 1e-12 * (1 + r.objective)))
      std::abort();
    // Enumerate bindings and parameter values, each routed by route().
    double best = std::numeric_limits<double>::infinity();
    std::vector<std::size_t> pos(ix.processes.size(), 0), values(spec.architecture.parameters.size(), 0);
    for (bool more = true; more;) {
      std::vector<std::size_t> binding(ix.processes.size());
      for (std::size_t p = 0; p < pos.size(); ++p) binding[p] = ix.options[p][pos[p]];
      if (auto impl = route(spec, ix, binding, values)) best = std::min(best, evaluate(spec, ix, *impl).cost);
      more = false;
      for (std::size_t k = 0; k < values.size() && !more; ++k)
        if (++values[k] < spec.architecture.parameters[k].values.size()) more = true;
        else values[k] = 0;
      for (std::size_t p = 0; p < pos.size() && !more; ++p)
        if (++pos[p] < ix.options[p].size()) more = true;
        else pos[p] = 0;
    }
    const double tolerance = 1e-9 * (1 + std::fabs(best));
    if (r.status == Status::optimal && r.objective > best + tolerance) std::abort();  // route() found cheaper
    if (synthesis::detail::links_form_forest(spec)) {
      if (std::isinf(best) != (r.status == Status::infeasible)) std::abort();
      if (r.status == Status::optimal && std::fabs(r.objective - best) > tolerance) std::abort();
    }
  } catch (const io::parse_error&) {
  } catch (const ychart::error&) {
  }
  return 0;
}
