// ychart/io.hpp
// Input and output: CSV and JSON readers with file:line:field errors, result
// tables (text, CSV, JSON), result structs written as JSON and tables, SVG
// charts, and the HTML report.
#pragma once

#include "io/parse_error.hpp"
#include "io/file.hpp"
#include "io/csv.hpp"
#include "io/json.hpp"
#include "io/json_fields.hpp"
#include "io/table.hpp"
#include "io/reflect.hpp"
#include "io/svg.hpp"
#include "report/report.hpp"
