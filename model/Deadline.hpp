// --timeout as a plain value the libraries can check (issue 16): the stages that build large structures before
// any engine search starts (unrolling, the Z3 encoding, kernel slices) and the explicit evaluator (one candidate
// of a large test can outlast a whole --timeout) look at a Deadline in their long loops and give up with
// LimitReached, which the caller that owns the verdict turns into UNKNOWN with
// the reason. A Deadline owns no timer and no thread: the app layer decides what a spent timeout does to the
// process (app/Watchdog.hpp is the backstop for what no loop checks). The same exception carries the other
// bounds reached inside such a stage (--max-events while unrolling).
#pragma once

#include <chrono>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

namespace ptxmm::model {

/// A bound was reached inside a stage that cannot return a partial answer; what() is the reason of the UNKNOWN.
class LimitReached : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Deadline {
 public:
  using Clock = std::chrono::steady_clock;

  /// A deadline that never passes.
  Deadline() = default;
  /// `seconds` (a --timeout) from now; 0 or less: never.
  static Deadline after(double seconds);

  /// Whether it is set at all.
  bool bounded() const { return at_.has_value(); }
  /// Whether the time is up.
  bool passed() const { return at_ && Clock::now() >= *at_; }
  /// Seconds left: at most 0 once passed, infinity when unbounded.
  double secondsLeft() const;
  /// The --timeout it stands for (0: unbounded).
  double seconds() const { return seconds_; }
  /// The earlier of this and `other` (the reason is the earlier one's).
  Deadline earliest(const Deadline& other) const;
  /// Throws LimitReached("timeout after N s (while `stage`)") once passed.
  void check(const char* stage) const;

  /// "timeout after N s": the reason of every verdict a --timeout of `seconds` made UNKNOWN.
  static std::string reason(double seconds);

 private:
  std::optional<Clock::time_point> at_;
  double seconds_ = 0;  // the --timeout it stands for
};

}  // namespace ptxmm::model
