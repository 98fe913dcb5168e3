// expect: static assertion failed.*ychart::io::write_json: declare the type with BOOST_HANA_DEFINE_STRUCT
// A result struct that is not declared with BOOST_HANA_DEFINE_STRUCT cannot be written member by member.
#include <ychart/io/reflect.hpp>

#include <sstream>

struct Plain {
  double cost = 0;
};

void f() {
  std::ostringstream out;
  ychart::io::JsonWriter json(out);
  ychart::io::write_json(json, Plain{});
}
