// examples/study004/as_reported.hpp
// Study 004, section (a): as reported. The thesis's Table 5.2 beside our
// reconstruction under the same arithmetic (FPGA cycles x 1e-8 labelled ms,
// added to CPU milliseconds), its argmin against the exact model and the
// enumeration; the CNV and cybersecurity tables, checked row by row; and
// Table 5.4 (a CPU n times faster, Eq. 5.2) in both readings.
#pragma once

#include "study004/results.hpp"
#include "study004/setting.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

namespace study004 {

/// Table 5.2, ours under its arithmetic, and the exact argmin; fills `out`'s
/// as_reported, ranges and valid_ranges.
io::Table as_reported(const Setting& s, MobileNetV1& out);

/// CNV and the cybersecurity MLP: the thesis's tables only (no layer data,
/// no CPU-only time), so no consistent-units answer.
io::Table cnv_and_cybsec(const MobileNet& m);

/// Table 5.4: a CPU n times faster (Eq. 5.2), the exact optimum for each n in both readings.
io::Table faster_cpu(const Setting& s);

}  // namespace study004
