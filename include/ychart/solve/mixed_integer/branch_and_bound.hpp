// ychart/solve/mixed_integer/branch_and_bound.hpp
// NLP-based branch and bound: best-bound search over Ipopt relaxations of
// the convex MINLP (integrality dropped, encodings in [0, 1]). A discrete
// variable n whose relaxed value (or encoding) is fractional is branched on
// as `n <= floor` / `n >= ceil` of its relaxed value (for a choice, the
// values below and above it); a node whose relaxation is integral gives an
// incumbent; a node whose bound cannot beat the incumbent is pruned.
#pragma once

#include "../../model/tolerances.hpp"
#include "outer_approximation.hpp"

#include <queue>

namespace ychart::solve::mixed_integer {

namespace detail {

struct Node {
  std::vector<double> lower, upper;
  double bound;  // the parent's relaxation value: a bound for this subtree
  long id;
  bool operator<(const Node& o) const { return bound != o.bound ? bound > o.bound : id > o.id; }  // min-heap
};

/// The branching decision at a relaxed point: which discrete variable, and
/// the value at which to split (left: values <= split, right: > split).
struct Branch {
  int encoding = -1;  // index into form.encodings, or -1 for a plain integer column
  int column = -1;    // the plain integer column
  double split = 0.0;
  double score = 0.0;
};

inline Branch choose_branch(const lower::MinlpForm& f, const std::vector<double>& x,
                            const std::vector<double>& lower, const std::vector<double>& upper) {
  Branch best;
  constexpr double tol = MigpContext::integrality_tolerance;
  std::vector<char> encoded(f.nlp.n, 0);
  for (std::size_t e = 0; e < f.encodings.size(); ++e) {
    const auto& enc = f.encodings[e];
    double zmax = 0.0, value = 0.0;
    for (std::size_t i = 0; i < enc.values.size(); ++i) {
      const double z = x[enc.first + int(i)];
      zmax = std::max(zmax, z);
      value += enc.values[i] * z;
      encoded[enc.first + int(i)] = 1;
    }
    encoded[f.value_column[enc.var]] = 1;  // branched on through its encoding
    const double score = 1.0 - zmax;
    if (score <= tol || score <= best.score) continue;
    // Split at the relaxed value; if it is a value of the domain itself,
    // keep it on the left, so the fractional point leaves both children.
    double split = -std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < enc.values.size(); ++i) {
      const int col = enc.first + int(i);
      if (upper[col] < 0.5) continue;  // value excluded at this node
      if (enc.values[i] <= value + tolerances::integrality) split = enc.values[i];
    }
    bool left = false, right = false;  // both children must keep a value
    for (std::size_t i = 0; i < enc.values.size(); ++i) {
      const int col = enc.first + int(i);
      if (upper[col] < 0.5) continue;
      (enc.values[i] <= split ? left : right) = true;
    }
    if (!left || !right) continue;
    best = {int(e), -1, split, score};
  }
  for (int j = 0; j < f.nlp.n; ++j) {
    if (!f.integer[j] || encoded[j]) continue;
    const double frac = x[j] - std::floor(x[j]);
    const double score = std::min(frac, 1.0 - frac);
    if (score <= tol || score <= best.score) continue;
    if (std::floor(x[j]) < lower[j] || std::ceil(x[j]) > upper[j]) continue;
    best = {-1, j, std::floor(x[j]), score};
  }
  return best;
}

/// The discrete variable with the most values left at a node, split in the
/// middle of them (used when a node's relaxation could not be solved).
inline Branch widest_branch(const lower::MinlpForm& f, const std::vector<double>& lower,
                            const std::vector<double>& upper) {
  Branch best;
  std::vector<char> encoded(f.nlp.n, 0);
  for (std::size_t e = 0; e < f.encodings.size(); ++e) {
    const auto& enc = f.encodings[e];
    std::vector<double> open_values;
    for (std::size_t i = 0; i < enc.values.size(); ++i) {
      encoded[enc.first + int(i)] = 1;
      if (upper[enc.first + int(i)] > 0.5) open_values.push_back(enc.values[i]);
    }
    encoded[f.value_column[enc.var]] = 1;
    if (open_values.size() >= 2 && double(open_values.size()) > best.score)
      best = {int(e), -1, open_values[open_values.size() / 2 - 1], double(open_values.size())};
  }
  for (int j = 0; j < f.nlp.n; ++j) {
    if (!f.integer[j] || encoded[j]) continue;
    const double width = upper[j] - lower[j] + 1.0;
    if (width >= 2 && width > best.score) best = {-1, j, std::floor(0.5 * (lower[j] + upper[j])), width};
  }
  return best;
}

/// Restricts a node's bounds to the values of one discrete variable on one side of the split.
inline void restrict_side(const lower::MinlpForm& f, const Branch& b, bool left, std::vector<double>& lower,
                          std::vector<double>& upper) {
  if (b.encoding < 0) {
    if (left) upper[b.column] = b.split;
    else lower[b.column] = b.split + 1.0;
    return;
  }
  const auto& enc = f.encodings[b.encoding];
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (std::size_t i = 0; i < enc.values.size(); ++i) {
    const int col = enc.first + int(i);
    const bool keep = left ? enc.values[i] <= b.split : enc.values[i] > b.split;
    if (!keep) upper[col] = 0.0;
    if (keep && upper[col] > 0.5) lo = std::min(lo, enc.values[i]), hi = std::max(hi, enc.values[i]);
  }
  const int vc = f.value_column[enc.var];
  lower[vc] = std::max(lower[vc], lo);
  upper[vc] = std::min(upper[vc], hi);
  if (const int lc = f.log_column[enc.var]; lc >= 0) {
    lower[lc] = std::max(lower[lc], std::log(lo));
    upper[lc] = std::min(upper[lc], std::log(hi));
  }
}

}  // namespace detail

inline SearchResult branch_and_bound(MigpContext& ctx) {
  SearchResult res;
  const auto& f = ctx.form();
  std::priority_queue<detail::Node> open;
  long next_id = 0;
  open.push({f.nlp.lower, f.nlp.upper, -std::numeric_limits<double>::infinity(), next_id++});
  long nodes = 0;
  // Nodes Ipopt could not settle are neither explored nor pruned: their
  // bounds stay in the reported bound and optimality is not claimed.
  bool unresolved = false;
  double unresolved_bound = std::numeric_limits<double>::infinity();
  while (!open.empty()) {
    const double best_open = std::min(open.top().bound, unresolved_bound);
    res.bound_phi = std::min(best_open, ctx.incumbent_phi());
    ctx.progress("branch and bound", res.bound_phi, nodes, "nodes");
    if (ctx.gap_closed(best_open) || best_open >= ctx.cutoff()) break;
    if (nodes >= ctx.options().node_limit) {
      res.status = Status::node_limit;
      res.count = nodes;
      res.message = "node limit reached";
      return res;
    }
    if (ctx.out_of_time()) {
      res.status = Status::time_limit;
      res.count = nodes;
      res.message = "time limit reached";
      return res;
    }
    detail::Node node = open.top();
    open.pop();
    ++nodes;
    auto nlp = ctx.solve_nlp(node.lower, node.upper);
    if (nlp.kind == NlpOutcome::infeasible) continue;
    if (nlp.kind == NlpOutcome::failed) {
      if (ctx.out_of_time()) {  // reported as time_limit at the top of the loop
        unresolved_bound = std::min(unresolved_bound, node.bound);
        continue;
      }
      // Ipopt could not settle this node: split its widest discrete domain
      // and try the halves, keeping the parent's bound. Only a node with
      // every integer fixed stays unsettled.
      const auto split = detail::widest_branch(f, node.lower, node.upper);
      if (split.encoding < 0 && split.column < 0) {
        unresolved_bound = std::min(unresolved_bound, node.bound);
        unresolved = true;
        continue;
      }
      for (bool left : {true, false}) {
        detail::Node child{node.lower, node.upper, node.bound, next_id++};
        detail::restrict_side(f, split, left, child.lower, child.upper);
        open.push(std::move(child));
      }
      continue;
    }
    if (nlp.phi >= ctx.cutoff()) continue;
    const auto branch = detail::choose_branch(f, nlp.x, node.lower, node.upper);
    if (branch.encoding < 0 && branch.column < 0) {
      // Integral relaxation: a feasible point. Re-solve with the integers
      // fixed exactly, so the incumbent carries exact integer values.
      if (ctx.integral(nlp.x)) {
        auto fixed = ctx.solve_fixed(nlp.x);
        if (fixed.kind != NlpOutcome::optimal) ctx.offer(nlp.x, nlp.phi);
      }
      continue;
    }
    for (bool left : {true, false}) {
      detail::Node child{node.lower, node.upper, nlp.phi, next_id++};
      detail::restrict_side(f, branch, left, child.lower, child.upper);
      open.push(std::move(child));
    }
  }
  res.count = nodes;
  res.bound_phi = std::min(open.empty() ? ctx.incumbent_phi() : open.top().bound, ctx.incumbent_phi());
  res.bound_phi = std::min(res.bound_phi, unresolved_bound);
  if (unresolved) {
    res.status = Status::numerical_error;
    res.message = "Ipopt could not settle some nodes; the bound is not proven";
    return res;
  }
  res.status = ctx.has_incumbent() ? Status::optimal : Status::infeasible;
  return res;
}

}  // namespace ychart::solve::mixed_integer
