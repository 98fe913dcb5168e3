// JSON through nlohmann-json: strict RFC 8259 parsing with line:column errors,
// value paths in type errors, and a writer whose output parses back to the same values.
#include "support/parse_error_of.hpp"
#include <ychart/io/json.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <string_view>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ychart::io;

namespace {


parse_error parse_failure(const std::string& text) {
  return parse_error_of([&] { JsonValue::parse(text, "bad.json"); });
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const char* const kernels_document = R"({
  "name": "study",
  "kernels": [
    {"name": "gemm", "dsp": 40, "wcet": 1.5e-3},
    {"name": "conv", "dsp": "many", "wcet": -2E+2},
    {"name": "fft", "dsp": 7.0, "wcet": 0}
  ],
  "fpgas": 8,
  "enabled": true,
  "note": null,
  "limits": {"max II": 0.25, "nested": {"deep": [[], {}, [1, [2]]]}}
})";

}  // namespace

TEST(Json, NestedDocument) {
  const JsonValue doc = JsonValue::parse(kernels_document, "study.json");
  ASSERT_TRUE(doc.is_object());
  EXPECT_EQ(doc.size(), 6u);
  EXPECT_EQ(doc.at("name").string(), "study");
  const JsonValue& kernels = doc.at("kernels");
  ASSERT_TRUE(kernels.is_array());
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_EQ(kernels.at(0).at("dsp").integer(), 40);
  EXPECT_EQ(kernels.at(0).at("wcet").number(), 1.5e-3);
  EXPECT_EQ(kernels.at(1).at("wcet").number(), -200.0);
  EXPECT_EQ(kernels.at(2).at("dsp").integer(), 7);  // an integral number is an integer
  EXPECT_EQ(kernels.at(2).at("wcet").number(), 0.0);
  EXPECT_EQ(doc.at("fpgas").integer(), 8);
  EXPECT_TRUE(doc.at("enabled").boolean());
  EXPECT_TRUE(doc.at("note").is_null());
  EXPECT_EQ(doc.find("absent"), nullptr);
  ASSERT_NE(doc.find("fpgas"), nullptr);
  EXPECT_EQ(doc.find("fpgas")->number(), 8.0);

  std::vector<std::string> keys;
  for (const auto& [key, value] : doc.items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"name", "kernels", "fpgas", "enabled", "note", "limits"}));

  const JsonValue& deep = doc.at("limits").at("nested").at("deep");
  ASSERT_EQ(deep.elements().size(), 3u);
  EXPECT_EQ(deep.at(0).size(), 0u);
  EXPECT_TRUE(deep.at(1).is_object());
  EXPECT_EQ(deep.at(2).at(1).at(0).integer(), 2);

  // Positions and paths are recorded on every value.
  EXPECT_EQ(kernels.at(1).at("dsp").path(), "kernels[1].dsp");
  EXPECT_EQ(kernels.at(1).at("dsp").line(), 5);
  EXPECT_EQ(kernels.at(1).at("dsp").column(), 29);
  EXPECT_EQ(doc.at("limits").at("max II").path(), "limits[\"max II\"]");
  EXPECT_EQ(deep.at(2).at(1).at(0).path(), "limits.nested.deep[2][1][0]");
  EXPECT_EQ(doc.path(), "");
  EXPECT_EQ(doc.source_name(), "study.json");
}

TEST(Json, StringEscapesAndUnicode) {
  const JsonValue doc = JsonValue::parse(
      R"(["a\"b\\c\/d", "\b\f\n\r\t", "\u0041\u00e9\u20AC", "\ud83d\ude00", "raw é €", ""])", "s.json");
  EXPECT_EQ(doc.at(0).string(), "a\"b\\c/d");
  EXPECT_EQ(doc.at(1).string(), "\b\f\n\r\t");
  EXPECT_EQ(doc.at(2).string(), "A\xC3\xA9\xE2\x82\xAC");  // A, e-acute, euro sign
  EXPECT_EQ(doc.at(3).string(), "\xF0\x9F\x98\x80");       // U+1F600 from a surrogate pair
  EXPECT_EQ(doc.at(4).string(), "raw \xC3\xA9 \xE2\x82\xAC");
  EXPECT_EQ(doc.at(5).string(), "");
}

TEST(Json, Numbers) {
  const JsonValue doc =
      JsonValue::parse("[0, -0, 1e3, 1E-2, 2.5e+1, -12.75, 123456789012345678, 1e-400, 0.1, 9007199254740993]", "n.json");
  EXPECT_EQ(doc.at(0).number(), 0.0);
  EXPECT_TRUE(std::signbit(doc.at(1).number()));
  EXPECT_EQ(doc.at(2).number(), 1000.0);
  EXPECT_EQ(doc.at(2).integer(), 1000);
  EXPECT_EQ(doc.at(3).number(), 0.01);
  EXPECT_EQ(doc.at(4).number(), 25.0);
  EXPECT_EQ(doc.at(5).number(), -12.75);
  EXPECT_EQ(doc.at(6).integer(), 123456789012345678L);  // exact, beyond a double's 53 bits
  EXPECT_EQ(doc.at(7).number(), 0.0);                   // underflow is zero, not an error
  EXPECT_EQ(doc.at(8).number(), 0.1);
  EXPECT_EQ(doc.at(9).integer(), 9007199254740993L);
  const auto fraction = parse_error_of([&] { (void)doc.at(5).integer(); });
  EXPECT_TRUE(contains(fraction.what(), "expected an integer, found -12.75")) << fraction.what();
  const auto huge = parse_failure("[1e400]");
  EXPECT_TRUE(contains(huge.what(), "bad.json:1:2: [0]: number 1e400 is out of range")) << huge.what();
}

TEST(Json, MalformedDocumentsReportLineAndColumn) {
  struct Case {
    const char* text;
    const char* location;  // "file:line:column"
    const char* reason;
  };
  const std::vector<Case> cases = {
      // Locations point at the byte where the parser stopped; reasons are
      // nlohmann-json's, with a hint in front for the usual mistakes.
      {"[1, 2,]", "bad.json:1:7", "trailing comma before ']'"},
      {"{\n  \"a\": 1,\n}", "bad.json:3:1", "trailing comma before '}'"},
      {"{\"a\": \"open\n}", "bad.json:1:12", "control character U+000A (LF) must be escaped"},
      {"[\"abc", "bad.json:1:6", "missing closing quote"},
      {"[\"a\\qb\"]", "bad.json:1:5", "forbidden character after backslash"},
      {"[\"\\u12G4\"]", "bad.json:1:7", "must be followed by 4 hex digits"},
      {"[\"\\ud800x\"]", "bad.json:1:9", "surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF"},
      {"[\"\\udc00\"]", "bad.json:1:8", "surrogate U+DC00..U+DFFF must follow U+D800..U+DBFF"},
      {"{\n\"n\": 012}", "bad.json:2:6", "leading zeros"},
      {"[-01]", "bad.json:1:2", "leading zeros"},
      {"{\"k\": 1,\n \"j\": 2,\n \"k\": 3}", "bad.json:3:2", "duplicate key \"k\" (first at line 1)"},
      {"{\"a\": 1} x", "bad.json:1:10", "unexpected text after the JSON value"},
      {"[1] [2]", "bad.json:1:5", "after the JSON value"},
      {"// comment\n{}", "bad.json:1:1", "comments are not allowed"},
      {"[1, /* c */ 2]", "bad.json:1:5", "comments are not allowed"},
      {"[NaN]", "bad.json:1:2", "NaN and Infinity"},
      {"[-Infinity]", "bad.json:1:3", "NaN and Infinity"},
      {"[1.]", "bad.json:1:4", "expected digit after '.'"},
      {"[1e]", "bad.json:1:4", "digit after exponent"},
      {"[.5]", "bad.json:1:2", "invalid literal"},
      {"{'a': 1}", "bad.json:1:2", "expected string literal"},
      {"{\"a\" 1}", "bad.json:1:6", "expected ':'"},
      {"[1 2]", "bad.json:1:4", "expected ']'"},
      {"[tru]", "bad.json:1:5", "invalid literal"},
      {"", "bad.json:1:1", "empty document"},
      {"[\"tab\there\"]", "bad.json:1:6", "control character"},
      {"[\n  [1,\n  2", "bad.json:3:4", "unexpected end of input; expected ']'"},
      {"[\"\xC3(\"]", "bad.json:1:4", "ill-formed UTF-8"},
  };
  for (const Case& c : cases) {
    const parse_error e = parse_failure(c.text);
    const std::string message = e.what();
    EXPECT_TRUE(contains(message, std::string(c.location) + ":")) << c.text << "\n  -> " << message;
    EXPECT_TRUE(contains(message, c.reason)) << c.text << "\n  -> " << message;
  }
}

// Found by the fuzzer (CI, seed 1): a literal cut at the end of the input
// made the error hint read one byte past it. The text sits in a buffer of
// exactly its size, so AddressSanitizer sees any read past the end.
TEST(Json, ErrorsAtTheEndOfTheInputStayInside) {
  for (const std::string text : {"t", "tr", "-", "[", "[1,", "{\"a\":", "0", "01"}) {
    const std::unique_ptr<char[]> exact(new char[text.size()]);
    std::copy(text.begin(), text.end(), exact.get());
    const std::string_view view(exact.get(), text.size());
    if (text == "0") {
      EXPECT_EQ(JsonValue::parse(view, "end.json").integer(), 0);
      continue;
    }
    const auto e = parse_error_of([&] { JsonValue::parse(view, "end.json"); });
    EXPECT_EQ(e.line, 1) << text;
    EXPECT_LE(e.column, static_cast<int>(text.size()) + 1) << text;
    // "unexpected end of input" is not text after the value.
    EXPECT_EQ(std::string(e.what()).find("after the JSON value"), std::string::npos) << e.what();
  }
}

TEST(Json, SyntaxErrorsNameThePathBeingParsed) {
  const auto e = parse_failure("{\"kernels\": [{\"dsp\": 1}, {\"dsp\": 01}]}");
  EXPECT_EQ(e.field, "kernels[1].dsp");
  EXPECT_EQ(e.line, 1);
  EXPECT_EQ(e.column, 34);
}

TEST(Json, TypeErrorsNamePathAndPosition) {
  const JsonValue doc = JsonValue::parse(kernels_document, "study.json");
  const auto dsp = parse_error_of([&] { (void)doc.at("kernels").at(1).at("dsp").integer(); });
  EXPECT_EQ(dsp.field, "kernels[1].dsp");
  EXPECT_EQ(dsp.line, 5);
  EXPECT_EQ(dsp.column, 29);
  EXPECT_STREQ(dsp.what(), "study.json:5:29: kernels[1].dsp: expected a number, found the string \"many\"");

  const auto not_string = parse_error_of([&] { (void)doc.at("fpgas").string(); });
  EXPECT_TRUE(contains(not_string.what(), "study.json:8:12: fpgas: expected a string, found the number 8"))
      << not_string.what();

  const auto not_bool = parse_error_of([&] { (void)doc.at("note").boolean(); });
  EXPECT_TRUE(contains(not_bool.what(), "note: expected true or false, found null")) << not_bool.what();

  const auto not_object = parse_error_of([&] { (void)doc.at("kernels").at("dsp"); });
  EXPECT_TRUE(contains(not_object.what(), "study.json:3:14: kernels: expected an object, found an array"))
      << not_object.what();

  const auto not_array = parse_error_of([&] { (void)doc.at(std::size_t{0}); });
  EXPECT_TRUE(contains(not_array.what(), "study.json:1:1: expected an array, found an object")) << not_array.what();

  const auto missing = parse_error_of([&] { (void)doc.at("kernels").at(2).at("bram"); });
  EXPECT_EQ(missing.field, "kernels[2]");
  EXPECT_EQ(missing.line, 6);
  EXPECT_TRUE(contains(missing.what(), "missing field \"bram\"")) << missing.what();

  const auto out_of_range = parse_error_of([&] { (void)doc.at("kernels").at(3); });
  EXPECT_TRUE(contains(out_of_range.what(), "index 3 out of range (the array has 3 elements)")) << out_of_range.what();

  EXPECT_THROW((void)doc.at("name").size(), parse_error);
  EXPECT_THROW((void)doc.at("name").items(), parse_error);
  EXPECT_THROW((void)doc.at("name").elements(), parse_error);
}

TEST(Json, DeepNestingIsAnErrorNotACrash) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const auto e = parse_failure(deep);
  EXPECT_TRUE(contains(e.what(), "nesting deeper than")) << e.what();
  const std::string fine = std::string(100, '[') + std::string(100, ']');
  EXPECT_NO_THROW(JsonValue::parse(fine, "ok.json"));
}

TEST(Json, ReadsFilesAndReportsMissingOnes) {
  const auto dir = std::filesystem::temp_directory_path() / "ychart_test_io_json";
  std::filesystem::create_directories(dir);
  const auto path = dir / "config.json";
  std::ofstream(path) << "{\"a\": [1,\n 2,\n true]}";
  const JsonValue doc = JsonValue::read(path);
  EXPECT_EQ(doc.at("a").at(1).integer(), 2);
  const auto e = parse_error_of([&] { (void)doc.at("a").at(2).number(); });
  EXPECT_TRUE(contains(e.what(), path.string() + ":3:2: a[2]: expected a number, found true")) << e.what();

  const auto missing = parse_error_of([&] { JsonValue::read(dir / "nope.json"); });
  EXPECT_EQ(missing.file, (dir / "nope.json").string());
  EXPECT_TRUE(contains(missing.what(), "no such file")) << missing.what();
}

TEST(JsonWriter, PrettyPrintedLayout) {
  std::ostringstream out;
  JsonWriter json(out);
  json.begin_object()
      .key("name").value("x")
      .key("empty").begin_array().end_array()
      .key("list").begin_array().value(1).value(2.5).value(nullptr).end_array()
      .key("obj").begin_object().key("t").value(true).end_object()
      .end_object();
  EXPECT_TRUE(json.complete());
  EXPECT_EQ(out.str(),
            "{\n"
            "  \"name\": \"x\",\n"
            "  \"empty\": [],\n"
            "  \"list\": [\n"
            "    1,\n"
            "    2.5,\n"
            "    null\n"
            "  ],\n"
            "  \"obj\": {\n"
            "    \"t\": true\n"
            "  }\n"
            "}\n");
}

TEST(JsonWriter, RoundTripsValuesExactly) {
  const std::vector<double> doubles = {0.1,
                                       1.0 / 3.0,
                                       -2.5e-300,
                                       1e300,
                                       std::numeric_limits<double>::denorm_min(),
                                       std::numeric_limits<double>::max(),
                                       std::nextafter(1.0, 2.0),
                                       -0.0,
                                       123456789.125};
  const std::string tricky = "quote\" backslash\\ newline\n tab\t bell\x07 nul-free \xC3\xA9 \xF0\x9F\x98\x80 </>";
  std::ostringstream out;
  JsonWriter json(out);
  json.begin_object().key("doubles").begin_array();
  for (double d : doubles) json.value(d);
  json.end_array();
  json.key("non_finite").begin_array();
  json.value(std::numeric_limits<double>::quiet_NaN()).value(std::numeric_limits<double>::infinity());
  json.value(-std::numeric_limits<double>::infinity());
  json.end_array();
  json.key("long").value(std::numeric_limits<long>::min());
  json.key("int").value(-7);
  json.key("size").value(std::size_t{42});
  json.key("flag").value(false);
  json.key(tricky).value(tricky);
  json.end_object();

  const JsonValue doc = JsonValue::parse(out.str(), "written.json");
  const auto& read = doc.at("doubles").elements();
  ASSERT_EQ(read.size(), doubles.size());
  for (std::size_t i = 0; i < doubles.size(); ++i) {
    EXPECT_EQ(read[i].number(), doubles[i]) << i;
    EXPECT_EQ(std::signbit(read[i].number()), std::signbit(doubles[i])) << i;
  }
  for (const JsonValue& v : doc.at("non_finite").elements()) EXPECT_TRUE(v.is_null());
  EXPECT_EQ(doc.at("long").integer(), std::numeric_limits<long>::min());
  EXPECT_EQ(doc.at("int").integer(), -7);
  EXPECT_EQ(doc.at("size").integer(), 42);
  EXPECT_FALSE(doc.at("flag").boolean());
  EXPECT_EQ(doc.at(tricky).string(), tricky);
}

TEST(JsonWriter, MisuseIsALogicError) {
  std::ostringstream out;
  {
    JsonWriter json(out);
    json.begin_object();
    EXPECT_THROW(json.value(1), std::logic_error);  // no key
    EXPECT_THROW(json.end_array(), std::logic_error);
    json.key("a");
    EXPECT_THROW(json.key("b"), std::logic_error);  // key after key
    EXPECT_THROW(json.end_object(), std::logic_error);
    json.value(1);
    EXPECT_THROW(json.key("a"), std::logic_error);  // duplicate key
    json.end_object();
    EXPECT_TRUE(json.complete());
    EXPECT_THROW(json.value(2), std::logic_error);  // second top-level value
  }
  {
    JsonWriter json(out);
    EXPECT_THROW(json.key("top"), std::logic_error);
    EXPECT_THROW(json.end_object(), std::logic_error);
    json.begin_array();
    EXPECT_THROW(json.key("in array"), std::logic_error);
    EXPECT_FALSE(json.complete());
  }
}
