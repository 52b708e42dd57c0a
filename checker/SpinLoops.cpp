// What makes a loop iteration observable (SpinLoops.hpp).
#include "checker/SpinLoops.hpp"

#include <algorithm>

namespace ptxmm::checker {

bool observableEvent(const model::Event& event) {
  return event.is(model::Tag::W) || event.is(model::Tag::BA) || event.is(model::Tag::BW);
}

bool observableAssignment(const model::LoopInfo& loop, int reg) {
  return std::find(loop.liveAtHeader.begin(), loop.liveAtHeader.end(), reg) != loop.liveAtHeader.end();
}

}  // namespace ptxmm::checker
