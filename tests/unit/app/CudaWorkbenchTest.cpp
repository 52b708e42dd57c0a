// The CUDA workbench: the generated programs of MP, SB, LB and two Hopper-era tests (st.async into DSMEM, a TMA
// store on the host-encoded tensor map) build with nvcc for sm_90 and disassemble with cuobjdump into a listing
// with every role function (skipped with a message where the tools are absent).
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include <unistd.h>

#include "app/hardware/CudaWorkbench.hpp"
#include "frontend/litmus/LitmusParser.hpp"
#include "validate/CudaGenerator.hpp"
#include "validate/SassChecker.hpp"

using namespace ptxmm;
namespace fs = std::filesystem;

TEST_CASE("the programs of MP, SB and LB compile for sm_90", "[app][hardware][heavy]") {
  app::CudaWorkbench bench;
  if (const auto problem = bench.unavailable()) {
    WARN("skipped: " << *problem);
    return;
  }
  // A folder of this process's own: test binaries of several builds may run at once on one machine.
  const fs::path dir = fs::temp_directory_path() / ("ptxmm-generator-test-" + std::to_string(::getpid()));
  for (const auto& [test, keys] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"MP+rel+acq", {"P1:r0", "P1:r1"}}, {"SB+weak", {"P0:r0", "P1:r1"}}, {"LB+acq+rel", {"P0:r0", "P1:r1"}},
           {"HOP+st.async+wait-acq.cluster", {"P1:r0"}}, {"HOP+tma-store+fence.proxy.async", {"g"}}}) {
    const validate::HardwareTest hw =
        validate::analyze(frontend::parseLitmusFile(std::string(PTXMM_SOURCE_DIR) + "/cases/litmus/ptx/" + test + ".litmus"), keys);
    validate::GeneratorInput in;
    in.test = &hw;
    in.allowed = {{0, 0}, {0, 1}, {1, 1}};
    in.modelKnown = true;
    INFO(test);
    validate::BuiltProgram built;
    REQUIRE_NOTHROW(built = bench.build((dir / test).string(), validate::generateCuda(in)));
    REQUIRE(fs::exists(built.binary));
    const auto functions = validate::parseSass(built.listing);
    for (std::size_t r = 0; r < hw.roles.size(); ++r)
      REQUIRE(validate::findFunction(functions, validate::roleFunctionName(static_cast<int>(r))));
  }
  fs::remove_all(dir);
}
