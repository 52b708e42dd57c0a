// Unit tests of bulk copies split into the elements the kernel's other accesses use (CopyElements.hpp): a bulk
// store of a tile the threads wrote element by element becomes one copy per element in the same bulk group, an
// mbarrier-completed bulk load one copy listing its elements, a pointer parameter's elements cut a copy nobody
// else touches, a copy of memory nobody else touches stays whole, and a true partial overlap stays one.
#include <catch2/catch.hpp>

#include "ResidualTestSupport.hpp"

using namespace ptxmm::frontend;
using namespace ptxmm::frontend::ptxtest;

namespace {

// A kernel k(out) (its buffer is named param_0: no .cu gives the name) with a 16-byte shared tile and an mbarrier; `body` runs in every thread, %r1 = %tid.x,
// %r3 = the tile's address, %r4 = the thread's element of it, %rd2 = out.
std::string kernel(const std::string& body) {
  return ".version 8.5\n.target sm_90a\n.address_size 64\n"
         ".shared .align 128 .b8 tile[16];\n.shared .align 8 .b64 bar;\n"
         ".visible .entry k(.param .u64 out)\n{\n .reg .pred %p<8>;\n .reg .b32 %r<32>;\n .reg .b64 %rd<16>;\n"
         " mov.u32 %r1, %tid.x;\n shl.b32 %r2, %r1, 2;\n mov.u32 %r3, tile;\n add.s32 %r4, %r3, %r2;\n"
         " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd2, %rd1;\n" +
         body + "\n ret;\n}\n";
}

// The location operands of an instruction, in order.
std::vector<std::string> locations(const Instruction& in) {
  std::vector<std::string> out;
  for (const auto& o : in.operands)
    if (o.kind == Operand::Kind::Location) out.push_back(o.name);
  return out;
}

const KernelLocation& where(const KernelProgram& k, const std::string& name) {
  for (std::size_t l = 0; l < k.program.locations.size(); ++l)
    if (k.program.locations[l].name == name) return k.locations[l];
  FAIL("no location " << name);
  throw;
}

const std::string kStoreTile =
    " st.shared.u32 [%r4], %r1;\n fence.proxy.async.shared::cta;\n bar.sync 0;\n setp.ne.s32 %p1, %r1, 0;\n"
    " @%p1 bra $L_end;\n cp.async.bulk.global.shared::cta.bulk_group [%rd2], [%r3], 16;\n"
    " cp.async.bulk.commit_group;\n cp.async.bulk.wait_group.read 0;\n$L_end:\n";

}  // namespace

TEST_CASE("a bulk store of a tile written element by element is one copy per element, in one bulk group",
          "[frontend][ptx]") {
  const KernelProgram k = instantiate(kernel(kStoreTile), "1", "4", {"out=int32[4]"});
  const auto copies = ofKind(k.program.threads[0], Opcode::BulkCopy);
  REQUIRE(copies.size() == 4);
  for (int e = 0; e < 4; ++e) {
    const auto names = locations(*copies[static_cast<std::size_t>(e)]);
    REQUIRE(names.size() == 2);
    CHECK(names[0] == "param_0[" + std::to_string(e) + "]");
    CHECK(where(k, names[1]).offset == 4 * e);  // the element thread e stored
    CHECK(where(k, names[1]).size == 4);
    CHECK(copies[static_cast<std::size_t>(e)]->operands[2].value == 4);
  }
  CHECK(ofKind(k.program.threads[0], Opcode::CpAsyncCommit).size() == 1);  // one group for all of them
  // The stores name the copy's pieces: the same locations, so no access of another size overlaps them.
  for (int t = 0; t < 4; ++t)
    CHECK(locationOf(*ofKind(k.program.threads[static_cast<std::size_t>(t)], Opcode::St)[0]) ==
          locations(*copies[static_cast<std::size_t>(t)])[1]);
  // The whole-tile location nobody names any more is gone.
  for (const auto& l : k.locations) CHECK(l.size == 4);
}

TEST_CASE("an mbarrier-completed bulk load is one copy listing its elements, completing all bytes once",
          "[frontend][ptx]") {
  const std::string body =
      " setp.ne.s32 %p1, %r1, 0;\n @%p1 bra $L_init;\n mbarrier.init.shared.b64 [bar], 1;\n$L_init:\n bar.sync 0;\n"
      " @%p1 bra $L_wait;\n mbarrier.arrive.expect_tx.shared.b64 %rd3, [bar], 16;\n"
      " cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], [%rd2], 16, [bar];\n"
      "$L_wait:\n mbarrier.try_wait.parity.shared.b64 %p2, [bar], 0;\n @!%p2 bra $L_wait;\n"
      " ld.shared.u32 %r5, [%r4];\n";
  const KernelProgram k = instantiate(kernel(body), "1", "4", {"out=int32[4]=5,6,7,8"});
  const auto copies = ofKind(k.program.threads[0], Opcode::BulkCopy);
  REQUIRE(copies.size() == 1);
  const Instruction& copy = *copies[0];
  const auto names = locations(copy);
  REQUIRE(names.size() == 9);  // four (dst, src) pairs, then the mbarrier
  for (int e = 0; e < 4; ++e) {
    CHECK(where(k, names[static_cast<std::size_t>(2 * e)]).offset == 4 * e);
    CHECK(names[static_cast<std::size_t>(2 * e + 1)] == "param_0[" + std::to_string(e) + "]");
  }
  CHECK(copy.operands[8].kind == Operand::Kind::Immediate);
  CHECK(copy.operands[8].value == 16);  // one complete_tx of every byte
  CHECK(k.program.locations[static_cast<std::size_t>(&where(k, names[8]) - k.locations.data())].kind == LocationKind::MBarrier);
  CHECK(locationOf(*ofKind(k.program.threads[2], Opcode::Ld)[0]) == names[4]);
}

TEST_CASE("a pointer parameter's elements cut a copy; memory nobody else touches is copied whole", "[frontend][ptx]") {
  const std::string body =
      " setp.ne.s32 %p1, %r1, 0;\n @%p1 bra $L_end;\n cp.async.bulk.global.shared::cta.bulk_group [%rd2], [%r3], 16;\n"
      " cp.async.bulk.commit_group;\n$L_end:\n";
  const KernelProgram ints = instantiate(kernel(body), "1", "1", {"out=int64[2]"});
  const auto copies = ofKind(ints.program.threads[0], Opcode::BulkCopy);
  REQUIRE(copies.size() == 2);  // out's two 8-byte elements, so --assert names one location each
  CHECK(locations(*copies[1])[0] == "param_0[1]");
  CHECK(where(ints, locations(*copies[1])[1]).offset == 8);
  // A copy between two shared windows no other access touches: one piece.
  const std::string dsmem =
      " mov.u32 %r6, bar;\n cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%r3], [%r3], 16, [%r6];\n";
  const KernelProgram whole = instantiate(kernel(" setp.ne.s32 %p1, %r1, 0;\n @%p1 bra $L_end;\n mbarrier.init.shared.b64 [bar], 1;\n" +
                                                 dsmem + "$L_end:\n"),
                                          "1", "1", {"out=int32[4]"});
  const auto one = ofKind(whole.program.threads[0], Opcode::BulkCopy);
  REQUIRE(one.size() == 1);
  CHECK(locations(*one[0]).size() == 3);
  CHECK(where(whole, locations(*one[0])[0]).size == 16);
}

TEST_CASE("a true partial overlap stays one: an 8-byte load across two element pieces", "[frontend][ptx]") {
  const std::string body = kStoreTile + " ld.shared.u64 %rd5, [tile+8];\n";
  const KernelProgram k = instantiate(kernel(body), "1", "4", {"out=int32[4]"});
  REQUIRE(ofKind(k.program.threads[0], Opcode::BulkCopy).size() == 4);  // cut at 4, 8 and 12 by the stores
  const auto loads = ofKind(k.program.threads[1], Opcode::Ld);
  REQUIRE(loads.size() == 1);
  CHECK(where(k, locationOf(*loads[0])).size == 8);  // overlapping the pieces [8, 12) and [12, 16): mixed sizes
  CHECK(where(k, locationOf(*loads[0])).offset == 8);
}
