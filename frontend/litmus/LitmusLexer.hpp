// The tokens of a PTX litmus test. The lexer is lazy (the parser peeks a few tokens ahead), so the error
// reported is the first one in the file whether it is lexical or syntactic. The header line is special: after
// the architecture word, the test name is the rest of the line, because names like `SB+sc-gpu.multiFence`
// are not made of tokens. Tokens remember whether space preceded them, which lets the parser rebuild the
// text of an instruction or a condition as written, and reject `ld. weak` as two words.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>

#include "model/Diagnostic.hpp"

namespace ptxmm::frontend {

enum class TokenKind : std::uint8_t {
  End,
  Ident,     // [A-Za-z_%][A-Za-z0-9_]*
  Number,    // decimal or 0x hexadecimal, without sign
  String,    // "..." (may span lines; the text excludes the quotes)
  TestName,  // the rest of the header line
  LBrace, RBrace, LParen, RParen, LBracket, RBracket,
  Semi, Comma, Colon, ColonColon, Pipe, At, Bang, Tilde, Dot, Minus,
  Amp,       // & (an address in the init block: P0:r1 = &x)
  Assign,    // =
  EqEq, NotEq, Less, LessEq, Greater, GreaterEq,
  And,       // /\ (backslash)
  Or,        // \/ (backslash)
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string_view text;    // as written; a string's content without its quotes
  int line = 1;
  int col = 1;              // 1-based, in bytes: a tab is one column
  bool spaceBefore = true;  // whitespace or a comment separates it from the previous token
};

/// How a token is named in messages: 'ld', ';', "end of file", "a string".
std::string describe(const Token& token);

class LitmusLexer {
 public:
  /// Prepares to lex `text`; `file` names it in diagnostics. `text` must outlive the lexer and its tokens.
  LitmusLexer(std::string_view text, std::string file);

  /// The token `ahead` places after the next one (0: the next one), End past the input; valid until consumed.
  const Token& peek(std::size_t ahead = 0);
  /// Consumes and returns the next token.
  Token next();
  /// Where a token starts, for diagnostics.
  model::SourcePos pos(const Token& token) const;

 private:
  enum class Header : std::uint8_t { Arch, Name, Done };

  Token lex();
  Token lexTestName(Token token);
  Token lexIdent(Token token);
  Token lexNumber(Token token);
  Token lexString(Token token);
  Token lexPunctuation(Token token);
  bool skipBlanks();
  void skipComment();
  void skipLineComment();
  void advance(std::size_t count);
  bool startsWith(std::string_view prefix) const;
  [[noreturn]] void fail(int line, int col, const std::string& message) const;

  std::string_view text_;
  std::string file_;
  std::size_t at_ = 0;
  int line_ = 1;
  int col_ = 1;
  Header header_ = Header::Arch;
  bool afterDot_ = false;  // the last token was a '.' (a qualifier may follow: .1d, .32x32b)
  std::deque<Token> ahead_;
};

}  // namespace ptxmm::frontend
