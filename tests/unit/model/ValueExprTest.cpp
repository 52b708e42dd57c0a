// Unit tests of value terms: folding, substitution, evaluation with undetermined reads.
#include <catch2/catch.hpp>

#include "model/ValueExpr.hpp"

using namespace ptxmm::model;

TEST_CASE("constant arguments fold, including the edge cases PTX leaves undefined", "[model][value]") {
  REQUIRE(value::apply(ValueOp::Add, {value::constant(2), value::constant(3)})->constant == 5);
  REQUIRE(value::apply(ValueOp::Div, {value::constant(7), value::constant(0)})->constant == 0);
  REQUIRE(value::apply(ValueOp::Sub, {value::constant(INT64_MIN), value::constant(1)})->constant == INT64_MAX);
  REQUIRE(value::apply(ValueOp::Ite, {value::constant(0), value::reg(1), value::constant(9)})->constant == 9);
}

TEST_CASE("substitution replaces registers and evaluation follows reads", "[model][value]") {
  const ValuePtr term = value::apply(ValueOp::Add, {value::reg(0), value::constant(1)});
  const ValuePtr sub = value::substitute(term, {value::read(7)});
  std::vector<int> reads;
  value::collectReads(*sub, reads);
  REQUIRE(reads == std::vector<int>{7});
  REQUIRE(value::evaluate(*sub, [](int e) { return e == 7 ? std::optional<std::int64_t>(41) : std::nullopt; }) == 42);
  REQUIRE_FALSE(value::evaluate(*sub, [](int) { return std::optional<std::int64_t>(); }).has_value());
}
