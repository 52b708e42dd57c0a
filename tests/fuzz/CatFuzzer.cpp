// libFuzzer target for the cat reader: any input must parse or be rejected with a model::UserError; a crash,
// a hang, a sanitizer report or any other exception is a bug. `include` is exercised by the unit tests only.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "model/CatParser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    ptxmm::model::parseCat(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.cat");
  } catch (const ptxmm::model::UserError&) {
  }
  return 0;
}
