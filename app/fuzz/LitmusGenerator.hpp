// The random litmus generator behind `ptxmm fuzz-diff`: small, valid PTX litmus tests that mix the features
// the engines must agree on (semantics and scopes, atomics, fences, proxies and aliases, barriers, branches,
// spin loops, placements over CTAs, clusters and GPUs). A test is a pure function of its seed: the generator
// uses its own SplitMix64 stream and bounded-integer routine, not <random>'s distributions, whose output
// differs between standard libraries. Tests stay within what the explicit engine enumerates quickly.
#pragma once

#include <cstdint>
#include <string>

namespace ptxmm::app {

/// Relative weights of the instructions drawn for a thread's body (0 disables a kind).
struct InstructionWeights {
  int load = 30;
  int store = 24;
  int atom = 9;        // atom.add/exch/cas/inc/max
  int red = 4;         // red.add
  int fence = 9;       // fence.sc/.acq_rel/.acquire/.release.<scope>, membar.gl
  int proxyFence = 6;  // fence.proxy.<alias|proxy>, only in tests that declare aliases
  int local = 5;       // register arithmetic, whose result a later store may write (a data dependency)
  int ifThen = 6;      // a forward conditional branch over one instruction
};

/// Relative weights of the ways threads are placed.
struct PlacementWeights {
  int sameCta = 2;
  int differentCtas = 4;
  int mixedCtas = 3;  // two CTAs, threads spread over them at random
  int clusters = 2;   // CTAs in named clusters (`P0@cta 0,cluster 0,gpu 0`)
  int gpus = 1;       // two GPUs
};

/// Relative weights of the condition's quantifier.
struct QuantifierWeights {
  int exists = 5;
  int notExists = 3;
  int forall = 2;
};

struct GeneratorOptions {
  int minThreads = 2;
  int maxThreads = 4;
  int maxLocations = 3;          // physical locations (x, y, z), aliases not counted
  int minInstructions = 1;       // drawn instructions per thread (barriers and spin loops come on top)
  int maxInstructions = 5;
  int maxWritesPerLocation = 4;  // stores, atoms and reds per physical location, all threads together
  int maxFenceSc = 4;            // fence.sc and membar in the whole test
  // A bound on the explicit engine's candidate executions, estimated as the product of (writes + 1) over the
  // reads of each location, the coherence orders of each location, the Fence-SC orders and the branch paths;
  // an instruction that would exceed it is not drawn. The default keeps almost every test below a second.
  double maxCandidateEstimate = 300'000;
  InstructionWeights weights;
  PlacementWeights placement;
  QuantifierWeights quantifier;
  int proxyPercent = 20;     // tests that declare aliases and access through them
  int barrierPercent = 12;   // tests with CTA barriers
  int deadlockPercent = 10;  // of those, a barrier whose thread count is never reached
  int spinPercent = 6;       // tests with a spin loop `LC: ld r, f; beq r, 0, LC`
  int regInitPercent = 10;   // tests with an initialised register that a store writes
};

/// The text of a random, valid litmus test named `fuzz-<seed>`; the same seed and options give the same text.
std::string generateLitmus(std::uint64_t seed, const GeneratorOptions& options = {});

}  // namespace ptxmm::app
