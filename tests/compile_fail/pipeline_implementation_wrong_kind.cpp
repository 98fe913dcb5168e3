// expect: the platform has no device kind with this resource record
// A task for an FPGA + GPU platform cannot be given a CPU implementation.
#include <ychart/ychart.hpp>
void f() {
  using namespace ychart::pipeline;
  Task<FpgaResources, GpuResources> t{.name = "conv"};
  t.with(Implementation<GpuResources>{});  // fine
  t.with(Implementation<CpuResources>{});
}
