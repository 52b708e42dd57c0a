// The program half of the Z3 encoding: an EventGraph as formulas. Control flow is deterministic given the
// read values, so whether a node runs is a formula over those values; registers are 64-bit vectors merged
// with if-then-else at joins (exactly the explicit engine's 64-bit wrapping arithmetic). On top come the
// witness choices — rf (one source per read), co (a strict partial order per location, W0 first), the Fence-SC
// order (total on the fence.sc that happen) and barrier generations — with the same rules the explicit engine
// enumerates, and the spin-loop reduction (an unobservable loop iteration drops the execution) so both engines
// range over the same executions. Data and control dependencies are tracked per path as the explicit engine
// computes them (the reads that occur in a term after substituting registers along the path).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checker/BarrierRules.hpp"
#include "checker/Outcome.hpp"
#include "checker/Witness.hpp"
#include "checker/liveness/ProgressModel.hpp"
#include "checker/z3/SymbolicRelation.hpp"
#include "model/Candidate.hpp"
#include "model/Deadline.hpp"
#include "model/EventGraph.hpp"

namespace ptxmm::checker::z3enc {

using checker::Witness;

class ProgramEncoding {
 public:
  /// With `liveness` set, the encoding is of the executions the liveness check looks for (checker/liveness/
  /// Liveness.hpp), under that progress model: each thread exits, runs into the bound, blocks at a barrier's
  /// wait half or a blocking read whose condition fails, repeats an unobservable loop iteration forever (instead
  /// of dropping it), or stops (models other than fair); the reads of a repeated iteration or a blocking read
  /// read co-maximal writes (memory fairness); aligned barriers completed by an exit are not excluded.
  /// Building the formulas checks `deadline` (throws model::LimitReached): for large tests it takes longer than
  /// solving them.
  ProgramEncoding(z3::context& ctx, const model::EventGraph& graph, const std::vector<ObservedKey>& keys,
                  const liveness::ProgressModel* liveness = nullptr, const model::Deadline& deadline = {});

  /// The deadline the encoding of the model checks too (ModelEncoding).
  const model::Deadline& deadline() const { return deadline_; }

  /// What every execution satisfies: rf, co, Fence-SC and barrier well-formedness, no dropped iteration.
  const z3::expr_vector& constraints() const { return constraints_; }

  std::size_t size() const { return graph_.events.size(); }
  const SymSet& events() const { return events_; }
  const SymSet& set(model::Tag t) const { return sets_[static_cast<std::size_t>(t)]; }
  const SymRel& rel(model::BaseRel r) const { return rels_[static_cast<std::size_t>(r)]; }
  /// The upper bounds of the base sets and relations, for the static may-analysis of the model.
  const model::Candidate& bounds() const { return bounds_; }

  /// The 64-bit value of each observed key at the end.
  const std::vector<z3::expr>& outcome() const { return outcome_; }
  /// Executions that run into the unrolling bound: which thread, which loop, and when.
  struct BoundHit {
    int thread;
    int loop;
    z3::expr when;
  };
  const std::vector<BoundHit>& boundHits() const { return boundHits_; }
  /// rf ∪ data has a cycle: the values of the execution depend on themselves.
  z3::expr thinAir() const;
  /// A value the execution needs (a write's value, a branch or cas outcome, a barrier operand, an observed
  /// register) depends on a division by zero, whose result PTX leaves unspecified.
  z3::expr unspecified() const;

  /// The choices of a model (for the cross-check).
  Witness decode(const z3::model& m) const;

  /// Liveness mode: how each thread ends.
  struct ThreadEnd {
    z3::expr exited, bound, blocked, spinning, stopped, started;
  };
  const std::vector<ThreadEnd>& threadEnds() const { return ends_; }
  /// Liveness mode: the progress model admits the threads' ends as a forever schedule (ProgressRules.hpp).
  z3::expr admitted() const;
  /// An aligned barrier is completed by an exit (undefined behaviour).
  const z3::expr& divergent() const { return divergent_; }
  /// Liveness mode: where a thread blocks or spins, with the condition under which it does.
  struct StuckPoint {
    int thread;
    z3::expr when;
    std::string how;  // barrier | await | spin
    int event;        // barrier: the arrive half; await: the blocking read; spin: its first poll (else the node's
                      // first event)
    int loop;         // spin: the loop
  };
  const std::vector<StuckPoint>& stuckPoints() const { return stuckPoints_; }
  /// The value an event reads or writes, as a term over the solver's choices (for reports).
  const z3::expr& valueOf(int event) const { return value_[static_cast<std::size_t>(event)]; }
  /// Liveness mode, memory fairness: every read a stuck thread repeats reads a write that no other write is
  /// co-after among those `visible` (the model's eventually-visible relation; null: every write) makes visible
  /// to it, except the writes of the repeated iteration itself (an RMW poll writes back what it read).
  z3::expr fairness(const SymRel* visible) const;

 private:
  struct ThreadState;
  void encodeThread(int t);
  void encodeReadsFrom();
  void encodeCoherence();
  void encodeFenceOrder();
  void encodeBarriers();
  void encodeStatic();
  void encodeOutcome(const std::vector<ObservedKey>& keys);

  z3::context& ctx_;
  const model::EventGraph& graph_;
  model::Deadline deadline_;
  z3::expr_vector constraints_;
  z3::expr_vector unspecified_;  // conditions under which an execution needs an unspecified value
  SymSet events_;
  std::vector<SymSet> sets_;
  std::vector<SymRel> rels_;
  model::Candidate bounds_;
  std::vector<z3::expr> value_;        // per event: read value (fresh) or write value (term)
  std::vector<z3::expr> finalRegs_;    // flattened per thread: [thread][register]
  std::vector<z3::expr> finalUnspec_;  // the same layout: the final value needs an unspecified result
  std::vector<std::size_t> regBase_;   // first index of each thread in finalRegs_
  std::vector<BoundHit> boundHits_;
  std::vector<z3::expr> outcome_;
  struct BarrierArrival {
    int arrive;
    std::optional<int> wait;
    int thread;
    BarrierClass cls;
    z3::expr id;
    std::optional<z3::expr> size;  // the count or the quorum
    bool aligned;
  };
  std::vector<BarrierArrival> arrivals_;
  std::vector<z3::expr> exited_;       // per thread: its path ends (it released All-kind barriers)
  std::map<int, z3::expr> blocked_;    // arrive event -> its thread stops at the instruction's wait half
  z3::expr divergent_;                 // an aligned barrier is completed by an exit (undefined behaviour)
  const liveness::ProgressModel* liveness_;
  std::vector<ThreadEnd> ends_;
  std::vector<StuckPoint> stuckPoints_;
  struct FairRead {
    z3::expr when;
    int read;
    std::vector<int> own;  // writes of the repeated iteration, which may be co-after the write read
  };
  std::vector<FairRead> fairReads_;
};

}  // namespace ptxmm::checker::z3enc
