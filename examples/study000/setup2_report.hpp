// examples/study000/setup2_report.hpp
// The study000 example's Setup 2 part: per network, the exact integer split,
// the sequential-GP split, the thesis's alpha sweep (one alpha per layer,
// Eq. 4.10's rule), and the fused-layer variant (the thesis's x^2k
// surrogate beside an exact binary decision); tables, the Fig. 4.8-style
// figures and the "setup2" JSON.
#pragma once

#include "common/cli.hpp"
#include "study000/setup2.hpp"

#include <ychart/io/svg.hpp>
#include <ychart/core.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

namespace study000 {

struct MethodResult {
  std::string method;
  std::string status;
  std::vector<LayerSplit> split;  // empty: no point
  NetworkCost cost;
  int solves = 0;       // GP solves (SP, alpha) or 0
  double seconds = 0;
  double model_ms = std::numeric_limits<double>::quiet_NaN();  // what the method's own objective said
};

std::pair<double, double> speedup_range(const NetworkCost& c);

struct NetworkReport {
  std::string name;
  MethodResult exact, sp, alpha, fused_exact, fused_surrogate;
  int alpha_iterations = 0;
};

NetworkReport run_network(const Setup2& s, const std::string& name, double alpha_step);

std::string layer_share_text(const LayerSplit& x);

void report_setup2(examples::Outputs& outputs, const Setup2& s, const std::vector<NetworkReport>& reports);

}  // namespace study000
