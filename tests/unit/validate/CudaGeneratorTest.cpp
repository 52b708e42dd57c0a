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
  REQUIRE(cu.find("const unsigned long long a1 = ptxmm_address(c.buffer, c.slots, 0, c.stride);") != std::string::npos);
  REQUIRE(cu.find("#define PTXMM_ALLOWED_VALUES {0, 0, 0, 1, 1, 1}") != std::string::npos);
  REQUIRE(cu.find("#pragma once") == std::string::npos);
}

TEST_CASE("spin loops count iterations against the cap", "[validate][generator]") {
  HardwareTest hw;
  const std::string cu = generate("MP+spin+acq", {"P1:r1"}, hw);
  // A loop that reaches the cap falls through (so that code after it, barriers included, still runs) and marks
  // the instance capped.
  REQUIRE(cu.find("if (reg0 == (0LL)) { if (++ptxmm_iterations < ptxmm_cap) goto L0; ptxmm_capped = 1; }") != std::string::npos);
}

TEST_CASE("Hopper-era instructions keep their written mnemonic; addresses come from their CTA", "[validate][generator]") {
  HardwareTest hw;
  const std::string mbar = generate("HOP+mbar-cluster-arrive-rel+wait-acq", {"P1:r0"}, hw);
  REQUIRE(mbar.find(R"(mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];)") != std::string::npos);
  REQUIRE(mbar.find(R"({ .reg .pred P; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 P, [%1], 0; selp.s32 %0, 1, 0, P; })") !=
          std::string::npos);
  REQUIRE(mbar.find("const unsigned a0 = ptxmm_cluster_address(c, 0, 1);") != std::string::npos);  // s in CTA 1, from CTA 0
  REQUIRE(mbar.find("#define PTXMM_CLUSTER_SYNC 1") != std::string::npos);
  // A tensor copy without a dimension runs as the 1-D copy of the harness's tensor map.
  const std::string tma = generate("HOP+tma-load+mbar", {"P1:r0"}, hw);
  REQUIRE(tma.find("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];") !=
          std::string::npos);
  REQUIRE(tma.find("#define PTXMM_TENSOR_MAP 1") != std::string::npos);
  // P0 issues the copy and waits for nothing: after its last instruction the harness drains the copy's mbarrier.
  REQUIRE(tma.find("ptxmm_drain_mbarrier(c, ptxmm_shared_address(c, ") != std::string::npos);
}
