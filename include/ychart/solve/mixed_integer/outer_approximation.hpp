// ychart/solve/mixed_integer/outer_approximation.hpp
// Outer approximation for the convex MINLP of a mixed-integer GP (Duran and
// Grossmann 1986; docs/solvers.md, "Mixed-integer models"). The GLPK master
// holds the linear rows, the binary encodings and tangent cuts of every
// convex row; its optimum is a bound. Fixing the master's integers gives a
// convex NLP for Ipopt: its optimum is a feasible point (an incumbent) and
// the place for new cuts; if it is infeasible, the cuts go at the point of
// least violation. The loop ends when bound and incumbent meet.
#pragma once

#include "migp_context.hpp"

#include <map>
#include <set>

namespace ychart::solve::mixed_integer {

struct SearchResult {
  Status status = Status::numerical_error;
  double bound_phi = -std::numeric_limits<double>::infinity();
  long count = 0;  // iterations or nodes
  std::string message;
  MilpSolver milp_solver = MilpSolver::glpk;  // one MILP only: the back end that solved it
  // Outer approximation only: the master proposed an assignment whose NLP
  // was solved already, with the gap still open. Tangent cuts at a point
  // Ipopt solved to its tolerance cannot close a gap tighter than that
  // tolerance; the caller finishes by branch and bound.
  bool stalled = false;
};

inline SearchResult outer_approximation(MigpContext& ctx, std::vector<Cut>& cuts) {
  SearchResult res;
  const auto& f = ctx.form();
  std::set<std::vector<long long>> seen;  // integer assignments already given to the NLP
  for (long it = 0;; ++it) {
    res.count = it;
    if (it >= ctx.options().node_limit) {
      res.status = Status::node_limit;
      res.message = "iteration limit of outer approximation reached";
      return res;
    }
    if (ctx.out_of_time()) {
      res.status = Status::time_limit;
      res.message = "time limit reached";
      return res;
    }
    milp::MilpOptions mo;
    mo.solver = ctx.options().milp_solver;
    mo.time_limit = std::max(1e-3, ctx.remaining());
    auto master = ctx.master(cuts);
    auto r = milp::solve_milp(master, mo);
    if (r.status == Status::infeasible) {
      // No integer point satisfies the linear rows and the cuts: what the
      // incumbent is, is optimal (or the model is infeasible).
      res.bound_phi = ctx.has_incumbent() ? ctx.incumbent_phi() : std::numeric_limits<double>::infinity();
      res.status = ctx.has_incumbent() ? Status::optimal : Status::infeasible;
      return res;
    }
    if (r.status == Status::unbounded) {
      res.status = Status::unbounded;
      res.message = "the master problem is unbounded";
      return res;
    }
    if (r.status != Status::optimal) {
      if (r.status == Status::time_limit && std::isfinite(r.bound)) res.bound_phi = std::max(res.bound_phi, r.bound);
      res.status = r.status == Status::time_limit ? Status::time_limit : Status::numerical_error;
      res.message = "master problem: " + r.message;
      return res;
    }
    res.bound_phi = std::max(res.bound_phi, r.objective);  // cuts only accumulate: bounds never fall
    ctx.progress("outer approximation", res.bound_phi, it, "iterations");
    if (ctx.gap_closed(res.bound_phi)) {
      res.status = Status::optimal;
      return res;
    }
    std::vector<long long> key;
    for (int j = 0; j < f.nlp.n; ++j)
      if (f.integer[j]) key.push_back(std::llround(r.x[j]));
    if (!seen.insert(key).second) {
      // The master proposes an assignment whose NLP was solved already: the
      // cuts there bound it by the NLP's value, so bound and incumbent agree
      // up to the NLP's tolerance.
      res.status = ctx.gap_closed(res.bound_phi) ? Status::optimal : Status::numerical_error;
      if (res.status != Status::optimal) {
        res.stalled = true;
        res.message = "outer approximation repeated an integer assignment with the gap still open";
      }
      return res;
    }
    auto nlp = ctx.solve_fixed(r.x);
    if (nlp.kind == NlpOutcome::failed) {
      if (ctx.out_of_time()) {
        res.status = Status::time_limit;
        res.message = "time limit reached";
      } else {
        res.status = Status::numerical_error;
        res.message = nlp.message;
      }
      return res;
    }
    const std::size_t before = cuts.size();
    ctx.add_cuts(nlp.x, cuts);
    if (nlp.kind == NlpOutcome::infeasible || cuts.size() == before) {
      // Also exclude this assignment of the binaries directly; a no-good cut
      // on the encoding keeps the loop finite even when the tangents at the
      // least-violation point do not separate it.
      Cut nogood;
      double ones = 0.0;
      bool all_binary = true;
      for (int j = 0; j < f.nlp.n; ++j) {
        if (!f.integer[j]) continue;
        if (f.nlp.lower[j] != 0.0 || f.nlp.upper[j] != 1.0) {
          all_binary = false;
          continue;
        }
        const bool one = r.x[j] > 0.5;
        nogood.a.emplace_back(j, one ? 1.0 : -1.0);
        ones += one;
      }
      if (all_binary && nlp.kind == NlpOutcome::infeasible) {
        nogood.rhs = ones - 1.0;
        cuts.push_back(std::move(nogood));
      }
    }
  }
}

}  // namespace ychart::solve::mixed_integer
