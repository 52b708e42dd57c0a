// A recursive-descent reader for --assert and --observe (KernelClaims.hpp).
#include "checker/kernel/KernelClaims.hpp"

#include <cctype>

namespace ptxmm::checker::kernel {
namespace {

using frontend::CmpOp;

class Reader {
 public:
  Reader(const std::string& text, std::string option) : text_(text), option_(std::move(option)) {}

  ClaimPtr claim() {
    ClaimPtr c = disjunction();
    skip();
    if (i_ < text_.size()) fail("unexpected '" + text_.substr(i_, 1) + "'");
    return c;
  }

  ElementRef element() {
    skip();
    ElementRef e = elementRef();
    skip();
    if (i_ < text_.size()) fail("unexpected '" + text_.substr(i_, 1) + "' after the location");
    return e;
  }

 private:
  [[noreturn]] void fail(const std::string& message) const {
    throw model::UserError({option_, 1, static_cast<int>(i_) + 1}, message);
  }
  void skip() {
    while (i_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[i_]))) ++i_;
  }
  bool accept(const std::string& token) {
    skip();
    if (text_.compare(i_, token.size(), token) != 0) return false;
    i_ += token.size();
    return true;
  }

  ClaimPtr binary(Claim::Kind kind, ClaimPtr a, ClaimPtr b) {
    auto c = std::make_shared<Claim>();
    c->kind = kind;
    c->a = std::move(a);
    c->b = std::move(b);
    return c;
  }
  ClaimPtr disjunction() {
    ClaimPtr c = conjunction();
    while (accept("||")) c = binary(Claim::Kind::Or, c, conjunction());
    return c;
  }
  ClaimPtr conjunction() {
    ClaimPtr c = unary();
    while (accept("&&")) c = binary(Claim::Kind::And, c, unary());
    return c;
  }
  ClaimPtr unary() {
    skip();
    if (text_.compare(i_, 2, "!=") != 0 && accept("!")) return binary(Claim::Kind::Not, unary(), nullptr);
    // A parenthesis opens either a claim, `(a==1 || b==2)`, or a term, `(a+b)*2==6`: a claim has a comparison or
    // a logical operator outside any inner parenthesis (looked for without backtracking, so nesting stays linear).
    if (opensClaim()) {
      accept("(");
      ClaimPtr c = disjunction();
      if (!accept(")")) fail("expected ')'");
      return c;
    }
    return comparison();
  }
  bool opensClaim() {
    skip();
    if (i_ >= text_.size() || text_[i_] != '(') return false;
    int depth = 0;
    for (std::size_t j = i_; j < text_.size(); ++j) {
      const char c = text_[j];
      if (c == '(') ++depth;
      else if (c == ')' && --depth == 0) return false;
      else if (depth == 1 && (c == '=' || c == '<' || c == '>' || c == '!' || c == '&' || c == '|')) return true;
    }
    return false;
  }
  ClaimPtr comparison() {
    auto c = std::make_shared<Claim>();
    c->lhs = term();
    static const std::pair<const char*, CmpOp> ops[] = {{"==", CmpOp::Eq}, {"!=", CmpOp::Ne}, {"<=", CmpOp::Le},
                                                        {">=", CmpOp::Ge}, {"<", CmpOp::Lt},  {">", CmpOp::Gt}};
    bool found = false;
    for (const auto& [spelling, op] : ops)
      if (accept(spelling)) {
        c->cmp = op;
        found = true;
        break;
      }
    if (!found) fail("expected a comparison (== != < <= > >=)");
    c->rhs = term();
    return c;
  }
  static Claim::Term combine(Claim::Term::Op op, Claim::Term a, Claim::Term b) {
    Claim::Term t;
    t.op = op;
    t.a = std::make_shared<const Claim::Term>(std::move(a));
    t.b = std::make_shared<const Claim::Term>(std::move(b));
    return t;
  }
  Claim::Term term() {
    Claim::Term t = product();
    for (;;) {
      if (accept("+")) t = combine(Claim::Term::Op::Add, std::move(t), product());
      else if (accept("-")) t = combine(Claim::Term::Op::Sub, std::move(t), product());
      else return t;
    }
  }
  Claim::Term product() {
    Claim::Term t = factor();
    while (accept("*")) t = combine(Claim::Term::Op::Mul, std::move(t), factor());
    return t;
  }
  Claim::Term factor() {
    skip();
    if (accept("(")) {
      Claim::Term t = term();
      if (!accept(")")) fail("expected ')'");
      return t;
    }
    Claim::Term t;
    if (i_ < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[i_])) || text_[i_] == '-')) {
      t.constant = integer();
      return t;
    }
    t.isElement = true;
    t.element = elementRef();
    return t;
  }
  std::int64_t integer() {
    skip();
    const std::size_t start = i_;
    if (i_ < text_.size() && text_[i_] == '-') ++i_;
    while (i_ < text_.size() && std::isalnum(static_cast<unsigned char>(text_[i_]))) ++i_;
    try {
      std::size_t used = 0;
      const std::string digits = text_.substr(start, i_ - start);
      const long long v = std::stoll(digits, &used, 0);
      if (used == digits.size()) return v;
    } catch (const std::exception&) {
    }
    i_ = start;
    fail("expected an integer");
  }
  ElementRef elementRef() {
    skip();
    ElementRef e;
    e.pos = {option_, 1, static_cast<int>(i_) + 1};
    const std::size_t start = i_;
    while (i_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[i_])) || text_[i_] == '_' || text_[i_] == '$' ||
                                 text_[i_] == '.'))
      ++i_;
    if (i_ == start) fail("expected a buffer element such as out[0]");
    e.buffer = text_.substr(start, i_ - start);
    if (accept("[")) {
      e.index = integer();
      if (e.index < 0) fail("an element index is not negative");
      if (!accept("]")) fail("expected ']'");
    }
    e.text = e.buffer + "[" + std::to_string(e.index) + "]";
    return e;
  }

  const std::string& text_;
  std::string option_;
  std::size_t i_ = 0;
};

bool compare(CmpOp op, std::int64_t a, std::int64_t b) {
  switch (op) {
    case CmpOp::Eq: return a == b;
    case CmpOp::Ne: return a != b;
    case CmpOp::Lt: return a < b;
    case CmpOp::Le: return a <= b;
    case CmpOp::Gt: return a > b;
    case CmpOp::Ge: return a >= b;
  }
  return false;
}

// Arithmetic wraps modulo 2^64 (unsigned), so a claim never overflows into undefined behaviour.
std::int64_t termValue(const Claim::Term& t, const std::function<std::int64_t(const ElementRef&)>& value) {
  if (t.op == Claim::Term::Op::Leaf) return t.isElement ? value(t.element) : t.constant;
  const auto a = static_cast<std::uint64_t>(termValue(*t.a, value));
  const auto b = static_cast<std::uint64_t>(termValue(*t.b, value));
  switch (t.op) {
    case Claim::Term::Op::Add: return static_cast<std::int64_t>(a + b);
    case Claim::Term::Op::Sub: return static_cast<std::int64_t>(a - b);
    case Claim::Term::Op::Mul: return static_cast<std::int64_t>(a * b);
    case Claim::Term::Op::Leaf: break;
  }
  return 0;
}

}  // namespace

ClaimPtr parseClaim(const std::string& text, const std::string& option) { return Reader(text, option).claim(); }

ElementRef parseElement(const std::string& text, const std::string& option) { return Reader(text, option).element(); }

std::vector<ElementRef> elementsOf(const Claim& claim) {
  std::vector<ElementRef> out;
  auto add = [&](const Claim::Term& t, auto& self) -> void {
    if (t.op != Claim::Term::Op::Leaf) {
      self(*t.a, self);
      self(*t.b, self);
      return;
    }
    if (!t.isElement) return;
    for (const auto& e : out)
      if (e.text == t.element.text) return;
    out.push_back(t.element);
  };
  auto walk = [&](const Claim& c, auto& self) -> void {
    if (c.kind == Claim::Kind::Compare) {
      add(c.lhs, add);
      add(c.rhs, add);
      return;
    }
    self(*c.a, self);
    if (c.b) self(*c.b, self);
  };
  walk(claim, walk);
  return out;
}

bool evaluateClaim(const Claim& claim, const std::function<std::int64_t(const ElementRef&)>& value) {
  switch (claim.kind) {
    case Claim::Kind::And: return evaluateClaim(*claim.a, value) && evaluateClaim(*claim.b, value);
    case Claim::Kind::Or: return evaluateClaim(*claim.a, value) || evaluateClaim(*claim.b, value);
    case Claim::Kind::Not: return !evaluateClaim(*claim.a, value);
    case Claim::Kind::Compare: return compare(claim.cmp, termValue(claim.lhs, value), termValue(claim.rhs, value));
  }
  return false;
}

}  // namespace ptxmm::checker::kernel
