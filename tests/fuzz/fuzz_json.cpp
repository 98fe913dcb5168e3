// libFuzzer harness: the JSON reader (io/json.hpp). Any input must either
// parse or throw io::parse_error. A parsed document, written back with
// JsonWriter and read again, must write the same text a second time.
// Anything else (a crash, a sanitizer report, another exception, a round
// trip that changes the document) is a bug.
#include <ychart/io/json.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>

namespace {

void write(ychart::io::JsonWriter& w, const ychart::io::JsonValue& v) {
  using Kind = ychart::io::JsonValue::Kind;
  switch (v.kind()) {
    case Kind::null: w.value(nullptr); break;
    case Kind::boolean: w.value(v.boolean()); break;
    case Kind::number: w.value(v.number()); break;
    case Kind::string: w.value(std::string_view(v.string())); break;
    case Kind::array:
      w.begin_array();
      for (const auto& e : v.elements()) write(w, e);
      w.end_array();
      break;
    case Kind::object:
      w.begin_object();
      for (const auto& m : v.items()) {
        w.key(m.first);
        write(w, m.second);
      }
      w.end_object();
      break;
  }
}

std::string written(const ychart::io::JsonValue& v) {
  std::ostringstream out;
  ychart::io::JsonWriter w(out);
  write(w, v);
  return out.str();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ychart::io::JsonValue value;
  try {
    value = ychart::io::JsonValue::parse(text, "fuzz.json");
  } catch (const ychart::io::parse_error&) {
    return 0;
  }
  const std::string once = written(value);
  const std::string twice = written(ychart::io::JsonValue::parse(once, "written.json"));
  if (once != twice) std::abort();
  return 0;
}
