// libFuzzer harness: study 002's loop-nest evaluator on arbitrary JSON text
// {"platform": <an ALOHA platform, as loopnest/load.hpp reads it>,
//  "layers": [[in, out, size, kernel, op], ...]}. Any input must load and
// evaluate, or throw io::parse_error / ychart::error (a tiling_error for a
// tile that fits no memory). An evaluated layer must hold its invariants
// (OPS_re >= OPS_th, every transfer within its memory, latency >= each
// ceiling + overhead), and for up to 6 layers on up to 3 processors the
// pipelined binding by dynamic programming must match enumeration.
#include <ychart/loopnest/binding_model.hpp>
#include <ychart/loopnest/load.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string_view>

using namespace ychart;
using namespace ychart::loopnest;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto doc = io::JsonValue::parse(text, "fuzz.json");
    if (!doc.is_object()) return 0;
    const auto platform = parse_platform(doc.at("platform"));
    Cnn cnn{"fuzz", {}};
    for (const auto& v : doc.at("layers").elements()) {
      Layer l = Layer::convolution("l" + std::to_string(cnn.layers.size()), v.at(0).integer(), v.at(1).integer(),
                                   v.at(2).integer(), v.at(3).integer());
      if (v.size() > 4) {
        const auto op = parse_operator(v.at(4).string());
        if (!op) return 0;
        l.op = *op;
      }
      cnn.layers.push_back(l);
      if (cnn.layers.size() > 8) break;
    }
    for (const auto& l : cnn.layers)
      for (std::size_t j = 0; j < platform.processors.size(); ++j) {
        try {
          const auto e = evaluate_layer(l, platform, j);
          if (!(e.ops_re.value() >= e.ops_th.value() * (1 - 1e-12))) std::abort();
          for (const auto& t : e.nest.transfers)
            if (t.present && !(t.bytes <= platform.memories[t.memory].capacity.value() * (1 + 1e-12))) std::abort();
          if (!(e.latency.value() >= e.compute.value() + platform.processors[j].overhead.value() * (1 - 1e-12)))
            std::abort();
          for (const auto& c : e.channels)
            if (!(e.latency.value() >= c.time.value() * (1 - 1e-12))) std::abort();
          (void)e.nest.listing(platform);
        } catch (const tiling_error& error) {
          if (!(error.bytes > error.capacity)) std::abort();
        }
      }
    if (cnn.layers.empty() || cnn.layers.size() > 6 || platform.processors.size() > 3) return 0;
    const auto table = cost_table(cnn, platform);
    BindingOptions o{BindingGoal::throughput, true, std::nullopt};
    o.method = BindingOptions::Method::dynamic_programming;
    const auto r = solve_binding(table, platform, o);
    // Enumerate contiguous bindings.
    double best = std::numeric_limits<double>::infinity();
    Binding b(table.layers, 0);
    std::function<void(std::size_t)> rec = [&](std::size_t i) {
      if (i == table.layers) {
        for (std::size_t j = 0; j < table.processors; ++j) {
          int runs = 0;
          for (std::size_t k = 0; k < b.size(); ++k) runs += b[k] == j && (k == 0 || b[k - 1] != j);
          if (runs > 1) return;
        }
        best = std::min(best, 1.0 / evaluate_schedule(table, platform, b, true).throughput.value());
        return;
      }
      for (std::size_t j = 0; j < table.processors; ++j)
        if (table.allowed(i, j)) b[i] = j, rec(i + 1);
    };
    rec(0);
    if (std::isinf(best) != (r.status != Status::optimal)) std::abort();
    if (r.status == Status::optimal && !(std::fabs(1.0 / r.metrics.throughput.value() - best) <= 1e-9 * best)) std::abort();
  } catch (const io::parse_error&) {
  } catch (const ychart::error&) {
  }
  return 0;
}
