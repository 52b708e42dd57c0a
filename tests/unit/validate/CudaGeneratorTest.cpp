// The generated program: each litmus instruction is its own asm volatile statement with its exact PTX, in a
// __noinline__ role function. (That the programs compile is tested with the tools: tests/unit/app.)
#include <catch2/catch.hpp>

#include "frontend/litmus/LitmusParser.hpp"
#include "validate/CudaGenerator.hpp"

using namespace ptxmm::validate;

namespace {

std::string generate(const std::string& test, const std::vector<std::string>& keys, HardwareTest& hw) {
  hw = analyze(ptxmm::frontend::parseLitmusFile(std::string(PTXMM_SOURCE_DIR) + "/cases/litmus/ptx/" + test + ".litmus"), keys);
  GeneratorInput in;
  in.test = &hw;
  in.allowed = {{0, 0}, {0, 1}, {1, 1}};
  in.modelKnown = true;
  return generateCuda(in);
}

}  // namespace

TEST_CASE("every litmus instruction is one asm volatile statement with its exact PTX", "[validate][generator]") {
  HardwareTest hw;
  const std::string cu = generate("MP+rel+acq", {"P1:r0", "P1:r1"}, hw);
  REQUIRE(cu.find("extern \"C\" __device__ __noinline__ ptxmm_out_0 ptxmm_role_0(unsigned long long a0, unsigned long long a1") !=
          std::string::npos);
  REQUIRE(cu.find(R"(asm volatile("st.weak.global.u64 [%0], %1;" :: "l"(a0), "l"((1LL)) : "memory");)") != std::string::npos);
  REQUIRE(cu.find(R"(asm volatile("st.release.gpu.global.u64 [%0], %1;" :: "l"(a1), "l"((1LL)) : "memory");)") != std::string::npos);
  REQUIRE(cu.find(R"(asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(val0) : "l"(a0) : "memory");)") != std::string::npos);
  REQUIRE(cu.find(R"(asm volatile("ld.weak.global.u64 %0, [%1];" : "=l"(val1) : "l"(a1) : "memory");)") != std::string::npos);
  // Every access gets its own address, loaded separately, so that ptxas cannot prove two of them equal.
  REQUIRE(cu.find("const unsigned long long a1 = ptxmm_address(buffer, slots, 0, stride);") != std::string::npos);
  REQUIRE(cu.find("#define PTXMM_ALLOWED_VALUES {0, 0, 0, 1, 1, 1}") != std::string::npos);
  REQUIRE(cu.find("#pragma once") == std::string::npos);
}

TEST_CASE("spin loops count iterations against the cap", "[validate][generator]") {
  HardwareTest hw;
  const std::string cu = generate("MP+spin+acq", {"P1:r1"}, hw);
  REQUIRE(cu.find("if (reg0 == (0LL)) { if (++ptxmm_iterations >= ptxmm_cap) { ptxmm_capped = 1; goto ptxmm_end; } goto L0; }") !=
          std::string::npos);
}
