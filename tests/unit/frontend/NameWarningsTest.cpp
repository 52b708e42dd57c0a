// Tests of the warnings for names read without a value (NameWarnings): a misspelt location or register is named
// with its position and the closest name the test gives a value; names that do have a value, whatever the path,
// give no warning.
#include <catch2/catch.hpp>

#include "frontend/NameWarnings.hpp"
#include "frontend/litmus/LitmusParser.hpp"

namespace {

using namespace ptxmm::frontend;

std::vector<std::string> warningsOf(const std::string& init, const std::string& rows, const std::string& cond) {
  return nameWarnings(
      parseLitmus("PTX t\n{ " + init + " }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n" + rows + "\n" + cond + "\n", "t.litmus"));
}

}  // namespace

TEST_CASE("edit distance counts a swap of neighbours as one edit", "[frontend][warnings]") {
  CHECK(editDistance("flag", "flag") == 0);
  CHECK(editDistance("flga", "flag") == 1);
  CHECK(editDistance("r1", "r12") == 1);
  CHECK(editDistance("", "abc") == 3);
  CHECK(editDistance("data", "flag") == 4);
}

TEST_CASE("a location only loaded and never declared is named with the closest valued one", "[frontend][warnings]") {
  const auto w = warningsOf("x = 0; flag = 0;",
                            " st.relaxed.gpu x, 1    | ld.acquire.gpu r0, flga ;\n"
                            " st.release.gpu flag, 1 | ld.relaxed.gpu r1, x    ;",
                            "exists (P1:r0 == 1 /\\ P1:r1 == 1)");
  REQUIRE(w.size() == 1);
  CHECK(w[0] == "t.litmus:4:46: warning: P1 reads location 'flga', which is neither declared nor written by any "
                "thread, so it reads 0 (did you mean 'flag'?)");
}

TEST_CASE("an undeclared location that some thread writes is no typo", "[frontend][warnings]") {
  CHECK(warningsOf("x = 0;", " st.relaxed.gpu z, 1 | ld.relaxed.gpu r0, z ;", "exists (P1:r0 == 1)").empty());
  CHECK(warningsOf("x = 0;", " atom.relaxed.gpu.add r1, z, 1 | ld.relaxed.gpu r0, z ;", "exists (P1:r0 == 1)").empty());
}

TEST_CASE("a far name is still named, without guessing it was meant", "[frontend][warnings]") {
  const auto w = warningsOf("x = 0;", " ld.relaxed.gpu r0, counter | ld.relaxed.gpu r1, x ;", "exists (P0:r0 == 1)");
  REQUIRE(w.size() == 1);
  CHECK_THAT(w[0], Catch::EndsWith("so it reads 0; the closest location the test gives a value is 'x'"));
}

TEST_CASE("a register read before any write is named with the thread's written registers", "[frontend][warnings]") {
  const auto w = warningsOf("x = 0;",
                            " ld.relaxed.gpu r1, x | st.relaxed.gpu x, 1 ;\n"
                            " st.relaxed.gpu x, r2 | st.relaxed.gpu x, 2 ;",
                            "exists (P0:r1 == 1)");
  REQUIRE(w.size() == 1);
  CHECK(w[0] == "t.litmus:5:20: warning: P0 reads register 'r2' before any instruction writes it and without an "
                "initial value, so it reads 0 (did you mean 'r1'?)");
}

TEST_CASE("registers written on some path, or initialised, give no warning", "[frontend][warnings]") {
  // r0 is written before the loop's back edge reaches the read again; r5 has an initial value.
  CHECK(warningsOf("x = 0; P0:r5 = 1;",
                   " LC00:                  | st.relaxed.gpu x, 1 ;\n"
                   " ld.relaxed.gpu r0, x   |                     ;\n"
                   " beq r0, 0, LC00        |                     ;\n"
                   " st.relaxed.gpu x, r5   |                     ;",
                   "exists (P0:r0 == 1)")
            .empty());
  // Written on one branch only: some path writes it, so no warning (the read is not certain to see 0).
  CHECK(warningsOf("x = 0;",
                   " ld.relaxed.gpu r0, x   | st.relaxed.gpu x, 1 ;\n"
                   " beq r0, 0, LC01        |                     ;\n"
                   " ld r1, 5               |                     ;\n"
                   " LC01:                  |                     ;\n"
                   " st.relaxed.gpu x, r1   |                     ;",
                   "exists (P0:r0 == 1)")
            .empty());
}

TEST_CASE("a write that no path reaches does not count", "[frontend][warnings]") {
  // goto jumps over the write: no path writes r1 before the store reads it.
  const auto w = warningsOf("x = 0;",
                            " goto LC00             | st.relaxed.gpu x, 1 ;\n"
                            " ld r1, 5              |                     ;\n"
                            " LC00:                 |                     ;\n"
                            " st.relaxed.gpu x, r1  |                     ;",
                            "exists (x == 1)");
  REQUIRE(w.size() == 1);
  CHECK_THAT(w[0], Catch::StartsWith("t.litmus:7:20: warning: P0 reads register 'r1'"));
}
