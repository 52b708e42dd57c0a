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
#include "checker/z3/SymbolicRelation.hpp"
#include "model/Candidate.hpp"
#include "model/EventGraph.hpp"

namespace ptxmm::checker::z3enc {

using checker::Witness;

class ProgramEncoding {
 public:
  ProgramEncoding(z3::context& ctx, const model::EventGraph& graph, const std::vector<ObservedKey>& keys);

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
};

}  // namespace ptxmm::checker::z3enc
