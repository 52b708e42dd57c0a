// --timeout as a value (Deadline.hpp).
#include "model/Deadline.hpp"

#include <sstream>

namespace ptxmm::model {

Deadline Deadline::after(double seconds) {
  Deadline d;
  if (seconds <= 0) return d;
  d.at_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  d.seconds_ = seconds;
  return d;
}

double Deadline::secondsLeft() const {
  if (!at_) return std::numeric_limits<double>::infinity();
  return std::chrono::duration<double>(*at_ - Clock::now()).count();
}

Deadline Deadline::earliest(const Deadline& other) const {
  if (!other.at_) return *this;
  if (!at_) return other;
  return *at_ <= *other.at_ ? *this : other;
}

void Deadline::check(const char* stage) const {
  if (passed()) throw LimitReached(reason(seconds_) + " (while " + stage + ")");
}

std::string Deadline::reason(double seconds) {
  std::ostringstream text;
  text << "timeout after " << seconds << " s";
  return text.str();
}

}  // namespace ptxmm::model
