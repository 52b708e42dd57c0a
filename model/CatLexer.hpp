// The tokens of ptxmm's cat subset and the lexer that cuts a model's text into them. Every keyword and operator
// spelling is listed once, in the table in CatLexer.cpp; the operator tables below say how the operators bind,
// and are shared by the parser and the printer so the two cannot disagree about precedence.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "model/Diagnostic.hpp"
#include "model/RelationIR.hpp"

namespace ptxmm::model {

enum class TokKind : std::uint8_t {
  End,       // end of the text (returned again on every later call)
  Ident,     // a name: po, po-loc, sync_fence, x.y
  String,    // "...": a model title or an include path (text holds the contents, without quotes)
  Zero,      // 0: the empty set or relation
  Universe,  // _: the set of all events
  // Keywords.
  Let, Rec, And, As, Acyclic, Irreflexive, Empty, Flag, Include, Pairwise, Domain, Range,
  Unsupported,  // a herd7 keyword outside the subset (show, procedure, ...): reserved so errors can name it
  // Operators and punctuation.
  Equal, Bar, Amp, Backslash, Semi, Star, Plus, Question, Tilde, LParen, RParen, LBracket, RBracket,
  CaretInverse, CaretPlus, CaretStar, CaretQuestion,
};

struct Token {
  TokKind kind;
  std::string text;  // the spelling as written (a string's contents without the quotes)
  SourcePos pos;     // where the token starts
};

/// A binary operator and the token that writes it.
struct BinarySyntax {
  ir::BinaryOp op;
  TokKind token;
};
/// Binary operators from the loosest to the tightest binding (herd7's precedence); all are left-associative.
/// Prefix `~` binds tighter than all of them, and postfix operators tighter still.
inline constexpr std::array<BinarySyntax, 5> kBinaryOperators = {{
    {ir::BinaryOp::Union, TokKind::Bar},
    {ir::BinaryOp::Seq, TokKind::Semi},
    {ir::BinaryOp::Diff, TokKind::Backslash},
    {ir::BinaryOp::Inter, TokKind::Amp},
    {ir::BinaryOp::Product, TokKind::Star},
}};

/// A postfix operator token and the closure or inverse it denotes.
struct PostfixSyntax {
  TokKind token;
  ir::UnaryOp op;
};
/// Postfix operators; the first row of each operation gives the spelling the printer uses.
inline constexpr std::array<PostfixSyntax, 7> kPostfixOperators = {{
    {TokKind::CaretInverse, ir::UnaryOp::Inverse},
    {TokKind::Plus, ir::UnaryOp::Plus},
    {TokKind::Star, ir::UnaryOp::Star},
    {TokKind::Question, ir::UnaryOp::Optional},
    {TokKind::CaretPlus, ir::UnaryOp::Plus},
    {TokKind::CaretStar, ir::UnaryOp::Star},
    {TokKind::CaretQuestion, ir::UnaryOp::Optional},
}};

/// The fixed spelling of a keyword or operator kind ("let", "^-1"); empty for names, strings, 0, _ and End.
std::string_view spelling(TokKind kind);
/// How a token reads in an error message: "name 'po'", "'let'", "end of file".
std::string describe(const Token& token);

/// Cuts a cat text into tokens, skipping whitespace and nested (* comments *). A value type: copying it
/// saves the position, which lets the parser look ahead as far as it needs.
class CatLexer {
 public:
  /// Lexes `text` (which must outlive the lexer); `file` names it in positions.
  CatLexer(std::string_view text, std::string file);

  /// The next token, End at (and after) the end of the text; UserError on malformed input.
  Token next();

 private:
  void skipSpaceAndComments();
  void skipComment();
  void advance(std::size_t n);
  bool atEnd() const { return offset_ >= text_.size(); }
  std::string_view rest() const { return text_.substr(offset_); }
  SourcePos here() const { return {file_, line_, col_}; }

  std::string_view text_;
  std::string file_;
  std::size_t offset_ = 0;
  int line_ = 1;
  int col_ = 1;
};

}  // namespace ptxmm::model
