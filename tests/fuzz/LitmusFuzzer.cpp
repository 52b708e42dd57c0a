// libFuzzer target for the litmus reader and the unroller: any input must parse (and unroll) or be rejected
// with a model::UserError; a crash, a hang, a sanitizer report or any other exception is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "frontend/litmus/LitmusParser.hpp"
#include "frontend/lower/Unroller.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto program = ptxmm::frontend::parseLitmus(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.litmus");
    ptxmm::frontend::unroll(program, {2});
  } catch (const ptxmm::model::UserError&) {
  }
  return 0;
}
