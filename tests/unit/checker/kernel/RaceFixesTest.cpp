// Checked fixes for kernel races (checker/kernel/RaceFixes.hpp) on hand-built launches: the fix offered is the
// first candidate whose re-check removes the race, candidates that do not remove it are passed over, and a fix
// that would add a finding or leave the pair undecided is refused.
#include <catch2/catch.hpp>
#include <map>
#include <regex>

#include "KernelTestSupport.hpp"
#include "checker/kernel/RaceFixes.hpp"

using namespace ptxmm;
using checker::kernel::KernelResult;
using testing::TestLaunch;

namespace {

std::string idx(const std::string& base, int i) { return base + "_" + std::to_string(i); }

// The launch with an origin per PTX instruction, as the instantiator gives: instructions whose text is the same
// up to location indices and immediates (one line of a kernel, in every thread and loop iteration) share one.
frontend::KernelProgram withOrigins(frontend::KernelProgram k) {
  std::map<std::string, int> ids;
  for (auto& t : k.program.threads)
    for (auto& in : t.code) {
      if (in.op == frontend::Opcode::Label) continue;
      const std::string key = std::regex_replace(std::regex_replace(in.text, std::regex("_[0-9]+"), "_#"), std::regex(", [0-9]+$"), ", #");
      auto [it, added] = ids.emplace(key, static_cast<int>(k.origins.size()));
      if (added) {
        frontend::KernelOrigin o;
        o.source = o.inner = {"kernel.cu", 100 + it->second, 1};
        o.ptx = {"kernel.ptx", 1000 + it->second, 1};
        o.ptxText = key;
        k.origins.push_back(o);
      }
      in.origin = it->second;
    }
  return k;
}

struct Checked {
  frontend::KernelProgram kernel;
  KernelResult result;
};

Checked checkWithFixes(const TestLaunch& l, checker::kernel::KernelOptions o = {}) {
  Checked c{withOrigins(testing::makeKernel(l)), {}};
  c.result = checker::kernel::checkKernel(testing::ptxModel(), c.kernel, o);
  checker::kernel::checkRaceFixes(testing::ptxModel(), c.kernel, o, c.result);
  return c;
}

// An 8-thread tree reduction missing the barrier between the first store and the first step: each step is one
// load of the partner's slot added into the own slot, a barrier after it.
TestLaunch reductionWithoutFirstBarrier() {
  TestLaunch l;
  l.grid = {1, 1, 1};
  l.block = {8, 1, 1};
  for (int i = 0; i < 8; ++i) l.init.push_back(idx("s", i) + " @ shared cta 0 = 0");
  l.code = [](const frontend::KernelThread& k) {
    const int t = k.tid.x;
    const std::string own = idx("s", t);
    std::vector<std::string> c{"st.shared " + own + ", " + std::to_string(t + 1), "ld.shared r1, " + own};
    for (const int stride : {4, 2, 1}) {
      const std::vector<std::string> step{"ld.shared r2, " + idx("s", t + stride), "add r1, r1, r2", "st.shared " + own + ", r1"};
      if (t < stride) c.insert(c.end(), step.begin(), step.end());
      c.push_back("bar.sync 0");
    }
    return c;
  };
  return l;
}

// Block 0 writes data then a flag, block 1 reads the flag and, when set, the data.
TestLaunch flagHandOff(const std::string& flagStore, const std::string& flagLoad) {
  TestLaunch l;
  l.grid = {2, 1, 1};
  l.block = {1, 1, 1};
  l.init = {"data_0 = 0", "flag_0 = 0"};
  l.code = [=](const frontend::KernelThread& k) -> std::vector<std::string> {
    if (k.cta == 0) return {"st.weak data_0, 42", flagStore + " flag_0, 1"};
    return {flagLoad + " r0, flag_0", "beq r0, 0, END", "ld.weak r1, data_0", "END:"};
  };
  return l;
}

}  // namespace

TEST_CASE("a missing __syncthreads: the fence pair does not fix it, a barrier after the store does (checked)", "[checker][kernel][fix]") {
  const Checked c = checkWithFixes(reductionWithoutFirstBarrier());
  REQUIRE(c.result.races.size() == 1);
  const auto& race = c.result.races[0];
  CHECK(race.fixChecked);
  CHECK(race.fix == "add bar.sync 0 (__syncthreads()) right after kernel.cu:100 (PTX line 1000), reached by every "
                    "thread of the block");
  // The candidates before it were tried and refused: the fence pair orders nothing without a flag.
  const auto candidates = checker::kernel::fixCandidates(c.kernel, race);
  REQUIRE(candidates.size() >= 2);
  CHECK(candidates[0].text.rfind("add fence.acq_rel.cta", 0) == 0);
  checker::kernel::KernelOptions o;
  CHECK_FALSE(checker::kernel::fixRemovesRace(c.result, race, checker::kernel::checkKernel(testing::ptxModel(), candidates[0].kernel, o)));
  CHECK(c.result.fixSeconds > 0);
}

TEST_CASE("a relaxed flag: the checked fix makes the flag store release and its load acquire", "[checker][kernel][fix]") {
  const Checked c = checkWithFixes(flagHandOff("st.relaxed.gpu", "ld.relaxed.gpu"));
  REQUIRE(c.result.races.size() == 1);
  CHECK(c.result.races[0].fixChecked);
  CHECK(c.result.races[0].fix == "make the store at kernel.cu:101 (PTX line 1001) st.release.gpu and the load at "
                                 "kernel.cu:102 (PTX line 1002) that reads it ld.acquire.gpu");
}

TEST_CASE("block-scope atomics of two blocks: the checked fix widens their scope to .gpu", "[checker][kernel][fix]") {
  TestLaunch l;
  l.grid = {2, 1, 1};
  l.block = {1, 1, 1};
  l.init = {"hits_0 = 0"};
  l.code = [](const frontend::KernelThread&) -> std::vector<std::string> { return {"atom.relaxed.cta.add r0, hits_0, 1"}; };
  const Checked c = checkWithFixes(l);
  REQUIRE(c.result.races.size() == 1);
  CHECK(c.result.races[0].kind == "scope too narrow");
  CHECK(c.result.races[0].fixChecked);
  CHECK(c.result.races[0].fix.rfind("give both accesses scope .gpu: atom.relaxed.gpu at kernel.cu:100", 0) == 0);
}

TEST_CASE("a plain read of an atomically updated word: the checked fix makes the read a relaxed atomic", "[checker][kernel][fix]") {
  TestLaunch l;
  l.grid = {2, 1, 1};
  l.block = {1, 1, 1};
  l.init = {"x_0 = 0"};
  l.code = [](const frontend::KernelThread& k) -> std::vector<std::string> {
    if (k.cta == 0) return {"atom.relaxed.gpu.add r0, x_0, 1"};
    return {"ld.weak r1, x_0"};
  };
  const Checked c = checkWithFixes(l);
  REQUIRE(c.result.races.size() == 1);
  CHECK(c.result.races[0].fixChecked);
  CHECK(c.result.races[0].fix.find("make the plain load at kernel.cu:101 (PTX line 1001) a relaxed atomic of scope .gpu") == 0);
}

TEST_CASE("a plain read before a CAS of every thread of two blocks: the fix widens to the launch, not the witness pair", "[checker][kernel][fix]") {
  // nvcc's atomicCAS carries no .sem (relaxed by default, so already strong); the witness pair is two threads of
  // block 0, but the same lines race between the blocks: a .cta read would leave that race.
  TestLaunch l;
  l.grid = {2, 1, 1};
  l.block = {2, 1, 1};
  l.init = {"x_0 = 0"};
  l.code = [](const frontend::KernelThread&) -> std::vector<std::string> {
    return {"ld.weak r1, x_0", "atom.cas r2, x_0, r1, 5"};
  };
  const Checked c = checkWithFixes(l);
  REQUIRE(c.result.races.size() == 1);
  const auto& race = c.result.races[0];
  CHECK(race.fixChecked);
  CHECK(race.fix.rfind("make the plain load at kernel.cu:100 (PTX line 1000) a relaxed atomic of scope .gpu (ld.relaxed.gpu), "
                       "as the other access is: ld.relaxed.gpu at kernel.cu:100 (PTX line 1000), atom.relaxed.gpu at", 0) == 0);
  const auto candidates = checker::kernel::fixCandidates(c.kernel, race);
  REQUIRE_FALSE(candidates.empty());
  CHECK(candidates[0].text == race.fix);
}

TEST_CASE("a fix is refused when the re-check keeps the pair, adds a race, a hang or an undecided pair", "[checker][kernel][fix]") {
  const Checked c = checkWithFixes(flagHandOff("st.relaxed.gpu", "ld.relaxed.gpu"));
  REQUIRE(c.result.races.size() == 1);
  const auto& race = c.result.races[0];
  using checker::kernel::fixRemovesRace;
  KernelResult fixed;
  CHECK(fixRemovesRace(c.result, race, fixed));
  KernelResult same = fixed;
  same.races.push_back(race);
  same.races.back().kind = "scope too narrow";  // another kind on the same lines is still that race
  CHECK_FALSE(fixRemovesRace(c.result, race, same));
  KernelResult other = fixed;
  other.races.push_back(race);
  other.races.back().first.line = 7;
  CHECK_FALSE(fixRemovesRace(c.result, race, other));
  KernelResult hang = fixed;
  hang.hangs.push_back({"barrier never completes", "block 0 threads 0..3 never arrive", race.first});
  CHECK_FALSE(fixRemovesRace(c.result, race, hang));
  KernelResult undecided = fixed;
  undecided.unknowns.push_back("the --timeout was spent");
  CHECK_FALSE(fixRemovesRace(c.result, race, undecided));
}

TEST_CASE("without time left for the re-checks the fix says it is not checked", "[checker][kernel][fix]") {
  Checked c{withOrigins(testing::makeKernel(flagHandOff("st.relaxed.gpu", "ld.relaxed.gpu"))), {}};
  checker::kernel::KernelOptions o;
  c.result = checker::kernel::checkKernel(testing::ptxModel(), c.kernel, o);
  REQUIRE(c.result.races.size() == 1);
  o.timeoutSeconds = c.result.checkSeconds;  // the check spent all of --timeout
  checker::kernel::checkRaceFixes(testing::ptxModel(), c.kernel, o, c.result);
  CHECK_FALSE(c.result.races[0].fixChecked);
  CHECK(c.result.races[0].fix.rfind("the time for checking fixes ran out after 0 of ", 0) == 0);
}

TEST_CASE("a lost update (load, add, store of one word in every thread): the checked fix is one atomic add", "[checker][kernel][fix]") {
  TestLaunch l;
  l.grid = {2, 1, 1};
  l.block = {2, 1, 1};
  l.init = {"hits_0 = 0"};
  l.code = [](const frontend::KernelThread&) -> std::vector<std::string> {
    return {"ld.weak r1, hits_0", "add r2, r1, 3", "st.weak hits_0, r2"};
  };
  const Checked c = checkWithFixes(l);
  REQUIRE(c.result.races.size() == 2);  // load/store and store/store: hand-built rows are lines of their own
  for (const auto& race : c.result.races) {
    CHECK(race.fixChecked);
    CHECK(race.fix.rfind("make the increment at kernel.cu:10", 0) == 0);
    CHECK(race.fix.find("one atomic read-modify-write, atom.add.relaxed.gpu (atomicAdd)") != std::string::npos);
  }
  // The changed launch adds 3 per thread with one atomic each, and no store is left.
  const auto candidates = checker::kernel::fixCandidates(c.kernel, c.result.races[0]);
  REQUIRE_FALSE(candidates.empty());
  for (const auto& t : candidates[0].kernel.program.threads) {
    REQUIRE(t.code.size() == 2);
    CHECK(t.code[0].op == frontend::Opcode::Atom);
    CHECK(t.code[0].atomOp == frontend::AtomOp::Add);
    CHECK(t.code[0].operands.back().value == 3);
    CHECK(t.code[1].op == frontend::Opcode::Local);
  }
}

TEST_CASE("a store of something other than the loaded value plus a constant is no increment", "[checker][kernel][fix]") {
  TestLaunch l;
  l.grid = {1, 1, 1};
  l.block = {2, 1, 1};
  l.init = {"x_0 = 0"};
  l.code = [](const frontend::KernelThread&) -> std::vector<std::string> {
    return {"ld.weak r1, x_0", "mul r2, r1, 2", "st.weak x_0, r2"};
  };
  const Checked c = checkWithFixes(l);
  REQUIRE_FALSE(c.result.races.empty());
  for (const auto& race : c.result.races)
    for (const auto& candidate : checker::kernel::fixCandidates(c.kernel, race))
      CHECK(candidate.text.find("atomic read-modify-write") == std::string::npos);
}

TEST_CASE("an increment through nvcc's sign extension (shl then shr by 32) is still one atomic add", "[checker][kernel][fix]") {
  // What the instantiator makes of `add.s32 %r8, %r7, 1` into a 64-bit register pair: t0 = r7 + 1,
  // t1 = t0 << 32, r8 = t1 >> 32; the 32-bit store keeps the low half.
  TestLaunch l;
  l.grid = {2, 1, 1};
  l.block = {1, 1, 1};
  l.init = {"hits_0 = 0"};
  l.code = [](const frontend::KernelThread&) -> std::vector<std::string> {
    return {"ld.weak r1, hits_0", "add t0, r1, 1", "shl t1, t0, 32", "shr r2, t1, 32", "st.weak hits_0, r2"};
  };
  const Checked c = checkWithFixes(l);
  REQUIRE_FALSE(c.result.races.empty());
  const auto candidates = checker::kernel::fixCandidates(c.kernel, c.result.races[0]);
  REQUIRE_FALSE(candidates.empty());
  CHECK(candidates[0].text.find("atom.add.relaxed.gpu (atomicAdd)") != std::string::npos);
  CHECK(candidates[0].kernel.program.threads[0].code[0].operands.back().value == 1);
  // A shift that drops stored bits is not an extension: no atomic add is offered.
  l.code = [](const frontend::KernelThread&) -> std::vector<std::string> {
    return {"ld.weak r1, hits_0", "add t0, r1, 1", "shl t1, t0, 40", "shr r2, t1, 40", "st.weak hits_0, r2"};
  };
  const Checked d = checkWithFixes(l);
  REQUIRE_FALSE(d.result.races.empty());
  for (const auto& candidate : checker::kernel::fixCandidates(d.kernel, d.result.races[0]))
    CHECK(candidate.text.find("atomic read-modify-write") == std::string::npos);
}

TEST_CASE("a read of a bulk copy's destination before the mbarrier wait: the checked fix moves it after the wait", "[checker][kernel][fix]") {
  // Thread 0 starts a 4-byte bulk copy into tile_0 completing on bar; both threads read tile_0 before waiting on
  // bar (tma-load-read-before-wait.cu in small), the wait being a peeled try_wait and its loop, as nvcc's.
  TestLaunch l;
  l.grid = {1, 1, 1};
  l.block = {2, 1, 1};
  l.init = {"bar_0 @ mbarrier cta 0", "tile_0 @ shared cta 0 = 0", "in_0 = 7", "out_0 = 0", "out_1 = 0"};
  l.code = [](const frontend::KernelThread& k) -> std::vector<std::string> {
    const int t = k.tid.x;
    std::vector<std::string> c;
    if (t == 0) c.push_back("mbarrier.init.shared::cta.b64 [bar_0], 1");
    c.push_back("bar.sync 0");
    if (t == 0) {
      c.push_back("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [bar_0], 4");
      c.push_back("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [tile_0], [in_0], 4, [bar_0]");
    }
    c.push_back("ld.shared.u32 r0, [tile_0]");
    for (const auto& s : {"mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [bar_0], 0", "@!p bra LW", "goto LE", "LW:",
                          "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [bar_0], 0", "@!p bra LW", "LE:"})
      c.push_back(s);
    c.push_back("st.u32 [" + idx("out", t) + "], r0");
    return c;
  };
  const Checked c = checkWithFixes(l);
  REQUIRE(c.result.races.size() == 1);
  const auto& race = c.result.races[0];
  CHECK(race.kind == "different proxies");
  CHECK(race.fixChecked);
  CHECK(race.fix.rfind("move the load at kernel.cu:", 0) == 0);
  CHECK(race.fix.find("after the wait at kernel.cu:") != std::string::npos);
  // The load now follows the wait loop's exit label, right before the store of what it read.
  const auto candidates = checker::kernel::fixCandidates(c.kernel, race);
  REQUIRE_FALSE(candidates.empty());
  for (const auto& t : candidates[0].kernel.program.threads) {
    const auto& code = t.code;
    REQUIRE(code.size() >= 3);
    CHECK(code[code.size() - 3].op == frontend::Opcode::Label);
    CHECK(code[code.size() - 2].op == frontend::Opcode::Ld);
    CHECK(code[code.size() - 1].op == frontend::Opcode::St);
  }
}
