// ychart/solve/milp/glpk_milp.hpp
// A mixed-integer linear program solved with GLPK's branch and cut
// (glp_intopt, presolver on). The building block of ychart's integer
// solvers: pure integer-linear models, outer approximation's master
// problems and the heuristics' repairs go here (through solve_milp(),
// which may pick CBC instead for large models). Returns a status ychart trusts:
// `optimal` only when GLPK proved it, `time_limit` with incumbent (if any),
// best bound and gap, `infeasible`, `unbounded`.
#pragma once

#include "milp_form.hpp"
#include "../../progress.hpp"

#include <Eigen/SparseCore>
#include <glpk.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <csetjmp>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ychart::solve::milp {

namespace detail {

inline int glpk_bound_type(double lo, double hi) {
  const bool has_lo = std::isfinite(lo), has_hi = std::isfinite(hi);
  if (has_lo && has_hi) return lo == hi ? GLP_FX : GLP_DB;
  if (has_lo) return GLP_LO;
  if (has_hi) return GLP_UP;
  return GLP_FR;
}

// GLPK keeps one environment per thread (thread-local storage in Debian's
// build); a thread that ends without glp_free_env() leaks it. Every thread
// that solves a MILP holds this guard, which frees the environment when the
// thread exits (sweeps run solves on worker threads).
struct EnvironmentPerThread {
  ~EnvironmentPerThread() { glp_free_env(); }
};
inline void free_environment_at_thread_exit() {
  static thread_local EnvironmentPerThread guard;
  (void)guard;
}

struct GlpkProblem {
  glp_prob* p = (free_environment_at_thread_exit(), glp_create_prob());
  bool alive = true;  // false once an internal GLPK error freed the environment (and p with it)
  ~GlpkProblem() {
    if (alive) glp_delete_prob(p);
  }
};

// GLPK stops the process on an internal error (a failed assertion in its
// simplex on a badly scaled LP, for one). Its documented way out is an error
// hook that frees the environment and longjmps back; only GLPK's C frames
// (and the trivial bound callback) lie between, so nothing is skipped that
// needs destroying.
struct ErrorJump {
  std::jmp_buf env;
};
inline void glpk_error_hook(void* info) {
  glp_free_env();
  std::longjmp(static_cast<ErrorJump*>(info)->env, 1);
}
inline constexpr int glpk_internal_error = -1;

/// Runs `call` (GLPK calls on prob that return GLPK's code) with the error
/// hook set: the code, or glpk_internal_error when GLPK failed internally
/// (the environment, and prob with it, are then freed). Only GLPK's C frames
/// and the trivial `call` lie between here and the hook's longjmp.
template <class Call>
int call_guarded(GlpkProblem& prob, Call&& call) {
  ErrorJump jump;
  if (setjmp(jump.env) != 0) {
    prob.alive = false;
    return glpk_internal_error;
  }
  glp_error_hook(&glpk_error_hook, &jump);
  const int rc = call();
  glp_error_hook(nullptr, nullptr);
  return rc;
}


struct TerminalCapture {
  bool echo;
  std::string text;  // the last few kilobytes GLPK wrote
};
inline int capture_terminal(void* info, const char* s) {
  auto* c = static_cast<TerminalCapture*>(info);
  if (c->echo) std::fputs(s, stdout);
  c->text += s;
  if (c->text.size() > 4096) c->text.erase(0, c->text.size() - 4096);
  return 1;  // handled: GLPK prints nothing itself
}

// Loads the form; with `zero_objective` the objective is dropped (feasibility).
inline void load(glp_prob* p, const MilpForm& f, bool zero_objective) {
  glp_set_obj_dir(p, f.maximize ? GLP_MAX : GLP_MIN);
  const int m = static_cast<int>(f.A.rows());
  if (m > 0) glp_add_rows(p, m);
  if (f.n > 0) glp_add_cols(p, f.n);
  for (int i = 0; i < m; ++i)
    glp_set_row_bnds(p, i + 1, glpk_bound_type(f.row_lower[i], f.row_upper[i]),
                     std::isfinite(f.row_lower[i]) ? f.row_lower[i] : 0.0,
                     std::isfinite(f.row_upper[i]) ? f.row_upper[i] : 0.0);
  for (int j = 0; j < f.n; ++j) {
    glp_set_col_bnds(p, j + 1, glpk_bound_type(f.lower[j], f.upper[j]),
                     std::isfinite(f.lower[j]) ? f.lower[j] : 0.0, std::isfinite(f.upper[j]) ? f.upper[j] : 0.0);
    glp_set_obj_coef(p, j + 1, zero_objective ? 0.0 : f.c[j]);
    if (f.integer[j]) glp_set_col_kind(p, j + 1, GLP_IV);
  }
  glp_set_obj_coef(p, 0, zero_objective ? 0.0 : f.c0);
  // GLPK's arrays are 1-based with an unused element 0.
  std::vector<int> ia(1), ja(1);
  std::vector<double> ar(1);
  ia.reserve(f.A.nonZeros() + 1), ja.reserve(f.A.nonZeros() + 1), ar.reserve(f.A.nonZeros() + 1);
  for (int i = 0; i < m; ++i)
    for (Eigen::SparseMatrix<double, Eigen::RowMajor, int>::InnerIterator it(f.A, i); it; ++it)
      if (it.value() != 0.0) ia.push_back(i + 1), ja.push_back(it.col() + 1), ar.push_back(it.value());
  glp_load_matrix(p, static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());
}

struct BoundTracker {
  double bound = 0.0;
  bool seen = false;
  std::vector<double> offer;  // 1-based: offered to GLPK at its first heuristic call
  bool offer_taken = false;
  ychart::detail::StatusLine* line = nullptr;  // progress, if shown
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

inline void track_bound(glp_tree* tree, void* info) {
  auto* t = static_cast<BoundTracker*>(info);
  if (!t->offer.empty() && glp_ios_reason(tree) == GLP_IHEUR) {
    t->offer_taken = glp_ios_heur_sol(tree, t->offer.data()) == 0;
    t->offer.clear();
  }
  if (const int node = glp_ios_best_node(tree); node != 0) {
    t->bound = glp_ios_node_bound(tree, node);
    t->seen = true;
  }
  if (!t->line || !t->line->active()) return;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t->start).count();
  t->line->update(elapsed, [&] {
    glp_prob* p = glp_ios_get_prob(tree);
    const bool has = glp_mip_status(p) == GLP_FEAS || glp_mip_status(p) == GLP_OPT;
    const double incumbent = has ? glp_mip_obj_val(p) : std::nan("");
    const double gap = has && t->seen ? relative_gap(incumbent, t->bound) : std::nan("");
    int active = 0, total = 0, all = 0;
    glp_ios_tree_size(tree, &active, &total, &all);
    char text[256];
    std::snprintf(text, sizeof text, "ychart glpk: %8.2f s  incumbent %-12.6g  bound %-12.6g  gap %8.4f %%  %d nodes (%d open)",
                  elapsed, incumbent, t->seen ? t->bound : std::nan(""), 100.0 * gap, all, active);
    return std::string(text);
  });
}

inline int time_limit_ms(double seconds) {
  const double ms = seconds * 1000.0;
  return ms >= double(INT_MAX) ? INT_MAX : std::max(1, static_cast<int>(ms));
}

/// Solves the LP relaxation in place (the basis glp_intopt needs without its
/// presolver); true when it is optimal.
inline bool solve_relaxation(GlpkProblem& prob, double time_limit) {
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.tm_lim = time_limit_ms(time_limit);
  const int rc = call_guarded(prob, [&] { return glp_simplex(prob.p, &parm); });
  return rc == 0 && glp_get_status(prob.p) == GLP_OPT;
}

// With `presolve` off, the LP relaxation must have been solved (an optimal basis).
inline int run_intopt(GlpkProblem& prob, const MilpOptions& o, BoundTracker* tracker, bool presolve = true) {
  glp_iocp parm;
  glp_init_iocp(&parm);
  parm.presolve = presolve ? GLP_ON : GLP_OFF;
  parm.msg_lev = o.verbose ? GLP_MSG_ON : GLP_MSG_OFF;
  parm.out_frq = 1000;  // ms between GLPK's progress lines when verbose
  parm.mip_gap = o.relative_gap;
  // Clique cuts stay off: GLPK 5.0's generator (glp_clq_cut) frees memory
  // it did not allocate on some models (AddressSanitizer, bad-free, on
  // PipelinePowerModel.DeviceLevelsEqualTheMilpWithManyCusPerDevice), which
  // corrupts the heap of a build without the sanitizer.
  if (o.cuts) {
    parm.gmi_cuts = o.gomory_cuts ? GLP_ON : GLP_OFF;
    parm.mir_cuts = parm.cov_cuts = GLP_ON;
  }
  parm.tm_lim = time_limit_ms(o.time_limit);
  if (tracker) {
    parm.cb_func = &track_bound;
    parm.cb_info = tracker;
  }
  return call_guarded(prob, [&] { return glp_intopt(prob.p, &parm); });
}

/// GLPK's terminal output goes through a hook while a solve runs: shown
/// only when verbose, and kept, so that an internal error's text ends up in
/// the message instead of on the user's terminal. Restores GLPK's output
/// setting when the solve ends.
class TerminalGuard {
 public:
  explicit TerminalGuard(bool verbose) : capture_{verbose, {}} {
    glp_term_hook(&capture_terminal, &capture_);
    previous_ = glp_term_out(GLP_ON);
  }
  TerminalGuard(const TerminalGuard&) = delete;
  TerminalGuard& operator=(const TerminalGuard&) = delete;
  ~TerminalGuard() {
    glp_term_hook(nullptr, nullptr);
    glp_term_out(previous_);
  }
  /// Freeing GLPK's environment (after an internal error) drops the hook.
  void reinstall() {
    glp_term_hook(&capture_terminal, &capture_);
    glp_term_out(GLP_ON);
  }
  /// What GLPK wrote last, on one line.
  std::string said() const {
    std::string text = capture_.text;
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    for (auto& ch : text)
      if (ch == '\n') ch = ';';
    return text;
  }

 private:
  TerminalCapture capture_;
  int previous_ = GLP_ON;
};

/// Runs glp_intopt on the form: from the start point when one is given and
/// feasible (which needs the LP relaxation solved, without the presolver),
/// and once more without cuts when GLPK's cut generators fail. Returns the
/// problem GLPK solved last and its return code.
inline std::pair<std::unique_ptr<GlpkProblem>, int> run_search(const MilpForm& f, const MilpOptions& o,
                                                               TerminalGuard& terminal, BoundTracker& tracker) {
  auto prob = std::make_unique<GlpkProblem>();
  load(prob->p, f, false);
  int rc = 1;
  bool started = false;
  if (!o.start.empty() && feasible_point(f, o.start)) {
    // One whose relaxation is not optimal (unbounded) takes the usual path below.
    if (solve_relaxation(*prob, o.time_limit)) {
      tracker.offer.assign(1, 0.0);
      tracker.offer.insert(tracker.offer.end(), o.start.begin(), o.start.end());
      rc = run_intopt(*prob, o, &tracker, false);
      started = true;
    } else {
      if (!prob->alive) terminal.reinstall();
      prob = std::make_unique<GlpkProblem>();
      load(prob->p, f, false);
    }
  }
  if (!started) rc = run_intopt(*prob, o, &tracker);
  if (rc == glpk_internal_error && o.cuts) {
    // GLPK 5.0's cut generators trip over some problems (glp_add_cols with
    // no columns after presolve); once more without them.
    MilpOptions plain = o;
    plain.cuts = false;
    terminal.reinstall();
    prob = std::make_unique<GlpkProblem>();
    load(prob->p, f, false);
    const double bound_so_far = tracker.bound;
    auto* line = tracker.line;
    tracker = BoundTracker{};
    tracker.bound = bound_so_far;
    tracker.line = line;
    rc = run_intopt(*prob, plain, &tracker);
  }
  return {std::move(prob), rc};
}

/// The LP relaxation is unbounded: decided by a zero-objective run (see
/// unbounded_relaxation_result). Branch and bound over an unbounded region
/// with no integer point never ends (2n - 2m = 1), so this decision gets at
/// most `undecided_limit` seconds.
inline MilpResult decide_unbounded(const MilpForm& f, const MilpOptions& o) {
  GlpkProblem feas;
  load(feas.p, f, true);
  MilpOptions decide = o;
  decide.time_limit = std::min(o.time_limit, o.undecided_limit);
  const int rc = run_intopt(feas, decide, nullptr);
  const int st = rc == 0 ? glp_mip_status(feas.p) : GLP_UNDEF;
  if (st == GLP_OPT || st == GLP_FEAS) return unbounded_relaxation_result(IntegerPoint::found);
  if (rc == 0 && st == GLP_NOFEAS) return unbounded_relaxation_result(IntegerPoint::proved_none);
  if (rc == GLP_ETMLIM) return unbounded_relaxation_result(IntegerPoint::undecided);
  MilpResult r;
  r.status = Status::numerical_error;
  r.message = "GLPK could not decide feasibility (code " + std::to_string(rc) + ")";
  return r;
}

/// The result of a search that ended normally, at the gap or at the time
/// limit: the incumbent, the bound, the gap, and a status that calls only a
/// proven point optimal.
inline MilpResult read_result(const MilpForm& f, glp_prob* p, int rc, const BoundTracker& tracker,
                              double requested_gap) {
  MilpResult r;
  auto read_incumbent = [&] {
    r.x.resize(f.n);
    for (int j = 0; j < f.n; ++j) r.x[j] = glp_mip_col_val(p, j + 1);
    r.objective = glp_mip_obj_val(p);
  };
  auto set_gap = [&] { r.gap = relative_gap(r.objective, r.bound); };
  const int st = glp_mip_status(p);
  if (rc == 0 && st == GLP_OPT) {
    read_incumbent();
    r.bound = r.objective;  // proven: the tree is exhausted
    r.gap = 0.0;
    r.status = Status::optimal;
    return r;
  }
  if (rc == 0 && st != GLP_FEAS && st != GLP_OPT) {
    r.status = Status::infeasible;
    r.message = "no integer feasible point";
    return r;
  }
  if (rc == 0) {  // finished without proving optimality: not expected from GLPK, never called optimal
    read_incumbent();
    r.bound = tracker.bound;
    set_gap();
    r.status = Status::numerical_error;
    r.message = "GLPK finished with a feasible but unproven point";
    return r;
  }
  if (rc == GLP_EMIPGAP) {  // stopped at the requested gap: optimal within it
    read_incumbent();
    // Unseen (the first point found at the root), the bound is what GLPK's
    // stopping rule guarantees, |incumbent - bound| <= gap (|incumbent| +
    // DBL_EPSILON); the incumbent itself was reported before, which a
    // caller with a large requested gap took for a proof.
    const double slack = requested_gap * (std::abs(r.objective) + std::numeric_limits<double>::epsilon());
    r.bound = tracker.seen ? tracker.bound : f.maximize ? r.objective + slack : r.objective - slack;
    set_gap();
    r.status = Status::optimal;
    r.message = "optimal within the requested relative gap";
    return r;
  }
  // Time limit: the incumbent if there is one, and the best bound seen.
  r.status = Status::time_limit;
  r.bound = tracker.bound;
  if (st == GLP_FEAS || st == GLP_OPT) {
    read_incumbent();
    set_gap();
    r.message = "time limit reached with an incumbent";
  } else {
    r.message = "time limit reached before any integer feasible point";
  }
  return r;
}

}  // namespace detail

/// The MILP by GLPK (MilpOptions::solver is not read; solve_milp() dispatches).
inline MilpResult solve_milp_glpk(const MilpForm& f, const MilpOptions& o = {}) {
  detail::validate(f);
  detail::TerminalGuard terminal(o.verbose);
  detail::BoundTracker tracker;
  tracker.bound = f.maximize ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
  ychart::detail::StatusLine status_line(o.progress, o.live_progress);
  tracker.line = &status_line;
  const auto [prob, rc] = detail::run_search(f, o, terminal, tracker);
  MilpResult r;
  if (rc == detail::glpk_internal_error) {
    r.status = Status::numerical_error;
    r.message = "GLPK stopped with an internal error (numerical trouble in its simplex)";
    if (const auto said = terminal.said(); !said.empty()) r.message += ": " + said;
    return r;
  }
  if (rc == GLP_ENOPFS) {
    r.status = Status::infeasible;
    r.message = "the LP relaxation has no feasible point";
    return r;
  }
  if (rc == GLP_ENODFS) return detail::decide_unbounded(f, o);
  if (rc != 0 && rc != GLP_ETMLIM && rc != GLP_EMIPGAP) {
    r.status = Status::numerical_error;
    r.message = "GLPK glp_intopt failed with code " + std::to_string(rc);
    return r;
  }
  return detail::read_result(f, prob->p, rc, tracker, o.relative_gap);
}

}  // namespace ychart::solve::milp
