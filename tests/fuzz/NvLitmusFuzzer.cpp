// libFuzzer target for the nvlitmus reader (NVIDIA's `.test` format, template tables included) and the unroller:
// any input must give its tests (each unrolling) or a model::UserError; anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "frontend/lower/Unroller.hpp"
#include "frontend/nvlitmus/NvLitmusParser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto tests = ptxmm::frontend::parseNvLitmus(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.test");
    for (const auto& test : tests) ptxmm::frontend::unroll(test.program, {2});
  } catch (const ptxmm::model::UserError&) {
  }
  return 0;
}
