// ychart/solve/gp/gp_backend.hpp
// One GP form and the back ends that can solve it: the native interior-point
// method (native_gp.hpp) and Ipopt (ipopt_gp.hpp). GpBackend::run picks the
// one SolveOptions::gp_solver names; `automatic` runs the native method and
// falls back to Ipopt when it fails numerically, saying so on stderr at
// verbosity >= 1; `cross_check` runs both and throws solver_disagreement when
// they disagree. Each back end counts its fallbacks (Solution::gp_fallbacks
// reports a solve's), and so does the process (gp_fallbacks_in_process in
// model/status.hpp). Ipopt's application and the derivative maps it needs
// are made only when Ipopt first runs.
#pragma once

#include "../../model/status.hpp"
#include "../../model/tolerances.hpp"
#include "../../error.hpp"
#include "gp_result.hpp"
#include "ipopt_gp.hpp"
#include "native_gp.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

namespace ychart::solve::gp {

/// An Ipopt application, created the first time it is asked for.
class LazyIpopt {
 public:
  IpoptRunner& get() {
    if (!runner_) runner_ = std::make_unique<IpoptRunner>();
    return *runner_;
  }

 private:
  std::unique_ptr<IpoptRunner> runner_;
};

/// The back end `o` asks for: `automatic` is the process default
/// (set_default_gp_solver in model/status.hpp).
inline GpSolver effective_gp_solver(const SolveOptions& o) {
  return o.gp_solver != GpSolver::automatic ? o.gp_solver : default_gp_solver();
}

class GpBackend {
 public:
  /// `feasible_by_construction`: the form is a feasibility relaxation, so a
  /// native run that suspects infeasibility has failed and goes to Ipopt.
  GpBackend(const lower::GpStandardForm& form, LazyIpopt& ipopt, bool feasible_by_construction = false)
      : form_(form), ipopt_(ipopt), feasible_by_construction_(feasible_by_construction) {}

  /// Solves the form as `request` asks (gp_request.hpp; Ipopt ignores the
  /// warm start).
  GpResult run(const SolveOptions& o, const GpRequest& request) {
    const GpSolver which = effective_gp_solver(o);
    if (which == GpSolver::ipopt) return run_ipopt(o, request);
    GpResult r = native().run(o, request);
    if (which == GpSolver::native) return r;
    const bool native_failed = r.status == GpRunStatus::failed ||
                               (feasible_by_construction_ && r.status == GpRunStatus::suspected_infeasible);
    if (which == GpSolver::cross_check) {
      GpResult check = run_ipopt(o, request);
      compare(r, check, o.tolerance);
      if (!native_failed || !check.success()) return r;
      note_fallback(o, r, check);  // as `automatic` would
      return check;
    }
    if (!native_failed) return r;
    return fall_back(r, o, request);
  }

  /// Whether `r`, a run that suspected infeasibility, should be given to
  /// Ipopt after all: the feasibility relaxation found the form feasible.
  bool may_fall_back(const GpResult& r, const SolveOptions& o) const {
    const GpSolver which = effective_gp_solver(o);
    return (which == GpSolver::automatic || which == GpSolver::cross_check) && std::strcmp(r.solver, "native") == 0;
  }

  /// Ipopt on the same problem after the native method failed on it.
  GpResult fall_back(const GpResult& r, const SolveOptions& o, const GpRequest& request) {
    GpResult fallback = run_ipopt(o, request);
    fallback.iterations += r.iterations;
    note_fallback(o, r, fallback);
    fallback.message = "native GP solver failed (" + r.message + "), Ipopt " +
                       (fallback.success() ? std::string("solved it") : fallback.message);
    return fallback;
  }

  /// How many runs the native method failed and Ipopt was given.
  int fallbacks() const { return fallbacks_; }

 private:
  void note_fallback(const SolveOptions& o, const GpResult& native, const GpResult& ipopt) {
    ++fallbacks_;
    gp_fallback_counter().fetch_add(1, std::memory_order_relaxed);
    if (o.verbosity >= 1)
      std::fprintf(stderr, "ychart: native GP solver failed (%s); Ipopt: %s\n", native.message.c_str(),
                   ipopt.success() ? "solved" : ipopt.message.c_str());
  }

  NativeGpSolver& native() {
    if (!native_) native_.emplace(form_);
    return *native_;
  }

  GpResult run_ipopt(const SolveOptions& o, const GpRequest& request) {
    if (!maps_) maps_.emplace(form_);
    return ipopt_.get().run(form_, *maps_, o, request);
  }

  // Two definite answers must agree: both optimal with objectives 1e-6 apart
  // (relative to max(1, |objective|)), or 10 tolerances apart when the solve
  // asked for less (sequential GP solves its relaxation to 1e-5). A run that
  // did not finish (a failure, a limit, an iterate past the box) decides
  // nothing: the caller treats those alike whichever back end gave them.
  static void compare(const GpResult& native, const GpResult& ipopt, double tolerance) {
    if (!native.success() || !ipopt.success()) return;
    const double scale = std::max(1.0, std::abs(ipopt.objective));
    if (std::abs(native.objective - ipopt.objective) > std::max(tolerances::acceptable, 10 * tolerance) * scale) {
      char buf[200];
      std::snprintf(buf, sizeof buf, "ychart: GP cross-check: objective %.12g (native) vs %.12g (Ipopt)",
                    native.objective, ipopt.objective);
      throw solver_disagreement(buf);
    }
  }

  const lower::GpStandardForm& form_;
  LazyIpopt& ipopt_;
  bool feasible_by_construction_;
  std::optional<NativeGpSolver> native_;
  std::optional<GpDerivativeMaps> maps_;
  int fallbacks_ = 0;
};

}  // namespace ychart::solve::gp
