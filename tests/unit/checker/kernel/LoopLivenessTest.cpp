// Loop liveness (LoopLiveness.hpp) on hand-built launches: a spin loop is judged to end only when an iteration
// that reads the final values leaves from EVERY register state the loop can have at its head, not only the one it
// had on entry.
#include <catch2/catch.hpp>

#include "KernelTestSupport.hpp"

using namespace ptxmm;
using checker::kernel::KernelResult;
using checker::kernel::KernelStatus;
using testing::TestLaunch;

namespace {

// Block 0 sets flag_0; block 1 spins until it reads 1. With `remembersZero`, the spinner also sets r1 once it has
// read 0 and then never leaves: on entry r1 is 0 and the final flag is 1, but a spinner that polls before the
// store carries r1 = 1 into every later iteration and spins forever.
TestLaunch flagSpin(bool remembersZero) {
  TestLaunch l;
  l.grid = {2, 1, 1};
  l.block = {1, 1, 1};
  l.init = {"flag_0 = 0"};
  l.code = [remembersZero](const frontend::KernelThread& k) -> std::vector<std::string> {
    if (k.cta == 0) return {"st.relaxed.gpu flag_0, 1"};
    std::vector<std::string> c{"LOOP:", "ld.relaxed.gpu r0, flag_0", "bne r0, 0, SEEN", "mov r1, 1", "SEEN:"};
    if (remembersZero) c.push_back("bne r1, 0, LOOP");
    c.push_back("beq r0, 0, LOOP");
    return c;
  };
  return l;
}

bool mentionsLoop(const KernelResult& r) {
  for (const auto& u : r.unknowns)
    if (u.find("whether the loop ending at") != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("a flag poll ends once the flag's final value is read", "[checker][kernel][liveness]") {
  const KernelResult r = testing::checkLaunch(flagSpin(false));
  CHECK(r.hangs.empty());
  CHECK(r.unknowns.empty());
  CHECK(r.status == KernelStatus::Ok);
}

TEST_CASE("a loop whose exit depends on a register carried across iterations is not judged to end", "[checker][kernel][liveness]") {
  const KernelResult r = testing::checkLaunch(flagSpin(true));
  INFO((r.unknowns.empty() ? std::string("no unknowns") : r.unknowns.front()));
  CHECK(r.status != KernelStatus::Ok);
  CHECK(mentionsLoop(r));
}
