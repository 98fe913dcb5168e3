// libFuzzer harness: partition problems from arbitrary JSON text (the format
// of partition/load.hpp). Any input must load, or throw io::parse_error /
// ychart::error naming what is wrong. What loads must be well formed
// (validate() passes) and must read back exactly as write_specification()
// writes it, every field (tests/support/partition_spec_difference.hpp); a
// small graph is then solved and checked against enumerating every
// partition. Anything else, a crash or a sanitizer report is a bug.
#include <ychart/partition/enumerate.hpp>
#include <ychart/partition/load.hpp>
#include <ychart/partition/partition_model.hpp>

#include "../support/partition_spec_difference.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string_view>

using namespace ychart;
using namespace ychart::partition;

namespace {

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "fuzz_partition_file: %s\n", what);
  std::abort();
}

void check_round_trip(const Specification& spec) {
  std::ostringstream out;
  write_specification(out, spec, "fuzz");
  const auto back = parse_specification(io::JsonValue::parse(out.str(), "written.json"));
  if (!test_support::first_difference(spec, back).empty()) fail("the problem changed on the way back");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Specification spec;
  try {
    spec = parse_specification(io::JsonValue::parse(text, "fuzz.json"));
  } catch (const io::parse_error&) {
    return 0;
  } catch (const ychart::error&) {
    return 0;
  }
  try {
    spec.graph.validate();
    spec.platform.validate();
  } catch (const ychart::error&) {
    fail("a loaded problem does not validate");
  }
  check_round_trip(spec);
  if (spec.graph.segments.size() > 8) return 0;
  const auto r = solve_partition(spec.graph, spec.platform);
  double best = std::numeric_limits<double>::infinity();
  for (const auto& c : enumerate_partitions(spec.graph, spec.platform)) best = std::min(best, c.latency.value());
  if (r.status != Status::optimal) fail("not optimal although the CPU-only partition is always feasible");
  if (!(std::abs(r.cost.latency.value() - best) <= 1e-9 * best)) fail("the optimum differs from enumeration");
  return 0;
}
