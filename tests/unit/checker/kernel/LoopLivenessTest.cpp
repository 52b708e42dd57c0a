// Loop liveness (LoopLiveness.hpp) on hand-built launches: a spin loop is judged to end only when an iteration
// that reads the final values leaves from EVERY register state the loop can have at its head, not only the one it
// had on entry; a compare-and-swap retry loop ends in every execution (lock-freedom), a CAS lock or a loop whose
// word another thread writes without end does not; an RMW poll that writes back what it read (atom.add 0) waits
// like a load — also in nvcc's PTX, where the atomic is typed and its value wraps at 32 bits — and one that
// changes memory while it waits is not judged; a poll that a write is not eventually visible to (a weak poll, a
// .cta poll of another CTA's flag: ptx-core.cat `eventually-visible`) hangs when nothing orders the write before
// it, and is UNKNOWN when its thread synchronises before the loop or enters it only after reading another value.
// A loop after another is not judged from the earlier loop's unrolled iterations alone (they do not hold every
// register state it can leave, e.g. a count of its polls): past them, the registers the earlier loop assigns are
// unknown and the others kept — a later loop that depends on the count is not judged to end, one that does not is
// decided (it ends, or it hangs on a register the earlier loop never touches).
#include <catch2/catch.hpp>

#include <functional>

#include "KernelTestSupport.hpp"
#include "unit/frontend/ptx/ResidualTestSupport.hpp"

using namespace ptxmm;
using checker::kernel::KernelResult;
using checker::kernel::KernelStatus;
using testing::TestLaunch;

namespace {

using Code = std::function<std::vector<std::string>(const frontend::KernelThread&)>;

// A launch of `blocks` blocks of one thread each.
TestLaunch oneThreadPerBlock(int blocks, std::vector<std::string> init, Code code) {
  return {{blocks, 1, 1}, {1, 1, 1}, 1, std::move(init), std::move(code)};
}

// Block 0 sets flag_0; block 1 spins until it reads 1. With `remembersZero`, the spinner also sets r1 once it has
// read 0 and then never leaves: on entry r1 is 0 and the final flag is 1, but a spinner that polls before the
// store carries r1 = 1 into every later iteration and spins forever.
TestLaunch flagSpin(bool remembersZero) {
  return oneThreadPerBlock(2, {"flag_0 = 0"}, [remembersZero](const frontend::KernelThread& k) -> std::vector<std::string> {
    if (k.cta == 0) return {"st.relaxed.gpu flag_0, 1"};
    std::vector<std::string> c{"LOOP:", "ld.relaxed.gpu r0, flag_0", "bne r0, 0, SEEN", "mov r1, 1", "SEEN:"};
    if (remembersZero) c.push_back("bne r1, 0, LOOP");
    c.push_back("beq r0, 0, LOOP");
    return c;
  });
}

// Every thread adds 1 to x_0 by a compare-and-swap retry loop (nvcc's shape: the CAS result is compared with the
// value it assumed and carried into the next iteration). With `EndlessWriter`, block 2 also stores to x_0 in
// every iteration of a loop that never ends: the CAS of the others may fail forever. With `WeakWriter`, block 2
// stores to x_0 once with a weak store: not morally strong with the CASes, so coherence does not bound how often
// a CAS reads it.
enum class Other { None, EndlessWriter, WeakWriter };
TestLaunch casIncrement(Other other) {
  return oneThreadPerBlock(other == Other::None ? 2 : 3, {"x_0 = 0"}, [other](const frontend::KernelThread& k) -> std::vector<std::string> {
    if (k.cta == 2 && other == Other::EndlessWriter) return {"WRITE:", "st.relaxed.gpu x_0, 7", "goto WRITE"};
    if (k.cta == 2) return {"st.weak x_0, 7"};
    return {"ld.relaxed.gpu r0, x_0", "RETRY:", "add r1, r0, 1", "atom.relaxed.gpu.cas r2, x_0, r0, r1", "mov r3, r0",
            "mov r0, r2", "bne r3, r2, RETRY"};
  });
}

// Block 0 takes a lock with a CAS loop and never releases it; block 1 spins on the same CAS: it never ends.
TestLaunch casLockNeverReleased() {
  return oneThreadPerBlock(2, {"lock_0 = 0"}, [](const frontend::KernelThread&) -> std::vector<std::string> {
    return {"SPIN:", "atom.relaxed.gpu.cas r0, lock_0, 0, 1", "bne r0, 0, SPIN"};
  });
}

// Block 0 publishes data_0 behind a fence and sets flag_0 by an exchange; block 1 polls the flag with an RMW
// `poll` (atom.add 0 writes back what it read; atom.add 1 changes memory while it waits), then fences and reads the
// data. The exchange's read may read the poll's writes, so the slice of the writes the poll waits for keeps the
// polling thread and the fence after its loop.
TestLaunch rmwPollHandoff(const std::string& poll) {
  return oneThreadPerBlock(2, {"data_0 = 0", "flag_0 = 0"}, [poll](const frontend::KernelThread& k) -> std::vector<std::string> {
    if (k.cta == 0) return {"st.weak data_0, 42", "fence.sc.gpu", "atom.relaxed.gpu.exch r0, flag_0, 1"};
    return {"LOOP:", poll, "beq r0, 0, LOOP", "fence.sc.gpu", "ld.weak r1, data_0"};
  });
}

// The same hand-off as nvcc compiles `while (atomicAdd(&flag, 0) == 0) {}` (cases/kernels/flag-threadfence-atomic.cu).
const char* const kRmwPollPtx = R"(.version 8.5
.target sm_90a
.address_size 64
.global .align 4 .u32 flag;
.global .align 4 .u32 data;
.visible .entry handoff(.param .u64 handoff_param_0)
{
  .reg .pred %p<4>;
  .reg .b32 %r<7>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd2, [handoff_param_0];
  mov.u32 %r2, %ctaid.x;
  setp.eq.s32 %p2, %r2, 0;
  @%p2 bra $L__BB0_5;
  cvta.to.global.u64 %rd1, %rd2;
  mov.u64 %rd3, flag;
$L__BB0_3:
  atom.global.add.u32 %r3, [%rd3], 0;
  setp.eq.s32 %p3, %r3, 0;
  @%p3 bra $L__BB0_3;
  membar.gl;
  ld.global.u32 %r4, [data];
  st.global.u32 [%rd1], %r4;
  bra.uni $L__BB0_6;
$L__BB0_5:
  mov.u32 %r5, 42;
  st.global.u32 [data], %r5;
  membar.gl;
  mov.u64 %rd4, flag;
  atom.global.exch.b32 %r6, [%rd4], 1;
$L__BB0_6:
  ret;
}
)";

// Block 0 sets flag_0 with `store`; block 1 does `before` (if any) and then spins on `poll` until it reads 1.
TestLaunch visibility(const std::string& store, const std::string& poll, const std::string& before = "") {
  return oneThreadPerBlock(2, {"flag_0 = 0", "other_0 = 0"}, [=](const frontend::KernelThread& k) -> std::vector<std::string> {
    if (k.cta == 0) return {store};
    std::vector<std::string> c;
    if (!before.empty()) c.push_back(before);
    c.insert(c.end(), {"LOOP:", poll, "beq r0, 0, LOOP"});
    return c;
  });
}

std::size_t spinHangs(const KernelResult& r) {
  std::size_t n = 0;
  for (const auto& h : r.hangs) n += h.kind == "spin loop never ends";
  return n;
}

std::size_t loopsNotDecided(const KernelResult& r) {
  std::size_t n = 0;
  for (const auto& u : r.unknowns) n += u.find("whether the loop ending at") != std::string::npos;
  return n;
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
  // Not judged to end by the final values; a schedule that runs block 1 first shows the spin for ever (r1 = 1).
  CHECK(spinHangs(r) == 1);
  CHECK(loopsNotDecided(r) == 0);
}

TEST_CASE("a compare-and-swap retry loop ends: a CAS fails only because another thread's write came first", "[checker][kernel][liveness]") {
  const KernelResult r = testing::checkLaunch(casIncrement(Other::None));
  INFO((r.unknowns.empty() ? std::string("no unknowns") : r.unknowns.front()));
  CHECK(r.hangs.empty());
  CHECK(r.unknowns.empty());
  CHECK(r.status == KernelStatus::Ok);
}

TEST_CASE("a retry loop whose word another thread writes without end is not judged to end", "[checker][kernel][liveness]") {
  const KernelResult r = testing::checkLaunch(casIncrement(Other::EndlessWriter));
  CHECK(r.status != KernelStatus::Ok);
  CHECK(loopsNotDecided(r) + r.hangs.size() >= 2);  // the writer's loop and the retry loop (one line for both CAS threads)
}

TEST_CASE("a retry loop whose word a weak store also writes is not judged to end by the retry argument", "[checker][kernel][liveness]") {
  // The retry argument does not apply, so the loop goes to a slice, whose engine needs minutes on three threads of
  // CAS loops unrolled up to 16 times: a short --timeout ends it UNKNOWN, which is all this test asks.
  checker::kernel::KernelOptions options;
  options.timeoutSeconds = 2;
  const KernelResult r = testing::checkLaunch(casIncrement(Other::WeakWriter), options);
  INFO((r.unknowns.empty() ? std::string("no unknowns") : r.unknowns.front()));
  CHECK(r.status != KernelStatus::Ok);
  CHECK(loopsNotDecided(r) == 1);
}

TEST_CASE("a CAS lock that is never released is not a retry loop: it never ends", "[checker][kernel][liveness]") {
  const KernelResult r = testing::checkLaunch(casLockNeverReleased());
  INFO((r.unknowns.empty() ? std::string("no unknowns") : r.unknowns.front()));
  // A schedule in which block 0 takes the lock leaves block 1 spinning with nothing changed: a hang.
  CHECK(spinHangs(r) == 1);
  CHECK(loopsNotDecided(r) == 0);
}

TEST_CASE("an RMW poll that writes back what it read waits like a load: the loop ends", "[checker][kernel][liveness]") {
  const KernelResult r = testing::checkLaunch(rmwPollHandoff("atom.relaxed.gpu.add r0, flag_0, 0"));
  INFO((r.unknowns.empty() ? std::string("no unknowns") : r.unknowns.front()));
  CHECK(r.hangs.empty());
  CHECK(r.unknowns.empty());
  CHECK(r.status == KernelStatus::Ok);
}

TEST_CASE("a poll that changes memory while it waits is not judged from the others' final values", "[checker][kernel][liveness]") {
  const KernelResult r = testing::checkLaunch(rmwPollHandoff("atom.relaxed.gpu.add r0, flag_0, 1"));
  CHECK(r.status != KernelStatus::Ok);
  CHECK(loopsNotDecided(r) == 1);
}

TEST_CASE("nvcc's atomicAdd(&flag, 0) poll (atom.add.u32, 32-bit values) is an await: the hand-off is decided", "[checker][kernel][liveness]") {
  const frontend::KernelProgram kp = frontend::ptxtest::instantiate(kRmwPollPtx, "2", "1", {"param_0=int32[1]"});
  checker::kernel::KernelOptions o;
  o.asserts = {"param_0[0] == 42"};
  const KernelResult r = checker::kernel::checkKernel(testing::ptxModel(), kp, o);
  INFO((r.unknowns.empty() ? std::string("no unknowns") : r.unknowns.front()));
  CHECK(r.races.empty());
  CHECK(r.hangs.empty());
  CHECK(r.unknowns.empty());
  REQUIRE(r.assertions.size() == 1);
  CHECK(r.assertions[0].holds == true);
  CHECK(r.status == KernelStatus::Ok);
}

TEST_CASE("a weak poll may never see the flag: the loop hangs under fair progress", "[checker][kernel][liveness]") {
  const KernelResult r = testing::checkLaunch(visibility("st.release.gpu flag_0, 1", "ld.weak r0, flag_0"));
  CHECK(spinHangs(r) == 1);
  CHECK(loopsNotDecided(r) == 0);
}

TEST_CASE("a .cta poll of a flag another CTA writes may never see it: the loop hangs", "[checker][kernel][liveness]") {
  const KernelResult r = testing::checkLaunch(visibility("st.relaxed.cta flag_0, 1", "ld.relaxed.cta r0, flag_0"));
  CHECK(spinHangs(r) == 1);
  CHECK(loopsNotDecided(r) == 0);
}

TEST_CASE("a strong poll of a strong flag ends (the fixed sibling of the weak poll)", "[checker][kernel][liveness]") {
  const KernelResult r = testing::checkLaunch(visibility("st.release.gpu flag_0, 1", "ld.relaxed.gpu r0, flag_0"));
  CHECK(r.hangs.empty());
  CHECK(r.unknowns.empty());
  CHECK(r.status == KernelStatus::Ok);
}

TEST_CASE("a weak poll after its thread synchronises is not judged: the write may be ordered before it", "[checker][kernel][liveness]") {
  const KernelResult r = testing::checkLaunch(visibility("st.release.gpu flag_0, 1", "ld.weak r0, flag_0", "fence.sc.gpu"));
  CHECK(spinHangs(r) == 0);
  CHECK(loopsNotDecided(r) == 1);
}

TEST_CASE("a weak poll entered only after the flag was read as 1 is not judged a hang", "[checker][kernel][liveness]") {
  const KernelResult r = testing::checkLaunch(oneThreadPerBlock(2, {"flag_0 = 0"}, [](const frontend::KernelThread& k) -> std::vector<std::string> {
    if (k.cta == 0) return {"st.release.gpu flag_0, 1"};
    return {"ld.weak r5, flag_0", "beq r5, 0, END", "LOOP:", "ld.weak r0, flag_0", "beq r0, 0, LOOP", "END:"};
  }));
  CHECK(spinHangs(r) == 0);
  CHECK(loopsNotDecided(r) == 1);
}

namespace {

// Block 0 stores 0 to `cnt` (initially 1) with a release store; block 1 waits with the nested loops `wait`,
// then reads data. Nested-loop shapes of libcu++'s waits, as PTX.
std::string nestedWaitPtx(const std::string& wait) {
  return ".version 8.5\n.target sm_90a\n.address_size 64\n.global .align 4 .u32 cnt = 1;\n.global .align 4 .u32 never;\n"
         ".visible .entry k()\n{\n .reg .pred %p<8>;\n .reg .b32 %r<16>;\n .reg .b64 %rd<8>;\n"
         " mov.u32 %r1, %ctaid.x;\n setp.ne.s32 %p1, %r1, 0;\n @%p1 bra $L_wait;\n"
         " st.release.gpu.global.u32 [cnt], 0;\n bra.uni $L_end;\n"
         "$L_wait:\n" + wait + "$L_end:\n ret;\n}\n";
}

KernelResult checkNestedWait(const std::string& wait) {
  const frontend::KernelProgram kp = frontend::ptxtest::instantiate(nestedWaitPtx(wait), "2", "1");
  return checker::kernel::checkKernel(testing::ptxModel(), kp, {});
}

// Every loop decided to end: no hang, nothing undecided.
void checkEnds(const KernelResult& r) {
  INFO((r.unknowns.empty() ? std::string("no unknowns") : r.unknowns.front()));
  CHECK(r.hangs.empty());
  CHECK(r.unknowns.empty());
  CHECK(r.status == KernelStatus::Ok);
}

}  // namespace

TEST_CASE("a wait whose inner back-off loop sleeps on the clock and re-polls the word ends", "[checker][kernel][liveness]") {
  // while (ld.acquire(cnt) != 0) { t0 = clock; do { if (clock - t0 > 1000) nanosleep(64); } while (ld.relaxed(cnt) != 0); }
  const KernelResult r = checkNestedWait(
      "$L_outer:\n ld.acquire.gpu.global.u32 %r2, [cnt];\n setp.eq.s32 %p2, %r2, 0;\n @%p2 bra $L_end;\n"
      " mov.u64 %rd1, %globaltimer;\n"
      "$L_backoff:\n mov.u64 %rd2, %globaltimer;\n sub.s64 %rd3, %rd2, %rd1;\n setp.lt.s64 %p3, %rd3, 1000;\n"
      " @%p3 bra $L_poll;\n nanosleep.u32 64;\n"
      "$L_poll:\n ld.relaxed.gpu.global.u32 %r3, [cnt];\n setp.ne.s32 %p4, %r3, 0;\n @%p4 bra $L_backoff;\n"
      " bra.uni $L_outer;\n");
  checkEnds(r);
}

TEST_CASE("a wait that polls until the word differs from the value it carries ends: the carried value is not the final one",
          "[checker][kernel][liveness]") {
  // libcu++'s latch wait: old = ld.acquire(cnt); while (old != 0) { while (ld.relaxed(cnt) == old) {} old = ld.acquire(cnt); }
  // The inner loop ends on the final 0 only because `old` is known to differ from 0 there (the branches say so).
  const KernelResult r = checkNestedWait(
      " ld.acquire.gpu.global.u32 %r2, [cnt];\n setp.eq.s32 %p2, %r2, 0;\n @%p2 bra $L_end;\n"
      "$L_outer:\n ld.relaxed.gpu.global.u32 %r6, [never];\n"  // the outer loop's own (an inner loop of its own header)
      "$L_same:\n ld.relaxed.gpu.global.u32 %r3, [cnt];\n setp.eq.s32 %p3, %r3, %r2;\n @%p3 bra $L_same;\n"
      " ld.acquire.gpu.global.u32 %r2, [cnt];\n setp.ne.s32 %p4, %r2, 0;\n @%p4 bra $L_outer;\n");
  checkEnds(r);
}

TEST_CASE("a nested wait whose inner loop polls a word nobody writes hangs, and is never judged to end", "[checker][kernel][liveness]") {
  const KernelResult r = checkNestedWait(
      "$L_outer:\n ld.relaxed.gpu.global.u32 %r6, [cnt];\n"
      "$L_inner:\n ld.relaxed.gpu.global.u32 %r3, [never];\n setp.eq.s32 %p3, %r3, 0;\n @%p3 bra $L_inner;\n"
      " ld.acquire.gpu.global.u32 %r2, [cnt];\n setp.ne.s32 %p4, %r2, 0;\n @%p4 bra $L_outer;\n");
  INFO((r.unknowns.empty() ? std::string("no unknowns") : r.unknowns.front()));
  CHECK(spinHangs(r) >= 1);
}

TEST_CASE("a poll loop around an inner loop with a concrete trip count ends", "[checker][kernel][liveness]") {
  // The inner loop counts %r7 to 3 between polls (nvcc's unrolled-or-not `for`): the instantiator follows it
  // exactly, and the poll loop around it ends once the count's final 0 is read.
  const KernelResult r = checkNestedWait(
      "$L_outer:\n ld.relaxed.gpu.global.u32 %r2, [cnt];\n setp.eq.s32 %p2, %r2, 0;\n @%p2 bra $L_end;\n mov.u32 %r7, 0;\n"
      "$L_count:\n add.s32 %r7, %r7, 1;\n nanosleep.u32 %r7;\n setp.lt.s32 %p3, %r7, 3;\n @%p3 bra $L_count;\n bra.uni $L_outer;\n");
  checkEnds(r);
}

TEST_CASE("a loop after another loop is not judged from the first loop's unrolled iterations alone", "[checker][kernel][liveness]") {
  // Block 1 counts its polls of flag_0 in r1 (loop A), then spins for good when it polled exactly five times (loop
  // B). Under fair scheduling A may run five times before the flag is visible, so B may never end; entry states that
  // follow A only through its unrolled iterations see r1 below five and would judge B to end.
  const TestLaunch l = oneThreadPerBlock(2, {"flag_0 = 0"}, [](const frontend::KernelThread& k) -> std::vector<std::string> {
    if (k.cta == 0) return {"st.relaxed.gpu flag_0, 1"};
    return {"mov r1, 0", "LA:", "ld.relaxed.gpu r0, flag_0", "add r1, r1, 1", "beq r0, 0, LA",
            "LB:", "ld.relaxed.gpu r2, flag_0", "beq r1, 5, LB"};
  });
  const KernelResult r = testing::checkLaunch(l);
  INFO((r.unknowns.empty() ? std::string("no unknowns") : r.unknowns.front()));
  CHECK(r.status != KernelStatus::Ok);
  CHECK(spinHangs(r) + loopsNotDecided(r) >= 1);
}

// Block 1 sets r3 to `kept`, counts its polls of flag_0 in r1 (loop A), then polls flag_0 again (loop B) while it
// reads 0 or while r3 is 5. Past A's unrolled iterations r1 and r0 are unknown but r3 is still `kept`.
TestLaunch loopAfterCountingLoop(int kept) {
  return oneThreadPerBlock(2, {"flag_0 = 0"}, [kept](const frontend::KernelThread& k) -> std::vector<std::string> {
    if (k.cta == 0) return {"st.relaxed.gpu flag_0, 1"};
    return {"mov r3, " + std::to_string(kept), "mov r1, 0", "LA:", "ld.relaxed.gpu r0, flag_0", "add r1, r1, 1", "beq r0, 0, LA",
            "LB:", "ld.relaxed.gpu r2, flag_0", "beq r2, 0, LB", "beq r3, 5, LB"};
  });
}

TEST_CASE("a loop after a loop that counts its polls is decided when it does not depend on the count", "[checker][kernel][liveness]") {
  const KernelResult ends = testing::checkLaunch(loopAfterCountingLoop(0));
  INFO((ends.unknowns.empty() ? std::string("no unknowns") : ends.unknowns.front()));
  CHECK(ends.status == KernelStatus::Ok);
  CHECK(ends.hangs.empty());
  // r3 == 5 was set before loop A, which never assigns it: B spins for ever, whatever A counted.
  const KernelResult hangs = testing::checkLaunch(loopAfterCountingLoop(5));
  INFO((hangs.unknowns.empty() ? std::string("no unknowns") : hangs.unknowns.front()));
  CHECK(spinHangs(hangs) >= 1);
}

// Block 0 sets flag_0..flag_3; block 1 waits for each in turn (an mbarrier pipeline's shape: one wait per stage),
// then waits in loop E until flag_0 reads 1 again — or, with `dependsOnCount`, while the number of polls loop A
// counted in r1 is 5. The paths into E multiply with every earlier loop (each leaves from any of its unrolled
// iterations), but once their polled values are no longer read they reach E in the same few states.
TestLaunch waitsInTurn(bool dependsOnCount) {
  return oneThreadPerBlock(2, {"flag_0 = 0", "flag_1 = 0", "flag_2 = 0", "flag_3 = 0"},
                           [dependsOnCount](const frontend::KernelThread& k) -> std::vector<std::string> {
    if (k.cta == 0)
      return {"st.relaxed.gpu flag_0, 1", "st.relaxed.gpu flag_1, 1", "st.relaxed.gpu flag_2, 1", "st.relaxed.gpu flag_3, 1"};
    return {"mov r1, 0", "LA:", "ld.relaxed.gpu r0, flag_0", "add r1, r1, 1", "beq r0, 0, LA",
            "LB:", "ld.relaxed.gpu r0, flag_1", "beq r0, 0, LB",
            "LC:", "ld.relaxed.gpu r0, flag_2", "beq r0, 0, LC",
            "LD:", "ld.relaxed.gpu r0, flag_3", "beq r0, 0, LD",
            "LE:", "ld.relaxed.gpu r2, flag_0", dependsOnCount ? "beq r1, 5, LE" : "beq r2, 0, LE"};
  });
}

TEST_CASE("a wait after several waits is decided: paths that meet in the same live registers are walked once", "[checker][kernel][liveness]") {
  const KernelResult ends = testing::checkLaunch(waitsInTurn(false));
  INFO((ends.unknowns.empty() ? std::string("no unknowns") : ends.unknowns.front()));
  CHECK(ends.status == KernelStatus::Ok);
  CHECK(ends.hangs.empty());
  // r1 is still read in loop E: the states that differ in it stay apart, and E may spin for ever.
  const KernelResult count = testing::checkLaunch(waitsInTurn(true));
  INFO((count.unknowns.empty() ? std::string("no unknowns") : count.unknowns.front()));
  CHECK(count.status != KernelStatus::Ok);
  CHECK(spinHangs(count) + loopsNotDecided(count) >= 1);
}

// While a thread spins, the barrier generations it would arrive at only after its loop never complete, so the
// others stop at them: a write behind such a barrier is never made while it spins. Found by the random
// differential test (KernelDifferentialTest.cpp): thread 0 of a block waits for a flag that thread 1 sets only
// after a __syncthreads() thread 0 reaches after its wait — a deadlock, reported "Ok" before (the slice's barrier
// counted the kept threads that arrive, so thread 1 passed it without thread 0). The same with the flag set before
// the barrier ends; and an mbarrier arrival behind such a barrier (or the spinner's own arrival after its wait)
// completes no phase while it waits, whatever the object's value after all its arrivals.
TestLaunch waitAcrossBarrier(bool setBeforeBarrier) {
  return {{1, 1, 1}, {2, 1, 1}, 1, {"flag_0 = 0"}, [setBeforeBarrier](const frontend::KernelThread& k) -> std::vector<std::string> {
            if (k.tid.x == 0) return {"LOOP:", "ld.relaxed.gpu r0, flag_0", "beq r0, 0, LOOP", "bar.sync 0"};
            if (setBeforeBarrier) return {"st.relaxed.gpu flag_0, 1", "bar.sync 0"};
            return {"bar.sync 0", "st.relaxed.gpu flag_0, 1"};
          }};
}

enum class Arriver { OtherBeforeBarrier, OtherAfterBarrier, Itself };
TestLaunch mbarrierWait(Arriver who) {
  return {{1, 1, 1}, {2, 1, 1}, 1, {"b_0 @ mbarrier cta 0"}, [who](const frontend::KernelThread& k) -> std::vector<std::string> {
            const std::string arrive = "mbarrier.arrive.shared::cta.b64 _, [b_0]";
            std::vector<std::string> c;
            if (k.tid.x == 0) c.push_back("mbarrier.init.shared::cta.b64 [b_0], 1");
            c.push_back("bar.sync 0");
            if (k.tid.x == 0) {
              for (const auto& s : {"LW:", "mbarrier.try_wait.parity.shared::cta.b64 p, [b_0], 0", "@!p bra LW"}) c.push_back(s);
              if (who == Arriver::Itself) c.push_back(arrive);
              c.push_back("bar.sync 0");
              return c;
            }
            if (who == Arriver::OtherBeforeBarrier) c.push_back(arrive);
            c.push_back("bar.sync 0");
            if (who == Arriver::OtherAfterBarrier) c.push_back(arrive);
            return c;
          }};
}

TEST_CASE("a wait for a write behind a barrier the spinner reaches only after it hangs; before the barrier it ends", "[checker][kernel][liveness]") {
  const KernelResult deadlock = testing::checkLaunch(waitAcrossBarrier(false));
  CHECK(spinHangs(deadlock) == 1);
  const KernelResult ends = testing::checkLaunch(waitAcrossBarrier(true));
  CHECK(ends.hangs.empty());
  CHECK(ends.status == KernelStatus::Ok);
}

TEST_CASE("an mbarrier wait hangs when the arrival it needs is behind a barrier it meets later, or its own", "[checker][kernel][liveness]") {
  CHECK(spinHangs(testing::checkLaunch(mbarrierWait(Arriver::OtherAfterBarrier))) == 1);
  CHECK(spinHangs(testing::checkLaunch(mbarrierWait(Arriver::Itself))) == 1);
  const KernelResult ends = testing::checkLaunch(mbarrierWait(Arriver::OtherBeforeBarrier));
  CHECK(ends.hangs.empty());
  CHECK(ends.status == KernelStatus::Ok);
}

// The same with a cluster barrier: block 0 waits for a flag block 1 sets only after the cluster barrier block 0
// reaches after its wait — a deadlock, reported "Ok" before (the slice's barrier.cluster counted the threads that
// arrive in it, and the cut spinner arrives nowhere).
TEST_CASE("a wait for a write behind a cluster barrier the spinner reaches only after it hangs", "[checker][kernel][liveness]") {
  for (const bool before : {false, true}) {
    INFO("the flag is set " << (before ? "before" : "after") << " the cluster barrier");
    TestLaunch l{{2, 1, 1}, {1, 1, 1}, 2, {"flag_0 = 0"}, [before](const frontend::KernelThread& k) -> std::vector<std::string> {
                   const std::vector<std::string> sync{"barrier.cluster.arrive", "barrier.cluster.wait"};
                   std::vector<std::string> c;
                   if (k.cta == 0) c = {"LOOP:", "ld.relaxed.gpu r0, flag_0", "beq r0, 0, LOOP"};
                   if (k.cta == 1 && before) c.push_back("st.relaxed.gpu flag_0, 1");
                   c.insert(c.end(), sync.begin(), sync.end());
                   if (k.cta == 1 && !before) c.push_back("st.relaxed.gpu flag_0, 1");
                   return c;
                 }};
    const KernelResult r = testing::checkLaunch(l);
    CHECK(spinHangs(r) == (before ? 0u : 1u));
    if (before) CHECK(r.status == KernelStatus::Ok);
  }
}

namespace {

// A chained hand-off (cases/kernels/lookback-chain-threadfence.cu): block b > 0 polls flag_(b-1), fences, and sets
// flag_b; block 0 fences and sets flag_0. The slice of block 2's wait keeps block 3 (its fence is on a may-order
// path through the fence-SC order), whose poll waits for the flag_2 that block 2 sets after its loop: cut there,
// block 3 can never finish in the slice.
TestLaunch fencedChain(int blocks) {
  return oneThreadPerBlock(blocks, {"flag_0 = 0", "flag_1 = 0", "flag_2 = 0", "flag_3 = 0"},
                           [](const frontend::KernelThread& k) -> std::vector<std::string> {
                             const std::string mine = "flag_" + std::to_string(k.cta);
                             if (k.cta == 0) return {"fence.sc.gpu", "st.relaxed.gpu " + mine + ", 1"};
                             return {"LOOP:", "ld.relaxed.gpu r0, flag_" + std::to_string(k.cta - 1), "beq r0, 0, LOOP",
                                     "fence.sc.gpu", "st.relaxed.gpu " + mine + ", 1"};
                           });
}

}  // namespace

TEST_CASE("a slice without terminating executions is no hang when a kept thread waits for what the spinner writes later",
          "[checker][kernel][liveness]") {
  const KernelResult three = testing::checkLaunch(fencedChain(3));
  CHECK(three.hangs.empty());
  CHECK(three.status == KernelStatus::Ok);
  // With a fourth block, block 2's slice keeps block 3 waiting for block 2's own flag: before, "wait for threads
  // that never finish" was reported — a hang the launch does not have (every block's flag is set in turn).
  const KernelResult four = testing::checkLaunch(fencedChain(4));
  INFO((four.unknowns.empty() ? std::string("no unknowns") : four.unknowns.front()));
  CHECK(spinHangs(four) == 0);
  CHECK(four.hangs.empty());
  CHECK((four.status == KernelStatus::Ok || loopsNotDecided(four) > 0));
}
