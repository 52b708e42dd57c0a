// One candidate execution under construction: the events of one path per thread (plus the initial writes),
// numbered compactly, with the static base relations filled in; the witness choices (rf, barrier matching,
// Fence-SC order, co) are set on it stage by stage, values are computed from rf, and the final states are read
// off it. The explicit engine enumerates choices over it; the Z3 engine's cross-check rebuilds a decoded model
// on it, so both decide consistency with the same code.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "checker/BarrierMatching.hpp"
#include "checker/Outcome.hpp"
#include "checker/PathEnumerator.hpp"
#include "model/Candidate.hpp"

namespace ptxmm::checker {

class Execution {
 public:
  enum class Values : std::uint8_t {
    Consistent,    // every value is determined and the paths' assumptions hold
    Contradicted,  // some branch or cas assumption of a path fails: not an execution of these paths
    ThinAir,       // some value depends on itself through rf and dependencies
  };

  /// The events of `paths` (one per thread) and the initial writes, with the static relations.
  Execution(const model::EventGraph& graph, std::vector<const ThreadPath*> paths);

  std::size_t size() const { return events_.size(); }
  const model::Event& event(std::size_t local) const;
  int global(std::size_t local) const { return events_[local]; }
  /// The candidate index of a global event, or nullopt when this execution does not contain it.
  std::optional<std::size_t> local(int global) const;
  model::Candidate& candidate() { return candidate_; }
  const model::Candidate& candidate() const { return candidate_; }
  const std::vector<const ThreadPath*>& paths() const { return paths_; }

  /// The read events, in candidate order.
  const std::vector<std::size_t>& reads() const { return reads_; }
  /// The writes (initial write first) a read may read from: same physical location.
  std::vector<std::size_t> sourcesOf(std::size_t read) const;
  /// The writes of each physical location, initial write first.
  const std::vector<std::vector<std::size_t>>& writesPerLocation() const { return writesPerLocation_; }

  /// Sets rf (source[k] is the write read by reads()[k]) and computes every value.
  Values setReadsFrom(const std::vector<std::size_t>& source);
  /// The barrier arrivals with their evaluated ids, counts and quorums (after setReadsFrom; nullopt on thin air).
  std::optional<std::vector<Arrival>> arrivals() const;
  /// What barrier generations rest on besides the arrivals: which threads exited (`uses` = staticUses(graph)).
  BarrierContext barrierContext(const std::vector<StaticUse>& uses) const;
  /// The fence.sc events, in candidate order.
  std::vector<std::size_t> scFences() const;
  /// Sets sync_fence to the total order given by `order`.
  void setFenceOrder(const std::vector<std::size_t>& order);

  /// The thread whose path stops at the unrolling bound, or -1.
  int boundThread() const;
  /// The final states over `keys`: one per choice of a co-maximal write for each observed location [§2.12].
  std::vector<std::vector<std::int64_t>> finalStates(const std::vector<ObservedKey>& keys) const;
  /// The value read or written by an event (after setReadsFrom), if determined.
  std::optional<std::int64_t> value(std::size_t local) const { return values_[local]; }
  /// The write a read reads from (after setReadsFrom).
  std::size_t readsFrom(std::size_t read) const { return rfSource_[read]; }
  /// The value of a term over reads (after setReadsFrom).
  std::optional<std::int64_t> evaluate(const model::ValuePtr& term) const;
  /// Whether a value the execution needs (a write's value, a branch or cas outcome, a barrier operand, an observed
  /// register) depends on a result PTX leaves unspecified, a division by zero (after setReadsFrom).
  bool needsUnspecifiedValue(const std::vector<ObservedKey>& keys) const;

 private:
  void buildStatic();
  void computeValues();

  const model::EventGraph& g_;
  std::vector<const ThreadPath*> paths_;
  std::vector<int> events_;  // candidate index -> global event id
  std::vector<int> local_;   // global event id -> candidate index, -1 when absent
  model::Candidate candidate_;
  std::vector<std::size_t> reads_;
  std::vector<std::vector<std::size_t>> writesPerLocation_;
  std::vector<model::ValuePtr> writeTerms_;                  // per write: its value over reads (null otherwise)
  std::vector<std::vector<std::size_t>> writeInputs_;         // per write: the reads its value uses
  std::vector<std::size_t> rfSource_;
  std::vector<std::optional<std::int64_t>> values_;
  bool thinAir_ = false;
};

}  // namespace ptxmm::checker
