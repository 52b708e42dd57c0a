// Progress models (checker/liveness/ProgressModel.hpp): parsing, and which schedules of stuck threads each admits
// — the definitions of Sorensen et al. (OOPSLA 2021) as Dat3M encodes them, checked on small thread layouts.
#include <catch2/catch.hpp>

#include "checker/liveness/ProgressModel.hpp"

using namespace ptxmm;
using namespace ptxmm::checker::liveness;

namespace {

// n threads, thread t in CTA cta[t] (all on GPU 0).
model::EventGraph layout(std::vector<int> cta) {
  model::EventGraph g;
  for (std::size_t t = 0; t < cta.size(); ++t) {
    model::ThreadGraph tg;
    tg.name = "P" + std::to_string(t);
    tg.cta = cta[t];
    g.threads.push_back(tg);
  }
  return g;
}

ProgressModel uniform(const char* name) {
  std::string error;
  return *parseProgressModel(name, error);
}

const ThreadStatus spinning{ThreadState::Spinning, true};
const ThreadStatus neverStarted{ThreadState::Stopped, false};
const ThreadStatus stoppedAfterAStep{ThreadState::Stopped, true};
const ThreadStatus exited{ThreadState::Exited, true};
const ThreadStatus blocked{ThreadState::Blocked, true};

}  // namespace

TEST_CASE("progress models parse by name and per level", "[liveness][progress]") {
  std::string error;
  CHECK(parseProgressModel("fair", error)->fair());
  CHECK(parseProgressModel("hsa_obe", error)->name() == "hsa_obe");
  const auto mixed = parseProgressModel("cta=fair,gpu=obe", error);
  REQUIRE(mixed);
  CHECK(mixed->cta == Progress::Fair);
  CHECK(mixed->gpu == Progress::Obe);
  CHECK(mixed->sys == Progress::Fair);
  CHECK(mixed->name() == "cta=fair,gpu=obe,sys=fair");
  CHECK_FALSE(parseProgressModel("fiar", error));
  CHECK(error.find("expected fair") != std::string::npos);
  CHECK_FALSE(parseProgressModel("warp=fair", error));
}

TEST_CASE("which starved threads each progress model admits", "[liveness][progress]") {
  // Two threads in two CTAs: the spinning consumer has the lower id, the producer never ran.
  const auto g = layout({0, 1});
  const std::vector<ThreadStatus> consumerFirst{spinning, neverStarted};
  CHECK_FALSE(admits(uniform("fair"), g, consumerFirst));
  CHECK(admits(uniform("hsa"), g, consumerFirst));
  CHECK(admits(uniform("obe"), g, consumerFirst));
  CHECK(admits(uniform("hsa_obe"), g, consumerFirst));
  CHECK(admits(uniform("lobe"), g, consumerFirst));
  CHECK(admits(uniform("unfair"), g, consumerFirst));
  // The producer has the lower id: HSA and LOBE schedule it.
  const std::vector<ThreadStatus> producerFirst{neverStarted, spinning};
  CHECK_FALSE(admits(uniform("hsa"), g, producerFirst));
  CHECK(admits(uniform("obe"), g, producerFirst));
  CHECK_FALSE(admits(uniform("hsa_obe"), g, producerFirst));
  CHECK_FALSE(admits(uniform("lobe"), g, producerFirst));
  CHECK(admits(uniform("unfair"), g, producerFirst));
  // A thread that made a step is scheduled under OBE.
  CHECK_FALSE(admits(uniform("obe"), g, {spinning, stoppedAfterAStep}));
  // Minimal progress: some thread that can move keeps running, even under UNFAIR.
  CHECK_FALSE(admits(uniform("unfair"), g, {stoppedAfterAStep, neverStarted}));
  CHECK(admits(uniform("fair"), g, {blocked, exited}));
}

TEST_CASE("per-level progress: fair inside a CTA, OBE between CTAs", "[liveness][progress]") {
  const auto g = layout({0, 0, 1});
  std::string error;
  const auto m = *parseProgressModel("cta=fair,gpu=obe", error);
  // CTA 1 never started: OBE between CTAs lets it starve.
  CHECK(admits(m, g, {spinning, exited, neverStarted}));
  // Inside CTA 0, which runs, every thread is scheduled fairly.
  CHECK_FALSE(admits(m, g, {spinning, neverStarted, exited}));
}
