// The cat lexer (CatLexer.hpp) and the one table of keyword and operator spellings.
#include "model/CatLexer.hpp"

#include <cstdio>

namespace ptxmm::model {
namespace {

struct Spelling {
  std::string_view text;
  TokKind kind;
};

// Every keyword and operator of the subset, then herd7's other keywords: reserving those lets a model written for
// herd7 get "'show' is not supported" instead of a puzzling syntax error. Operators are matched in table order,
// so an operator that is a prefix of another would have to come after it (none is, today).
constexpr auto kSpellings = std::to_array<Spelling>({
    {"let", TokKind::Let},
    {"rec", TokKind::Rec},
    {"and", TokKind::And},
    {"as", TokKind::As},
    {"acyclic", TokKind::Acyclic},
    {"irreflexive", TokKind::Irreflexive},
    {"empty", TokKind::Empty},
    {"flag", TokKind::Flag},
    {"include", TokKind::Include},
    {"pairwise", TokKind::Pairwise},
    {"domain", TokKind::Domain},
    {"range", TokKind::Range},
    {"show", TokKind::Unsupported},
    {"unshow", TokKind::Unsupported},
    {"procedure", TokKind::Unsupported},
    {"call", TokKind::Unsupported},
    {"enum", TokKind::Unsupported},
    {"fun", TokKind::Unsupported},
    {"forall", TokKind::Unsupported},
    {"match", TokKind::Unsupported},
    {"with", TokKind::Unsupported},
    {"if", TokKind::Unsupported},
    {"then", TokKind::Unsupported},
    {"else", TokKind::Unsupported},
    {"begin", TokKind::Unsupported},
    {"end", TokKind::Unsupported},
    {"do", TokKind::Unsupported},
    {"in", TokKind::Unsupported},
    {"try", TokKind::Unsupported},
    {"undefined_unless", TokKind::Unsupported},
    {"debug", TokKind::Unsupported},
    {"=", TokKind::Equal},
    {"|", TokKind::Bar},
    {"&", TokKind::Amp},
    {"\\", TokKind::Backslash},
    {";", TokKind::Semi},
    {"*", TokKind::Star},
    {"+", TokKind::Plus},
    {"?", TokKind::Question},
    {"~", TokKind::Tilde},
    {"(", TokKind::LParen},
    {")", TokKind::RParen},
    {"[", TokKind::LBracket},
    {"]", TokKind::RBracket},
    {"^-1", TokKind::CaretInverse},
    {"^+", TokKind::CaretPlus},
    {"^*", TokKind::CaretStar},
    {"^?", TokKind::CaretQuestion},
});

bool isLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isIdentStart(char c) { return isLetter(c) || c == '_'; }
// '-' and '.' continue a name so that herd's po-loc and friends are single names.
bool isIdentChar(char c) { return isIdentStart(c) || isDigit(c) || c == '-' || c == '.'; }
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::string showChar(char c) {
  if (c > ' ' && c < 0x7f) return std::string("character '") + c + "'";
  char buf[16];
  std::snprintf(buf, sizeof buf, "byte 0x%02x", static_cast<unsigned char>(c));
  return buf;
}

}  // namespace

std::string_view spelling(TokKind kind) {
  for (const auto& row : kSpellings)
    if (row.kind == kind) return row.text;
  return {};
}

std::string describe(const Token& token) {
  switch (token.kind) {
    case TokKind::End: return "end of file";
    case TokKind::Ident: return "name '" + token.text + "'";
    case TokKind::String: return "string \"" + token.text + "\"";
    default: return "'" + token.text + "'";
  }
}

CatLexer::CatLexer(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {}

Token CatLexer::next() {
  skipSpaceAndComments();
  const SourcePos pos = here();
  if (atEnd()) return {TokKind::End, "", pos};
  const char c = text_[offset_];

  if (isIdentStart(c)) {
    std::size_t n = 1;
    while (offset_ + n < text_.size() && isIdentChar(text_[offset_ + n])) ++n;
    std::string word(text_.substr(offset_, n));
    advance(n);
    if (word == "_") return {TokKind::Universe, word, pos};
    for (const auto& row : kSpellings)
      if (row.text == word) return {row.kind, word, pos};
    return {TokKind::Ident, word, pos};
  }

  if (isDigit(c)) {
    std::size_t n = 1;
    while (offset_ + n < text_.size() && isDigit(text_[offset_ + n])) ++n;
    std::string number(text_.substr(offset_, n));
    if (number != "0")
      throw UserError(pos,
                      "unexpected number '" + number + "': the only number in cat is 0, the empty set or relation");
    advance(n);
    return {TokKind::Zero, number, pos};
  }

  if (c == '"') {
    // No escapes: herd7's strings are file names and titles. A newline ends an unterminated string early, so
    // the error points at the quote instead of swallowing the rest of the file.
    std::size_t n = 1;
    while (offset_ + n < text_.size() && text_[offset_ + n] != '"' && text_[offset_ + n] != '\n') ++n;
    if (offset_ + n >= text_.size() || text_[offset_ + n] != '"')
      throw UserError(pos, "unterminated string: missing the closing '\"' on this line");
    std::string contents(text_.substr(offset_ + 1, n - 1));
    advance(n + 1);
    return {TokKind::String, contents, pos};
  }

  for (const auto& row : kSpellings) {
    if (isIdentStart(row.text.front()) || !rest().starts_with(row.text)) continue;
    advance(row.text.size());
    return {row.kind, std::string(row.text), pos};
  }
  throw UserError(pos, "unexpected " + showChar(c));
}

void CatLexer::skipSpaceAndComments() {
  while (!atEnd()) {
    if (isSpace(text_[offset_]))
      advance(1);
    else if (rest().starts_with("(*"))
      skipComment();
    else
      return;
  }
}

void CatLexer::skipComment() {
  // Comments nest, as in OCaml (herd7's host language), so commenting out a commented block works.
  const SourcePos open = here();
  int depth = 0;
  while (!atEnd()) {
    if (rest().starts_with("(*")) {
      ++depth;
      advance(2);
    } else if (rest().starts_with("*)")) {
      advance(2);
      if (--depth == 0) return;
    } else {
      advance(1);
    }
  }
  throw UserError(open, "unterminated comment: this '(*' has no matching '*)'");
}

void CatLexer::advance(std::size_t n) {
  for (; n > 0 && !atEnd(); --n, ++offset_) {
    if (text_[offset_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
  }
}

}  // namespace ptxmm::model
