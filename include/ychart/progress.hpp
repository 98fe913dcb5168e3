// ychart/progress.hpp
// Progress of long operations (sweeps, Pareto fronts, mixed-integer solves)
// on stderr. `Progress::automatic` shows it only when stderr is a terminal,
// so output piped to a file or another program stays clean. A status line
// is redrawn in place and erased when the operation ends; with verbosity
// >= 1 a solve prints a log line about once a second instead. Solves run
// by a sweep's workers draw nothing of their own: the sweep's bar covers them.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

#include <unistd.h>

namespace ychart {

enum class Progress { automatic, always, never };

namespace detail {

inline bool stderr_is_terminal() { return ::isatty(::fileno(stderr)) != 0; }

/// True on a sweep's worker threads while they run points.
inline thread_local bool progress_muted = false;

/// Mutes status lines on this thread for its lifetime.
class MuteProgress {
 public:
  MuteProgress() : was_(progress_muted) { progress_muted = true; }
  ~MuteProgress() { progress_muted = was_; }
  MuteProgress(const MuteProgress&) = delete;
  MuteProgress& operator=(const MuteProgress&) = delete;

 private:
  bool was_;
};

/// One operation's progress: log lines (every `log_interval` seconds) or a
/// live line (after `delay` seconds, redrawn at most 5 times a second).
class StatusLine {
 public:
  StatusLine(bool log, Progress mode, double delay = 1.0, double log_interval = 1.0)
      : log_(log),
        live_(!log && !progress_muted &&
              (mode == Progress::always || (mode == Progress::automatic && stderr_is_terminal()))),
        delay_(delay),
        log_interval_(log_interval) {}
  StatusLine(const StatusLine&) = delete;
  StatusLine& operator=(const StatusLine&) = delete;
  ~StatusLine() { clear(); }

  bool active() const { return log_ || live_; }

  /// `text()` is called only when something is drawn. `final` prints the
  /// last log line, or erases the live line.
  template <class Text>
  void update(double elapsed, Text&& text, bool final = false) {
    if (log_) {
      if (!final && elapsed - last_ < log_interval_) return;
      last_ = elapsed;
      std::fprintf(stderr, "%s\n", text().c_str());
      return;
    }
    if (!live_) return;
    if (final) {
      clear();
      return;
    }
    if (elapsed < delay_ || elapsed - last_ < 0.2) return;
    last_ = elapsed;
    std::fprintf(stderr, "\r\033[K%s", text().c_str());
    std::fflush(stderr);
    drawn_ = true;
  }

  /// Erases a live line (the terminal's cursor goes back to its start).
  void clear() {
    if (!drawn_) return;
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    drawn_ = false;
  }

 private:
  bool log_, live_;
  double delay_, log_interval_;
  double last_ = -1e300;
  bool drawn_ = false;
};

}  // namespace detail
}  // namespace ychart
