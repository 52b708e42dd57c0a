// Unit tests of the unroller: memory layout (aliases vs synonyms), the scope tree, qualifier defaults as
// tags, loop unrolling with liveness, and refused control flow.
#include <catch2/catch.hpp>

#include "frontend/litmus/LitmusParser.hpp"
#include "frontend/lower/Unroller.hpp"

using namespace ptxmm;
using model::Tag;

namespace {

model::EventGraph unrollText(const std::string& code, int bound = 2) {
  return frontend::unroll(frontend::parseLitmus(code, "u.litmus"), {bound});
}

const model::Event& eventWithLabel(const model::EventGraph& g, const std::string& label) {
  for (const auto& e : g.events)
    if (e.label == label) return e;
  FAIL("no event labelled " << label);
  return g.events.front();
}

}  // namespace

TEST_CASE("generic aliases get a new virtual address, proxy synonyms share it", "[frontend][unroller]") {
  const auto g = unrollText(
      "PTX L\n{ x=3; y @ generic aliases x; s @ surface aliases x; z=0; }\n P0@cta 0,gpu 0 ;\n"
      " ld.weak r0, y ;\n suld.weak r1, s ;\n ld.weak r2, x ;\nexists (x == 3)\n");
  REQUIRE(g.physicalNames == std::vector<std::string>{"x", "z"});
  REQUIRE(g.initValues == std::vector<std::int64_t>{3, 0});
  const auto& viaY = eventWithLabel(g, "ld.weak r0, y");
  const auto& viaS = eventWithLabel(g, "suld.weak r1, s");
  const auto& viaX = eventWithLabel(g, "ld.weak r2, x");
  REQUIRE(viaY.paddr == viaX.paddr);
  REQUIRE(viaY.vaddr != viaX.vaddr);
  REQUIRE(viaS.vaddr == viaX.vaddr);
  REQUIRE(viaS.is(Tag::SUR));
  REQUIRE(g.events[0].is(Tag::I));
}

TEST_CASE("the scope tree: CTAs per gpu, clusters named or one per CTA", "[frontend][unroller]") {
  const auto g = unrollText(
      "PTX S\n{ x=0; }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 | P2@cta 0,gpu 1 | P3@cta 2,gpu 0 ;\n"
      " ld.weak r0, x | ld.weak r0, x | ld.weak r0, x | ld.weak r0, x ;\nexists (x == 0)\n");
  REQUIRE(g.threads[0].cluster == g.threads[1].cluster);
  REQUIRE(g.threads[0].cta != g.threads[1].cta);
  REQUIRE(g.threads[2].cta != g.threads[0].cta);
  REQUIRE(g.threads[2].gpu != g.threads[0].gpu);
  REQUIRE(g.threads[3].cluster != g.threads[0].cluster);
}

TEST_CASE("qualifier defaults become tags", "[frontend][unroller]") {
  const auto g = unrollText(
      "PTX T\n{ x=0; }\n P0@cta 0,gpu 0 ;\n atom.add r0, x, 1 ;\n ld.volatile r1, x ;\n fence.cta ;\n"
      " st x, 2 ;\n red.release.sys.add x, 1 ;\nexists (x == 0)\n");
  const auto& atomRead = eventWithLabel(g, "atom.add r0, x, 1");
  REQUIRE(atomRead.is(Tag::RLX));
  REQUIRE(atomRead.is(Tag::GPU));
  const auto& vol = eventWithLabel(g, "ld.volatile r1, x");
  REQUIRE((vol.is(Tag::RLX) && vol.is(Tag::SYS) && vol.is(Tag::VOL)));
  REQUIRE(eventWithLabel(g, "fence.cta").is(Tag::ACQ_REL));
  REQUIRE(eventWithLabel(g, "st x, 2").is(Tag::WEAK));
  REQUIRE(eventWithLabel(g, "red.release.sys.add x, 1").is(Tag::RED));
}

TEST_CASE("loops unroll up to the bound, with liveness at the head", "[frontend][unroller]") {
  const std::string spin =
      "PTX W\n{ f=0; }\n P0@cta 0,gpu 0 ;\n mov r5, 7 ;\n LC00: ;\n ld.weak r0, f ;\n add r3, r5, 1 ;\n"
      " beq r0, 0, LC00 ;\nexists (P0:r3 == 8)\n";
  for (int bound : {1, 2, 4}) {
    const auto g = unrollText(spin, bound);
    std::size_t loads = 0;
    for (const auto& e : g.events) loads += e.is(Tag::R);
    REQUIRE(loads == static_cast<std::size_t>(bound));
  }
  const auto g = unrollText(spin);
  REQUIRE(g.threads[0].loops.size() == 1);
  // r5 is read in the loop: live at the head. r3 is observed at the end but every path from the head
  // redefines it before leaving, and r0 is written before it is read: both dead.
  const auto& live = g.threads[0].loops[0].liveAtHeader;
  const auto& regs = g.threads[0].registers;
  auto id = [&](const std::string& n) { return static_cast<int>(std::find(regs.begin(), regs.end(), n) - regs.begin()); };
  REQUIRE(std::find(live.begin(), live.end(), id("r5")) != live.end());
  REQUIRE(std::find(live.begin(), live.end(), id("r3")) == live.end());
  REQUIRE(std::find(live.begin(), live.end(), id("r0")) == live.end());
}

TEST_CASE("unstructured control flow is refused with a position", "[frontend][unroller]") {
  const std::string into =
      "PTX J\n{ x=0; }\n P0@cta 0,gpu 0 ;\n beq r0, 0, LC01 ;\n LC00: ;\n ld.weak r1, x ;\n LC01: ;\n"
      " ld.weak r2, x ;\n bne r2, 0, LC00 ;\nexists (x == 0)\n";
  REQUIRE_THROWS_WITH(unrollText(into), Catch::Contains("u.litmus:4:") && Catch::Contains("middle of a loop"));
}
