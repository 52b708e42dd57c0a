// The words of a Hang line, shared by the explicit search (Liveness.cpp) and the Z3 engine (z3/Z3Liveness.cpp)
// so both engines describe a stuck thread alike: the values its polls keep reading, the writes it need not see
// (memory fairness, the model's eventually-visible), where a thread the progress model may stop stopped, and the
// key under which two reports are the same stuck pattern.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/liveness/LivenessResult.hpp"
#include "model/EventGraph.hpp"

namespace ptxmm::checker::liveness {

/// A read `read` and the value it keeps reading, as "flag=0" (an mbarrier word as its phase and counts; "?" when
/// the value is unknown).
std::string pollItem(const model::EventGraph& graph, int read, std::optional<std::int64_t> value);

/// Poll items joined with ", ", each once.
std::string joinItems(const std::vector<std::string>& items);

/// Why a stuck poll need not see the later writes `writes` (event ids), in words; empty when there are none.
std::string hiddenWritesText(const model::EventGraph& graph, const std::vector<int>& writes);

/// A thread the progress model may leave unscheduled, stopped after event `last` (-1: before its first step).
StuckThread stoppedThread(const model::EventGraph& graph, int thread, int last);

/// "file:line".
std::string at(const model::SourcePos& pos);

/// Two hangs are the same stuck pattern when their kinds and stuck threads (how, where) are.
std::string patternKey(const Hang& hang);

}  // namespace ptxmm::checker::liveness
