// Counted barriers inside slices (SliceBuilder.hpp (iv)): a slice's threads are kernel threads, so a counted
// barrier counts the slice's threads that arrive at it — whatever the kernel wrote as its count (an immediate, or a
// register the PTX reader has resolved), however many of its warps the slice keeps.
#include <catch2/catch.hpp>

#include "KernelTestSupport.hpp"

using namespace ptxmm;
using checker::kernel::KernelResult;
using testing::TestLaunch;

namespace {

// Block 0 (three warps) meets at named barrier 1 with count 96; after it, thread 32 writes data_0 and sets flag_0
// with relaxed stores; block 1 reads data_0 once it sees the flag. The relaxed flag orders nothing: the write and
// the read race, which only a slice can show (the flag read decides whether the data read happens). The slice
// keeps thread 32 of block 0 alone: its barrier must complete with that one arrival, or the slice's executions
// stop at the barrier and the race is missed. With the count in a register (`mov r5, 96`), the barrier's
// generations are not static to the checker: no slice may keep it.
TestLaunch namedBarrierThenRelaxedFlag(bool countInRegister) {
  TestLaunch l;
  l.grid = {2, 1, 1};
  l.block = {96, 1, 1};
  l.init = {"data_0 = 0", "flag_0 = 0"};
  l.code = [countInRegister](const frontend::KernelThread& k) -> std::vector<std::string> {
    if (k.cta == 1)
      return k.tid.x == 0 ? std::vector<std::string>{"ld.relaxed.gpu r0, flag_0", "beq r0, 0, END", "ld.weak r1, data_0", "END:"}
                          : std::vector<std::string>{};
    std::vector<std::string> c;
    if (countInRegister) c = {"mov r5, 96", "bar.sync 1, r5"};
    else c = {"bar.sync 1, 96"};
    if (k.tid.x == 32) c.insert(c.end(), {"st.weak data_0, 42", "st.relaxed.gpu flag_0, 1"});
    return c;
  };
  return l;
}

}  // namespace

TEST_CASE("a counted barrier inside a slice counts the slice's threads", "[checker][kernel][slice]") {
  const frontend::KernelProgram kp = testing::makeKernel(namedBarrierThenRelaxedFlag(false));
  testing::Analyses a(kp);
  const int w = a.event(32, "data_0", model::Tag::W), r = a.event(96, "data_0", model::Tag::R);
  std::string why;
  const auto slice = a.builder.build({w, r}, {{w, r}}, {}, {}, why);
  INFO(why);
  REQUIRE(slice);
  CHECK_FALSE(slice->program.threadsAreWarps);
  std::vector<std::int64_t> counts;
  for (std::size_t t = 0; t < slice->threads.size(); ++t)
    for (const auto& in : slice->program.threads[t].code)
      if (in.op == frontend::Opcode::BarSync) counts.push_back(in.operands.at(1).value);
  CHECK(counts == std::vector<std::int64_t>{1});  // thread 32 is the one thread of block 0 the slice keeps

  const KernelResult result = testing::checkLaunch(namedBarrierThenRelaxedFlag(false));
  CHECK(result.hangs.empty());
  CHECK(result.unknowns.empty());
  CHECK(testing::raceTexts(result) == std::set<std::string>{"ld.weak r1, data_0 / st.weak data_0, 42: no synchronisation"});
}

TEST_CASE("a slice does not keep a counted barrier whose count is not an immediate: the pair is UNKNOWN", "[checker][kernel][slice]") {
  const KernelResult r = testing::checkLaunch(namedBarrierThenRelaxedFlag(true));
  CHECK(r.races.empty());
  REQUIRE(r.unknowns.size() == 1);
  CHECK(r.unknowns[0].find("its slice needs the barrier at kernel.cu:7, whose generations are not static") != std::string::npos);
}
