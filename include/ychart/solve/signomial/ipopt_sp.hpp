// ychart/solve/signomial/ipopt_sp.hpp
// A continuous signomial program solved locally by Ipopt in log space
// (z = log x): the objective and every constraint are sums of signed
// exponentials sum_k c_k exp(a_k . z), which Ipopt's Newton steps handle
// directly. Sequential GP uses it to polish: where its condensations creep
// (two devices with nearly equal per-channel costs move by a factor of
// 1 + delta per GP, study 000's fully connected layers), Newton's method on
// the exact problem finishes in a few iterations. The result is a local
// solution with no global claim; the caller checks it before using it.
#pragma once

#include "../../expr/detail/term_list.hpp"
#include "../../model/model.hpp"
#include "../gp/ipopt_gp.hpp"

#include <IpIpoptApplication.hpp>
#include <IpTNLP.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace ychart::solve::signomial {

/// The log-space NLP: minimise objective(z) s.t. row_i(z) <= 0 or == 0,
/// lower <= z <= upper; functions are sums of signed exponentials.
struct LogSpaceProgram {
  struct Row {
    ychart::detail::TermList terms;
    bool equality = false;
  };
  ychart::detail::TermList objective;
  std::vector<Row> rows;
  std::vector<double> lower, upper;  // in z = log x
};

struct LogSpaceResult {
  bool success = false;
  std::string message;
  std::vector<double> x;  // exp(z)
  int iterations = 0;
};

namespace detail {

class LogSpaceTnlp : public Ipopt::TNLP {
 public:
  LogSpaceTnlp(const LogSpaceProgram& p, const std::vector<double>& z0, LogSpaceResult& out)
      : p_(p), z0_(z0), out_(out) {
    // Hessian slots: every pair of variables that share a term, lower triangle.
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> slot;
    auto scan = [&](const ychart::detail::TermList& t) {
      std::vector<std::vector<int>> term_slots(t.size());
      for (std::size_t k = 0; k < t.size(); ++k) {
        const auto f = t.factors(k);
        for (std::size_t a = 0; a < f.size(); ++a)
          for (std::size_t b = 0; b <= a; ++b) {
            const auto key = std::minmax(f[a].var, f[b].var);
            const auto [it, fresh] = slot.emplace(std::make_pair(key.second, key.first), int(slot.size()));
            if (fresh) hess_row_.push_back(Ipopt::Index(key.second)), hess_col_.push_back(Ipopt::Index(key.first));
            term_slots[k].push_back(it->second);
          }
      }
      return term_slots;
    };
    objective_slots_ = scan(p_.objective);
    for (const auto& r : p_.rows) {
      row_slots_.push_back(scan(r.terms));
      std::vector<std::uint32_t> cols;
      for (std::size_t k = 0; k < r.terms.size(); ++k)
        for (const auto& f : r.terms.factors(k)) cols.push_back(f.var);
      std::sort(cols.begin(), cols.end());
      cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
      row_cols_.push_back(cols);
      jac_nnz_ += cols.size();
    }
  }

  bool get_nlp_info(Ipopt::Index& n, Ipopt::Index& m, Ipopt::Index& nnz_jac, Ipopt::Index& nnz_h,
                    IndexStyleEnum& style) override {
    n = Ipopt::Index(p_.lower.size());
    m = Ipopt::Index(p_.rows.size());
    nnz_jac = Ipopt::Index(jac_nnz_);
    nnz_h = Ipopt::Index(hess_row_.size());
    style = C_STYLE;
    return true;
  }
  bool get_bounds_info(Ipopt::Index n, Ipopt::Number* xl, Ipopt::Number* xu, Ipopt::Index m, Ipopt::Number* gl,
                       Ipopt::Number* gu) override {
    for (Ipopt::Index j = 0; j < n; ++j) {
      xl[j] = std::isfinite(p_.lower[std::size_t(j)]) ? p_.lower[std::size_t(j)] : -1e20;
      xu[j] = std::isfinite(p_.upper[std::size_t(j)]) ? p_.upper[std::size_t(j)] : 1e20;
    }
    for (Ipopt::Index i = 0; i < m; ++i) gl[i] = p_.rows[std::size_t(i)].equality ? 0.0 : -1e20, gu[i] = 0.0;
    return true;
  }
  bool get_starting_point(Ipopt::Index n, bool, Ipopt::Number* z, bool, Ipopt::Number*, Ipopt::Number*,
                          Ipopt::Index, bool, Ipopt::Number*) override {
    for (Ipopt::Index j = 0; j < n; ++j) z[j] = z0_[std::size_t(j)];
    return true;
  }
  bool eval_f(Ipopt::Index, const Ipopt::Number* z, bool, Ipopt::Number& f) override {
    f = value(p_.objective, z);
    return std::isfinite(f);
  }
  bool eval_grad_f(Ipopt::Index n, const Ipopt::Number* z, bool, Ipopt::Number* g) override {
    std::fill(g, g + n, 0.0);
    const auto& t = p_.objective;
    for (std::size_t k = 0; k < t.size(); ++k) {
      const double v = term(t, k, z);
      for (const auto& f : t.factors(k)) g[f.var] += f.exponent * v;
    }
    return true;
  }
  bool eval_g(Ipopt::Index, const Ipopt::Number* z, bool, Ipopt::Index m, Ipopt::Number* g) override {
    for (Ipopt::Index i = 0; i < m; ++i) g[i] = value(p_.rows[std::size_t(i)].terms, z);
    return true;
  }
  bool eval_jac_g(Ipopt::Index, const Ipopt::Number* z, bool, Ipopt::Index m, Ipopt::Index, Ipopt::Index* row,
                  Ipopt::Index* col, Ipopt::Number* values) override {
    std::size_t at = 0;
    for (Ipopt::Index i = 0; i < m; ++i) {
      const auto& cols = row_cols_[std::size_t(i)];
      if (!values) {
        for (auto c : cols) row[at] = i, col[at] = Ipopt::Index(c), ++at;
        continue;
      }
      std::fill(values + at, values + at + cols.size(), 0.0);
      const auto& t = p_.rows[std::size_t(i)].terms;
      for (std::size_t k = 0; k < t.size(); ++k) {
        const double v = term(t, k, z);
        for (const auto& f : t.factors(k))
          values[at + std::size_t(std::lower_bound(cols.begin(), cols.end(), f.var) - cols.begin())] += f.exponent * v;
      }
      at += cols.size();
    }
    return true;
  }
  bool eval_h(Ipopt::Index, const Ipopt::Number* z, bool, Ipopt::Number sigma, Ipopt::Index m,
              const Ipopt::Number* lambda, bool, Ipopt::Index, Ipopt::Index* row, Ipopt::Index* col,
              Ipopt::Number* values) override {
    if (!values) {
      std::copy(hess_row_.begin(), hess_row_.end(), row);
      std::copy(hess_col_.begin(), hess_col_.end(), col);
      return true;
    }
    std::fill(values, values + hess_row_.size(), 0.0);
    auto add = [&](const ychart::detail::TermList& t, const std::vector<std::vector<int>>& slots, double w) {
      if (w == 0.0) return;
      for (std::size_t k = 0; k < t.size(); ++k) {
        const double v = w * term(t, k, z);
        const auto f = t.factors(k);
        std::size_t s = 0;
        for (std::size_t a = 0; a < f.size(); ++a)
          for (std::size_t b = 0; b <= a; ++b) values[slots[k][s++]] += f[a].exponent * f[b].exponent * v;
      }
    };
    add(p_.objective, objective_slots_, sigma);
    for (Ipopt::Index i = 0; i < m; ++i) add(p_.rows[std::size_t(i)].terms, row_slots_[std::size_t(i)], lambda[i]);
    return true;
  }
  void finalize_solution(Ipopt::SolverReturn, Ipopt::Index n, const Ipopt::Number* z, const Ipopt::Number*,
                         const Ipopt::Number*, Ipopt::Index, const Ipopt::Number*, const Ipopt::Number*,
                         Ipopt::Number, const Ipopt::IpoptData*, Ipopt::IpoptCalculatedQuantities*) override {
    out_.x.resize(std::size_t(n));
    for (Ipopt::Index j = 0; j < n; ++j) out_.x[std::size_t(j)] = std::exp(z[j]);
  }

 private:
  static double term(const ychart::detail::TermList& t, std::size_t k, const Ipopt::Number* z) {
    double e = 0.0;
    for (const auto& f : t.factors(k)) e += f.exponent * z[f.var];
    return t.coefficient(k) * std::exp(e);
  }
  static double value(const ychart::detail::TermList& t, const Ipopt::Number* z) {
    double v = 0.0;
    for (std::size_t k = 0; k < t.size(); ++k) v += term(t, k, z);
    return v;
  }

  const LogSpaceProgram& p_;
  const std::vector<double>& z0_;
  LogSpaceResult& out_;
  std::vector<std::vector<int>> objective_slots_;
  std::vector<std::vector<std::vector<int>>> row_slots_;
  std::vector<std::vector<std::uint32_t>> row_cols_;
  std::size_t jac_nnz_ = 0;
  std::vector<Ipopt::Index> hess_row_, hess_col_;
};

}  // namespace detail

/// Solves the program from x0 (> 0, within the bounds' exp).
inline LogSpaceResult solve_log_space(const LogSpaceProgram& p, const std::vector<double>& x0, const SolveOptions& o) {
  LogSpaceResult out;
  std::vector<double> z0(x0.size());
  for (std::size_t j = 0; j < x0.size(); ++j)
    z0[j] = std::clamp(std::log(x0[j]), p.lower[j], p.upper[j]);
  std::lock_guard<std::mutex> one_at_a_time(gp::detail::ipopt_mutex());  // MUMPS is not thread-safe (ipopt_gp.hpp)
  Ipopt::SmartPtr<Ipopt::IpoptApplication> app = IpoptApplicationFactory();
  auto opt = app->Options();
  opt->SetStringValue("sb", "yes");
  opt->SetIntegerValue("print_level", std::clamp(o.verbosity - 2, 0, 12));
  opt->SetNumericValue("tol", std::min(o.tolerance, 1e-8));
  opt->SetNumericValue("constr_viol_tol", 1e-9);
  opt->SetIntegerValue("max_iter", std::min(o.max_iterations, 500));
  opt->SetNumericValue("max_cpu_time", std::max(1e-3, o.time_limit));
  opt->SetStringValue("mu_strategy", "adaptive");
  // Started at a near-KKT point: a small barrier keeps Ipopt from walking
  // away from it first.
  opt->SetStringValue("warm_start_init_point", "no");
  opt->SetNumericValue("mu_init", 1e-6);
  opt->SetNumericValue("bound_push", 1e-10);
  opt->SetNumericValue("bound_frac", 1e-10);
  if (app->Initialize() != Ipopt::Solve_Succeeded) {
    out.message = "Ipopt did not initialise";
    return out;
  }
  Ipopt::SmartPtr<Ipopt::TNLP> nlp = new detail::LogSpaceTnlp(p, z0, out);
  const auto status = app->OptimizeTNLP(nlp);
  out.success = status == Ipopt::Solve_Succeeded || status == Ipopt::Solved_To_Acceptable_Level;
  out.message = gp::detail::ipopt_status_text(status);
  if (auto stats = app->Statistics(); Ipopt::IsValid(stats)) out.iterations = stats->IterationCount();
  return out;
}

}  // namespace ychart::solve::signomial
