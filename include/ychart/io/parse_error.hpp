// ychart/io/parse_error.hpp
// The error every ychart::io loader throws. It carries where the input is
// wrong (file, line, column, field) so that the message reads
//   "<file>:<line>[:<column>]: <field>: <what>"
// and points a user straight at the cell or value to fix.
#pragma once

#include "../error.hpp"

#include <string>
#include <utility>

namespace ychart::io {

struct parse_error : ychart::error {
  std::string file;
  int line;           // 1-based; 0 when the error is about the whole file
  int column;         // 1-based; 0 if unknown
  std::string field;  // the column name or value path; "" if none
  std::string reason; // the message without the location prefix

  parse_error(std::string file_name, int line_number, int column_number, std::string field_name,
              std::string what)
      : ychart::error(format(file_name, line_number, column_number, field_name, what)),
        file(std::move(file_name)),
        line(line_number),
        column(column_number),
        field(std::move(field_name)),
        reason(std::move(what)) {}

 private:
  static std::string format(const std::string& file_name, int line_number, int column_number,
                            const std::string& field_name, const std::string& what) {
    std::string message = file_name;
    if (line_number > 0) {
      message += ':' + std::to_string(line_number);
      if (column_number > 0) message += ':' + std::to_string(column_number);
    }
    message += ": ";
    if (!field_name.empty()) message += field_name + ": ";
    message += what;
    return message;
  }
};

}  // namespace ychart::io
