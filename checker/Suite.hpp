// The suite runner: checks many tests against expectation files and reports every mismatch with its reason.
// Expectation files are Dat3M's CSV (`path,1|0`, 1 = the condition's claim holds) or the project's superset
// `path,1|0,state;state;...,race|race-free` whose third column pins the permitted final states (each state
// written `P0:r0=1 x=2`, keys in ptxmm's order; an empty column pins nothing) and whose fourth says whether some
// permitted execution has a PTX data race. An exceptions file lists, with reasons, tests where ptxmm's reading
// of the spec knowingly differs from a peer's expectation: they are reported, never silenced, and an
// exception that no longer differs is reported too. NVIDIA's nvlitmus `.test` files carry their own
// expectations (`permit` / `assert`), so a directory of them is an expectations source of its own: one
// expectation per table row, named `FILE#ROW`.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "checker/TestRunner.hpp"

namespace ptxmm::checker {

struct Expectation {
  std::string path;  // as written in the file
  bool holds = false;
  std::optional<std::vector<std::string>> states;  // canonical state strings, when pinned
  std::optional<bool> racy;                        // whether a race exists, when pinned
  model::SourcePos pos;
  std::shared_ptr<const frontend::Program> program;  // an nvlitmus row test: checked instead of the file at path
};

struct KnownDifference {
  std::string path;
  std::string reason;
};

/// Reads an expectations file. Throws model::UserError on malformed lines.
std::vector<Expectation> readExpectations(const std::string& file);
/// The tests of every nvlitmus `.test` file under `path` (a directory, searched recursively, or one file), in
/// path order, each expecting its claim to hold (`permit C`: C is reachable, `assert C`: C always holds); paths
/// are `FILE#ROW` relative to the directory. A file that does not parse gives one expectation, its own path,
/// which fails with the diagnostic when run. Throws model::UserError when `path` holds no `.test` file.
std::vector<Expectation> readNvLitmusExpectations(const std::string& path);
/// Reads an exceptions file (`path reason...` per line, `#` comments).
std::vector<KnownDifference> readKnownDifferences(const std::string& file);

/// "P0:r0=1 x=2": the canonical text of a final state.
std::string stateText(const TestResult& result, const FinalState& state);

enum class Verdict : std::uint8_t { Pass, Fail, KnownDifference, StaleDifference };

struct SuiteEntry {
  Expectation expectation;
  TestResult result;
  Verdict verdict = Verdict::Pass;
  std::string explanation;  // why it failed, or the known difference's reason
};

struct SuiteOptions {
  std::string root;  // directory the expectation paths are relative to
  int jobs = 1;
  int shard = 1;     // run the tests whose index i (0-based, in file order) has i % shards == shard - 1
  int shards = 1;
  RunOptions run;
  std::vector<KnownDifference> knownDifferences;
};

/// The expectations of this shard.
std::vector<Expectation> shardOf(const std::vector<Expectation>& all, int shard, int shards);

/// Runs every expectation (in parallel with `jobs` threads); `onDone` is called (serialised) as each finishes.
std::vector<SuiteEntry> runSuite(const model::CatModel& model, const std::vector<Expectation>& expectations,
                                 const SuiteOptions& options,
                                 const std::function<void(const SuiteEntry&, std::size_t done)>& onDone);

}  // namespace ptxmm::checker
