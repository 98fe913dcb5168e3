// ychart/dse/detail/local_sweep.hpp
// The options of a sweep and its runner on one process's threads, with the
// progress bar; dse/sweep.hpp and dse/detail/mpi_sweep.hpp build on it.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <iostream>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <unistd.h>

#include "../../progress.hpp"

namespace ychart::dse {

struct SweepOptions {
  /// Worker threads; 0: one per hardware thread. Ipopt solves are serialised
  /// inside the library (MUMPS is not thread-safe); GLPK, the searches and
  /// the evaluations run concurrently.
  unsigned threads = 0;
  using Progress = ychart::Progress;
  /// automatic: a bar on stderr only when stderr is a terminal. The points'
  /// own solves draw no status line while the bar runs.
  Progress progress = Progress::automatic;
  std::string label = "sweep";
};

namespace detail {

class ProgressBar {
 public:
  ProgressBar(std::size_t total, const SweepOptions& o)
      : total_(total),
        label_(o.label),
        on_(o.progress == SweepOptions::Progress::always ||
            (o.progress == SweepOptions::Progress::automatic && ::isatty(::fileno(stderr)))),
        start_(std::chrono::steady_clock::now()) {
    draw();
  }
  void step() {
    std::lock_guard<std::mutex> lock(mutex_);
    ++done_;
    draw();
  }
  bool on() const { return on_; }
  ~ProgressBar() {
    if (on_) std::cerr << "\n" << std::flush;
  }

 private:
  void draw() {
    if (!on_) return;
    constexpr std::size_t width = 30;
    const std::size_t filled = total_ ? width * done_ / total_ : width;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::string bar(filled, '#');
    bar.resize(width, '.');
    // ETA from the mean time per finished point (points run in parallel, so
    // the wall-clock rate already counts the threads).
    char time[64];
    if (done_ > 0 && done_ < total_)
      std::snprintf(time, sizeof time, "%.1f s, ETA %.0f s", seconds,
                    seconds / static_cast<double>(done_) * static_cast<double>(total_ - done_));
    else
      std::snprintf(time, sizeof time, "%.1f s", seconds);
    std::cerr << "\r\033[K" << label_ << " [" << bar << "] " << done_ << "/" << total_ << "  " << time << std::flush;
  }

  std::size_t total_, done_ = 0;
  std::string label_;
  bool on_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
};

}  // namespace detail

namespace detail {

/// Runs fn over `points` on this process's threads. Every point ends with a
/// result or an exception; none is rethrown here.
template <class Point, class Fn>
struct LocalRun {
  using Result = std::invoke_result_t<Fn&, const Point&>;
  std::vector<std::optional<Result>> results;
  std::vector<std::exception_ptr> errors;
};

template <class Point, class Fn>
LocalRun<Point, Fn> run_points(const std::vector<Point>& points, Fn& fn, const SweepOptions& options) {
  LocalRun<Point, Fn> run;
  run.results.resize(points.size());
  run.errors.resize(points.size());
  std::atomic<std::size_t> next{0};
  ProgressBar bar(points.size(), options);
  auto work = [&] {
    ychart::detail::MuteProgress mute;  // the bar covers the points' solves
    for (std::size_t i = next++; i < points.size(); i = next++) {
      try {
        run.results[i].emplace(fn(points[i]));
      } catch (...) {
        run.errors[i] = std::current_exception();
      }
      bar.step();
    }
  };
  unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(points.size(), 1)));
  {
    std::vector<std::jthread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
  }
  return run;
}

}  // namespace detail

}  // namespace ychart::dse
