// libFuzzer harness: the architecture loader (pipeline/load.hpp,
// parse_architecture) on arbitrary JSON text. Any input must either load or
// throw io::parse_error with file, line and field; a loaded architecture
// must have devices and positive bandwidths. Anything else is a bug.
#include <ychart/pipeline/load.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto a = ychart::pipeline::parse_architecture<ychart::pipeline::FpgaResources>(
        ychart::io::JsonValue::parse(text, "fuzz.json"));
    if (a.devices() < 1) std::abort();
  } catch (const ychart::io::parse_error&) {
  }
  return 0;
}
