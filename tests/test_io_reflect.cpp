// io::write_json and io::table_of on Hana-reflected result structs: every
// member kind the header lists, written and read back with io::JsonValue
// (the oracle is the document spelled out by hand, compared after parsing,
// and the parsed values checked field by field).
#include <ychart/io/reflect.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

enum class Colour { red, green };
std::string_view to_string(Colour c) { return c == Colour::red ? "red" : "green"; }

struct Hop {
  BOOST_HANA_DEFINE_STRUCT(Hop, (std::string, from), (std::string, to));
};

struct Everything {
  BOOST_HANA_DEFINE_STRUCT(Everything, (int, count), (std::size_t, size), (double, cost), (double, missing),
                           (bool, proven), (std::string, name), (Colour, colour), (std::optional<double>, none),
                           (std::optional<std::vector<long>>, range), (std::vector<Hop>, hops),
                           (std::map<std::string, double>, sorted), (ychart::io::Members<int>, ordered));
};

struct Row {
  BOOST_HANA_DEFINE_STRUCT(Row, (std::size_t, tasks), (std::string, status), (double, cost), (bool, proven),
                           (std::optional<double>, gap));
};

std::string json_of(const auto& value) {
  std::ostringstream out;
  ychart::io::JsonWriter json(out);
  ychart::io::write_json(json, value);
  return out.str();
}

ychart::io::JsonValue parsed(const std::string& text) { return ychart::io::JsonValue::parse(text, "written.json"); }

TEST(IoReflect, WritesEveryMemberKindUnderItsName) {
  const Everything e{3,    7,    2.5, std::nan(""), true, "x", Colour::green, std::nullopt, std::vector<long>{0, 81},
                     {{"a", "b"}, {"b", "c"}}, {{"z", 1.0}, {"a", 2.0}}, {{"z", 1}, {"a", 2}}};
  const auto text = json_of(e);
  const auto expected = parsed(R"({"count": 3, "size": 7, "cost": 2.5, "missing": null, "proven": true, "name": "x",
    "colour": "green", "none": null, "range": [0, 81], "hops": [{"from": "a", "to": "b"}, {"from": "b", "to": "c"}],
    "sorted": {"a": 2, "z": 1}, "ordered": {"z": 1, "a": 2}})");
  const auto got = parsed(text);
  ASSERT_EQ(got.items().size(), expected.items().size());
  for (std::size_t i = 0; i < got.items().size(); ++i)
    EXPECT_EQ(got.items()[i].first, expected.items()[i].first) << "member " << i << " out of order";
  EXPECT_EQ(got.at("count").integer(), 3);
  EXPECT_EQ(got.at("size").integer(), 7);
  EXPECT_EQ(got.at("cost").number(), 2.5);
  EXPECT_TRUE(got.at("missing").is_null());
  EXPECT_TRUE(got.at("proven").boolean());
  EXPECT_EQ(got.at("colour").string(), "green");
  EXPECT_TRUE(got.at("none").is_null());
  EXPECT_EQ(got.at("range").elements().at(1).integer(), 81);
  EXPECT_EQ(got.at("hops").elements().at(1).at("to").string(), "c");
  // std::map in key order, Members in insertion order.
  EXPECT_EQ(got.at("sorted").items().front().first, "a");
  EXPECT_EQ(got.at("ordered").items().front().first, "z");
  EXPECT_EQ(got.at("ordered").at("a").integer(), 2);
}

struct Holder {
  BOOST_HANA_DEFINE_STRUCT(Holder, (std::optional<double>, gap));
};

TEST(IoReflect, OptionalWithAValueIsThatValue) {
  EXPECT_EQ(parsed(json_of(Holder{0.25})).at("gap").number(), 0.25);
}

struct Sparse {
  BOOST_HANA_DEFINE_STRUCT(Sparse, (std::string, status), (ychart::io::Omittable<int>, solves),
                           (ychart::io::Omittable<std::vector<double>>, split), (std::optional<double>, gap));
};

struct SparseRow {
  BOOST_HANA_DEFINE_STRUCT(SparseRow, (std::string, status), (ychart::io::Omittable<int>, solves));
};

TEST(IoReflect, OmittableMembersAreLeftOutWhenEmpty) {
  const auto bare = parsed(json_of(Sparse{"optimal", {}, {}, std::nullopt}));
  ASSERT_EQ(bare.items().size(), 2u);  // status and gap: an empty optional is null, an empty Omittable absent
  EXPECT_EQ(bare.items()[0].first, "status");
  EXPECT_EQ(bare.items()[1].first, "gap");
  EXPECT_TRUE(bare.at("gap").is_null());
  Sparse full{"optimal", 4, std::vector<double>{1.0, 2.5}, 0.5};
  const auto all = parsed(json_of(full));
  ASSERT_EQ(all.items().size(), 4u);
  EXPECT_EQ(all.items()[1].first, "solves");
  EXPECT_EQ(all.at("solves").integer(), 4);
  EXPECT_EQ(all.at("split").elements().at(1).number(), 2.5);
  // Alone (not a member) an empty Omittable has no key to leave out: null.
  EXPECT_TRUE(parsed(json_of(ychart::io::Omittable<int>{})).is_null());
  // In a table it is a cell like an optional's.
  const auto table = ychart::io::table_of(std::vector<SparseRow>{{"optimal", 3}, {"infeasible", {}}},
                                          {{"status", "", 1}, {"solves", "", 1}});
  EXPECT_EQ(table.number(0, "solves"), 3.0);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(table.rows()[1][1]));
}

TEST(IoReflect, TableOfHasOneColumnPerMemberAndOneRowPerElement) {
  const std::vector<Row> rows{{200, "optimal", 1.5, true, 0.0}, {500, "time_limit", 2.5, false, std::nullopt}};
  const auto table = ychart::io::table_of(rows, {{"tasks", "", 4}, {"status", "", 1}, {"cost", "us", 4},
                                                 {"proven", "", 1}, {"gap", "", 2}});
  ASSERT_EQ(table.rows().size(), 2u);
  ASSERT_EQ(table.columns().size(), 5u);
  EXPECT_EQ(table.number(1, "tasks"), 500.0);
  EXPECT_EQ(table.number(0, "cost"), 1.5);
  EXPECT_EQ(std::get<std::string>(table.rows()[1][1]), "time_limit");
  EXPECT_EQ(std::get<std::string>(table.rows()[0][3]), "yes");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(table.rows()[1][4]));
  // The vector itself is written as an array of objects.
  const auto doc = parsed(json_of(rows));
  ASSERT_EQ(doc.elements().size(), 2u);
  EXPECT_EQ(doc.elements()[1].at("status").string(), "time_limit");
  EXPECT_TRUE(doc.elements()[1].at("gap").is_null());
}

TEST(IoReflect, TableOfRejectsAColumnListOfTheWrongLength) {
  const std::vector<Row> rows{{1, "optimal", 1.0, true, 0.0}};
  EXPECT_THROW((void)ychart::io::table_of(rows, {{"tasks", "", 4}}), ychart::error);
}

}  // namespace
