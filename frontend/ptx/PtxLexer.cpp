// The PTX lexer (PtxLexer.hpp): one pass over the text, positions in 1-based lines and byte columns.
#include "frontend/ptx/PtxLexer.hpp"

#include <cctype>

namespace ptxmm::frontend::ptx {
namespace {

using model::UserError;

bool wordStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' || c == '.';
}
bool wordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.'; }
bool numberChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.'; }

class Lexer {
 public:
  Lexer(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  std::vector<PtxToken> run() {
    std::vector<PtxToken> out;
    out.reserve(text_.size() / 4);
    while (true) {
      const bool space = skipBlanks();
      PtxToken t;
      t.line = line_;
      t.col = col_;
      t.spaceBefore = space || out.empty();
      if (at_ >= text_.size()) {
        out.push_back(t);
        return out;
      }
      const std::size_t start = at_;
      const char c = text_[at_];
      if (c == '"') {
        t.kind = PtxToken::Kind::String;
        advance(1);
        while (at_ < text_.size() && text_[at_] != '"') advance(text_[at_] == '\\' && at_ + 1 < text_.size() ? 2 : 1);
        if (at_ >= text_.size()) fail(t.line, t.col, "unterminated string");
        t.text = text_.substr(start + 1, at_ - start - 1);
        advance(1);
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        t.kind = PtxToken::Kind::Number;
        // A decimal exponent may carry a sign: 1e-3.
        while (at_ < text_.size() &&
               (numberChar(text_[at_]) || ((text_[at_] == '-' || text_[at_] == '+') && exponentBefore(start))))
          advance(1);
        t.text = text_.substr(start, at_ - start);
      } else if (wordStart(c)) {
        t.kind = PtxToken::Kind::Word;
        advance(1);
        while (at_ < text_.size()) {
          if (wordChar(text_[at_])) {
            advance(1);
          } else if (text_.compare(at_, 2, "::") == 0 && at_ + 2 < text_.size() && wordChar(text_[at_ + 2])) {
            advance(2);  // .shared::cluster, L2::cache_hint: `::` inside a word, `:` ends a label
          } else {
            break;
          }
        }
        t.text = text_.substr(start, at_ - start);
      } else if (std::string_view(",;:{}[]()+-!@|<>=").find(c) != std::string_view::npos) {
        t.kind = PtxToken::Kind::Punct;
        advance(1);
        t.text = text_.substr(start, 1);
      } else {
        const auto code = static_cast<unsigned>(static_cast<unsigned char>(c));
        fail(line_, col_, std::isprint(static_cast<unsigned char>(c))
                              ? "unexpected character '" + std::string(1, c) + "'"
                              : "unexpected byte " + std::to_string(code));
      }
      out.push_back(t);
    }
  }

 private:
  // Whether the number being lexed (from `start`) is a decimal one that just wrote its exponent letter.
  bool exponentBefore(std::size_t start) const {
    if (at_ == start || (text_[at_ - 1] != 'e' && text_[at_ - 1] != 'E')) return false;
    const std::string_view sofar = text_.substr(start, at_ - start);
    return sofar.size() < 2 || (sofar[1] != 'x' && sofar[1] != 'X' && sofar[1] != 'f' && sofar[1] != 'F' &&
                                sofar[1] != 'd' && sofar[1] != 'D');
  }

  // Skips whitespace and comments; says whether it skipped anything.
  bool skipBlanks() {
    bool skipped = false;
    while (at_ < text_.size()) {
      const char c = text_[at_];
      if (c == '\n' || c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        advance(1);
      } else if (text_.compare(at_, 2, "//") == 0) {
        while (at_ < text_.size() && text_[at_] != '\n') advance(1);
      } else if (text_.compare(at_, 2, "/*") == 0) {
        const int line = line_, col = col_;
        advance(2);
        while (at_ < text_.size() && text_.compare(at_, 2, "*/") != 0) advance(1);
        if (at_ >= text_.size()) fail(line, col, "unterminated comment");
        advance(2);
      } else {
        return skipped;
      }
      skipped = true;
    }
    return skipped;
  }

  void advance(std::size_t count) {
    for (std::size_t i = 0; i < count && at_ < text_.size(); ++i, ++at_) {
      if (text_[at_] == '\n') {
        ++line_;
        col_ = 1;
      } else {
        ++col_;
      }
    }
  }

  [[noreturn]] void fail(int line, int col, const std::string& message) const {
    throw UserError({file_, line, col}, message);
  }

  std::string_view text_;
  const std::string& file_;
  std::size_t at_ = 0;
  int line_ = 1;
  int col_ = 1;
};

}  // namespace

std::vector<PtxToken> lexPtx(std::string_view text, const std::string& file) { return Lexer(text, file).run(); }

}  // namespace ptxmm::frontend::ptx
