// ychart/explore/impl/local_sweep.ipp
// The implementation of ychart/explore/detail/local_sweep.hpp (compiled once
// with YCHART_SEPARATE_COMPILATION, included by the header otherwise): the
// sweep's thread pool and its progress bar.
#pragma once

#include "../../config.hpp"
#include "../detail/local_sweep.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <thread>

#include <unistd.h>

namespace ychart::explore::detail {

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

YCHART_DECL void run_indices(std::size_t count, const SweepOptions& options,
                             const std::function<void(std::size_t)>& body) {
  std::atomic<std::size_t> next{0};
  ProgressBar bar(count, options);
  auto work = [&] {
    ychart::detail::MuteProgress mute;  // the bar covers the points' solves
    for (std::size_t i = next++; i < count; i = next++) {
      body(i);
      bar.step();
    }
  };
  unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(count, 1)));
  {
    std::vector<std::jthread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
  }
}

}  // namespace ychart::explore::detail
