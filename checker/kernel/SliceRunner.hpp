// Runs an engine on slices and keeps its answers by the slice's canonical text, so symmetric slices (the same
// program up to the renaming of threads, locations and registers) are decided once. An answer is kept in slice
// coordinates (slice thread, slice instruction); callers map it back through their own Slice.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "checker/Outcome.hpp"
#include "checker/TestRunner.hpp"
#include "checker/kernel/SliceBuilder.hpp"

namespace ptxmm::checker::kernel {

struct SliceRace {
  std::pair<int, int> first, second;  // (slice thread, slice instruction)
  std::string kind;
};

struct SliceAnswer {
  Status status = Status::Ok;
  std::string reason;
  std::vector<SliceRace> races;
  std::vector<std::string> keys;   // observed locations, by slice name
  std::vector<FinalState> states;  // permitted final states over `keys`
};

class SliceRunner {
 public:
  /// `options` says which engine and limits; races are always searched.
  SliceRunner(const model::CatModel& model, RunOptions options);

  /// The engine's answer for `slice` (cached by its key). `timeoutSeconds` (0: none) limits this run.
  const SliceAnswer& run(const Slice& slice, double timeoutSeconds);

  std::size_t engineRuns() const { return runs_; }
  std::size_t cacheHits() const { return hits_; }

 private:
  const model::CatModel& model_;
  RunOptions options_;
  std::map<std::string, SliceAnswer> cache_;
  std::size_t runs_ = 0, hits_ = 0;
};

}  // namespace ptxmm::checker::kernel
