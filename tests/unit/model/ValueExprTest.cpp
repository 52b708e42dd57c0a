// Unit tests of value terms: folding, substitution, evaluation with undetermined reads.
#include <catch2/catch.hpp>

#include "model/ValueExpr.hpp"

using namespace ptxmm::model;

TEST_CASE("constant arguments fold, except a division by zero, whose result PTX leaves unspecified", "[model][value]") {
  REQUIRE(value::apply(ValueOp::Add, {value::constant(2), value::constant(3)})->constant == 5);
  REQUIRE(value::apply(ValueOp::Sub, {value::constant(INT64_MIN), value::constant(1)})->constant == INT64_MAX);
  REQUIRE(value::apply(ValueOp::Shl, {value::constant(1), value::constant(64)})->constant == 0);
  REQUIRE(value::apply(ValueOp::Ite, {value::constant(0), value::reg(1), value::constant(9)})->constant == 9);
  const ValuePtr byZero = value::apply(ValueOp::Div, {value::constant(7), value::constant(0)});
  REQUIRE(byZero->op == ValueOp::Div);
  bool unspecified = false;
  REQUIRE(value::evaluate(byZero, [](int) { return std::nullopt; }, &unspecified) == 0);
  REQUIRE(unspecified);
}

TEST_CASE("an opaque value over constants stays opaque: a folded 0 would pass for a known value", "[model][value]") {
  const ValuePtr opaque = value::apply(ValueOp::Opaque, {value::constant(0)});
  REQUIRE(opaque->op == ValueOp::Opaque);
  const ValuePtr sum = value::apply(ValueOp::Add, {opaque, value::constant(1)});
  REQUIRE(sum->op == ValueOp::Add);  // nothing above it folds either
  REQUIRE(value::containsOpaque(sum));
  REQUIRE_FALSE(value::containsOpaque(value::apply(ValueOp::Add, {value::read(3), value::constant(1)})));
}

TEST_CASE("substitution replaces registers and evaluation follows reads", "[model][value]") {
  const ValuePtr term = value::apply(ValueOp::Add, {value::reg(0), value::constant(1)});
  const ValuePtr sub = value::substitute(term, {value::read(7)});
  std::vector<int> reads;
  value::collectReads(sub, reads);
  REQUIRE(reads == std::vector<int>{7});
  REQUIRE(value::evaluate(sub, [](int e) { return e == 7 ? std::optional<std::int64_t>(41) : std::nullopt; }) == 42);
  REQUIRE_FALSE(value::evaluate(sub, [](int) { return std::optional<std::int64_t>(); }).has_value());
}

TEST_CASE("an if-then-else needs only the value of the branch it takes", "[model][value]") {
  const ValuePtr byZero = value::apply(ValueOp::Div, {value::read(1), value::constant(0)});
  const ValuePtr ite = value::apply(ValueOp::Ite, {value::read(0), byZero, value::constant(3)});
  auto reads = [](std::int64_t cond) {
    return [cond](int e) { return std::optional<std::int64_t>(e == 0 ? cond : 5); };
  };
  bool unspecified = true;
  REQUIRE(value::evaluate(ite, reads(0), &unspecified) == 3);
  REQUIRE_FALSE(unspecified);
  REQUIRE(value::evaluate(ite, reads(1), &unspecified) == 0);
  REQUIRE(unspecified);
}

TEST_CASE("deep and shared terms are walked without recursion, once per shared node", "[model][value]") {
  // r := r + r, 200 times: a DAG of 200 nodes whose tree has 2^200 leaves.
  ValuePtr doubling = value::read(0);
  for (int i = 0; i < 200; ++i) doubling = value::apply(ValueOp::Add, {doubling, doubling});
  REQUIRE(value::evaluate(doubling, [](int) { return std::optional<std::int64_t>(1); }) == 0);  // 2^200 wraps to 0
  // r := r + 1 over a register, 300,000 times: deeper than any stack allows recursion for.
  ValuePtr chain = value::reg(0);
  for (int i = 0; i < 300000; ++i) chain = value::apply(ValueOp::Add, {chain, value::constant(1)});
  const ValuePtr substituted = value::substitute(chain, {value::read(4)});
  std::vector<int> reads;
  value::collectReads(substituted, reads);
  REQUIRE(reads == std::vector<int>{4});
  REQUIRE(value::evaluate(substituted, [](int) { return std::optional<std::int64_t>(1); }) == 300001);
  chain.reset();  // destroying both chains must not recurse either
}
