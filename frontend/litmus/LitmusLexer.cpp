// The litmus lexer: whitespace and comments (`(* ... *)`, nested as in herd, and `// ...`) separate tokens;
// everything else is an identifier, a number, a string or punctuation, or an error at its exact position.
#include "frontend/litmus/LitmusLexer.hpp"

#include <array>
#include <cstdio>
#include <utility>

namespace ptxmm::frontend {
namespace {

bool isLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isHexDigit(char c) { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool isIdentStart(char c) { return isLetter(c) || c == '_' || c == '%'; }
bool isIdentChar(char c) { return isLetter(c) || isDigit(c) || c == '_'; }
bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

struct Punctuation {
  std::string_view spelling;
  TokenKind kind;
};

// Longest spellings first, so `::` wins over `:` and `<=` over `<`.
constexpr std::array<Punctuation, 26> kPunctuation = {{
    {"::", TokenKind::ColonColon}, {"==", TokenKind::EqEq},    {"!=", TokenKind::NotEq},
    {"<=", TokenKind::LessEq},     {">=", TokenKind::GreaterEq}, {"/\\", TokenKind::And},
    {"\\/", TokenKind::Or},        {"{", TokenKind::LBrace},   {"}", TokenKind::RBrace},
    {"(", TokenKind::LParen},      {")", TokenKind::RParen},   {"[", TokenKind::LBracket},
    {"]", TokenKind::RBracket},    {";", TokenKind::Semi},     {",", TokenKind::Comma},
    {":", TokenKind::Colon},       {"|", TokenKind::Pipe},     {"@", TokenKind::At},
    {"!", TokenKind::Bang},        {"~", TokenKind::Tilde},    {".", TokenKind::Dot},
    {"-", TokenKind::Minus},       {"=", TokenKind::Assign},   {"<", TokenKind::Less},
    {">", TokenKind::Greater},     {"&", TokenKind::Amp},
}};

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

std::string printable(char c) {
  if (c >= 0x20 && c < 0x7f) return std::string("'") + c + "'";
  char buffer[8];
  std::snprintf(buffer, sizeof buffer, "0x%02X", static_cast<unsigned char>(c));
  return std::string("byte ") + buffer;
}

}  // namespace

std::string describe(const Token& token) {
  switch (token.kind) {
    case TokenKind::End: return "end of file";
    case TokenKind::String: return "a string";
    default: return "'" + std::string(token.text) + "'";
  }
}

LitmusLexer::LitmusLexer(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {
  // A UTF-8 byte order mark is an editor artefact, not part of the test.
  if (text_.substr(0, kByteOrderMark.size()) == kByteOrderMark) at_ = kByteOrderMark.size();
}

const Token& LitmusLexer::peek(std::size_t ahead) {
  while (ahead_.size() <= ahead) ahead_.push_back(lex());
  return ahead_[ahead];
}

Token LitmusLexer::next() {
  peek();
  Token token = ahead_.front();
  ahead_.pop_front();
  return token;
}

model::SourcePos LitmusLexer::pos(const Token& token) const { return {file_, token.line, token.col}; }

Token LitmusLexer::lex() {
  if (header_ == Header::Name) {
    header_ = Header::Done;
    return lexTestName(Token{TokenKind::TestName, {}, line_, col_, true});
  }
  bool space = skipBlanks();
  Token token{TokenKind::End, {}, line_, col_, space};
  if (at_ >= text_.size()) return token;
  char c = text_[at_];
  // Right after a '.', a word may start with a digit: shape qualifiers such as .1d and .32x32b.
  if (isIdentStart(c) || (afterDot_ && !space && isDigit(c))) token = lexIdent(token);
  else if (isDigit(c)) token = lexNumber(token);
  else if (c == '"') token = lexString(token);
  else token = lexPunctuation(token);
  // Only the very first token of the file can be the architecture word of the header line.
  header_ = header_ == Header::Arch && token.kind == TokenKind::Ident ? Header::Name : Header::Done;
  afterDot_ = token.kind == TokenKind::Dot;
  return token;
}

Token LitmusLexer::lexTestName(Token token) {
  while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t')) advance(1);
  token.line = line_;
  token.col = col_;
  std::size_t end = text_.find('\n', at_);
  if (end == std::string_view::npos) end = text_.size();
  std::string_view name = text_.substr(at_, end - at_);
  while (!name.empty() && isSpace(name.back())) name.remove_suffix(1);
  advance(name.size());
  token.text = name;
  return token;
}

Token LitmusLexer::lexIdent(Token token) {
  std::size_t start = at_;
  advance(1);
  while (at_ < text_.size() && isIdentChar(text_[at_])) advance(1);
  token.kind = TokenKind::Ident;
  token.text = text_.substr(start, at_ - start);
  return token;
}

Token LitmusLexer::lexNumber(Token token) {
  std::size_t start = at_;
  bool hex = startsWith("0x") || startsWith("0X");
  advance(hex ? 2 : 1);
  while (at_ < text_.size() && (hex ? isHexDigit(text_[at_]) : isDigit(text_[at_]))) advance(1);
  bool malformed = (hex && at_ - start == 2) || (at_ < text_.size() && isIdentChar(text_[at_]));
  while (at_ < text_.size() && isIdentChar(text_[at_])) advance(1);
  token.kind = TokenKind::Number;
  token.text = text_.substr(start, at_ - start);
  if (malformed) fail(token.line, token.col, "malformed number '" + std::string(token.text) + "'");
  return token;
}

Token LitmusLexer::lexString(Token token) {
  std::size_t close = text_.find('"', at_ + 1);
  if (close == std::string_view::npos) fail(token.line, token.col, "unterminated string");
  token.kind = TokenKind::String;
  token.text = text_.substr(at_ + 1, close - at_ - 1);
  advance(close + 1 - at_);
  return token;
}

Token LitmusLexer::lexPunctuation(Token token) {
  for (const auto& punctuation : kPunctuation) {
    if (!startsWith(punctuation.spelling)) continue;
    token.kind = punctuation.kind;
    token.text = text_.substr(at_, punctuation.spelling.size());
    advance(punctuation.spelling.size());
    return token;
  }
  fail(token.line, token.col, "unexpected character " + printable(text_[at_]));
}

bool LitmusLexer::skipBlanks() {
  std::size_t start = at_;
  while (at_ < text_.size()) {
    if (isSpace(text_[at_])) advance(1);
    else if (startsWith("(*")) skipComment();
    else if (startsWith("//")) skipLineComment();
    else break;
  }
  return at_ != start;
}

void LitmusLexer::skipComment() {
  int line = line_;
  int col = col_;
  int depth = 0;
  do {
    if (at_ >= text_.size()) fail(line, col, "unterminated comment");
    if (startsWith("(*")) {
      ++depth;
      advance(2);
    } else if (startsWith("*)")) {
      --depth;
      advance(2);
    } else {
      advance(1);
    }
  } while (depth > 0);
}

void LitmusLexer::skipLineComment() {
  std::size_t end = text_.find('\n', at_);
  advance((end == std::string_view::npos ? text_.size() : end) - at_);
}

void LitmusLexer::advance(std::size_t count) {
  for (std::size_t end = at_ + count; at_ < end; ++at_) {
    if (text_[at_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
  }
}

bool LitmusLexer::startsWith(std::string_view prefix) const { return text_.substr(at_, prefix.size()) == prefix; }

void LitmusLexer::fail(int line, int col, const std::string& message) const {
  throw model::UserError({file_, line, col}, message);
}

}  // namespace ptxmm::frontend
