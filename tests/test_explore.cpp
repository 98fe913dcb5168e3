// Tests of problem-independent exploration (include/ychart/explore/):
// sweep() returns results in grid order and rethrows the grid's first
// exception after every point has run; linear_grid's rounding; the Pareto
// helpers on made-up fronts whose answer is written out. The sweeps and walks
// over a real model, checked against enumeration, are in test_pipeline_model.cpp.
#include <ychart/explore.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace ychart::explore;

TEST(ExploreSweep, ResultsComeBackInGridOrder) {
  std::vector<int> points(40);
  for (int i = 0; i < 40; ++i) points[i] = i;
  std::mutex mutex;
  std::set<std::thread::id> threads;
  SweepOptions o;
  o.threads = 4;
  o.progress = SweepOptions::Progress::never;
  const auto out = sweep(
      points,
      [&](int i) {
        // Later points finish first: the order of completion is not the grid's.
        std::this_thread::sleep_for(std::chrono::milliseconds((40 - i) % 7));
        {
          std::lock_guard<std::mutex> lock(mutex);
          threads.insert(std::this_thread::get_id());
        }
        return std::to_string(i * i);
      },
      o);
  ASSERT_EQ(out.size(), 40u);
  for (int i = 0; i < 40; ++i) EXPECT_EQ(out[i], std::to_string(i * i));
  EXPECT_GT(threads.size(), 1u);
  EXPECT_LE(threads.size(), 4u);
  // No points: no results.
  EXPECT_TRUE(sweep(std::vector<int>{}, [](int i) { return i; }, o).empty());
}

TEST(ExploreSweep, AnExceptionIsRethrownAfterTheOthersFinish) {
  for (unsigned threads : {1u, 3u}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    std::vector<int> points(20);
    for (int i = 0; i < 20; ++i) points[i] = i;
    std::atomic<int> finished{0};
    SweepOptions o;
    o.threads = threads;
    o.progress = SweepOptions::Progress::never;
    try {
      (void)sweep(
          points,
          [&](int i) {
            if (i == 3) {
              // Point 3 fails late, point 11 early: the grid's first is rethrown.
              std::this_thread::sleep_for(std::chrono::milliseconds(30));
              throw std::runtime_error("point 3");
            }
            if (i == 11) throw std::runtime_error("point 11");
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
            ++finished;
            return i;
          },
          o);
      ADD_FAILURE() << "no exception";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "point 3");
      EXPECT_EQ(finished.load(), 18);  // every other point ran to its end
    }
  }
}

TEST(ExploreSweep, LinearGrid) {
  const auto g = linear_grid(30, 92, 2);
  ASSERT_EQ(g.size(), 32u);
  EXPECT_EQ(g.front(), 30);
  EXPECT_DOUBLE_EQ(g.back(), 92);
  EXPECT_EQ(linear_grid(0.1, 0.3, 0.1).size(), 3u);  // 0.1 + 2 x 0.1 is 0.30000000000000004
  EXPECT_TRUE(linear_grid(1, 2, 0).empty());
}

TEST(ExplorePareto, NonDominatedKeepsTheFront) {
  // (first, second): (5, 1) dominated by (4, 1); (6, 2) dominated by (4, 1);
  // (3, 2) and (1, 3) kept; (1, 3) twice: the first kept.
  std::vector<ParetoPoint<int>> pts = {{5, 1, 0, 0}, {4, 1, 0, 1}, {6, 2, 0, 2}, {3, 2, 0, 3}, {1, 3, 0, 4}, {1, 3, 0, 5}};
  const auto front = non_dominated(pts);
  ASSERT_EQ(front.size(), 3u);
  EXPECT_EQ(front[0].payload, 1);
  EXPECT_EQ(front[1].payload, 3);
  EXPECT_EQ(front[2].payload, 4);
}

TEST(ExplorePareto, GridKeepsTheNonDominatedSolvedPoints) {
  // solve(eps) on a made-up front: II = 10 / eps for eps >= 1, infeasible below.
  const std::vector<double> eps = {0.5, 1, 2, 4, 4.5};
  SweepOptions o;
  o.threads = 2;
  o.progress = SweepOptions::Progress::never;
  const auto front = pareto_grid(
      eps,
      [](double e) -> std::optional<ParetoPoint<double>> {
        if (e < 1) return std::nullopt;
        const double second = std::floor(e);  // a KPI with integer levels: 4.5 gives the same point as 4
        return ParetoPoint<double>{10 / second, second, e, e};
      },
      o);
  ASSERT_EQ(front.size(), 3u);
  EXPECT_EQ(front[0].second, 1);
  EXPECT_EQ(front[2].second, 4);
  EXPECT_EQ(front[2].payload, 4);  // the first of the two equal points
}

}  // namespace
