// mbarrier counts across their whole PTX range (arrival counts up to 2^20-1, tx-counts up to 2^20-1 bytes), in both
// engines: a 32 KiB bulk copy completes its phase, a tx-count of 32768 drains, a count of 65537 needs 65537 arrivals,
// and a phase counter that wrapped still tells an old token from the current phase.
#include <catch2/catch.hpp>

#include <string>

#include "checker/Differential.hpp"
#include "checker/z3/Z3Engine.hpp"
#include "frontend/lower/Unroller.hpp"
#include "frontend/litmus/LitmusParser.hpp"
#include "unit/checker/CheckerTestSupport.hpp"

using namespace ptxmm;
using namespace ptxmm::testing;
using checker::Status;

namespace {

// Both engines agree (Z3 with its cross-check); the reference result is returned.
checker::TestResult decide(const std::string& text) {
  checker::RunOptions options;
  const auto c = checker::compareEngines(ptxModel(), frontend::parseLitmus(text, "mbar.litmus"), options);
  INFO(c.difference);
  REQUIRE(c.difference.empty());
  REQUIRE(c.reference.status == Status::Ok);
  return c.reference;
}

std::string oneThread(const std::string& body, const std::string& condition) {
  return "PTX MBAR\n{ b @ mbarrier cta 0; }\n P0@cta 0,gpu 0 ;\n" + body + "exists (" + condition + ")\n";
}

}  // namespace

TEST_CASE("a 32 KiB bulk copy completes the phase its consumer waits for", "[checker][mbarrier]") {
  const auto r = decide(
      "PTX TMA32K\n{ g @ global size 32768 = 7; s @ shared cta 0 size 32768 = 0; b @ mbarrier cta 0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
      " mbarrier.init.shared::cta.b64 [b], 1 | bar.sync 0 ;\n"
      " bar.sync 0 | LC00: ;\n"
      " mbarrier.arrive.expect_tx.shared::cta.b64 _, [b], 32768 | mbarrier.try_wait.parity.shared::cta.b64 p, [b], 0 ;\n"
      " cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [s], [g], 32768, [b] | @!p bra LC00 ;\n"
      " | ld.shared.u32 r0, [s] ;\n"
      "~exists (P1:r0 == 7)\n");
  CHECK(states(r) == std::set<std::string>{"P1:r0=7"});
  CHECK_FALSE(r.holds);
}

TEST_CASE("transaction counts and arrival counts beyond 16 bits", "[checker][mbarrier]") {
  const auto drained = decide(oneThread(
      " mbarrier.init.shared::cta.b64 [b], 1 ;\n mbarrier.arrive.expect_tx.shared::cta.b64 st0, [b], 32768 ;\n"
      " mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [b], 32768 ;\n"
      " mbarrier.test_wait.parity.shared::cta.b64 p, [b], 0 ;\n",
      "P0:p == 1"));
  CHECK(states(drained) == std::set<std::string>{"P0:p=1"});
  const auto maxTx = decide(oneThread(
      " mbarrier.init.shared::cta.b64 [b], 1 ;\n mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [b], 1048575 ;\n"
      " mbarrier.arrive.shared::cta.b64 st0, [b] ;\n mbarrier.test_wait.parity.shared::cta.b64 p, [b], 0 ;\n"
      " mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [b], 1048575 ;\n"
      " mbarrier.test_wait.parity.shared::cta.b64 q, [b], 0 ;\n",
      "P0:p == 0 /\\ P0:q == 1"));
  CHECK(states(maxTx) == std::set<std::string>{"P0:p=0 P0:q=1"});
  const auto pending = decide(oneThread(
      " mbarrier.init.shared::cta.b64 [b], 65537 ;\n mbarrier.arrive.shared::cta.b64 st0, [b] ;\n"
      " mbarrier.test_wait.parity.shared::cta.b64 p, [b], 0 ;\n mbarrier.arrive.shared::cta.b64 st1, [b], 65536 ;\n"
      " mbarrier.test_wait.parity.shared::cta.b64 q, [b], 0 ;\n",
      "P0:p == 0 /\\ P0:q == 1"));
  CHECK(states(pending) == std::set<std::string>{"P0:p=0 P0:q=1"});
  const auto largest = decide(oneThread(
      " mbarrier.init.shared::cta.b64 [b], 1048575 ;\n mbarrier.arrive.shared::cta.b64 st0, [b], 1048574 ;\n"
      " mbarrier.test_wait.parity.shared::cta.b64 p, [b], 0 ;\n mbarrier.arrive.shared::cta.b64 st1, [b] ;\n"
      " mbarrier.test_wait.parity.shared::cta.b64 q, [b], 0 ;\n",
      "P0:p == 0 /\\ P0:q == 1"));
  CHECK(states(largest) == std::set<std::string>{"P0:p=0 P0:q=1"});
}

TEST_CASE("state tokens name their phase after the phase counter wrapped", "[checker][mbarrier]") {
  // Four phases complete (the phase counter, kept modulo 4, is back at 0): the tokens of the last two name completed
  // phases, a token taken in the current (fifth) phase does not. Z3 only: with eight reads of six writes to one
  // location the explicit engine needs minutes (the operators are the same in both engines: InstructionSemantics).
  std::string body = " mbarrier.init.shared::cta.b64 [b], 2 ;\n";
  for (int i = 0; i < 4; ++i)
    body += " mbarrier.arrive.shared::cta.b64 t" + std::to_string(i) + ", [b], 2 ;\n";
  body += " mbarrier.arrive.shared::cta.b64 now, [b] ;\n"
          " mbarrier.test_wait.shared::cta.b64 p3, [b], t3 ;\n mbarrier.test_wait.shared::cta.b64 p2, [b], t2 ;\n"
          " mbarrier.test_wait.shared::cta.b64 pnow, [b], now ;\n";
  const auto program = frontend::parseLitmus(oneThread(body, "P0:p3 == 1 /\\ P0:p2 == 1 /\\ P0:pnow == 0"), "w.litmus");
  checker::EngineOptions options;
  options.crossCheck = true;
  const auto r = checker::Z3Engine(ptxModel(), options).run(program, frontend::unroll(program, {2}));
  REQUIRE(r.status == Status::Ok);
  CHECK(states(r) == std::set<std::string>{"P0:p2=1 P0:p3=1 P0:pnow=0"});
}
