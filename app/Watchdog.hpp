// The backstop of --timeout for the commands that check one test at a time (`run`, `kernel`): the engines stop
// their own search at the timeout, but unrolling, the Z3 encoding, drawing and freeing a huge test are not
// interruptible, and a test with 1,000 threads spent minutes there (issue 16 H1). A Watchdog armed around one
// check calls its action (which reports UNKNOWN and ends the process) when the check overruns its deadline.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace ptxmm::app {

/// How long past --timeout a Watchdog waits for a check that has not stopped by itself.
inline constexpr double kWatchdogGraceSeconds = 0.5;

class Watchdog {
 public:
  Watchdog();
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  /// Calls `expire` (on the watchdog's thread; it must not return: it ends the process) unless disarm() comes
  /// within `seconds`. 0: never.
  void arm(double seconds, std::function<void()> expire);

  /// Cancels the pending deadline; blocks forever when `expire` has already started (the process is ending).
  void disarm();

 private:
  void watch();

  std::mutex mutex_;
  std::condition_variable changed_;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
  std::function<void()> expire_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace ptxmm::app
