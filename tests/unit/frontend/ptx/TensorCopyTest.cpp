// Unit tests of the partial evaluator's tensor copies (EvalTensorCopy.cpp): a tile load through a CUtensorMap
// parameter becomes one bulk copy of its box's runs completing on the mbarrier with the whole box's bytes, its
// out-of-bounds runs copied from the zero-fill buffer; a tile store copies only the in-bounds runs; the map's
// --arg is required; im2col and multicast copies stay located errors; prefetches and the tensormap acquire of
// a parameter map have no effect.
#include <catch2/catch.hpp>

#include "ResidualTestSupport.hpp"

using namespace ptxmm::frontend;
using namespace ptxmm::frontend::ptxtest;
using Catch::Contains;

namespace {

// k(tmap, in, x, y) (no .cu: its buffers are named param_I): thread 0 runs `body` with %rd3 = the map's generic address, %r2/%r3 = x/y, %r4 = the
// mbarrier, %r5 = the 32-byte tile.
std::string kernel(const std::string& body) {
  return ".version 8.5\n.target sm_90a\n.address_size 64\n"
         ".shared .align 128 .b8 tile[32];\n.shared .align 8 .b64 bar;\n"
         ".visible .entry k(.param .align 64 .b8 tmap[128], .param .u64 in, .param .u32 x, .param .u32 y)\n{\n"
         " .reg .pred %p<4>;\n .reg .b16 %rs<4>;\n .reg .b32 %r<16>;\n .reg .b64 %rd<16>;\n"
         " mov.b64 %rd1, tmap;\n cvta.param.u64 %rd3, %rd1;\n ld.param.u32 %r2, [x];\n ld.param.u32 %r3, [y];\n"
         " mov.u32 %r4, bar;\n mov.u32 %r5, tile;\n" + body + "\n ret;\n}\n";
}

const std::string kLoad =
    " mbarrier.init.shared::cta.b64 [%r4], 1;\n"
    " mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [%r4], 32;\n"
    " cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r5], [%rd3, {%r2, %r3}], [%r4];";

std::vector<std::string> args(int x, int y) {
  return {"in=int32[32]", "tmap=tensormap(in,8x4,box=4x2)", "x=" + std::to_string(x), "y=" + std::to_string(y)};
}

const KernelLocation& where(const KernelProgram& k, const std::string& name) {
  for (std::size_t l = 0; l < k.program.locations.size(); ++l)
    if (k.program.locations[l].name == name) return k.locations[l];
  FAIL("no location " << name);
  throw;
}

}  // namespace

TEST_CASE("a tensor tile load is one bulk copy of the box's rows, completing the whole box", "[frontend][ptx][tma]") {
  const KernelProgram k = instantiate(kernel(kLoad), "1", "1", args(2, 1));
  const auto copies = ofKind(k.program.threads[0], Opcode::BulkCopy);
  REQUIRE(copies.size() == 1);
  const Instruction& c = *copies[0];
  CHECK(c.bulk == BulkKind::GlobalToShared);
  // Row 1 columns 2..5 and row 2 columns 2..5, each cut into the buffer's int32 elements: 8 pairs.
  REQUIRE(c.operands.size() == 8 * 2 + 2);
  CHECK(c.operands[1].name == "param_1[10]");
  CHECK(c.operands[7].name == "param_1[13]");
  CHECK(c.operands[9].name == "param_1[18]");
  CHECK(where(k, c.operands[8].name).offset == 16);  // the second row follows the first in the tile
  CHECK(c.operands[16].value == 32);
  CHECK(k.program.locations[static_cast<std::size_t>(std::find_if(k.program.locations.begin(), k.program.locations.end(),
                                                                   [&](const Location& l) { return l.name == c.operands[17].name; }) -
                                                      k.program.locations.begin())]
            .kind == LocationKind::MBarrier);
}

TEST_CASE("a tensor tile load's out-of-bounds elements come from the zero-fill buffer", "[frontend][ptx][tma]") {
  const KernelProgram k = instantiate(kernel(kLoad), "1", "1", args(6, 3));
  const auto copies = ofKind(k.program.threads[0], Opcode::BulkCopy);
  REQUIRE(copies.size() == 1);
  const Instruction& c = *copies[0];
  std::int64_t inBounds = 0, zero = 0;
  for (std::size_t p = 0; p + 1 < c.operands.size() && c.operands[p].kind == Operand::Kind::Location; p += 2) {
    const KernelLocation& src = where(k, c.operands[p + 1].name);
    (k.buffers[static_cast<std::size_t>(src.buffer)].name == "tensormap-zero-fill" ? zero : inBounds) += src.size;
  }
  CHECK(inBounds == 8);  // in[30], in[31]
  CHECK(zero == 24);
  CHECK(c.operands[c.operands.size() - 2].value == 32);  // complete_tx counts the zero fill
}

TEST_CASE("a tensor tile store copies only the elements inside the tensor", "[frontend][ptx][tma]") {
  const KernelProgram k =
      instantiate(kernel(" cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd3, {%r2, %r3}], [%r5];\n"
                         " cp.async.bulk.commit_group;\n cp.async.bulk.wait_group 0;"),
                  "1", "1", args(6, 3));
  const auto copies = ofKind(k.program.threads[0], Opcode::BulkCopy);
  REQUIRE(copies.size() == 2);  // in[30] and in[31], one copy each in the bulk group
  CHECK(copies[0]->bulk == BulkKind::SharedToGlobal);
  CHECK(copies[0]->operands[0].name == "param_1[30]");
  CHECK(copies[1]->operands[0].name == "param_1[31]");
}

TEST_CASE("tensor maps: the --arg is required and unsupported forms are located errors", "[frontend][ptx][tma]") {
  CHECK_THROWS_WITH(instantiate(kernel(kLoad), "1", "1", {"in=int32[32]", "x=0", "y=0"}),
                    Contains("'param_0' (k.ptx:6:40) is a 128-byte aggregate parameter: a CUtensorMap needs --arg param_0=tensormap("));
  CHECK_THROWS_WITH(instantiate(kernel(kLoad), "1", "1", {"in=int32[16]", "tmap=tensormap(in,8x4,box=4x2)", "x=0", "y=0"}),
                    Contains("the tensor covers 128 bytes but 'in' has 64"));
  CHECK_THROWS_WITH(instantiate(kernel(kLoad), "1", "1", {"in=int32[32]", "tmap=tensormap(out,8x4,box=4x2)", "x=0", "y=0"}),
                    Contains("'out' is not a pointer parameter"));
  const std::string multicast =
      " cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%r5], [%rd3, {%r2, %r3}], [%r4], %rs1;";
  CHECK_THROWS_WITH(instantiate(kernel(multicast), "1", "1", args(0, 0)), Contains("multicast copies are not supported"));
  const std::string im2col =
      " cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
      " [%r5], [%rd3, {%r2, %r3, %r3}], [%r4], {%rs1};";
  CHECK_THROWS_WITH(instantiate(kernel(im2col), "1", "1", args(0, 0)), Contains("im2col tensor copies are not supported"));
  CHECK_THROWS_WITH(instantiate(kernel(" ld.b32 %r6, [%rd3];"), "1", "1", args(0, 0)),
                    Contains("the bytes of a tensor-map parameter"));
}

TEST_CASE("tensor-map prefetches and the tensormap acquire of a parameter map have no effect", "[frontend][ptx][tma]") {
  const KernelProgram k = instantiate(kernel(" prefetch.tensormap [%rd3];\n"
                                             " cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%rd3, {%r2, %r3}];\n"
                                             " fence.proxy.tensormap::generic.acquire.gpu [%rd3], 128;"),
                                      "1", "1", args(0, 0));
  CHECK(k.program.threads[0].code.empty());
}
