// expect: static assertion failed.*: ychart: a mapping's cost is a time
// Study 003: a mapping option's cost is an execution time; a power given
// where the time belongs must not compile.
#include <ychart/ychart.hpp>
void f() {
  using namespace ychart;
  synthesis::Specification spec;
  spec.architecture.add_processor("NCS");
  spec.application.add_process("model/relu");
  spec.add_mapping("model/relu", "NCS", 1.5 * units::W);  // should be e.g. 28.0 * units::us
}
