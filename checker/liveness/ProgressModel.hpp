// Progress models: which threads a GPU scheduler is assumed to keep scheduling (issue 13). The definitions are
// those of Sorensen, Salvador, Mendes, Batty and Donaldson, "Specifying and testing GPU workgroup progress
// models" (OOPSLA 2021), as Dat3M encodes them for its non-termination check (its ProgressModel options):
//   FAIR     every thread that can move is eventually scheduled;
//   HSA      only the lowest-id thread that has not terminated (and is not blocked) is;
//   OBE      (occupancy-bound execution) the threads that have made at least one step are;
//   HSA_OBE  the union of the two;
//   LOBE     (linear OBE) a thread that made a step and every thread of lower id are;
//   UNFAIR   none is, except that some schedulable thread keeps running (minimal progress).
// A model may be given per level of the thread hierarchy: among the threads (litmus threads: warps) of a CTA,
// among the CTAs of a GPU, among the GPUs of the system. A group that gets progress passes it to its members as
// its level's model says, and always to at least one member that can move.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/EventGraph.hpp"

namespace ptxmm::checker::liveness {

enum class Progress : std::uint8_t { Fair, Hsa, Obe, HsaObe, Lobe, Unfair };

struct ProgressModel {
  Progress cta = Progress::Fair;  // among the threads of one CTA
  Progress gpu = Progress::Fair;  // among the CTAs of one GPU
  Progress sys = Progress::Fair;  // among the GPUs

  bool fair() const { return cta == Progress::Fair && gpu == Progress::Fair && sys == Progress::Fair; }
  /// "fair" when every level has the same model, else "cta=fair,gpu=obe,sys=fair".
  std::string name() const;
};

/// The model `text` names: `fair|hsa|obe|hsa_obe|lobe|unfair` for every level, or `LEVEL=M,...` with LEVEL in
/// cta, gpu, sys (levels not named are fair). nullopt with `error` set when the text is not one.
std::optional<ProgressModel> parseProgressModel(const std::string& text, std::string& error);

/// What a thread does in a stuck execution.
enum class ThreadState : std::uint8_t {
  Exited,    // its code ended
  Blocked,   // waits at a barrier or a blocking read for good: it cannot move
  Spinning,  // repeats a loop iteration forever: it moves, fairly scheduled or not
  Stopped,   // could move but is never scheduled again
};

struct ThreadStatus {
  ThreadState state = ThreadState::Exited;
  bool started = true;  // made at least one step
};

/// Whether `model` lets the threads of `graph` be in `status` forever: some assignment of fair progress to the
/// groups of the hierarchy follows the model's rules and gives none of the Stopped threads progress.
bool admits(const ProgressModel& model, const model::EventGraph& graph, const std::vector<ThreadStatus>& status);

}  // namespace ptxmm::checker::liveness
