// The text and JSON views of a kernel check (checker/kernel/KernelReport.hpp): the names scripts rely on, whether
// a race's fix was checked, and the kernel's source named as the user gave it in the text view.
#include <catch2/catch.hpp>

#include "checker/kernel/KernelReport.hpp"

using namespace ptxmm::checker::kernel;

namespace {

KernelResult racyResult(bool checked) {
  KernelResult r;
  r.name = r.kernel = "k";
  r.file = "cases/k.cu";
  KernelRace race;
  race.kind = "no synchronisation";
  race.first.file = race.second.file = "/abs/cases/k.cu";
  race.first.line = 29;
  race.first.ptxLine = 55;
  race.second.line = 34;
  race.second.ptxLine = 70;
  race.fix = "add bar.sync 0 (__syncthreads()) right after /abs/cases/k.cu:29 (PTX line 55)";
  race.fixChecked = checked;
  r.races.push_back(race);
  r.checkSeconds = 0.5;
  r.fixSeconds = 0.25;
  return r;
}

}  // namespace

TEST_CASE("the text view says whether a fix was checked and names the source as the user did", "[checker][kernel][report]") {
  const std::string checked = kernelText(racyResult(true));
  CHECK(checked.find("    cases/k.cu:29:0 (PTX line 55) block (1,1,1) thread (1,1,1): \n") != std::string::npos);
  CHECK(checked.find("    fix (checked): add bar.sync 0 (__syncthreads()) right after cases/k.cu:29 (PTX line 55)\n") !=
        std::string::npos);
  CHECK(checked.find("Time k 0.500 s (checking fixes 0.250 s)\n") != std::string::npos);
  CHECK(kernelText(racyResult(false)).find("    fix (not checked): ") != std::string::npos);
}

TEST_CASE("the JSON view gives each race its fix and fix_checked, and the fixes' time", "[checker][kernel][report]") {
  const auto j = kernelJson(racyResult(true));
  REQUIRE(j["races"].size() == 1);
  CHECK(j["races"][0]["fix_checked"] == true);
  CHECK(j["races"][0]["first"]["file"] == "/abs/cases/k.cu");  // JSON keeps the path nvcc recorded
  CHECK(j["fix_ms"] == 250.0);
  CHECK(j["time_ms"] == 500.0);
}

TEST_CASE("out-of-bounds accesses of one instruction are one text line; JSON keeps each", "[checker][kernel][report]") {
  KernelResult r;
  r.name = r.kernel = "k";
  r.file = "k.ptx";
  for (int t = 0; t < 3; ++t) {
    OutOfBoundsAccess o;
    o.at.file = "k.ptx";
    o.at.line = 12;
    o.at.block = {0, 0, 0};
    o.at.thread = {t, 0, 0};
    o.detail = "bytes [" + std::to_string(4 * t) + ", " + std::to_string(4 * t + 4) + ") of 'out', which has 0 bytes";
    r.outOfBounds.push_back(o);
  }
  r.outOfBounds.back().at.line = 13;
  const std::string text = kernelText(r);
  CHECK(text.find("Out of bounds: k.ptx:12:0 (PTX line 0) block (0,0,0) thread (0,0,0): bytes [0, 4) of 'out', which has 0 "
                  "bytes (and 1 more at this instruction)\n") != std::string::npos);
  CHECK(text.find("k.ptx:13:0") != std::string::npos);
  CHECK(text.find("thread (1,0,0)") == std::string::npos);
  CHECK(kernelJson(r)["out_of_bounds"].size() == 3);
}
