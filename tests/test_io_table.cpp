// Results tables: aligned printing, and CSV and JSON output that reads back
// (through CsvDocument and JsonValue) to the same numbers.
#include <ychart/io/table.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

using namespace ychart::io;

namespace {

constexpr double nan_value = std::numeric_limits<double>::quiet_NaN();
constexpr double inf_value = std::numeric_limits<double>::infinity();

Table sweep_table() {
  Table table({{"point", "", 4}, {"II", "ms", 4}, {"energy", "mJ", 3}, {"fpgas", "", 4}, {"status", "", 4}});
  table.add_row({1L, 1.23456789, 0.000123456, 8L, "optimal"});
  table.add_row({2L, nan_value, inf_value, 10L, "infeasible"});
  table.add_row({3L, 12345.678, -1.5, {}, "x"});
  return table;
}

std::filesystem::path scratch_dir() {
  const auto dir = std::filesystem::temp_directory_path() / "ychart_test_io_table";
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace

TEST(Table, PrintAlignsAndFormats) {
  std::ostringstream out;
  out << sweep_table();
  EXPECT_EQ(out.str(),
            "point    II [ms]  energy [mJ]  fpgas  status\n"
            "-----  ---------  -----------  -----  ----------\n"
            "    1      1.235     0.000123      8  optimal\n"
            "    2          -          inf     10  infeasible\n"
            "    3  1.235e+04         -1.5         x\n");
}

TEST(Table, PrintCountsCharactersNotBytes) {
  Table table({{"t", "\xC2\xB5s", 3}});  // "µs": two bytes, one character
  table.add_row({123.0});
  std::ostringstream out;
  table.print(out);
  EXPECT_EQ(out.str(), "t [\xC2\xB5s]\n------\n   123\n");
}

TEST(Table, Accessors) {
  const Table table = sweep_table();
  EXPECT_EQ(table.columns().size(), 5u);
  EXPECT_EQ(table.rows().size(), 3u);
  EXPECT_EQ(table.column_index("energy"), 2u);
  EXPECT_EQ(table.columns()[1].heading(), "II [ms]");
  EXPECT_EQ(table.columns()[0].heading(), "point");
  EXPECT_EQ(table.number(0, "II"), 1.23456789);
  EXPECT_EQ(table.number(1, "fpgas"), 10.0);  // a long, as a double
  EXPECT_TRUE(std::isnan(table.number(2, "fpgas")));  // empty
  EXPECT_TRUE(std::isinf(table.number(1, "energy")));
  EXPECT_THROW((void)table.column_index("power"), ychart::error);
  EXPECT_THROW((void)table.number(0, "status"), ychart::error);
  EXPECT_THROW((void)table.number(3, "II"), ychart::error);
}

TEST(Table, RejectsBadShapes) {
  EXPECT_THROW(Table({{"a", "", 4}, {"a", "s", 4}}), ychart::error);
  EXPECT_THROW(Table({{"", "", 4}}), ychart::error);
  EXPECT_THROW(Table({{"a", "", 0}}), ychart::error);
  Table table({{"a", "", 4}, {"b", "", 4}});
  EXPECT_THROW(table.add_row({1.0}), ychart::error);
  EXPECT_THROW(table.add_row({1.0, 2.0, 3.0}), ychart::error);
  EXPECT_TRUE(table.rows().empty());
}

TEST(Table, CsvRoundTripThroughCsvDocument) {
  Table table({{"x", "", 2}, {"y", "s", 2}, {"n", "", 2}, {"label", "", 2}});
  const std::vector<double> xs = {0.1 + 0.2, 1.0 / 3.0, -2.5e-300, 6.02214076e23, 1e-7};
  for (std::size_t i = 0; i < xs.size(); ++i)
    table.add_row({xs[i], (xs[i] * 7.0 - 1.0), static_cast<long>(i) - 2, "p, \"" + std::to_string(i) + "\""});
  table.add_row({nan_value, inf_value, {}, ""});

  std::ostringstream out;
  table.write_csv(out);
  const CsvDocument doc = CsvDocument::parse(out.str(), "table.csv");
  EXPECT_EQ(doc.header(), (std::vector<std::string>{"x", "y [s]", "n", "label"}));
  ASSERT_EQ(doc.size(), xs.size() + 1);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    EXPECT_EQ(doc[i].number("x"), xs[i]) << i;  // exactly, not to 2 digits
    EXPECT_EQ(doc[i].number("y [s]"), (xs[i] * 7.0 - 1.0)) << i;
    EXPECT_EQ(doc[i].integer("n"), static_cast<long>(i) - 2);
    EXPECT_EQ(doc[i].text("label"), "p, \"" + std::to_string(i) + "\"");
  }
  const CsvRecord& last = doc[xs.size()];
  EXPECT_TRUE(last.empty("x"));  // NaN: an empty cell
  EXPECT_TRUE(std::isnan(last.number_or("x", nan_value)));
  EXPECT_EQ(last.text("y [s]"), "inf");
  EXPECT_TRUE(last.empty("n"));
}

TEST(Table, JsonRoundTripThroughJsonValue) {
  const Table table = sweep_table();
  std::ostringstream out;
  table.write_json(out);
  const JsonValue doc = JsonValue::parse(out.str(), "table.json");
  const auto& columns = doc.at("columns").elements();
  ASSERT_EQ(columns.size(), 5u);
  EXPECT_EQ(columns[1].at("name").string(), "II");
  EXPECT_EQ(columns[1].at("unit").string(), "ms");
  EXPECT_EQ(columns[0].at("unit").string(), "");
  const auto& rows = doc.at("rows").elements();
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].at("point").integer(), 1);
  EXPECT_EQ(rows[0].at("II").number(), 1.23456789);
  EXPECT_EQ(rows[0].at("energy").number(), 0.000123456);
  EXPECT_EQ(rows[0].at("status").string(), "optimal");
  EXPECT_TRUE(rows[1].at("II").is_null());      // NaN
  EXPECT_TRUE(rows[1].at("energy").is_null());  // inf
  EXPECT_TRUE(rows[2].at("fpgas").is_null());   // empty
  EXPECT_EQ(rows[2].at("energy").number(), -1.5);
  std::vector<std::string> keys;
  for (const auto& [key, value] : rows[2].items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"point", "II", "energy", "fpgas", "status"}));
}

TEST(Table, WritesFilesAndNamesAPathItCannotWrite) {
  const Table table = sweep_table();
  const auto dir = scratch_dir();
  table.write_csv(dir / "sweep.csv");
  table.write_json(dir / "sweep.json");
  EXPECT_FALSE(std::filesystem::exists(dir / "sweep.csv.tmp"));
  const CsvDocument csv = CsvDocument::read(dir / "sweep.csv");
  ASSERT_EQ(csv.size(), 3u);
  EXPECT_EQ(csv[2].number("II [ms]"), 12345.678);
  const JsonValue json = JsonValue::read(dir / "sweep.json");
  EXPECT_EQ(json.at("rows").at(2).at("II").number(), 12345.678);

  const auto bad = dir / "no_such_dir" / "sweep.csv";
  try {
    table.write_csv(bad);
    ADD_FAILURE() << "expected ychart::error";
  } catch (const ychart::error& e) {
    EXPECT_NE(std::string(e.what()).find(bad.string()), std::string::npos) << e.what();
  }
}
