// benchmarks/baseline_ipopt_relaxation.hpp
// A hand-written Ipopt TNLP for the study-001 chapter-3 GP relaxation, with
// no ychart code at all (only Ipopt and the standard library). It exists as
// the yardstick for ychart's overhead: it is what one would write by hand for
// this one problem, so the ratio ychart / baseline in bench_relaxation.cpp is
// the price of ychart's modelling layer (expressions, lowering, derivative
// maps, Solution reports) over raw Ipopt.
//
// The problem in log space, y = log x (II in ms, N_k compute units):
//   minimise   y_II
//   subject to log(WCET_k) - y_k - y_II <= 0               k = 1..K  (linear)
//              sum_k (R_kt / (F cap)) exp(y_k) <= 1      t in {BRAM, DSP, BW}
//              y_k >= 0                                  (N_k >= 1, a bound)
// A stage that does not use a resource adds no term to that row. The
// resource rows are sums of exponentials of single variables, so their
// Hessian is diagonal: the Lagrangian Hessian has one entry per stage.
// Gradients and Hessians are exact.
//
// The Ipopt options are those of ychart's IpoptRunner
// (include/ychart/solve/gp/ipopt_gp.hpp): sb=yes, print_level 0, tol 1e-9,
// max_iter 3000, mu_strategy adaptive; BaselineOptions can change them.
#pragma once

#include <IpIpoptApplication.hpp>
#include <IpSolveStatistics.hpp>
#include <IpTNLP.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace baseline {

/// One pipeline stage: resources in % of one FPGA, WCET in ms.
struct Stage {
  double bram_pct, dsp_pct, bw_pct;
  double wcet_ms;
};

struct BaselineOptions {
  std::string mu_strategy = "adaptive";  // "adaptive" (ychart's choice) or "monotone"
  double tol = 1e-9;
  int max_iter = 3000;
  /// 0: y_II is free and y_k has only its lower bound, as one would write it
  /// by hand. > 0: every bound that is missing gets +-box, as ychart does
  /// (box = bound_exponent * ln 10 there) to recognise unbounded models.
  double box = 0.0;
};

struct BaselineResult {
  Ipopt::ApplicationReturnStatus status = Ipopt::Internal_Error;
  double ii_ms = std::nan("");     // exp(y_II)
  std::vector<double> cus;         // N_k = exp(y_k)
  int iterations = 0;
  bool optimal() const { return status == Ipopt::Solve_Succeeded || status == Ipopt::Solved_To_Acceptable_Level; }
};

class RelaxationTnlp : public Ipopt::TNLP {
 public:
  /// Variables: y_0 .. y_{K-1} (log N_k), then y_II (index K).
  RelaxationTnlp(const std::vector<Stage>& stages, int fpgas, double cap_pct, double box, BaselineResult& out)
      : K_(static_cast<int>(stages.size())), box_(box), out_(out), e_(stages.size()) {
    log_wcet_.reserve(stages.size());
    for (const auto& s : stages) log_wcet_.push_back(std::log(s.wcet_ms));
    const double scale = 1.0 / (fpgas * cap_pct);
    for (int t = 0; t < 3; ++t) {
      for (int k = 0; k < K_; ++k) {
        const auto& s = stages[std::size_t(k)];
        const double r = t == 0 ? s.bram_pct : t == 1 ? s.dsp_pct : s.bw_pct;
        if (r == 0.0) continue;  // no use of the resource: no term
        res_[t].push_back({k, r * scale});
      }
    }
    // The Hessian's diagonal slot of each stage used by some resource.
    hess_slot_.assign(stages.size(), -1);
    for (int t = 0; t < 3; ++t)
      for (const auto& term : res_[t]) hess_slot_[std::size_t(term.stage)] = 0;
    for (int k = 0; k < K_; ++k)
      if (hess_slot_[std::size_t(k)] == 0) {
        hess_slot_[std::size_t(k)] = static_cast<int>(hess_var_.size());
        hess_var_.push_back(k);
      }
  }

  bool get_nlp_info(Ipopt::Index& n, Ipopt::Index& m, Ipopt::Index& nnz_jac, Ipopt::Index& nnz_h,
                    IndexStyleEnum& style) override {
    n = K_ + 1;
    m = K_ + 3;
    nnz_jac = 2 * K_;
    for (const auto& r : res_) nnz_jac += Ipopt::Index(r.size());
    nnz_h = Ipopt::Index(hess_var_.size());
    style = C_STYLE;
    return true;
  }

  bool get_bounds_info(Ipopt::Index n, Ipopt::Number* xl, Ipopt::Number* xu, Ipopt::Index m, Ipopt::Number* gl,
                       Ipopt::Number* gu) override {
    const double inf = box_ > 0.0 ? box_ : 2e19;
    for (int k = 0; k < K_; ++k) xl[k] = 0.0, xu[k] = inf;  // N_k >= 1
    xl[n - 1] = -inf, xu[n - 1] = inf;                     // y_II
    for (int i = 0; i < K_; ++i) gl[i] = -2e19, gu[i] = 0.0;
    for (int i = K_; i < m; ++i) gl[i] = -2e19, gu[i] = 1.0;
    return true;
  }

  bool get_starting_point(Ipopt::Index n, bool, Ipopt::Number* x, bool, Ipopt::Number*, Ipopt::Number*,
                          Ipopt::Index, bool, Ipopt::Number*) override {
    std::fill(x, x + n, 0.0);  // N_k = 1, II = 1 ms
    return true;
  }

  bool eval_f(Ipopt::Index n, const Ipopt::Number* x, bool, Ipopt::Number& obj) override {
    obj = x[n - 1];
    return true;
  }
  bool eval_grad_f(Ipopt::Index n, const Ipopt::Number*, bool, Ipopt::Number* grad) override {
    std::fill(grad, grad + n, 0.0);
    grad[n - 1] = 1.0;
    return true;
  }

  bool eval_g(Ipopt::Index n, const Ipopt::Number* x, bool new_x, Ipopt::Index, Ipopt::Number* g) override {
    if (!update(x, new_x)) return false;
    const double y_ii = x[n - 1];
    for (int k = 0; k < K_; ++k) g[k] = log_wcet_[std::size_t(k)] - x[k] - y_ii;
    for (int t = 0; t < 3; ++t) {
      double s = 0.0;
      for (const auto& term : res_[t]) s += term.coef * e_[std::size_t(term.stage)];
      g[K_ + t] = s;
    }
    return true;
  }

  bool eval_jac_g(Ipopt::Index n, const Ipopt::Number* x, bool new_x, Ipopt::Index, Ipopt::Index,
                  Ipopt::Index* row, Ipopt::Index* col, Ipopt::Number* values) override {
    if (!values) {
      int p = 0;
      for (int k = 0; k < K_; ++k) {
        row[p] = k, col[p++] = k;
        row[p] = k, col[p++] = n - 1;
      }
      for (int t = 0; t < 3; ++t)
        for (const auto& term : res_[t]) row[p] = K_ + t, col[p++] = term.stage;
      return true;
    }
    if (!update(x, new_x)) return false;
    int p = 0;
    for (int k = 0; k < K_; ++k) values[p++] = -1.0, values[p++] = -1.0;
    for (int t = 0; t < 3; ++t)
      for (const auto& term : res_[t]) values[p++] = term.coef * e_[std::size_t(term.stage)];
    return true;
  }

  bool eval_h(Ipopt::Index, const Ipopt::Number* x, bool new_x, Ipopt::Number, Ipopt::Index,
              const Ipopt::Number* lambda, bool, Ipopt::Index nele, Ipopt::Index* row, Ipopt::Index* col,
              Ipopt::Number* values) override {
    if (!values) {
      for (std::size_t p = 0; p < hess_var_.size(); ++p) row[p] = col[p] = hess_var_[p];
      return true;
    }
    if (!update(x, new_x)) return false;
    // The objective and the WCET rows are linear: only the resource rows count,
    // d2/dy_k2 of c exp(y_k) = c exp(y_k), on the diagonal.
    std::fill(values, values + nele, 0.0);
    for (int t = 0; t < 3; ++t) {
      const double l = lambda[K_ + t];
      for (const auto& term : res_[t])
        values[hess_slot_[std::size_t(term.stage)]] += l * term.coef * e_[std::size_t(term.stage)];
    }
    return true;
  }

  void finalize_solution(Ipopt::SolverReturn, Ipopt::Index n, const Ipopt::Number* x, const Ipopt::Number*,
                         const Ipopt::Number*, Ipopt::Index, const Ipopt::Number*, const Ipopt::Number*,
                         Ipopt::Number, const Ipopt::IpoptData*, Ipopt::IpoptCalculatedQuantities*) override {
    out_.ii_ms = std::exp(x[n - 1]);
    out_.cus.resize(std::size_t(K_));
    for (int k = 0; k < K_; ++k) out_.cus[std::size_t(k)] = std::exp(x[k]);
  }

 private:
  struct Term {
    int stage;
    double coef;  // R_kt / (F cap)
  };

  // e_k = exp(y_k), once per new point; false on overflow so that Ipopt
  // shortens its step.
  bool update(const Ipopt::Number* x, bool new_x) {
    if (!new_x && evaluated_) return ok_;
    evaluated_ = true;
    ok_ = true;
    for (int k = 0; k < K_; ++k) {
      if (x[k] > 700.0) ok_ = false;
      e_[std::size_t(k)] = std::exp(x[k]);
    }
    return ok_;
  }

  int K_;
  double box_;
  BaselineResult& out_;
  std::vector<double> log_wcet_;
  std::array<std::vector<Term>, 3> res_;  // BRAM, DSP, BW
  std::vector<int> hess_slot_;            // stage -> Hessian entry (-1: none)
  std::vector<Ipopt::Index> hess_var_;    // Hessian entry -> stage
  std::vector<double> e_;
  bool evaluated_ = false, ok_ = true;
};

/// An Ipopt application with ychart's options (or `o`'s variations).
inline Ipopt::SmartPtr<Ipopt::IpoptApplication> make_application(const BaselineOptions& o = {}) {
  Ipopt::SmartPtr<Ipopt::IpoptApplication> app = IpoptApplicationFactory();
  app->Options()->SetStringValue("sb", "yes");
  app->Options()->SetIntegerValue("print_level", 0);
  app->Initialize();
  app->Options()->SetNumericValue("tol", o.tol);
  app->Options()->SetIntegerValue("max_iter", o.max_iter);
  app->Options()->SetNumericValue("max_cpu_time", 1e20);
  app->Options()->SetStringValue("mu_strategy", o.mu_strategy);
  return app;
}

/// Solves with an existing application (the "solve only" path).
inline BaselineResult solve(Ipopt::IpoptApplication& app, const std::vector<Stage>& stages, int fpgas,
                            double cap_pct, const BaselineOptions& o = {}) {
  BaselineResult r;
  Ipopt::SmartPtr<Ipopt::TNLP> nlp = new RelaxationTnlp(stages, fpgas, cap_pct, o.box, r);
  r.status = app.OptimizeTNLP(nlp);
  if (auto stats = app.Statistics(); Ipopt::IsValid(stats)) r.iterations = stats->IterationCount();
  return r;
}

/// Builds the TNLP and a fresh application, and solves.
inline BaselineResult solve(const std::vector<Stage>& stages, int fpgas, double cap_pct,
                            const BaselineOptions& o = {}) {
  auto app = make_application(o);
  return solve(*app, stages, fpgas, cap_pct, o);
}

}  // namespace baseline
