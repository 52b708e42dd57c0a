// Allowed siblings: the cases' own broken siblings are found by their descriptions; otherwise the strongest
// synchronisation is weakened first, barriers go for all their participants, Hopper-era arrives and waits
// get .relaxed spelled out, and the last candidate weakens everything.
#include <catch2/catch.hpp>

#include "frontend/litmus/LitmusParser.hpp"
#include "validate/Sibling.hpp"

using namespace ptxmm::validate;
using ptxmm::frontend::Opcode;
using ptxmm::frontend::Sem;

namespace {

ptxmm::frontend::Program load(const std::string& test) {
  return ptxmm::frontend::parseLitmusFile(std::string(PTXMM_SOURCE_DIR) + "/cases/litmus/ptx/" + test + ".litmus");
}

}  // namespace

TEST_CASE("release/acquire are relaxed one at a time, then together", "[validate][sibling]") {
  const auto c = siblingCandidates(load("MP+rel+acq"));
  REQUIRE(c.size() == 3);
  REQUIRE(c[0].program.name == "MP+rel+acq~sibling");
  REQUIRE(c[0].program.threads[0].code[1].sem == Sem::Relaxed);
  REQUIRE(c[0].program.threads[0].code[1].text == "st.relaxed.gpu y, 1");
  REQUIRE(c[0].program.threads[1].code[0].sem == Sem::Acquire);
  REQUIRE(c[1].program.threads[1].code[0].sem == Sem::Relaxed);
  REQUIRE(c[2].program.threads[0].code[1].sem == Sem::Relaxed);
  REQUIRE(c[2].program.threads[1].code[0].sem == Sem::Relaxed);
  REQUIRE(c[2].change.find("st.release.gpu y, 1 -> st.relaxed.gpu y, 1") != std::string::npos);
}

TEST_CASE("fences go before accesses, and a barrier goes for every participant", "[validate][sibling]") {
  const auto fence = siblingCandidates(load("MP+fence.sc+acq"));
  REQUIRE_FALSE(fence.empty());
  REQUIRE(fence[0].change.find("removed") != std::string::npos);
  const auto bar = siblingCandidates(load("MP+bar.sync+rel"));
  REQUIRE_FALSE(bar.empty());
  const auto& first = bar[0].program;
  for (const auto& t : first.threads)
    for (const auto& in : t.code) REQUIRE(in.op != Opcode::BarSync);
}

TEST_CASE("a test without synchronisation has no sibling", "[validate][sibling]") {
  REQUIRE(siblingCandidates(load("CoRR+weak")).empty());
}

TEST_CASE("a case's description names the test it is a broken sibling of", "[validate][sibling]") {
  const std::string text = R"X(PTX HOP+mbar-arrive-rlx-nofence
"Allowed and racy (broken sibling of HOP+mbar-arrive-rel+wait-acq: relaxed instead of release)")X";
  REQUIRE(namesSiblingOf(text, "HOP+mbar-arrive-rel+wait-acq"));
  REQUIRE_FALSE(namesSiblingOf(text, "HOP+mbar-arrive"));  // a prefix of the named test is not it
  REQUIRE_FALSE(namesSiblingOf(text, "HOP+mbar-arrive-rel+wait-acq.cluster"));
}

TEST_CASE("mbarrier and cluster arrives and waits are relaxed with their scope spelled out", "[validate][sibling]") {
  const auto c = siblingCandidates(load("HOP+mbar-arrive+test_wait-default"));
  REQUIRE_FALSE(c.empty());
  bool arrive = false, wait = false;
  for (const auto& candidate : c)
    for (const auto& t : candidate.program.threads)
      for (const auto& in : t.code) {
        arrive = arrive || in.text == "mbarrier.arrive.relaxed.cta.shared::cta.b64 st0, [b]";
        wait = wait || in.text == "mbarrier.test_wait.parity.relaxed.cta.shared::cta.b64 p, [b], 0";
      }
  REQUIRE(arrive);
  REQUIRE(wait);
  const auto cluster = siblingCandidates(load("HOP+cluster-barrier-default-pull+gmem"));
  REQUIRE_FALSE(cluster.empty());
  REQUIRE(cluster[0].change.find("barrier.cluster.arrive -> barrier.cluster.arrive.relaxed") != std::string::npos);
}
