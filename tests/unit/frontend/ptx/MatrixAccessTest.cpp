// Unit tests of ldmatrix / stmatrix in the partial evaluator (EvalMatrix.cpp, CtaRunner): each lane performs the
// accesses of the bytes its registers receive or hold, at row addresses other lanes give, with exact values; an
// address that is not concrete makes the access symbolic; the forms ptxmm does not model are located errors.
#include <catch2/catch.hpp>

#include "ResidualTestSupport.hpp"

using namespace ptxmm::frontend;
using namespace ptxmm::frontend::ptxtest;
using Catch::Contains;

namespace {

// 32 threads: thread t stores 1000 + t at s[t] (word t of a 128-byte tile: 8 rows of 16 bytes), then the warp
// loads the tile with `matrix` (row r's address, given by lane r, is s + 16 * (7 - r): the rows reversed) and
// every thread stores what it got at out[2t], out[2t+1].
std::string kernel(const std::string& matrix, const std::string& sync = "bar.sync 0;") {
  return R"(.version 8.5
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 out)
{
 .reg .b32 %r<16>;
 .reg .b64 %rd<8>;
 .shared .align 16 .b32 s[32];
 ld.param.u64 %rd1, [out];
 cvta.to.global.u64 %rd2, %rd1;
 mov.u32 %r1, %tid.x;
 mov.u32 %r2, s;
 shl.b32 %r3, %r1, 2;
 add.s32 %r4, %r2, %r3;
 add.s32 %r5, %r1, 1000;
 st.shared.u32 [%r4], %r5;
 )" + sync + R"(
 and.b32 %r6, %r1, 7;
 sub.s32 %r7, 7, %r6;
 shl.b32 %r8, %r7, 4;
 add.s32 %r9, %r2, %r8;
 mov.u32 %r10, 0;
 mov.u32 %r11, 0;
 )" + matrix + R"(
 mul.wide.u32 %rd3, %r1, 8;
 add.s64 %rd4, %rd2, %rd3;
 st.global.u32 [%rd4], %r10;
 st.global.u32 [%rd4+4], %r11;
}
)";
}

// The value thread `t` stores at out[2t + which], computed by running its residual code with `memory`.
std::int64_t stored(const Thread& t, std::map<std::string, std::int64_t> memory, int which) {
  REQUIRE(interpret(t, memory));
  return memory.at("param_0[" + std::to_string(2 * t.index + which) + "]");  // pointer parameters are named by position
}

}  // namespace

TEST_CASE("ldmatrix: each lane loads its word of the row another lane names, with the loaded value", "[frontend][ptx][matrix]") {
  const KernelProgram k = instantiate(kernel("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r10}, [%r9];"), "1", "32", {"out=int32[64]"});
  REQUIRE(k.program.threads.size() == 32);
  CHECK(k.symbolic.empty());
  // Lane 5 holds word 1 of row 1, whose address lane 1 gives: row 6 of the tile, s[6 * 4 + 1].
  const Thread& t5 = k.program.threads[5];
  const auto loads = ofKind(t5, Opcode::Ld);
  REQUIRE(loads.size() == 1);
  CHECK(locationOf(*loads[0]) == "s@cta0[25]");
  CHECK(loads[0]->space == StateSpace::SharedCta);
  CHECK(stored(t5, {{"s@cta0[25]", 1025}}, 0) == 1025);
}

TEST_CASE("ldmatrix .x2: the second matrix's rows come from lanes 8-15", "[frontend][ptx][matrix]") {
  // Lanes 8-15 give rows 7 - (lane & 7) too: both matrices are the same reversed tile.
  const KernelProgram k = instantiate(kernel("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r10, %r11}, [%r9];"), "1", "32", {"out=int32[64]"});
  const auto loads = ofKind(k.program.threads[31], Opcode::Ld);
  REQUIRE(loads.size() == 2);
  CHECK(locationOf(*loads[0]) == "s@cta0[3]");  // row 7 (lane 7 gives row 0 of the tile), word 3
  CHECK(locationOf(*loads[1]) == "s@cta0[3]");
}

TEST_CASE("ldmatrix .trans: two 16-bit elements of two rows form the register, low half first", "[frontend][ptx][matrix]") {
  const KernelProgram k = instantiate(kernel("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%r10}, [%r9];"), "1", "32", {"out=int32[64]"});
  // Lane 5: element 1 (bytes 2-3) of rows 2 and 3, i.e. tile rows 5 and 4: bytes 82 and 66.
  const Thread& t5 = k.program.threads[5];
  const auto loads = ofKind(t5, Opcode::Ld);
  REQUIRE(loads.size() == 2);
  CHECK(locationOf(*loads[0]) == "s@cta0+82:2");
  CHECK(locationOf(*loads[1]) == "s@cta0+66:2");
  CHECK(stored(t5, {{"s@cta0+82:2", 0x1234}, {"s@cta0+66:2", -2}}, 0) == static_cast<std::int32_t>(0xfffe1234));
}

TEST_CASE("stmatrix: each lane stores its register's bytes at the rows other lanes name", "[frontend][ptx][matrix]") {
  // The same tile, stored instead of loaded: lane 5 stores its %r5 (1005) at s[25] (row 1, word 1).
  const KernelProgram k = instantiate(kernel("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%r9], {%r5};"), "1", "32", {"out=int32[64]"});
  const Thread& t5 = k.program.threads[5];
  const auto stores = ofKind(t5, Opcode::St);
  REQUIRE(stores.size() == 4);  // s[5], the matrix piece, out[10], out[11]
  CHECK(locationOf(*stores[1]) == "s@cta0[25]");
  REQUIRE(stores[1]->operands[1].kind == Operand::Kind::Immediate);
  CHECK(stores[1]->operands[1].value == 1005);
  // .trans: two 16-bit stores of the register's halves.
  const KernelProgram kt = instantiate(kernel("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%r9], {%r5};"), "1", "32", {"out=int32[64]"});
  const auto halves = ofKind(kt.program.threads[5], Opcode::St);
  REQUIRE(halves.size() == 5);
  CHECK(locationOf(*halves[1]) == "s@cta0+82:2");
  CHECK(locationOf(*halves[2]) == "s@cta0+66:2");
  CHECK(halves[1]->operands[1].value == 1005);
  CHECK(halves[2]->operands[1].value == 0);
}

TEST_CASE("ldmatrix at an address read from memory some thread writes is a symbolic access", "[frontend][ptx][matrix]") {
  // Row addresses loaded from shared memory the threads write: the pieces' addresses are not computed.
  const KernelProgram k = instantiate(kernel("ld.shared.u32 %r9, [%r4];\n ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r10}, [%r9];"),
                                      "1", "32", {"out=int32[64]"});
  REQUIRE_FALSE(k.symbolic.empty());
  CHECK(k.symbolic.front().reason.find("row 0 of matrix 0 (given by lane 0)") != std::string::npos);
}

TEST_CASE("ldmatrix forms ptxmm does not model are located errors", "[frontend][ptx][matrix]") {
  CHECK_THROWS_WITH(instantiate(kernel("ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r10}, [%r9];"), "1", "32", {"out=int32[64]"}),
                    Contains("k.ptx:") && Contains("only .m8n8 matrices of .b16 elements are supported"));
  // .x4 needs the row addresses of lanes 0-31: a 16-thread block has no lanes 16-31.
  CHECK_THROWS_WITH(instantiate(kernel("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r10, %r11, %r12, %r13}, [%r9];"), "1", "16",
                                {"out=int32[64]"}),
                    Contains("lane 16, which gives the address of row 0 of matrix 2, is not in the warp"));
}

TEST_CASE("mma.sync on fragment vectors: opaque accumulators, no memory access", "[frontend][ptx][matrix]") {
  const KernelProgram k = instantiate(
      kernel("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r10, %r11}, [%r9];\n"
             " mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r12,%r13,%r14,%r15}, {%r10,%r11,%r10,%r11}, {%r10,%r11}, {%r12,%r13,%r14,%r15};\n"
             " mov.u32 %r10, %r12;"),
      "1", "32", {"out=int32[64]"});
  const Thread& t = k.program.threads[3];
  CHECK(ofKind(t, Opcode::Ld).size() == 2);  // the ldmatrix pieces only
  std::map<std::string, std::int64_t> memory;
  CHECK_FALSE(interpret(t, memory));  // the stored accumulator is opaque
}
