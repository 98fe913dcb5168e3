// libFuzzer harness: the mapping class's YAML architecture loader on
// arbitrary text, then the mapper on what it accepts. Any input must load
// or throw io::parse_error (never another exception, a crash or a hang);
// an accepted architecture is valid; a random mapping on it evaluates to
// positive energy and latency; and the search, on a small layer, either
// proves an optimum that no random mapping that fits beats, or says why not.
#include <ychart/baselines/mappers.hpp>
#include <ychart/mapping/load.hpp>
#include <ychart/mapping/search.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string_view>

using namespace ychart;
using namespace ychart::mapping;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Architecture a;
  try {
    a = parse_architecture(text, "fuzz.yaml");
  } catch (const io::parse_error&) {
    return 0;
  }
  a.validate();  // the loader validated it: must not throw
  if (a.levels.size() > 4 || a.macs_available() > 64) return 0;  // keep each input fast
  const auto w = Workload::convolution("f", 1, 4, 2, 3, 2, 3, 1, 2);
  std::mt19937_64 rng(size);
  SearchOptions options;
  options.time_limit = 2;
  options.warm_start_samples = 5;
  const auto r = search_mapping(w, a, options);
  if (r.status == Status::optimal && !(r.evaluation && r.evaluation->fits)) std::abort();
  for (int i = 0; i < 20; ++i) {
    const auto m = baselines::random_mapping(w, a, rng);
    const auto e = evaluate(w, a, m);
    if (!(e.energy.value() > 0) || !(e.latency.value() > 0)) std::abort();
    if (r.status == Status::optimal && e.fits && e.energy.value() < r.objective * (1 - 1e-9)) std::abort();
    if (r.status == Status::infeasible && e.fits) std::abort();
  }
  return 0;
}
