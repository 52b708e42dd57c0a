// The residual register code computes exactly what PTX computes: one kernel applies every integer operation
// the instantiator lowers symbolically to two values loaded from a buffer. Launched so that no thread writes the
// buffer, the loads are read-only and every result is computed concretely (IntegerOps); launched so that a
// thread writes it afterwards, the loads stay in the residual code and the results are Local/Setp sequences,
// which a small interpreter runs. Both must store the same values, for values at every edge (0, -1, the
// extremes, shift amounts around the width).
#include <catch2/catch.hpp>

#include "ResidualTestSupport.hpp"

using namespace ptxmm::frontend;
using namespace ptxmm::frontend::ptxtest;

namespace {

const char* const kKernel = R"(.version 8.5
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1, .param .u32 k_param_2)
{
 .reg .pred %p<10>;
 .reg .b16 %rs<4>;
 .reg .b32 %r<60>;
 .reg .b64 %rd<30>;
 ld.param.u64 %rd1, [k_param_0];
 ld.param.u64 %rd2, [k_param_1];
 ld.param.u32 %r9, [k_param_2];
 ld.global.u32 %r1, [%rd1];
 ld.global.u32 %r2, [%rd1+4];
 ld.global.u64 %rd3, [%rd1];
 add.s32 %r10, %r1, %r2;          st.global.u32 [%rd2+0], %r10;
 sub.s32 %r11, %r1, %r2;          st.global.u32 [%rd2+8], %r11;
 mul.lo.s32 %r12, %r1, %r2;       st.global.u32 [%rd2+16], %r12;
 mul.hi.u32 %r13, %r1, %r2;       st.global.u32 [%rd2+24], %r13;
 mul.hi.s32 %r14, %r1, %r2;       st.global.u32 [%rd2+32], %r14;
 mul.wide.u32 %rd4, %r1, %r2;     st.global.u64 [%rd2+40], %rd4;
 mul.wide.s32 %rd5, %r1, %r2;     st.global.u64 [%rd2+48], %rd5;
 mad.lo.s32 %r15, %r1, %r2, %r1;  st.global.u32 [%rd2+56], %r15;
 mad.wide.u32 %rd6, %r1, %r2, %rd3; st.global.u64 [%rd2+64], %rd6;
 div.s32 %r16, %r1, 7;            st.global.u32 [%rd2+72], %r16;
 rem.u32 %r17, %r1, 5;            st.global.u32 [%rd2+80], %r17;
 abs.s32 %r18, %r1;               st.global.u32 [%rd2+88], %r18;
 neg.s32 %r19, %r1;               st.global.u32 [%rd2+96], %r19;
 min.u32 %r20, %r1, %r2;          st.global.u32 [%rd2+104], %r20;
 max.s32 %r21, %r1, %r2;          st.global.u32 [%rd2+112], %r21;
 min.u64 %rd7, %rd3, 5;           st.global.u64 [%rd2+120], %rd7;
 and.b32 %r22, %r1, %r2;          st.global.u32 [%rd2+128], %r22;
 or.b32 %r23, %r1, %r2;           st.global.u32 [%rd2+136], %r23;
 xor.b32 %r24, %r1, %r2;          st.global.u32 [%rd2+144], %r24;
 not.b32 %r25, %r1;               st.global.u32 [%rd2+152], %r25;
 shl.b32 %r26, %r1, 3;            st.global.u32 [%rd2+160], %r26;
 shl.b32 %r27, %r1, %r2;          st.global.u32 [%rd2+168], %r27;
 shr.u32 %r28, %r1, 5;            st.global.u32 [%rd2+176], %r28;
 shr.s32 %r29, %r1, %r2;          st.global.u32 [%rd2+184], %r29;
 shr.u64 %rd8, %rd3, 7;           st.global.u64 [%rd2+192], %rd8;
 shl.b64 %rd9, %rd3, %r2;         st.global.u64 [%rd2+200], %rd9;
 cvt.u64.u32 %rd10, %r1;          st.global.u64 [%rd2+208], %rd10;
 cvt.s64.s32 %rd11, %r1;          st.global.u64 [%rd2+216], %rd11;
 cvt.u16.u32 %rs1, %r1;           st.global.u16 [%rd2+224], %rs1;
 cvt.sat.s8.s32 %r30, %r1;        st.global.u32 [%rd2+232], %r30;
 cvt.sat.u8.s32 %r31, %r1;        st.global.u32 [%rd2+240], %r31;
 bfe.u32 %r32, %r1, 4, 8;         st.global.u32 [%rd2+248], %r32;
 bfe.s32 %r33, %r1, 4, 8;         st.global.u32 [%rd2+256], %r33;
 bfi.b32 %r34, %r1, %r2, 8, 8;    st.global.u32 [%rd2+264], %r34;
 setp.lt.u32 %p1, %r1, %r2;       selp.b32 %r35, 10, 20, %p1;    st.global.u32 [%rd2+272], %r35;
 setp.lt.s32 %p2, %r1, %r2;       selp.b32 %r36, %r1, %r2, %p2;  st.global.u32 [%rd2+280], %r36;
 setp.hi.u32 %p3, %r1, %r2;       selp.u32 %r37, 1, 0, %p3;      st.global.u32 [%rd2+288], %r37;
 setp.ne.and.s32 %p4, %r1, 0, %p2; selp.u32 %r38, 1, 0, %p4;     st.global.u32 [%rd2+296], %r38;
 add.sat.s32 %r39, %r1, %r2;      st.global.u32 [%rd2+304], %r39;
 mov.b64 {%r40, %r41}, %rd3;      add.s32 %r42, %r40, %r41;      st.global.u32 [%rd2+312], %r42;
 mov.b64 %rd12, {%r2, %r1};       st.global.u64 [%rd2+320], %rd12;
 setp.ge.u64 %p5, %rd3, %rd12;    selp.u32 %r43, 1, 0, %p5;      st.global.u32 [%rd2+328], %r43;
 shr.s64 %rd13, %rd3, %r2;        st.global.u64 [%rd2+336], %rd13;
 mul.lo.s64 %rd14, %rd3, %rd3;    st.global.u64 [%rd2+344], %rd14;
 sub.s64 %rd15, %rd3, %rd12;      st.global.u64 [%rd2+352], %rd15;
 setp.ne.u32 %p9, %r9, 0;
 @%p9 st.global.u64 [%rd1], %rd3;
 ret;
}
)";

std::map<std::string, std::int64_t> run(const KernelProgram& k, std::uint32_t a, std::uint32_t b) {
  std::map<std::string, std::int64_t> memory{{"param_0+0:4", static_cast<std::int32_t>(a)},
                                             {"param_0+4:4", static_cast<std::int32_t>(b)},
                                             {"param_0[0]", static_cast<std::int64_t>((std::uint64_t{b} << 32) | a)}};
  REQUIRE(interpret(k.program.threads.at(0), memory));
  std::map<std::string, std::int64_t> out;
  for (const auto& [name, v] : memory)
    if (name.rfind("param_1", 0) == 0) out[name] = v;
  return out;
}

}  // namespace

TEST_CASE("residual integer arithmetic equals the concrete semantics", "[frontend][ptx]") {
  const KernelProgram symbolic = instantiate(kKernel, "1", "1", {"param_0=int64[1]", "param_1=int32[96]", "param_2=1"});
  REQUIRE(symbolic.incomplete.empty());
  REQUIRE(symbolic.symbolic.empty());
  CHECK(ofKind(symbolic.program.threads[0], Opcode::Local).size() > 40);  // the arithmetic is residual
  const std::uint32_t values[] = {0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 5, 0xfffffff9, 31, 32, 33, 0x12345678, 300, 0xfffffed4};
  for (std::uint32_t a : values)
    for (std::uint32_t b : values) {
      const std::uint64_t x = (std::uint64_t{b} << 32) | a;
      const KernelProgram concrete =
          instantiate(kKernel, "1", "1", {"param_0=int64[1]=" + std::to_string(static_cast<std::int64_t>(x)), "param_1=int32[96]", "k_param_2=0"});
      CHECK(ofKind(concrete.program.threads[0], Opcode::Local).empty());  // everything was computed
      const auto expected = run(concrete, a, b), actual = run(symbolic, a, b);
      INFO("a=" << a << " b=" << b);
      REQUIRE(expected.size() == 45);
      for (const auto& [name, v] : expected) {
        INFO(name);
        CHECK(actual.at(name) == v);
      }
    }
}
