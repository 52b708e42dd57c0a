// Differential fuzzing of the two engines: random litmus tests from generateLitmus go through
// compareEngines; every difference is shrunk by delta debugging to a small test that still shows the same kind
// of difference, and written as a litmus file the lead can run with `ptxmm diff`. Test i of a run uses seed
// `seed + i`, so any finding is reproduced by its seed alone.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "app/fuzz/LitmusGenerator.hpp"
#include "checker/Differential.hpp"

namespace ptxmm::app {

struct FuzzOptions {
  std::uint64_t count = 100;
  std::uint64_t seed = 1;
  std::string outDir = "fuzz-out";  // reproducers go here; empty: none are written
  checker::RunOptions run;
  GeneratorOptions generator;
};

/// A generated test on which the engines differ.
struct FuzzFinding {
  std::uint64_t seed = 0;
  std::string difference;  // compareEngines' description, on the generated test
  std::string kind;        // differenceKind: what the minimal test still shows
  std::string minimal;     // the minimal test's text
  std::string reproducer;  // the file it was written to ("" without an output directory)
};

struct FuzzReport {
  std::uint64_t agree = 0;
  std::uint64_t differ = 0;
  std::uint64_t inconclusive = 0;
  std::vector<FuzzFinding> findings;
  std::vector<std::pair<std::uint64_t, std::string>> inconclusiveTests;  // seed, the run that stopped and why
};

/// Called after each test with its seed, its finding when the engines differed, and the counts so far.
using FuzzProgress = std::function<void(std::uint64_t seed, const FuzzFinding* finding, const FuzzReport& report)>;

/// Generates and compares `options.count` tests; writes one reproducer per difference into `options.outDir`.
FuzzReport fuzzDiff(const model::CatModel& model, const FuzzOptions& options, const FuzzProgress& progress = {});

/// A property of a program that minimisation preserves.
using ProgramPredicate = std::function<bool(const frontend::Program&)>;

/// Delta debugging to a fixed point: drops single instructions (a branch together with its label once nothing
/// else targets it; never a label still targeted), then unused locations and register initialisations, one
/// side of the condition's top-level /\ or \/, and empty threads nothing mentions, keeping each step after
/// which `keeps` holds of the program as written and parsed back.
/// `program` must satisfy `keeps`; the result does, and so does its writeLitmus text.
frontend::Program minimizeProgram(const frontend::Program& program, const ProgramPredicate& keeps);

/// The kind of difference minimisation must preserve ("states differ", "status ok vs unknown", ...); empty when
/// the engines agree or the comparison was inconclusive.
std::string differenceKind(const checker::EngineComparison& comparison);

}  // namespace ptxmm::app
