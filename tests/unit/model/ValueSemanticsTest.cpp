// The value operators' meaning is written once (ValueSemantics.hpp) for every domain: on integers it gives the
// documented edge cases, and in a domain of expression texts — standing for the Z3 engine's terms — it builds
// exactly the guards the integers follow, so no engine can decide an edge case on its own.
#include <catch2/catch.hpp>

#include <string>

#include "model/ValueExpr.hpp"
#include "model/ValueSemantics.hpp"

using namespace ptxmm::model;

namespace {

// Values and conditions as the text of the expression that would compute them.
struct Text {
  using Value = std::string;
  static std::string call(const std::string& f, const std::string& a, const std::string& b) { return f + "(" + a + ", " + b + ")"; }
  Value constant(std::int64_t c) const { return std::to_string(c); }
  Value add(const Value& a, const Value& b) const { return call("add", a, b); }
  Value sub(const Value& a, const Value& b) const { return call("sub", a, b); }
  Value mul(const Value& a, const Value& b) const { return call("mul", a, b); }
  Value sdiv(const Value& a, const Value& b) const { return call("sdiv", a, b); }
  Value srem(const Value& a, const Value& b) const { return call("srem", a, b); }
  Value bitAnd(const Value& a, const Value& b) const { return call("and", a, b); }
  Value bitOr(const Value& a, const Value& b) const { return call("or", a, b); }
  Value bitXor(const Value& a, const Value& b) const { return call("xor", a, b); }
  Value shl(const Value& a, const Value& b) const { return call("shl", a, b); }
  Value ashr(const Value& a, const Value& b) const { return call("ashr", a, b); }
  Value neg(const Value& a) const { return "neg(" + a + ")"; }
  Value bitNot(const Value& a) const { return "not(" + a + ")"; }
  Value eq(const Value& a, const Value& b) const { return call("eq", a, b); }
  Value ne(const Value& a, const Value& b) const { return call("ne", a, b); }
  Value lt(const Value& a, const Value& b) const { return call("lt", a, b); }
  Value le(const Value& a, const Value& b) const { return call("le", a, b); }
  Value gt(const Value& a, const Value& b) const { return call("gt", a, b); }
  Value ge(const Value& a, const Value& b) const { return call("ge", a, b); }
  Value land(const Value& a, const Value& b) const { return call("land", a, b); }
  Value lor(const Value& a, const Value& b) const { return call("lor", a, b); }
  Value lnot(const Value& a) const { return "lnot(" + a + ")"; }
  template <class Then, class Else>
  Value ite(const Value& c, Then then, Else otherwise) const {
    return "ite(" + c + ", " + then() + ", " + otherwise() + ")";
  }
  Value unreachable() const { return "unreachable"; }
};

std::string text(ValueOp op, std::vector<std::string> args) { return applyOperator(Text{}, op, args); }

}  // namespace

TEST_CASE("integers: division by zero and INT64_MIN / -1 give 0, shifts clamp, wrapping arithmetic", "[model][value]") {
  CHECK(value::applyConcrete(ValueOp::Div, {7, 0}) == 0);
  CHECK(value::applyConcrete(ValueOp::Rem, {7, 0}) == 0);
  CHECK(value::applyConcrete(ValueOp::Div, {INT64_MIN, -1}) == 0);
  CHECK(value::applyConcrete(ValueOp::Rem, {INT64_MIN, -1}) == 0);
  CHECK(value::applyConcrete(ValueOp::Div, {-7, 2}) == -3);
  CHECK(value::applyConcrete(ValueOp::Rem, {-7, 2}) == -1);
  CHECK(value::applyConcrete(ValueOp::Shl, {1, 64}) == INT64_MIN);  // clamped to 63
  CHECK(value::applyConcrete(ValueOp::Shl, {1, -1}) == 1);         // clamped to 0
  CHECK(value::applyConcrete(ValueOp::Shr, {-8, 100}) == -1);      // arithmetic shift by 63
  CHECK(value::applyConcrete(ValueOp::Neg, {INT64_MIN}) == INT64_MIN);
  CHECK(value::applyConcrete(ValueOp::Mul, {INT64_MAX, 2}) == -2);
  CHECK(value::applyConcrete(ValueOp::LAnd, {2, -1}) == 1);
  CHECK(value::applyConcrete(ValueOp::LNot, {5}) == 0);
  CHECK(value::applyConcrete(ValueOp::Ite, {3, 10, 20}) == 10);
  CHECK(value::applyConcrete(ValueOp::Min, {-1, 1}) == -1);
}

TEST_CASE("any domain gets the same guards: the edge cases are decided in one place", "[model][value]") {
  CHECK(text(ValueOp::Div, {"a", "b"}) ==
        "ite(lor(eq(b, 0), land(eq(a, " + std::to_string(INT64_MIN) + "), eq(b, -1))), 0, sdiv(a, b))");
  CHECK(text(ValueOp::Shl, {"a", "b"}) == "shl(a, ite(lt(b, 0), 0, ite(gt(b, 63), 63, b)))");
  CHECK(text(ValueOp::Le, {"a", "b"}) == "ite(le(a, b), 1, 0)");
  CHECK(text(ValueOp::LOr, {"a", "b"}) == "ite(lor(ne(a, 0), ne(b, 0)), 1, 0)");
  CHECK(text(ValueOp::Ite, {"c", "x", "y"}) == "ite(ne(c, 0), x, y)");
  CHECK(text(ValueOp::Max, {"a", "b"}) == "ite(gt(a, b), a, b)");
}
