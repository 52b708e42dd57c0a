// Unit tests of the explicit evaluator: every node kind on hand-built candidates, rec fixpoints, pairwise
// checks, and the stage cache (a changed rf must be seen, an unchanged static stage must not be recomputed).
#include <catch2/catch.hpp>

#include "model/CatParser.hpp"
#include "model/Evaluator.hpp"
#include "model/StaticBounds.hpp"

using namespace ptxmm::model;

namespace {

// Four events: 0 = W (init), 1 = W, 2 = R, 3 = F.
Candidate sample() {
  Candidate c(4);
  c.set(Tag::W).set(0);
  c.set(Tag::W).set(1);
  c.set(Tag::R).set(2);
  c.set(Tag::F).set(3);
  c.rel(BaseRel::Po).set(1, 2);
  c.rel(BaseRel::Po).set(1, 3);
  c.rel(BaseRel::Po).set(2, 3);
  c.rel(BaseRel::Rf).set(0, 2);
  c.rel(BaseRel::Co).set(0, 1);
  return c;
}

std::vector<std::pair<std::size_t, std::size_t>> pairsOf(Evaluator& ev, const CatModel& m, const std::string& name) {
  return std::get<BitMatrix>(ev.definition(static_cast<std::size_t>(m.findDef(name)))).pairs();
}

}  // namespace

TEST_CASE("definitions evaluate as relational algebra", "[model][evaluator]") {
  const CatModel m = parseCat(
      "let fr = rf^-1 ; co\n"
      "let rw = [R] ; po ; [W] | [W] ; po ; [R]\n"
      "let notF = ~F\n"
      "let wr = W * R\n"
      "let d = domain(po)\n",
      "t.cat");
  Candidate c = sample();
  Evaluator ev(m);
  ev.reset(c);
  REQUIRE(pairsOf(ev, m, "fr") == std::vector<std::pair<std::size_t, std::size_t>>{{2, 1}});
  REQUIRE(pairsOf(ev, m, "rw") == std::vector<std::pair<std::size_t, std::size_t>>{{1, 2}});
  REQUIRE(std::get<BitSet>(ev.definition(2)).elements() == std::vector<std::size_t>{0, 1, 2});
  REQUIRE(pairsOf(ev, m, "wr").size() == 2);
  REQUIRE(std::get<BitSet>(ev.definition(4)).elements() == std::vector<std::size_t>{1, 2});
}

TEST_CASE("a let rec group is the least fixpoint", "[model][evaluator]") {
  const CatModel m = parseCat("let rec t = po | (t ; t)\n", "t.cat");
  Candidate c = sample();
  Evaluator ev(m);
  ev.reset(c);
  REQUIRE(pairsOf(ev, m, "t") == c.rel(BaseRel::Po).transitiveClosure().pairs());
}

TEST_CASE("checks decide, and changing a later stage is seen", "[model][evaluator]") {
  // The read (2) reads the initial write, so it is fr-before the write 1: fine while 2 is po-before 1, a
  // Causality-style cycle once 1 is po-before 2.
  const CatModel m = parseCat("let fr = rf^-1 ; co\nirreflexive fr ; po as Causal\n", "t.cat");
  Candidate c = sample();
  c.rel(BaseRel::Po) = BitMatrix(4);
  c.rel(BaseRel::Po).set(2, 1);
  Evaluator ev(m);
  ev.reset(c);
  REQUIRE(ev.checkStage(0) == Stage::Coherence);
  REQUIRE_FALSE(ev.firstFailingCheck(Stage::Coherence).has_value());
  c.rel(BaseRel::Po) = BitMatrix(4);
  c.rel(BaseRel::Po).set(1, 2);
  ev.invalidate(Stage::Static);
  REQUIRE(ev.firstFailingCheck(Stage::Coherence) == std::optional<std::size_t>(0));
  REQUIRE(ev.failingChecks() == std::vector<std::size_t>{0});
}

TEST_CASE("a stage that did not change keeps its cached values", "[model][evaluator]") {
  const CatModel m = parseCat("let p = po\nlet f = rf\n", "t.cat");
  Candidate c = sample();
  Evaluator ev(m);
  ev.reset(c);
  REQUIRE(pairsOf(ev, m, "f").size() == 1);
  REQUIRE(pairsOf(ev, m, "p").size() == 3);
  c.rel(BaseRel::Po).set(0, 3);  // not declared changed: the cached po is kept
  c.rel(BaseRel::Rf).set(1, 2);
  ev.invalidate(Stage::ReadsFrom);
  REQUIRE(pairsOf(ev, m, "f").size() == 2);
  REQUIRE(pairsOf(ev, m, "p").size() == 3);
}

TEST_CASE("pairwise checks apply to every clique and only to cliques", "[model][evaluator]") {
  // A 3-cycle 1 -> 2 -> 3 -> 1 whose vertices are pairwise related is rejected; drop one pair of the
  // pairwise relation and no clique contains the whole cycle any more.
  const CatModel m = parseCat("acyclic po pairwise rf as P\n", "t.cat");
  Candidate c(4);
  c.rel(BaseRel::Po).set(1, 2);
  c.rel(BaseRel::Po).set(2, 3);
  c.rel(BaseRel::Po).set(3, 1);
  for (auto [a, b] : std::vector<std::pair<int, int>>{{1, 2}, {2, 3}, {1, 3}}) c.rel(BaseRel::Rf).set(a, b);
  Evaluator ev(m);
  ev.reset(c);
  REQUIRE_FALSE(ev.holds(0));
  c.rel(BaseRel::Rf).reset(1, 3);
  ev.invalidate(Stage::Static);
  REQUIRE(ev.holds(0));
}

TEST_CASE("flags report instead of rejecting", "[model][evaluator]") {
  const CatModel m = parseCat("flag ~empty rf as Reads\nempty co as NoCo\n", "t.cat");
  Candidate c = sample();
  Evaluator ev(m);
  ev.reset(c);
  REQUIRE(ev.raisedFlags() == std::vector<std::size_t>{0});
  REQUIRE(ev.failingChecks() == std::vector<std::size_t>{1});
}

TEST_CASE("a chain of 20,000 lets evaluates without recursing per let (issue 16 C3a)", "[model][evaluator]") {
  std::string text = "let r0 = po\nlet rec q = r0 | q ; r0\n";
  for (int i = 1; i <= 20000; ++i) text += "let r" + std::to_string(i) + " = r" + std::to_string(i - 1) + " | q\n";
  text += "acyclic r20000 as chain\n";
  const CatModel m = parseCat(text, "chain.cat");
  const Candidate c = sample();
  Evaluator ev(m);
  ev.reset(c);
  CHECK(pairsOf(ev, m, "r20000") == std::vector<std::pair<std::size_t, std::size_t>>{{1, 2}, {1, 3}, {2, 3}});
  CHECK(ev.failingChecks().empty());
  StaticBounds bounds(m, c);
  CHECK(std::get<BitMatrix>(bounds.definition(static_cast<std::size_t>(m.findDef("r20000")))).count() == 3);
}
