// Cached engine runs on slices (SliceRunner.hpp).
#include "checker/kernel/SliceRunner.hpp"

#include "frontend/lower/Unroller.hpp"

namespace ptxmm::checker::kernel {
namespace {

constexpr int kMaxUnroll = 16;

}  // namespace

SliceRunner::SliceRunner(const model::CatModel& model, RunOptions options) : model_(model), options_(std::move(options)) {
  options_.engineOptions.races = true;
}

const SliceAnswer& SliceRunner::run(const Slice& slice, double timeoutSeconds) {
  if (const auto it = cache_.find(slice.key); it != cache_.end()) {
    ++hits_;
    return it->second;
  }
  ++runs_;
  SliceAnswer answer;
  try {
    // A loop whose iterations have effects (a compare-and-swap retry loop) gets more iterations until no
    // consistent execution needs more, or the cap is reached and the engine's UNKNOWN stands.
    RunOptions run = options_;
    run.engineOptions.timeoutSeconds = timeoutSeconds;
    const auto unrolling = [&] { return frontend::UnrollOptions{run.unroll, run.engineOptions.deadline, run.maxEvents}; };
    model::EventGraph graph = frontend::unroll(slice.program, unrolling());
    TestResult r = makeEngine(model_, run)->run(slice.program, graph);
    while (r.status == Status::Unknown && !r.resourceLimit && run.unroll * 2 <= kMaxUnroll) {
      run.unroll *= 2;
      graph = frontend::unroll(slice.program, unrolling());
      r = makeEngine(model_, run)->run(slice.program, graph);
    }
    answer.status = r.status;
    answer.reason = r.reason;
    answer.keys = r.keys;
    answer.states = r.states;
    auto where = [&](int e) {
      const model::Event& ev = graph.events[static_cast<std::size_t>(e)];
      return std::pair{ev.thread, graph.threads[static_cast<std::size_t>(ev.thread)].nodes[static_cast<std::size_t>(ev.node)].instr};
    };
    for (const Race& race : r.races) answer.races.push_back({where(race.events.first), where(race.events.second), race.kind});
  } catch (const model::LimitReached& e) {  // the check's --timeout, while unrolling or encoding the slice
    answer.status = Status::Unknown;
    answer.reason = e.what();
  } catch (const model::UserError& e) {
    // A slice is made from a program the unroller accepted; a refusal here is a limit of the slice, not bad input.
    answer.status = Status::Unknown;
    answer.reason = "the engines cannot run a slice: " + e.message();
  }
  return cache_.emplace(slice.key, std::move(answer)).first->second;
}

}  // namespace ptxmm::checker::kernel
