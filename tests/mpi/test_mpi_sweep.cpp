// explore::sweep over MPI ranks (run by ctest under mpirun with 3 ranks): every
// rank gets every result in grid order, whatever rank computed it; a point
// that throws stops the sweep on every rank with the first failing point's
// index and message. Oracle: the closed form of each point.
#include <ychart/explore/sweep.hpp>

#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace {

using ychart::explore::SweepOptions;

struct Square {
  int rank = -1;
  long value = 0;
  std::vector<double> tail;
  template <class Archive>
  void serialize(Archive& archive, unsigned) {
    archive & rank & value & tail;
  }
};

SweepOptions quiet() {
  SweepOptions o;
  o.threads = 2;
  o.progress = SweepOptions::Progress::never;
  return o;
}

TEST(MpiSweep, ResultsInGridOrderOnEveryRank) {
  const boost::mpi::communicator world;
  ASSERT_GT(world.size(), 1) << "run under mpirun with several ranks";
  std::vector<int> points(23);
  for (int i = 0; i < 23; ++i) points[static_cast<std::size_t>(i)] = i;
  const auto out = ychart::explore::sweep(points, [&](int i) {
    return Square{world.rank(), long(i) * i, std::vector<double>(static_cast<std::size_t>(i % 4), 0.5 * i)};
  }, quiet());
  ASSERT_EQ(out.size(), points.size());
  for (int i = 0; i < 23; ++i) {
    const auto& r = out[static_cast<std::size_t>(i)];
    EXPECT_EQ(r.value, long(i) * i);
    EXPECT_EQ(r.rank, i % world.size());  // cyclic distribution
    EXPECT_EQ(r.tail, std::vector<double>(static_cast<std::size_t>(i % 4), 0.5 * i));
  }
}

TEST(MpiSweep, AFailingPointStopsEveryRank) {
  std::vector<int> points(12);
  for (int i = 0; i < 12; ++i) points[static_cast<std::size_t>(i)] = i;
  try {
    (void)ychart::explore::sweep(points, [](int i) {
      if (i == 5 || i == 9) throw std::invalid_argument("bad point " + std::to_string(i));
      return 2.0 * i;
    }, quiet());
    FAIL() << "no exception";
  } catch (const ychart::explore::remote_point_error& e) {
    EXPECT_EQ(std::string(e.what()), "point 5 of the sweep: bad point 5");
  }
}

}  // namespace

int main(int argc, char** argv) {
  boost::mpi::environment environment(argc, argv);
  testing::InitGoogleTest(&argc, argv);
  const int failed = RUN_ALL_TESTS();
  // A test failing on any rank fails the run.
  int any = 0;
  boost::mpi::all_reduce(boost::mpi::communicator(), failed, any, boost::mpi::maximum<int>());
  return any;
}
