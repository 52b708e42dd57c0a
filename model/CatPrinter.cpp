// The cat printer (CatPrinter.hpp): an exhaustive visitor over the relation IR that adds parentheses only
// where an operand binds more loosely than its position allows.
#include "model/CatPrinter.hpp"

#include <cassert>
#include <variant>

#include "model/CatLexer.hpp"
#include "model/Overloaded.hpp"

namespace ptxmm::model {
namespace {


// Binding strength, loosest first: the binary operators (their index in kBinaryOperators), then prefix `~`,
// then the postfix operators, then everything that is self-delimiting.
constexpr int kComplementLevel = static_cast<int>(kBinaryOperators.size());
constexpr int kPostfixLevel = kComplementLevel + 1;
constexpr int kAtomLevel = kPostfixLevel + 1;

int binaryLevel(ir::BinaryOp op) {
  for (std::size_t i = 0; i < kBinaryOperators.size(); ++i)
    if (kBinaryOperators[i].op == op) return static_cast<int>(i);
  assert(!"every binary operator has a row in kBinaryOperators");
  return 0;
}

std::string_view binarySpelling(ir::BinaryOp op) { return spelling(kBinaryOperators[binaryLevel(op)].token); }

std::string_view postfixSpelling(ir::UnaryOp op) {
  for (const auto& row : kPostfixOperators)
    if (row.op == op) return spelling(row.token);
  assert(!"every postfix operation has a row in kPostfixOperators");
  return {};
}

int unaryLevel(ir::UnaryOp op) {
  switch (op) {
    case ir::UnaryOp::Complement: return kComplementLevel;
    case ir::UnaryOp::Inverse:
    case ir::UnaryOp::Plus:
    case ir::UnaryOp::Star:
    case ir::UnaryOp::Optional: return kPostfixLevel;
    case ir::UnaryOp::Identity:
    case ir::UnaryOp::Domain:
    case ir::UnaryOp::Range: return kAtomLevel;
  }
  return kAtomLevel;
}

class Printer {
 public:
  explicit Printer(const CatModel& model) : model_(model) {}

  // Appends `e`, in parentheses if it binds more loosely than `context` (a level above) requires.
  void print(const RelExpr& e, int context) {
    const bool parens = level(e) < context;
    if (parens) out_ += '(';
    std::visit(Overloaded{
                   [&](const ir::Empty&) { out_ += '0'; },
                   [&](const ir::Universe&) { out_ += '_'; },
                   [&](const ir::BaseSet& s) { out_ += tagInfo(s.tag).name; },
                   [&](const ir::BaseRelation& r) { out_ += baseRelInfo(r.rel).name; },
                   [&](const ir::DefRef& d) { out_ += model_.defs.at(d.index).name; },
                   [&](const ir::Unary& u) { printUnary(u); },
                   [&](const ir::Binary& b) {
                     const int l = binaryLevel(b.op);
                     print(*b.lhs, l);  // left-associative: only the right operand needs a tighter level
                     out_ += ' ';
                     out_ += binarySpelling(b.op);
                     out_ += ' ';
                     print(*b.rhs, l + 1);
                   },
               },
               e.node);
    if (parens) out_ += ')';
  }

  std::string take() { return std::move(out_); }

 private:
  static int level(const RelExpr& e) {
    return std::visit(Overloaded{
                          [](const ir::Empty&) { return kAtomLevel; },
                          [](const ir::Universe&) { return kAtomLevel; },
                          [](const ir::BaseSet&) { return kAtomLevel; },
                          [](const ir::BaseRelation&) { return kAtomLevel; },
                          [](const ir::DefRef&) { return kAtomLevel; },
                          [](const ir::Unary& u) { return unaryLevel(u.op); },
                          [](const ir::Binary& b) { return binaryLevel(b.op); },
                      },
                      e.node);
  }

  void printUnary(const ir::Unary& u) {
    switch (u.op) {
      case ir::UnaryOp::Complement:
        out_ += spelling(TokKind::Tilde);
        print(*u.arg, kComplementLevel);
        return;
      case ir::UnaryOp::Inverse:
      case ir::UnaryOp::Plus:
      case ir::UnaryOp::Star:
      case ir::UnaryOp::Optional:
        print(*u.arg, kPostfixLevel);
        out_ += postfixSpelling(u.op);
        return;
      case ir::UnaryOp::Identity:
        out_ += '[';
        print(*u.arg, 0);
        out_ += ']';
        return;
      case ir::UnaryOp::Domain:
      case ir::UnaryOp::Range:
        out_ += spelling(u.op == ir::UnaryOp::Domain ? TokKind::Domain : TokKind::Range);
        out_ += '(';
        print(*u.arg, 0);
        out_ += ')';
        return;
    }
  }

  const CatModel& model_;
  std::string out_;
};

}  // namespace

std::string printExpr(const CatModel& model, const RelExpr& e) {
  Printer printer(model);
  printer.print(e, 0);
  return printer.take();
}

}  // namespace ptxmm::model
