// Unit tests of slices around bulk copies cut into elements (as the PTX instantiator writes them): a thread's own
// generic store before its bulk copy stays ordered through the proxy fence between them, and the elements of a
// copy no other kept instruction names are folded into one rest element, so the readers of different elements
// get the same slice.
#include <catch2/catch.hpp>

#include "KernelTestSupport.hpp"

using namespace ptxmm;
using checker::kernel::KernelResult;
using testing::Analyses;
using testing::TestLaunch;

namespace {

std::string idx(const std::string& base, int i) { return base + "_" + std::to_string(i); }

int count(const frontend::Thread& t, frontend::Opcode op) {
  return static_cast<int>(std::count_if(t.code.begin(), t.code.end(), [&](const auto& in) { return in.op == op; }));
}

}  // namespace

// One CTA of 64 threads: each stores its tile element, fences the async proxy and meets the others at bar.sync;
// thread 0 then bulk-stores the tile to out, one copy per element.
TestLaunch bulkStore() {
  TestLaunch l;
  l.grid = {1, 1, 1};
  l.block = {64, 1, 1};
  for (int i = 0; i < 64; ++i) l.init.push_back(idx("tile", i) + " @ shared cta 0 = 0"), l.init.push_back(idx("out", i) + " = 0");
  l.code = [](const frontend::KernelThread& k) -> std::vector<std::string> {
    const int t = k.tid.x;
    std::vector<std::string> c{"st.shared.u32 [" + idx("tile", t) + "], " + std::to_string(t + 5), "fence.proxy.async.shared::cta",
                               "bar.sync 0"};
    if (t == 0) {
      for (int e = 0; e < 64; ++e)
        c.push_back("cp.async.bulk.global.shared::cta.bulk_group [" + idx("out", e) + "], [" + idx("tile", e) + "], 4");
      c.push_back("cp.async.bulk.commit_group");
      c.push_back("cp.async.bulk.wait_group.read 0");
    }
    return c;
  };
  return l;
}

TEST_CASE("a thread's own store before its bulk store stays ordered by the proxy fence between them", "[checker][kernel]") {
  const frontend::KernelProgram kp = testing::makeKernel(bulkStore());
  Analyses a(kp);
  // The final value of out[0]: the copy of tile[0], which thread 0 itself stored before its proxy fence.
  const int write = a.event(0, "out_0", model::Tag::W);
  std::string why;
  const auto slice = a.builder.build({write}, {}, {a.graph.locationOfPhysical(a.graph.event(write).paddr)}, {}, why);
  REQUIRE(slice);
  REQUIRE(slice->threads.at(0) == 0);
  CHECK(count(slice->program.threads[0], frontend::Opcode::St) == 1);
  CHECK(count(slice->program.threads[0], frontend::Opcode::FenceProxy) == 1);
  checker::kernel::KernelOptions o;
  o.asserts = {"out[0] == 5 && out[1] == 6 && out[63] == 68"};
  const KernelResult r = checker::kernel::checkKernel(testing::ptxModel(), kp, o);
  CHECK(r.races.empty());
  REQUIRE(r.assertions.size() == 1);
  CHECK(r.assertions[0].holds);
}

TEST_CASE("the elements of a bulk copy no other kept instruction names fold into one rest element", "[checker][kernel]") {
  TestLaunch l;
  l.grid = {1, 1, 1};
  l.block = {4, 1, 1};
  l.init = {"bar @ mbarrier cta 0"};
  for (int i = 0; i < 4; ++i)
    l.init.push_back(idx("tile", i) + " @ shared cta 0 = 0"), l.init.push_back(idx("in", i) + " = " + std::to_string(10 + i)),
        l.init.push_back(idx("out", i) + " = 0");
  l.code = [](const frontend::KernelThread& k) -> std::vector<std::string> {
    const int t = k.tid.x;
    std::vector<std::string> c;
    if (t == 0) c.push_back("mbarrier.init.shared::cta.b64 [bar], 1");
    c.push_back("bar.sync 0");
    if (t == 0) {
      c.push_back("mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 16");
      c.push_back("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [tile_0], [in_0], 16, [bar]");
    }
    for (const auto& s : {"LC00:", "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0", "@!p bra LC00"}) c.push_back(s);
    c.push_back("ld.shared.u32 r0, [" + idx("tile", t) + "]");
    c.push_back("st.u32 [" + idx("out", t) + "], r0");
    return c;
  };
  frontend::KernelProgram kp = testing::makeKernel(l);
  // The instantiator's form: the copy lists its four elements before its size.
  for (auto& in : kp.program.threads[0].code)
    if (in.op == frontend::Opcode::BulkCopy) {
      const frontend::Operand size = in.operands[2], bar = in.operands[3];
      in.operands.clear();
      for (int i = 0; i < 4; ++i)
        for (const auto& name : {idx("tile", i), idx("in", i)}) in.operands.push_back({frontend::Operand::Kind::Location, name, 0, {}});
      in.operands.push_back(size);
      in.operands.push_back(bar);
    }
  Analyses a(kp);
  // The copy's write of tile[3] against thread 3's read of it: only that element stays, the other 12 bytes are one.
  const int w = a.event(0, "tile_3", model::Tag::W), r = a.event(3, "tile_3", model::Tag::R);
  std::string why;
  const auto slice = a.builder.build({w, r}, {{w, r}}, {}, {}, why);
  REQUIRE(slice);
  const frontend::Instruction* copy = nullptr;
  for (const auto& in : slice->program.threads[0].code)
    if (in.op == frontend::Opcode::BulkCopy) copy = &in;
  REQUIRE(copy);
  REQUIRE(copy->operands.size() == 6);  // the element, the rest, the size, the mbarrier
  CHECK(copy->operands[4].value == 16);
  std::vector<int> sizes;
  for (const auto& loc : slice->program.locations) sizes.push_back(loc.size);
  CHECK(std::count(sizes.begin(), sizes.end(), 12) == 2);  // the rest of the destination and of the source
  checker::kernel::KernelOptions o;
  o.asserts = {"out[3] == 13"};
  const KernelResult result = checker::kernel::checkKernel(testing::ptxModel(), kp, o);
  CHECK(result.races.empty());
  REQUIRE(result.assertions.size() == 1);
  CHECK(result.assertions[0].holds);
}

// One thread bulk-stores a shared element to global memory, commits, waits for the group (no .read) and reads the
// destination back: the wait retires the copy only through its commit_group, which performs no event — a slice
// that dropped it left the copy in no group, so the wait retired nothing and the read raced its own copy.
TEST_CASE("a slice keeps the commit_group that puts a thread's bulk copy in the group its wait retires", "[checker][kernel]") {
  TestLaunch l;
  l.grid = {1, 1, 1};
  l.block = {1, 1, 1};
  l.init = {"tile_0 @ shared cta 0 = 0", "out_0 = 0", "res_0 = 0"};
  l.code = [](const frontend::KernelThread&) -> std::vector<std::string> {
    return {"st.shared.u32 [tile_0], 5", "fence.proxy.async.shared::cta",
            "cp.async.bulk.global.shared::cta.bulk_group [out_0], [tile_0], 4", "cp.async.bulk.commit_group",
            "cp.async.bulk.wait_group 0", "ld.global.u32 r0, [out_0]", "st.global.u32 [res_0], r0"};
  };
  const frontend::KernelProgram kp = testing::makeKernel(l);
  checker::kernel::KernelOptions o;
  o.asserts = {"res[0] == 5"};
  const KernelResult r = checker::kernel::checkKernel(testing::ptxModel(), kp, o);
  CHECK(r.races.empty());
  REQUIRE(r.assertions.size() == 1);
  CHECK(r.assertions[0].holds);
}

// Every thread stores -1 into its tile element and fences the async proxy; after a barrier thread 0 bulk-loads the
// tile over it, and each thread reads its element back after the mbarrier wait. The generic store is in causality
// order before the copy's write (proxy fence, barrier, issue: ppbc C4), so it is coherence-before it and the read
// returns the copied value only. A slice for out[1] kept thread 1's store and the copy but not the path between
// the two writes (the closure paired reads with writes only), so its engine let the copy come first and reported
// `out[1] == 6` failing with out[1] = -1 (found by helper tma: tma-tensor-oob-zero-fill.cu).
TEST_CASE("a slice keeps the order between two writes of one location: a bulk load over a generically written tile", "[checker][kernel]") {
  TestLaunch l;
  l.grid = {1, 1, 1};
  l.block = {2, 1, 1};
  l.init = {"bar @ mbarrier cta 0", "tile_0 @ shared cta 0 = 0", "tile_1 @ shared cta 0 = 0", "in_0 = 5", "in_1 = 6",
            "out_0 = 0", "out_1 = 0"};
  l.code = [](const frontend::KernelThread& k) -> std::vector<std::string> {
    const int t = k.tid.x;
    std::vector<std::string> c{"st.shared.u32 [" + idx("tile", t) + "], -1", "fence.proxy.async.shared::cta"};
    if (t == 0) c.push_back("mbarrier.init.shared::cta.b64 [bar], 1");
    c.push_back("bar.sync 0");
    if (t == 0) {
      c.push_back("mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 4");
      c.push_back("cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [tile_1], [in_1], 4, [bar]");
    }
    for (const auto& s : {"LC00:", "mbarrier.try_wait.parity.shared::cta.b64 p, [bar], 0", "@!p bra LC00"}) c.push_back(s);
    c.push_back("ld.shared.u32 r0, [" + idx("tile", t) + "]");
    c.push_back("st.u32 [" + idx("out", t) + "], r0");
    return c;
  };
  checker::kernel::KernelOptions o;
  o.asserts = {"out[1] == 6"};
  o.observes = {"out[1]"};
  const KernelResult r = testing::checkLaunch(l, o);
  CHECK(r.races.empty());
  REQUIRE(r.assertions.size() == 1);
  CHECK(r.assertions[0].holds == true);
  REQUIRE(r.observed.size() == 1);
  CHECK(r.observed[0].values == std::vector<std::string>{"6"});
}
