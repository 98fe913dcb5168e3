// libFuzzer harness: the CSV reader (io/csv.hpp) and the kernel loader built
// on it (pipeline/load.hpp, parse_kernels). Any input must either be read or
// throw io::parse_error naming the file; every cell of a document that was
// read must be reachable by its column name. Anything else is a bug.
#include <ychart/pipeline/load.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto doc = ychart::io::CsvDocument::parse(text, "fuzz.csv");
    for (const auto& record : doc)
      for (const auto& column : doc.header()) (void)record.text(column);
  } catch (const ychart::io::parse_error&) {
    return 0;
  }
  try {  // the same text as a kernel table of study 001 (FPGA resources)
    (void)ychart::pipeline::parse_kernels<ychart::pipeline::FpgaResources>(ychart::io::CsvDocument::parse(text, "fuzz.csv"));
  } catch (const ychart::io::parse_error&) {
  }
  return 0;
}
