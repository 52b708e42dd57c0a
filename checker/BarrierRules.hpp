// The rules of CTA and warp barrier generations, in one place for both engines (the explicit matcher in
// BarrierMatching.cpp enumerates them, the Z3 encoding in z3/ProgramEncoding.cpp states them as constraints).
// [§2.8, §4.4, §4.5, A20; README "Barriers"]
//
// An arrival meets others on its KEY: the domain (its CTA, or its warp for bar.warp.sync), Dat3M's label when
// one is written beside an id, the evaluated id, and the evaluated count or quorum. A barrier's KIND says when
// a generation completes:
//  * All (no count, no quorum: "all threads of the CTA using the barrier"): generation k holds the k-th arrival
//    of every thread that arrives k times. Its USERS are the threads that arrive at the key and the threads of
//    the domain whose code has an instruction naming the key with constants. Generation k completes once every
//    user has arrived k times or has EXITED (a litmus thread whose path ends): exiting threads release a barrier
//    for all threads. An aligned barrier (bar, .aligned) completed through an exit was reached from divergent
//    code: undefined behaviour, reported, never a silent pass.
//  * Counted (PTX's `bar.sync a, b`): a generation is any b/T arrivals of distinct threads, T the launch
//    threads a program thread stands for (32 in litmus tests, where a thread is a warp); exits release nothing.
//    A count that is not a positive multiple of T never completes.
//  * Quorum (Dat3M's `bar.cta.sync C, ID, Q`): generation k holds the k-th arrivals, and completes when at
//    least Q of the test's threads arrive; any Q or more of them synchronise (Dat3M's `sync` choice).
// A wait half that runs belongs to a complete generation; a thread blocked at a wait, to an incomplete one.
#pragma once

#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "model/EventGraph.hpp"

namespace ptxmm::checker {

enum class BarrierKind : std::uint8_t { All, Counted, Quorum };

/// The static part of a key: arrivals of different classes never meet.
struct BarrierClass {
  int domain = 0;                     // EventGraph::barrierDomain
  std::optional<std::int64_t> label;  // Dat3M's label, when written with an id
  BarrierKind kind = BarrierKind::All;

  auto tie() const { return std::tie(domain, label, kind); }
  bool operator<(const BarrierClass& o) const { return tie() < o.tie(); }
  bool operator==(const BarrierClass& o) const { return tie() == o.tie(); }
};

/// The class of barrier event `e`.
BarrierClass barrierClass(const model::EventGraph& graph, const model::Event& e);

/// The arrivals per generation of a Counted barrier with thread count `count`: count / T, or nullopt when the
/// count is not a positive multiple of T (such a barrier never completes).
std::optional<std::int64_t> countedSize(const model::EventGraph& graph, std::int64_t count);

/// An instruction naming a key with constants: its thread is a user of the key whether or not it gets there.
struct StaticUse {
  int thread = 0;
  BarrierClass cls;
  std::int64_t id = 0;
  std::optional<std::int64_t> size;  // the evaluated count or quorum operand (not yet divided by T)
  bool aligned = false;
};

/// Every barrier arrive event of `graph` whose id, count and quorum are constants, one per instruction.
std::vector<StaticUse> staticUses(const model::EventGraph& graph);

}  // namespace ptxmm::checker
