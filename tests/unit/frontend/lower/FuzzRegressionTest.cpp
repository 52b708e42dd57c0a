// Replays every input the fuzzers ever found a bug with (tests/fuzz/regressions): each must now be accepted
// or rejected with a model::UserError, like any input.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontend/litmus/LitmusParser.hpp"
#include "frontend/lower/Unroller.hpp"
#include "frontend/nvlitmus/NvLitmusParser.hpp"
#include "model/CatParser.hpp"

namespace {

std::vector<std::string> inputs(const std::string& dir) {
  std::vector<std::string> out;
  const std::filesystem::path root = std::string(PTXMM_SOURCE_DIR) + "/tests/fuzz/regressions/" + dir;
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    out.push_back(text.str());
  }
  return out;
}

}  // namespace

TEST_CASE("fuzzer regressions of the litmus reader stay fixed", "[frontend][fuzz]") {
  for (const auto& text : inputs("litmus")) {
    try {
      ptxmm::frontend::unroll(ptxmm::frontend::parseLitmus(text, "regression.litmus"), {2});
    } catch (const ptxmm::model::UserError&) {
    }
  }
}

TEST_CASE("fuzzer regressions of the cat reader stay fixed", "[model][fuzz]") {
  for (const auto& text : inputs("cat")) {
    try {
      ptxmm::model::parseCat(text, "regression.cat");
    } catch (const ptxmm::model::UserError&) {
    }
  }
}

TEST_CASE("fuzzer regressions of the nvlitmus reader stay fixed", "[frontend][fuzz]") {
  for (const auto& text : inputs("nvlitmus")) {
    try {
      for (const auto& test : ptxmm::frontend::parseNvLitmus(text, "regression.test")) ptxmm::frontend::unroll(test.program, {2});
    } catch (const ptxmm::model::UserError&) {
    }
  }
}
