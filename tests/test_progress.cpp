// Progress on stderr: a live line only when asked or on a terminal (ctest
// pipes stderr, so `automatic` must stay silent here), erased at the end;
// log lines at verbosity >= 1; sweeps show an ETA; a sweep's workers mute
// their own solves' lines.
#include <ychart/ychart.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using ychart::Progress;
using ychart::detail::StatusLine;

std::string line_text() { return "solving"; }

TEST(Progress, LiveLineIsDrawnThenErased) {
  testing::internal::CaptureStderr();
  {
    StatusLine line(false, Progress::always, /*delay=*/0.0);
    line.update(0.5, line_text);
    line.update(0.6, line_text);  // within 0.2 s of the last draw: skipped
    line.update(1.0, line_text, /*final=*/true);
  }
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err, "\r\033[Ksolving\r\033[K");
}

TEST(Progress, DelayKeepsShortOperationsSilent) {
  testing::internal::CaptureStderr();
  {
    StatusLine line(false, Progress::always, /*delay=*/1.0);
    line.update(0.9, line_text);
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

TEST(Progress, AutomaticIsSilentInAPipe) {
  if (ychart::detail::stderr_is_terminal()) GTEST_SKIP() << "stderr is a terminal";
  testing::internal::CaptureStderr();
  {
    StatusLine line(false, Progress::automatic, 0.0);
    line.update(5.0, line_text);
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

TEST(Progress, LogLinesAtVerbosityOne) {
  testing::internal::CaptureStderr();
  {
    StatusLine line(true, Progress::never);
    line.update(0.0, line_text);
    line.update(0.5, line_text);  // within a second: skipped
    line.update(1.2, line_text);
    line.update(1.3, line_text, true);  // the final line is always printed
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "solving\nsolving\nsolving\n");
}

TEST(Progress, MutedThreadsDrawNothing) {
  testing::internal::CaptureStderr();
  {
    ychart::detail::MuteProgress mute;
    StatusLine line(false, Progress::always, 0.0);
    EXPECT_FALSE(line.active());
    line.update(2.0, line_text);
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_FALSE(ychart::detail::progress_muted);
}

TEST(Progress, SweepShowsCountsAndAnEta) {
  ychart::explore::SweepOptions o;
  o.progress = Progress::always;
  o.threads = 1;
  o.label = "grid";
  testing::internal::CaptureStderr();
  bool muted_inside = false;
  const auto out = ychart::explore::sweep(std::vector<int>{1, 2, 3, 4}, [&](int v) {
    muted_inside = ychart::detail::progress_muted;
    return 2 * v;
  }, o);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(out, (std::vector<int>{2, 4, 6, 8}));
  EXPECT_TRUE(muted_inside);
  EXPECT_NE(err.find("grid ["), std::string::npos) << err;
  EXPECT_NE(err.find("2/4"), std::string::npos) << err;
  EXPECT_NE(err.find("ETA"), std::string::npos) << err;
  EXPECT_NE(err.find("4/4"), std::string::npos) << err;
}

TEST(Progress, SolvesInAPipeWriteNothing) {
  if (ychart::detail::stderr_is_terminal()) GTEST_SKIP() << "stderr is a terminal";
  ychart::Model m;
  auto n = m.integer("n", 0, 20);
  auto k = m.integer("k", 0, 20);
  m.subject_to(3 * n + 5 * k <= 47);
  m.maximize(4 * n + 7 * k);
  testing::internal::CaptureStderr();
  const auto s = m.solve();
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  ASSERT_EQ(s.status(), ychart::Status::optimal);
  double best = 0;  // oracle: enumeration
  for (int a = 0; a <= 20; ++a)
    for (int b = 0; b <= 20; ++b)
      if (3 * a + 5 * b <= 47) best = std::max(best, 4.0 * a + 7.0 * b);
  EXPECT_DOUBLE_EQ(s.objective(), best);
}

}  // namespace
