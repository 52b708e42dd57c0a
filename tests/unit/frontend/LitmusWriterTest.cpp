// Tests of the litmus writer: write -> parse round trips on the project's cases, Dat3M's PTX corpus (when
// ../shared/peers is present) and edited programs, checked both textually (the re-parsed program prints the
// same) and structurally (every field the engines read is the same, compared by a dump independent of the
// writer); canonical spellings; and programs edited in memory the way the minimiser edits them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include "frontend/LitmusWriter.hpp"
#include "frontend/litmus/LitmusParser.hpp"
#include "unit/frontend/RoundTrip.hpp"

namespace {

using namespace ptxmm::frontend;
using ptxmm::testing::requireRoundTrip;

std::vector<std::string> litmusFiles(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
    if (entry.path().extension() == ".litmus") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

Program parse(const std::string& text) { return parseLitmus(text, "t.litmus"); }

}  // namespace

TEST_CASE("every case of the project's litmus library survives write -> parse", "[frontend][writer]") {
  const auto files = litmusFiles(PTXMM_SOURCE_DIR "/cases/litmus/ptx");
  REQUIRE(files.size() > 100);
  for (const auto& file : files) {
    INFO(file);
    requireRoundTrip(parseLitmusFile(file));
  }
}

TEST_CASE("Dat3M's PTX corpus survives write -> parse", "[frontend][writer]") {
  const std::string corpus = PTXMM_PEERS_DIR "/dat3m/litmus/PTX";
  if (!std::filesystem::exists(corpus)) {
    WARN("skipped: " << corpus << " is absent");
    return;
  }
  for (const auto& file : litmusFiles(corpus)) {
    INFO(file);
    requireRoundTrip(parseLitmusFile(file));
  }
}

TEST_CASE("spellings with the same meaning come back in one canonical form", "[frontend][writer]") {
  const Program p = parse(
      "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n membar.gl ;\n fence.gpu ;\n ld.global.u32 r0, [x] ;\n"
      " barrier.cta.sync.aligned 1 ;\n bra.uni L ;\n L: ;\nexists (P0:r0 == 0)\n");
  const std::string written = writeLitmus(p);
  CHECK_THAT(written, Catch::Matchers::Contains("fence.sc.gpu"));
  CHECK_THAT(written, Catch::Matchers::Contains("fence.acq_rel.gpu"));
  CHECK_THAT(written, Catch::Matchers::Contains("ld.global r0, x"));
  CHECK_THAT(written, Catch::Matchers::Contains("barrier.cta.sync.aligned 1"));
  CHECK_THAT(written, Catch::Matchers::Contains("goto L"));
  requireRoundTrip(p);
}

TEST_CASE("conditions keep their grouping, negations and comparisons", "[frontend][writer]") {
  const Program p = parse(
      "PTX t\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,cluster 2,gpu 1 ;\n ld.weak r0, x | st.weak y, -3 ;\n"
      "locations [y; P0:r0]\n"
      "forall (P0:r0 == 1 /\\ (x != 2 \\/ ~(y < -3)) /\\ (1 <= P0:r0 /\\ y >= 0) \\/ ~~true)\n");
  const std::string written = writeLitmus(p);
  INFO(written);
  CHECK_THAT(written, Catch::Matchers::Contains("locations [y;P0:r0;]"));
  CHECK_THAT(written, Catch::Matchers::Contains("P1@cta 1,cluster 2,gpu 1"));
  requireRoundTrip(p);
}

TEST_CASE("programs edited in memory still write valid tests", "[frontend][writer]") {
  // An undeclared location whose only use was removed, but which the condition still names, must be declared.
  Program p = parse("PTX t\n{ }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n ld.weak r0, y ;\nexists (x == 1 /\\ y == 0)\n");
  p.threads[0].code.erase(p.threads[0].code.begin());
  const Program reparsed = parse(writeLitmus(p));
  REQUIRE(reparsed.threads[0].code.size() == 1);
  CHECK(reparsed.locations.size() == 2);
  CHECK(writeLitmus(parse(writeLitmus(reparsed))) == writeLitmus(reparsed));
}
