// The --timeout backstop (Watchdog.hpp).
#include "app/Watchdog.hpp"

namespace ptxmm::app {

Watchdog::Watchdog() : thread_([this] { watch(); }) {}

Watchdog::~Watchdog() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void Watchdog::arm(double seconds, std::function<void()> expire) {
  std::lock_guard lock(mutex_);
  deadline_.reset();
  if (seconds <= 0) return;
  deadline_ = std::chrono::steady_clock::now() +
              std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
  expire_ = std::move(expire);
  changed_.notify_all();
}

void Watchdog::disarm() {
  std::lock_guard lock(mutex_);  // held by watch() for good once the deadline has passed
  deadline_.reset();
}

void Watchdog::watch() {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (stopping_) return;
    if (!deadline_) {
      changed_.wait(lock);
      continue;
    }
    const auto deadline = *deadline_;
    if (changed_.wait_until(lock, deadline) == std::cv_status::timeout && deadline_ == deadline) {
      expire_();  // ends the process with the lock held, so the check's own answer cannot interleave
      return;
    }
  }
}

}  // namespace ptxmm::app
