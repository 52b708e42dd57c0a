// The EventGraph: a program unrolled into events, immutable once built. Each thread is a DAG of nodes (one
// node per executed instance of an instruction, loops unrolled up to the bound); a node carries the events its
// instruction performs and its effect on registers, as terms over the registers before the node and the
// values of the node's own reads. A control-flow path through a thread's DAG fixes which events happen; the
// engines choose paths, reads-from, coherence and the other witness relations on top of this.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/Diagnostic.hpp"
#include "model/ValueExpr.hpp"
#include "model/Vocabulary.hpp"

namespace ptxmm::model {

/// What a CTA or warp barrier event (BA/BW) synchronises on [§4.4, §4.5, A20]: two arrivals meet only on the
/// same domain, label, id and count or quorum; checker/BarrierRules.hpp says when a generation completes.
struct BarrierSpec {
  ValuePtr id;                        // the resource: PTX's `a`, Dat3M's ID (or its label when no ID is written)
  ValuePtr count;                     // PTX's thread count `b`; null: every thread of the CTA that uses the barrier
  ValuePtr quorum;                    // Dat3M's quorum: how many of the test's threads must arrive; null: none
  std::optional<std::int64_t> label;  // Dat3M's static label C, when an ID is written beside it
  bool aligned = false;               // bar / .aligned: reaching it from divergent code is undefined
};

struct Event {
  TagSet tags;
  int thread = -1;  // -1 for an initial write
  int node = -1;    // the node of the thread that performs it
  int vaddr = -1;   // virtual address (memory events)
  int paddr = -1;   // physical location (memory events)
  ValuePtr value;      // W: value written (over registers before the node and the node's reads)
  ValuePtr existsIf;   // the event happens only if this is non-zero (the write half of a cas); null = always
  ValuePtr assume;     // the event blocks until this is non-zero (barrier.cluster.wait): executions where it is
                       // zero do not terminate and are not executions of the program; null = never blocks
  std::optional<BarrierSpec> barrier;  // BA/BW: what the barrier synchronises on
  std::string label;   // the instruction as written, for reports ("st.weak x, 1")
  SourcePos pos;

  bool is(Tag t) const { return hasTag(tags, t); }
};

/// A successor of a node: another node, the end of the thread, or the unrolling bound.
struct Edge {
  static constexpr int kEnd = -1;
  static constexpr int kBound = -2;
  int target = kEnd;
  int backEdgeOf = -1;  // >= 0: this edge starts a new iteration of that loop
};

struct Node {
  int instr = -1;                                      // instruction index in the thread's source code
  std::vector<int> events;                             // global event ids, in program order
  std::vector<std::pair<int, ValuePtr>> assigns;       // register := term, after the events
  ValuePtr branch;                                     // null: always `next`; otherwise `taken` when non-zero
  Edge next;
  Edge taken;
  int startsIterationOf = -1;  // this node begins an iteration of that loop (the loop's first instruction)
  std::vector<int> iteration;  // per loop of the thread: the iteration this node belongs to, -1 outside it
};

/// A loop of the source code: instructions [header, last] with a back edge to header.
struct LoopInfo {
  int header = 0;
  int last = 0;
  std::vector<int> liveAtHeader;  // registers whose value at the header can still be read or observed
  SourcePos pos;                  // the back-edge instruction
};

struct ThreadGraph {
  std::string name;  // "P0"
  int cta = 0;       // scope-tree instances, numbered densely across the whole test
  int warp = 0;
  int cluster = 0;
  int gpu = 0;
  std::vector<Node> nodes;  // in a topological order; entry is nodes[0] (a thread with no code has none)
  std::vector<std::string> registers;
  std::vector<std::int64_t> regInit;
  std::vector<LoopInfo> loops;
};

struct EventGraph {
  std::string name;
  std::vector<Event> events;  // the first physicalNames.size() events are the initial writes, in location order
  std::vector<ThreadGraph> threads;
  std::vector<std::string> physicalNames;  // one name per physical location (its first declaration)
  std::vector<std::int64_t> initValues;    // per physical location
  std::vector<std::string> virtualNames;   // one name per virtual address
  std::vector<std::pair<std::string, int>> locationNames;  // every name usable in a condition -> physical location
  std::vector<int> ownerCta;               // per physical location: the CTA whose shared memory holds it, or -1
  // The static order of asynchronous operations (both events must happen): issue order, the order inside one
  // operation, and completion (accesses -> completion events -> waits that retire them) [§2.2, §2.9].
  std::vector<std::pair<int, int>> iss, aint, adone;
  int unrollBound = 0;
  bool threadsAreWarps = true;  // litmus threads stand for warps (a barrier arrival counts 32 threads); kernel threads are threads

  /// How many threads of a barrier's thread count one thread's arrival stands for.
  int threadsPerArrival() const { return threadsAreWarps ? 32 : 1; }

  /// The physical location a condition name denotes, or -1.
  int physicalOf(const std::string& name) const {
    for (const auto& [n, p] : locationNames)
      if (n == name) return p;
    return -1;
  }

  std::size_t initCount() const { return physicalNames.size(); }

  /// The threads a barrier event can synchronise with: a CTA barrier (bar.sync/arrive) those of its thread's CTA,
  /// a warp barrier (bar.warp.sync) the lanes of its thread's warp [§4.5]. Domains of the two kinds never collide.
  int barrierDomain(const Event& e) const {
    const ThreadGraph& t = threads[static_cast<std::size_t>(e.thread)];
    return e.is(Tag::WBAR) ? -1 - t.warp : t.cta;
  }
};

}  // namespace ptxmm::model
