// The cases' described broken siblings: found in the test's folder by the "broken sibling of NAME" phrase of
// their descriptions, parsed, in file-name order, the test itself and prefix matches left out.
#include <catch2/catch.hpp>

#include "app/hardware/SiblingFiles.hpp"

using namespace ptxmm;

TEST_CASE("a forbidden case's broken siblings are the cases beside it that name it", "[app][hardware]") {
  app::SiblingFiles files;
  const std::string test = std::string(PTXMM_SOURCE_DIR) + "/cases/litmus/ptx/HOP+mbar-arrive-rel+wait-acq.litmus";
  const auto found = files.find(test, "HOP+mbar-arrive-rel+wait-acq");
  REQUIRE(found.size() == 1);
  REQUIRE(found[0].file.find("HOP+mbar-arrive-rlx-nofence.litmus") != std::string::npos);
  REQUIRE(found[0].program);
  REQUIRE(found[0].program->name == "HOP+mbar-arrive-rlx-nofence");
  // Several siblings come in file-name order; a name that only begins another's finds nothing.
  const auto flags = files.find(std::string(PTXMM_SOURCE_DIR) + "/cases/litmus/ptx/HOP+gpu-flag-fence.acq_rel.litmus",
                                "HOP+gpu-flag-fence.acq_rel");
  REQUIRE(flags.size() >= 3);
  REQUIRE(std::is_sorted(flags.begin(), flags.end(), [](const auto& a, const auto& b) { return a.file < b.file; }));
  REQUIRE(files.find(test, "HOP+mbar-arrive").empty());
}
