// CSV input: RFC 4180 quoting, comments, blank lines, CRLF, the line numbers
// records report, and errors that name file, line and column.
#include "support/parse_error_of.hpp"
#include <ychart/io/csv.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

using namespace ychart::io;

namespace {


bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::filesystem::path scratch_file(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "ychart_test_io_csv";
  std::filesystem::create_directories(dir);
  return dir / name;
}

}  // namespace

TEST(Csv, QuotesCommasNewlinesCommentsAndBlankLines) {
  const std::string text =
      "# kernel parameters\n"            // 1
      "name, wcet_ms ,dsp,note\n"        // 2: header, spaces trimmed
      "\n"                               // 3
      "gemm, 12.5, 40, \"a, b\"\n"       // 4
      "   # indented comment\n"          // 5
      "\"conv \"\"3x3\"\"\",7,8,\"two\n"  // 6: quoted quotes, a newline inside
      "lines\"\n"                        // 7
      "  fft  ,  1e-3,0,\"  kept  \"\n";  // 8
  const CsvDocument doc = CsvDocument::parse(text, "kernels.csv");
  ASSERT_EQ(doc.header(), (std::vector<std::string>{"name", "wcet_ms", "dsp", "note"}));
  EXPECT_EQ(doc.header_line(), 2);
  ASSERT_EQ(doc.size(), 3u);

  EXPECT_EQ(doc[0].text("name"), "gemm");
  EXPECT_EQ(doc[0].number("wcet_ms"), 12.5);
  EXPECT_EQ(doc[0].integer("dsp"), 40);
  EXPECT_EQ(doc[0].text("note"), "a, b");
  EXPECT_EQ(doc[0].line(), 4);

  EXPECT_EQ(doc[1].text("name"), "conv \"3x3\"");
  EXPECT_EQ(doc[1].text("note"), "two\nlines");
  EXPECT_EQ(doc[1].line(), 6);

  EXPECT_EQ(doc[2].text("name"), "fft");
  EXPECT_EQ(doc[2].number("wcet_ms"), 1e-3);
  EXPECT_EQ(doc[2].text("note"), "  kept  ");  // quoted: not trimmed
  EXPECT_EQ(doc[2].line(), 8);                 // counted past the quoted newline

  std::vector<std::string> names;
  for (const CsvRecord& record : doc) names.emplace_back(record.text("name"));
  EXPECT_EQ(names, (std::vector<std::string>{"gemm", "conv \"3x3\"", "fft"}));
}

TEST(Csv, CrlfLineEndsAndEmptyCells) {
  const std::string text = "a,b,c\r\n1,,3\r\n\r\n\"x\r\ny\",+2,-4\r\n";
  const CsvDocument doc = CsvDocument::parse(text, "crlf.csv");
  ASSERT_EQ(doc.size(), 2u);
  EXPECT_EQ(doc[0].text("c"), "3");  // no stray '\r'
  EXPECT_TRUE(doc[0].empty("b"));
  EXPECT_FALSE(doc[0].empty("a"));
  EXPECT_EQ(doc[0].number_or("b", 9.5), 9.5);        // empty cell
  EXPECT_EQ(doc[0].number_or("missing", -1.0), -1.0);  // absent column
  EXPECT_EQ(doc[0].number_or("c", -1.0), 3.0);
  EXPECT_EQ(doc[1].text("a"), "x\ny");  // CRLF inside quotes read as LF
  EXPECT_EQ(doc[1].line(), 4);
  EXPECT_EQ(doc[1].integer("b"), 2);
  EXPECT_EQ(doc[1].number("c"), -4.0);
  EXPECT_TRUE(doc.has_column("b"));
  EXPECT_FALSE(doc.has_column("B"));
  EXPECT_NO_THROW(doc.require_columns({"a", "c"}));
}

TEST(Csv, LastLineWithoutNewlineAndOneColumn) {
  const CsvDocument doc = CsvDocument::parse("\xEF\xBB\xBFvalue\n1\n\"\"\n2", "one.csv");
  EXPECT_EQ(doc.header(), std::vector<std::string>{"value"});  // byte order mark dropped
  ASSERT_EQ(doc.size(), 3u);
  EXPECT_EQ(doc[0].number("value"), 1.0);
  EXPECT_TRUE(doc[1].empty("value"));
  EXPECT_EQ(doc[2].number("value"), 2.0);
  EXPECT_EQ(doc[2].line(), 4);
}

TEST(Csv, WrongCellCountNamesFileLineAndCounts) {
  const auto e = parse_error_of([] { CsvDocument::parse("# c\na,b,c\n1,2,3\n\n4,5\n", "cells.csv"); });
  EXPECT_EQ(e.file, "cells.csv");
  EXPECT_EQ(e.line, 5);
  EXPECT_TRUE(contains(e.what(), "cells.csv:5")) << e.what();
  EXPECT_TRUE(contains(e.what(), "expected 3")) << e.what();
  EXPECT_TRUE(contains(e.what(), "found 2")) << e.what();
}

TEST(Csv, WrongCellCountAfterMultiLineCellCountsLines) {
  const auto e = parse_error_of([] { CsvDocument::parse("a,b\n\"1\n2\n3\",4\n5,6,7\n", "multi.csv"); });
  EXPECT_EQ(e.line, 5) << e.what();
}

TEST(Csv, BadNumberNamesFileLineAndColumn) {
  const CsvDocument doc = CsvDocument::parse("name,ii\n\nk1,3\nk2, 12x\n", "sweep.csv");
  EXPECT_EQ(doc[0].number("ii"), 3.0);
  const auto e = parse_error_of([&] { (void)doc[1].number("ii"); });
  EXPECT_EQ(e.file, "sweep.csv");
  EXPECT_EQ(e.line, 4);
  EXPECT_EQ(e.column, 5);  // where the cell starts, after the trimmed space
  EXPECT_EQ(e.field, "ii");
  EXPECT_STREQ(e.what(), "sweep.csv:4:5: ii: expected a finite number, found \"12x\"");
}

TEST(Csv, NumbersMustBeWholeFiniteCells) {
  const CsvDocument doc = CsvDocument::parse("v\nnan\ninf\n1e999\n\n1.5.2\n+-3\n3.0\n 7 \n", "n.csv");
  ASSERT_EQ(doc.size(), 7u);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_THROW((void)doc[i].number("v"), parse_error) << doc[i].text("v");
  EXPECT_EQ(doc[5].number("v"), 3.0);
  EXPECT_EQ(doc[6].number("v"), 7.0);
  const auto e = parse_error_of([&] { (void)doc[5].integer("v"); });
  EXPECT_TRUE(contains(e.what(), "expected an integer, found \"3.0\"")) << e.what();
  EXPECT_EQ(doc[6].integer("v"), 7);
  const auto empty_cell = parse_error_of([] { (void)CsvDocument::parse("a,b\n,1\n", "e.csv")[0].number("a"); });
  EXPECT_TRUE(contains(empty_cell.what(), "empty cell")) << empty_cell.what();
}

TEST(Csv, MissingAndUnknownColumns) {
  const CsvDocument doc = CsvDocument::parse("# header follows\nname,dsp\nk,1\n", "k.csv");
  const auto missing = parse_error_of([&] { doc.require_columns({"name", "bram"}); });
  EXPECT_EQ(missing.line, 2);
  EXPECT_EQ(missing.field, "bram");
  EXPECT_TRUE(contains(missing.what(), "k.csv:2: bram: required column missing")) << missing.what();
  const auto unknown = parse_error_of([&] { (void)doc[0].text("bram"); });
  EXPECT_EQ(unknown.field, "bram");
  EXPECT_TRUE(contains(unknown.what(), "columns: name, dsp")) << unknown.what();
}

TEST(Csv, SyntaxErrors) {
  const auto unterminated = parse_error_of([] { CsvDocument::parse("a,b\n1,\"open\n2,3\n", "q.csv"); });
  EXPECT_EQ(unterminated.line, 2);
  EXPECT_EQ(unterminated.column, 3);
  EXPECT_TRUE(contains(unterminated.what(), "unterminated")) << unterminated.what();

  const auto after_quote = parse_error_of([] { CsvDocument::parse("a,b\n\"x\"y,2\n", "q.csv"); });
  EXPECT_EQ(after_quote.line, 2);
  EXPECT_EQ(after_quote.column, 4);

  const auto stray_quote = parse_error_of([] { CsvDocument::parse("a,b\n5\" disk,2\n", "q.csv"); });
  EXPECT_EQ(stray_quote.column, 2);

  const auto duplicate = parse_error_of([] { CsvDocument::parse("a,b,a\n", "d.csv"); });
  EXPECT_EQ(duplicate.field, "a");
  EXPECT_EQ(duplicate.column, 5);

  const auto empty_name = parse_error_of([] { CsvDocument::parse("a,,b\n", "d.csv"); });
  EXPECT_TRUE(contains(empty_name.what(), "empty column name")) << empty_name.what();

  const auto no_header = parse_error_of([] { CsvDocument::parse("# only\n\n", "h.csv"); });
  EXPECT_EQ(no_header.line, 0);
  EXPECT_STREQ(no_header.what(), "h.csv: no header line (the file is empty or only comments)");
}

TEST(Csv, MissingFileNamesThePath) {
  const auto path = scratch_file("does_not_exist.csv");
  std::filesystem::remove(path);
  const auto e = parse_error_of([&] { CsvDocument::read(path); });
  EXPECT_EQ(e.file, path.string());
  EXPECT_TRUE(contains(e.what(), path.string())) << e.what();
  EXPECT_TRUE(contains(e.what(), "no such file")) << e.what();
}

TEST(Csv, ReadsFileAndReportsItsName) {
  const auto path = scratch_file("read.csv");
  std::ofstream(path) << "x,y\n1,2\n3,oops\n";
  const CsvDocument doc = CsvDocument::read(path);
  ASSERT_EQ(doc.size(), 2u);
  EXPECT_EQ(doc[0].number("y"), 2.0);
  const auto e = parse_error_of([&] { (void)doc[1].number("y"); });
  EXPECT_TRUE(contains(e.what(), path.string() + ":3:3: y:")) << e.what();
}

TEST(Csv, WriteQuotesOnlyWhenNeeded) {
  std::ostringstream out;
  write_csv_row(out, {"plain", "a,b", "say \"hi\"", "two\nlines", " padded", "", "#not first"});
  write_csv_row(out, {"#first", "x"});
  write_csv_row(out, {""});
  EXPECT_EQ(out.str(),
            "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\" padded\",,#not first\n"
            "\"#first\",x\n"
            "\"\"\n");
}

TEST(Csv, WriteThenReadRoundTrip) {
  const std::vector<std::string> header = {"name", "value", "note"};
  const std::vector<std::vector<std::string>> rows = {
      {"#hash", "0.1", "a, \"quoted\" note"},
      {" spaced ", "-2.5e-300", "multi\nline\r\nend"},
      {"", "1e+300", ""},
  };
  std::ostringstream out;
  write_csv_row(out, header);
  for (const auto& row : rows) write_csv_row(out, row);
  const CsvDocument doc = CsvDocument::parse(out.str(), "roundtrip.csv");
  ASSERT_EQ(doc.header(), header);
  ASSERT_EQ(doc.size(), rows.size());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    EXPECT_EQ(doc[r].text("name"), rows[r][0]);
    EXPECT_EQ(doc[r].number("value"), std::stod(rows[r][1]));
    // CRLF inside a cell comes back as LF; everything else verbatim.
    std::string note = rows[r][2];
    if (const auto at = note.find("\r\n"); at != std::string::npos) note.erase(at, 1);
    EXPECT_EQ(doc[r].text("note"), note);
  }
  EXPECT_EQ(doc[1].line(), 3);
  EXPECT_EQ(doc[2].line(), 6);
}
