// Hopper-era synchronisation end to end, in both engines (the explicit engine and Z3 with its cross-check must
// agree on states, flags and races): warp barriers keyed by warp, mbarrier release/acquire and its relaxed
// sibling, mbarrier scopes under the strict and lenient readings (A6), barrier.cluster, async-proxy copies with
// and without fence.proxy.async, TMA loads completing on an mbarrier, st.async, and the misuse diagnostics.
// Expected verdicts are derived from spec/ptx-model.md (sections cited per test).
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "checker/Differential.hpp"
#include "checker/ResultPrinter.hpp"
#include "frontend/litmus/LitmusParser.hpp"
#include "frontend/lower/Unroller.hpp"
#include "model/CatParser.hpp"
#include "unit/checker/CheckerTestSupport.hpp"

using namespace ptxmm;
using namespace ptxmm::testing;
using checker::Status;
using checker::TestResult;

namespace {

struct Verdict {
  bool holds;
  std::set<std::string> states;
  std::set<std::string> raceKinds;
};

// Decides a test in both engines, requires them to agree, and returns the reference result's verdict.
Verdict decide(const std::string& text, const model::CatModel& model = ptxModel()) {
  const auto program = frontend::parseLitmus(text, "hopper.litmus");
  const auto c = checker::compareEngines(model, program, {});
  INFO(text);
  REQUIRE(c.reference.status == Status::Ok);
  REQUIRE_FALSE(c.inconclusive);
  REQUIRE(c.difference.empty());
  Verdict v{c.reference.holds, {}, {}};
  for (const auto& s : c.reference.states) v.states.insert(checker::stateText(c.reference, s));
  for (const auto& r : c.reference.races) v.raceKinds.insert(r.kind);
  return v;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

const std::set<std::string> kRaceFree;
const std::set<std::string> kUnsync{"no synchronisation"};

}  // namespace

TEST_CASE("bar.warp.sync synchronises the lanes of one warp, not two warps with the same mask",
          "[checker][hopper]") {
  // §4.5: bar.warp.sync is a barrier among the threads of the warp named in the mask.
  const std::string lanes =
      "PTX W\n{ x = 0; }\n"
      " P0@cta 0,warp 0,gpu 0 | P1@cta 0,warp 0,gpu 0 ;\n"
      " st.weak [x], 1 | bar.warp.sync 0xffffffff ;\n"
      " bar.warp.sync 0xffffffff | ld.weak r0, [x] ;\n"
      "exists (P1:r0 == 0)\n";
  const Verdict same = decide(lanes);
  CHECK_FALSE(same.holds);
  CHECK(same.raceKinds == kRaceFree);
  const Verdict other = decide(replaced(lanes, "P1@cta 0,warp 0", "P1@cta 0,warp 1"));
  CHECK(other.holds);
  CHECK(other.raceKinds == kUnsync);
}

TEST_CASE("mbarrier arrive (release by default) and try_wait (acquire) pass data; a relaxed arrive does not",
          "[checker][hopper]") {
  // §4.2: arrive defaults to .release.cta and a successful wait to .acquire.cta (rp1/ap1 on the mbarrier word).
  const std::string mp =
      "PTX MB\n{ x = 0; b @ mbarrier cta 0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
      " mbarrier.init.shared::cta.b64 [b], 1 | LC00: ;\n"
      " bar.sync 1, 64 | bar.sync 1, 64 ;\n"
      " st.weak [x], 1 | mbarrier.try_wait.parity.shared::cta.b64 r0, [b], 0 ;\n"
      " mbarrier.arrive.shared::cta.b64 _, [b] | setp.eq.s32 p, r0, 0 ;\n"
      "  | @p bra LC00 ;\n"
      "  | ld.weak r1, [x] ;\n"
      "exists (P1:r1 == 0)\n";
  const Verdict rel = decide(mp);
  CHECK_FALSE(rel.holds);
  CHECK(rel.states == std::set<std::string>{"P1:r1=1"});
  CHECK(rel.raceKinds == kRaceFree);
  const std::string relaxed = replaced(mp, "mbarrier.arrive.shared::cta", "mbarrier.arrive.relaxed.cta.shared::cta");
  const Verdict rlx = decide(relaxed);
  CHECK(rlx.holds);
  CHECK(rlx.raceKinds == kUnsync);
  // rp3: a release fence before the relaxed arrive restores the release pattern.
  const Verdict fenced = decide(replaced(relaxed, " st.weak [x], 1 |", " st.weak [x], 1 | ;\n fence.acq_rel.cta |"));
  CHECK_FALSE(fenced.holds);
  CHECK(fenced.raceKinds == kRaceFree);
}

TEST_CASE("a remote .cta arrive synchronises only under the lenient reading of mbarrier scopes (A6)",
          "[checker][hopper]") {
  const std::string remote =
      "PTX MBremote\n{ x = 0; b @ mbarrier cta 0; }\n"
      " P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n"
      " mbarrier.init.shared::cta.b64 [b], 1 | st.weak [x], 1 ;\n"
      " LC00: | mbarrier.arrive.release.cta.shared::cluster.b64 _, [b] ;\n"
      " mbarrier.try_wait.parity.shared::cta.b64 r0, [b], 0 | ;\n"
      " setp.eq.s32 p, r0, 0 | ;\n"
      " @p bra LC00 | ;\n"
      " ld.weak r1, [x] | ;\n"
      "exists (P0:r1 == 0)\n";
  CHECK(decide(remote, ptxModel()).holds);   // letter of the document: .cta RMWs of another CTA are not ms
  CHECK_FALSE(decide(remote, lenientModel()).holds);  // mbarrier RMWs mutually ms for the chain
  // .release.cluster on the arrive and .acquire.cluster on the wait synchronise under both readings.
  std::string cluster = replaced(remote, "arrive.release.cta", "arrive.release.cluster");
  cluster = replaced(cluster, "try_wait.parity.shared::cta", "try_wait.parity.acquire.cluster.shared::cta");
  CHECK_FALSE(decide(cluster, ptxModel()).holds);
}

TEST_CASE("barrier.cluster: release arrive and acquire wait synchronise CTAs; a relaxed arrive does not",
          "[checker][hopper]") {
  // §4.3: arrive defaults to .release, wait to .acquire; .relaxed orders nothing before it.
  const std::string mp =
      "PTX CB\n{ x = 0; }\n"
      " P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n"
      " st.weak [x], 1 | barrier.cluster.arrive ;\n"
      " barrier.cluster.arrive | barrier.cluster.wait ;\n"
      " barrier.cluster.wait | ld.weak r0, [x] ;\n"
      "exists (P1:r0 == 0)\n";
  const Verdict rel = decide(mp);
  CHECK_FALSE(rel.holds);
  CHECK(rel.raceKinds == kRaceFree);
  const std::string relaxed = replaced(mp, " barrier.cluster.arrive |", " barrier.cluster.arrive.relaxed |");
  const Verdict rlx = decide(relaxed);
  CHECK(rlx.holds);
  CHECK(rlx.raceKinds == kUnsync);
  // A9: fence.acq_rel.cluster before the relaxed arrive is the documented idiom.
  CHECK_FALSE(decide(replaced(relaxed, " barrier.cluster.arrive.relaxed |", " fence.acq_rel.cluster | ;\n barrier.cluster.arrive.relaxed |")).holds);
}

TEST_CASE("a generic write read by a bulk copy needs fence.proxy.async; without it the race is of proxies",
          "[checker][hopper]") {
  // §2.10, §4.7: the copy reads shared memory in the async proxy; fence.proxy.async.shared::cta in the issuing
  // thread makes the generic write visible to it.
  const std::string store =
      "PTX TMAstore\n{ s @ shared cta 0 size 16 = 0; g @ global size 16 = 0; }\n"
      " P0@cta 0,gpu 0 ;\n"
      " st.weak.shared::cta [s], 1 ;\n"
      " cp.async.bulk.global.shared::cta.bulk_group [g], [s], 16 ;\n"
      " cp.async.bulk.commit_group ;\n"
      " cp.async.bulk.wait_group 0 ;\n"
      "exists (g == 0)\n";
  const Verdict bare = decide(store);
  CHECK(bare.holds);
  CHECK(bare.states == std::set<std::string>{"g=0", "g=1"});
  CHECK(bare.raceKinds == std::set<std::string>{"different proxies"});
  const Verdict fenced = decide(replaced(store, " cp.async.bulk.global", " fence.proxy.async.shared::cta ;\n cp.async.bulk.global"));
  CHECK_FALSE(fenced.holds);
  CHECK(fenced.states == std::set<std::string>{"g=1"});
  CHECK(fenced.raceKinds == kRaceFree);
}

TEST_CASE("a bulk load completing on an mbarrier is visible to the threads whose wait sees the phase",
          "[checker][hopper]") {
  // §4.2 (iii), §4.7: the implicit complete_tx is a release at cluster scope after the copy's writes and the
  // implicit async->generic proxy fence; the successful wait acquires. Reading before the wait races.
  const std::string load =
      "PTX TMAload\n{ s @ shared cta 0 size 16 = 0; g @ global size 16 = 7; b @ mbarrier cta 0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
      " mbarrier.init.shared::cta.b64 [b], 1 | LC00: ;\n"
      " bar.sync 1, 64 | bar.sync 1, 64 ;\n"
      " mbarrier.arrive.expect_tx.shared::cta.b64 _, [b], 16 | mbarrier.try_wait.parity.shared::cta.b64 r0, [b], 0 ;\n"
      " cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [s], [g], 16, [b] | setp.eq.s32 p, r0, 0 ;\n"
      "  | @p bra LC00 ;\n"
      "  | ld.weak.shared::cta r1, [s] ;\n"
      "exists (P1:r1 == 0)\n";
  const Verdict waited = decide(load);
  CHECK_FALSE(waited.holds);
  CHECK(waited.states == std::set<std::string>{"P1:r1=7"});
  CHECK(waited.raceKinds == kRaceFree);
  // Without the wait the generic read may see the old value and races with the async write.
  std::string early = replaced(load, " setp.eq.s32 p, r0, 0 ;", " ;");
  early = replaced(early, " @p bra LC00 ;", " ;");
  early = replaced(early, "mbarrier.try_wait.parity.shared::cta.b64 r0, [b], 0 ;", " ;");
  const Verdict racy = decide(early);
  CHECK(racy.holds);
  CHECK(racy.raceKinds.count("different proxies"));
}

TEST_CASE("st.async with its mbarrier completion passes data to the waiting CTA", "[checker][hopper]") {
  // §4.8: st.async's implicit complete_tx on the destination CTA's mbarrier is a release at cluster scope; the
  // consumer waits with .acquire.cluster.
  // P1 initialises its mbarrier and publishes the init across the cluster (fence.mbarrier_init + relaxed cluster
  // barrier, the §4.2 idiom) before P0 pushes into P1's shared memory.
  const std::string push =
      "PTX STasync\n{ s @ shared cta 1 = 0; b @ mbarrier cta 1; }\n"
      " P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n"
      " barrier.cluster.arrive.relaxed | mbarrier.init.shared::cta.b64 [b], 1 ;\n"
      " barrier.cluster.wait | mbarrier.arrive.expect_tx.relaxed.cluster.shared::cta.b64 _, [b], 4 ;\n"
      " st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [s], 5, [b] | fence.mbarrier_init.release.cluster ;\n"
      "  | barrier.cluster.arrive.relaxed ;\n"
      "  | barrier.cluster.wait ;\n"
      "  | LC00: ;\n"
      "  | mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 r0, [b], 0 ;\n"
      "  | setp.eq.s32 p, r0, 0 ;\n"
      "  | @p bra LC00 ;\n"
      "  | ld.weak.shared::cta r1, [s] ;\n"
      "exists (P1:r1 == 0)\n";
  const Verdict v = decide(push);
  CHECK_FALSE(v.holds);
  CHECK(v.states == std::set<std::string>{"P1:r1=5"});
}

TEST_CASE("Hopper misuse is a diagnostic at the offending operand", "[frontend][hopper]") {
  const auto error = [](const std::string& text) {
    try {
      frontend::unroll(frontend::parseLitmus(text, "bad.litmus"), {2});
    } catch (const model::UserError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // A wait on an mbarrier that is never initialised [§4.2].
  CHECK_THAT(error("PTX bad\n{ b @ mbarrier cta 0; }\n P0@cta 0,gpu 0 ;\n"
                   " mbarrier.try_wait.parity.shared::cta.b64 r0, [b], 0 ;\nexists (P0:r0 == 0)\n"),
             Catch::Contains("init"));
  // A .shared::cta access to another CTA's shared memory [§4.1].
  CHECK_THAT(error("PTX bad\n{ s @ shared cta 1 = 0; }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n"
                   " ld.weak.shared::cta r0, [s] | ;\nexists (P0:r0 == 0)\n"),
             Catch::Contains("CTA"));
  // A .shared::cta bulk-copy destination in another CTA's shared memory [§4.7].
  CHECK_THAT(error("PTX bad\n{ s @ shared cta 1 size 16 = 0; g @ global size 16 = 0; b @ mbarrier cta 1; }\n"
                   " P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n"
                   " cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [s], [g], 16, [b] | mbarrier.init.shared::cta.b64 [b], 1 ;\n"
                   "exists (s == 0)\n"),
             Catch::Contains("CTA"));
  // A bulk copy whose size does not match its operands [§4.7].
  CHECK_THAT(error("PTX bad\n{ s @ shared cta 0 size 16 = 0; g @ global size 8 = 0; }\n P0@cta 0,gpu 0 ;\n"
                   " cp.async.bulk.global.shared::cta.bulk_group [g], [s], 16 ;\nexists (g == 0)\n"),
             Catch::Contains("bytes"));
  // cp.reduce.async.bulk: only the bulk forms, only into .shared::cluster or .global, and with a reduction [§4.7].
  const std::string reduceDecl = "PTX bad\n{ s @ shared cta 0 size 16 = 0; g @ global size 16 = 0; }\n P0@cta 0,gpu 0 ;\n";
  CHECK_THAT(error(reduceDecl + " cp.reduce.async.global.shared::cta.bulk_group.add.u32 [g], [s], 16 ;\nexists (g == 0)\n"),
             Catch::Contains("bad.litmus:4:2: error: cp needs .bulk"));
  CHECK_THAT(error(reduceDecl + " cp.reduce.async.bulk.global.shared::cta.bulk_group.u32 [g], [s], 16 ;\nexists (g == 0)\n"),
             Catch::Contains("needs a reduction"));
  CHECK_THAT(error(reduceDecl + " cp.reduce.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes.add.u32 [s], [g], 16, "
                                "[s] ;\nexists (g == 0)\n"),
             Catch::Contains("reduces from .shared::cta into .shared::cluster"));
}
