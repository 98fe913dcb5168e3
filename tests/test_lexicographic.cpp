// solve_lexicographic (solve/lexicographic.hpp): random integer programs
// with many ties in the first objective, against brute-force enumeration of
// the lexicographic optimum; the model comes back unchanged; a stage that is
// not optimal stops the stages, and the message names it.
#include <ychart/expr/operators.hpp>
#include <ychart/model/model.hpp>
#include <ychart/solve/lexicographic.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <set>
#include <random>
#include <string>
#include <vector>

using namespace ychart;

namespace {

constexpr int most = 4;  // every variable in 0..most

struct Instance {
  std::vector<std::array<int, 4>> rows;  // a x + b y + c z <= d
  std::array<int, 3> first{}, second{};  // objective coefficients
};

double value(const std::array<int, 3>& c, int x, int y, int z) { return c[0] * x + c[1] * y + c[2] * z; }

// The lexicographic optimum by enumeration: the least first objective, then
// the least second among the points that reach it. NaN: infeasible.
std::array<double, 2> enumerate(const Instance& in) {
  std::array<double, 2> best{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  for (int x = 0; x <= most; ++x)
    for (int y = 0; y <= most; ++y)
      for (int z = 0; z <= most; ++z) {
        bool ok = true;
        for (const auto& r : in.rows) ok = ok && r[0] * x + r[1] * y + r[2] * z <= r[3];
        if (!ok) continue;
        const std::array<double, 2> v{value(in.first, x, y, z), value(in.second, x, y, z)};
        if (v[0] < best[0] || (v[0] == best[0] && v[1] < best[1])) best = v;
      }
  return best;
}

}  // namespace

TEST(Lexicographic, RandomIntegerProgramsMatchEnumeration) {
  std::mt19937 rng(31);
  std::uniform_int_distribution<int> coef(-3, 3), rhs(2, 10);
  int compared = 0, tied = 0;
  for (int trial = 0; trial < 150; ++trial) {
    Instance in;
    for (int r = 0; r < 3; ++r) in.rows.push_back({coef(rng), coef(rng), coef(rng), rhs(rng)});
    // A first objective with few distinct values, so that ties are common.
    in.first = {coef(rng) / 2, coef(rng) / 2, -1};
    in.second = {coef(rng), coef(rng), coef(rng)};
    const auto expected = enumerate(in);

    Model m;
    const auto x = m.integer("x", 0, most), y = m.integer("y", 0, most), z = m.integer("z", 0, most);
    for (const auto& r : in.rows) m.subject_to(double(r[0]) * x + double(r[1]) * y + double(r[2]) * z <= double(r[3]));
    auto objective = [&](const std::array<int, 3>& c) {
      return Affine<>() + double(c[0]) * x + double(c[1]) * y + double(c[2]) * z;
    };
    m.minimize(objective(in.first) + 100.0);  // the caller's objective, restored afterwards
    const std::size_t rows = m.constraints().size();
    const auto lex = solve_lexicographic(m, {objective(in.first), objective(in.second)});
    EXPECT_EQ(m.constraints().size(), rows) << "the stage rows are removed";
    SCOPED_TRACE("trial " + std::to_string(trial));
    if (!std::isfinite(expected[0])) {
      ASSERT_EQ(lex.stages.size(), 1u);
      EXPECT_EQ(lex.stages[0], Status::infeasible);
      EXPECT_FALSE(lex.message.empty());
      continue;
    }
    ASSERT_TRUE(lex.all_proven(2)) << lex.message;
    EXPECT_TRUE(lex.message.empty());
    EXPECT_NEAR(lex.optima[0], expected[0], 1e-9);
    EXPECT_NEAR(lex.optima[1], expected[1], 1e-9);
    // The point holds both: its first objective at the optimum, its second least.
    const auto& s = lex.solution;
    const int xv = int(std::lround(s[x])), yv = int(std::lround(s[y])), zv = int(std::lround(s[z]));
    EXPECT_EQ(value(in.first, xv, yv, zv), expected[0]);
    EXPECT_EQ(value(in.second, xv, yv, zv), expected[1]);
    // The model's own objective is back: solving it gives the first optimum + 100.
    const auto again = m.solve();
    ASSERT_EQ(again.status(), Status::optimal);
    EXPECT_NEAR(again.objective(), expected[0] + 100.0, 1e-9);
    ++compared;
    // Was there a tie the second stage had to break?
    std::set<double> seconds;
    for (int a = 0; a <= most; ++a)
      for (int b = 0; b <= most; ++b)
        for (int c = 0; c <= most; ++c) {
          bool ok = true;
          for (const auto& r : in.rows) ok = ok && r[0] * a + r[1] * b + r[2] * c <= r[3];
          if (ok && value(in.first, a, b, c) == expected[0]) seconds.insert(value(in.second, a, b, c));
        }
    tied += seconds.size() > 1;
  }
  EXPECT_GT(compared, 100);
  EXPECT_GT(tied, 50);  // most instances need the second stage, so the test bites
}

TEST(Lexicographic, NoObjectiveIsAnError) {
  Model m;
  (void)m.integer("x", 0, 1);
  EXPECT_THROW((void)solve_lexicographic(m, {}), model_error);
}

// hold_at replaces the solver's optimum as the value a stage is held at:
// min x, then min y, subject to x + y >= 3, y <= 2. Held at x* = 1 the
// second stage needs y = 2; held at 2 (a caller's own value) it reaches 1.
TEST(Lexicographic, HoldAtSetsTheHeldValue) {
  for (const bool own : {false, true}) {
    Model m;
    const auto x = m.integer("x", 0, 5), y = m.integer("y", 0, 2);
    m.subject_to(x + y >= 3.0);
    LexicographicOptions lexicographic;
    std::vector<std::pair<std::size_t, double>> calls;
    if (own)
      lexicographic.hold_at = [&](std::size_t stage, const Solution& sol) {
        calls.emplace_back(stage, sol.objective());
        return 2.0;
      };
    const auto lex = solve_lexicographic(m, {Affine<>(x), Affine<>(y)}, {}, lexicographic);
    ASSERT_TRUE(lex.all_proven(2)) << lex.message;
    EXPECT_NEAR(lex.optima[0], 1.0, 1e-9);
    EXPECT_NEAR(lex.optima[1], own ? 1.0 : 2.0, 1e-9);
    if (own) {
      ASSERT_EQ(calls.size(), 1u);  // once, after the first stage; never after the last
      EXPECT_EQ(calls[0].first, 0u);
      EXPECT_NEAR(calls[0].second, 1.0, 1e-9);
    }
    EXPECT_EQ(m.constraints().size(), 1u);  // the held row is gone again
  }
}

// implied_rows adds rows after a stage is held and before the next one,
// and they go with the stage rows. max x (min -x), then min y + z, over
// x + y + z >= 4, x in 0..1, y and z in 0..2: held at x = 1, the row
// y + z >= 4 - x = 3 is implied; it is added with the held value, and
// dropped afterwards.
TEST(Lexicographic, ImpliedRowsComeAndGo) {
  Model m;
  const auto x = m.integer("x", 0, 1), y = m.integer("y", 0, 2), z = m.integer("z", 0, 2);
  m.subject_to(x + y + z >= 4.0);
  LexicographicOptions lexicographic;
  std::vector<double> held;
  std::size_t rows_seen = 0;
  lexicographic.implied_rows = [&](Model& model, std::size_t stage, double value) {
    EXPECT_EQ(stage, 0u);
    held.push_back(value);
    rows_seen = model.constraints().size();  // the original row and the held one
    model.subject_to(y + z >= 4.0 + value, "implied by the held x");  // value = -x
  };
  const auto lex = solve_lexicographic(m, {Affine<>(-1.0 * x), Affine<>(y + z)}, {}, lexicographic);
  ASSERT_TRUE(lex.all_proven(2)) << lex.message;
  EXPECT_NEAR(lex.optima[0], -1.0, 1e-9);
  EXPECT_NEAR(lex.optima[1], 3.0, 1e-9);
  ASSERT_EQ(held.size(), 1u);
  EXPECT_NEAR(held[0], -1.0, 1e-9);  // the first objective, -x, at its optimum
  EXPECT_EQ(rows_seen, 2u);
  EXPECT_EQ(m.constraints().size(), 1u);
}

// The message a caller reports with the first stage's outcome: a later
// stage that is not proven is named (here, a row added after the first
// stage leaves the second no point); a proven run, or a first stage that
// is not proven, keeps the solution's own message.
TEST(Lexicographic, MessageNamesALaterStageThatIsNotProven) {
  Model m;
  const auto x = m.integer("x", 0, 5), y = m.integer("y", 0, 2);
  m.subject_to(x + y >= 3.0);
  LexicographicOptions lexicographic;
  lexicographic.implied_rows = [&](Model& model, std::size_t, double) { model.subject_to(y >= 3.0, "no room for y"); };
  const auto stopped = solve_lexicographic(m, {Affine<>(x), Affine<>(y)}, {}, lexicographic);
  ASSERT_EQ(stopped.stages.size(), 2u);
  EXPECT_EQ(stopped.stages[0], Status::optimal);
  EXPECT_EQ(stopped.stages[1], Status::infeasible);
  const auto said = stopped.message_with_later_stages("the least y at that x");
  EXPECT_NE(said.find("the least y at that x is not proven (lexicographic stage 2 of 2 ended infeasible"),
            std::string::npos)
      << said;

  const auto proven = solve_lexicographic(m, {Affine<>(x), Affine<>(y)});
  ASSERT_TRUE(proven.all_proven(2)) << proven.message;
  EXPECT_EQ(proven.message_with_later_stages("the least y at that x"), proven.solution.message());

  m.subject_to(x <= 0.0);  // x + y <= 2 < 3: the first stage has no point
  const auto first = solve_lexicographic(m, {Affine<>(x), Affine<>(y)});
  EXPECT_EQ(first.stages.front(), Status::infeasible);
  EXPECT_EQ(first.message_with_later_stages("the least y at that x"), first.solution.message());
}
