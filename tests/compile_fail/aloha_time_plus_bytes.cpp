// expect: static assertion failed.*: ychart: .*the two sides have different physical dimensions
// Study 002's Eq. 9 written with a channel's traffic where its time belongs:
// OPS_re / AP_max is a time, the traffic is bytes; dividing the traffic by
// the channel's bandwidth (traffic / bw) is what makes it a time.
#include <ychart/ychart.hpp>
void f() {
  using namespace ychart;
  const auto ops = 110073600 * units::op;
  const auto peak = 129.6 * units::GOPS;
  const auto traffic = 1270080 * units::B;
  auto t = ops / peak + traffic;  // should be max(ops / peak, traffic / (0.72 * units::GB_per_s))
  (void)t;
}
