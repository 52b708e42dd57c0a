// The fuzz corpus of each reader, replayed: the test seeds tests/fuzz/run.sh starts from (the project's litmus
// cases, tests/fuzz/seeds/nvlitmus) must be read and unrolled without any error; the cat seeds (the bundled models
// and the fragment they include) and every input a fuzzer ever found a bug with (tests/fuzz/regressions/<reader>)
// must be accepted or rejected with a model::UserError, like any input. A missing or empty corpus fails:
// replaying nothing would prove nothing.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontend/litmus/LitmusParser.hpp"
#include "frontend/lower/Unroller.hpp"
#include "frontend/nvlitmus/NvLitmusParser.hpp"
#include "model/CatParser.hpp"

namespace {

namespace fs = std::filesystem;

struct Input {
  std::string path;
  std::string text;
};

/// The files of a corpus folder (relative to the project), without hidden ones such as .keep; the folder must
/// exist.
std::vector<Input> inputs(const std::string& folder) {
  const fs::path root = fs::path(PTXMM_SOURCE_DIR) / folder;
  INFO("corpus folder " << root.string());
  REQUIRE(fs::is_directory(root));
  std::vector<Input> out;
  for (const auto& entry : fs::directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().filename().string().front() == '.') continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    out.push_back({entry.path().string(), text.str()});
  }
  std::sort(out.begin(), out.end(), [](const Input& a, const Input& b) { return a.path < b.path; });
  return out;
}

/// Reads `input`: a model::UserError is an answer, any other exception or a crash fails the test.
template <class Read>
void refusedAtMost(Read read, const Input& input) {
  try {
    read(input);
  } catch (const ptxmm::model::UserError&) {
  }
}

/// Runs `read` on every seed (which must succeed when `seedsValid`) and every regression input (which may be
/// refused).
template <class Read>
void replay(const std::string& seeds, const std::string& reader, bool seedsValid, Read read) {
  const auto seedInputs = inputs(seeds);
  const auto regressions = inputs("tests/fuzz/regressions/" + reader);
  REQUIRE_FALSE(seedInputs.empty());
  for (const auto& input : seedInputs) {
    INFO("seed " << input.path);
    if (seedsValid) REQUIRE_NOTHROW(read(input));
    else refusedAtMost(read, input);
  }
  for (const auto& input : regressions) {
    INFO("regression " << input.path);
    refusedAtMost(read, input);
  }
}

}  // namespace

TEST_CASE("the litmus reader's fuzz corpus is read without a crash", "[frontend][fuzz]") {
  replay("cases/litmus/ptx", "litmus", true, [](const Input& input) {
    ptxmm::frontend::unroll(ptxmm::frontend::parseLitmus(input.text, input.path), {2});
  });
}

TEST_CASE("the cat reader's fuzz corpus is read without a crash", "[model][fuzz]") {
  // ptx-core.cat is a fragment: alone it names definitions its includers provide.
  replay("model/cat", "cat", false, [](const Input& input) { ptxmm::model::parseCat(input.text, input.path); });
}

TEST_CASE("the nvlitmus reader's fuzz corpus is read without a crash", "[frontend][fuzz]") {
  replay("tests/fuzz/seeds/nvlitmus", "nvlitmus", true, [](const Input& input) {
    for (const auto& test : ptxmm::frontend::parseNvLitmus(input.text, input.path)) ptxmm::frontend::unroll(test.program, {2});
  });
}
