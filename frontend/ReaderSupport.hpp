// What the litmus and nvlitmus readers share below their grammars: reading the file, the value of an integer
// literal, recording the text of an instruction or a condition as written, and the nodes of a condition. Each
// reader has a token type of its own, so these take spellings and positions (the templates, either token type)
// and report errors as model::UserError at the position given.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/Program.hpp"

namespace ptxmm::frontend {

/// The whole text of the file at `path`; throws model::UserError at the path when it cannot be read.
std::string readSourceFile(const std::string& path);

/// The value of the literal `digits` (decimal, or hexadecimal after 0x), negated when `negative`. Throws
/// model::UserError at `digitsAt` when `digits` is not a number, and at `at` (where the literal starts, minus sign
/// included) when the value does not fit in 64 bits.
std::int64_t integerValue(std::string_view digits, bool negative, const model::SourcePos& digitsAt,
                          const model::SourcePos& at);

/// While alive, points a reader's `recording` slot at `into`, so that the reader copies every token it takes
/// there (the text of an instruction or a condition, for joinTokens); then restores what the slot pointed at.
template <class Token>
class TokenRecording {
 public:
  TokenRecording(std::vector<Token>*& recording, std::vector<Token>& into) : slot_(recording), saved_(recording) {
    recording = &into;
  }
  ~TokenRecording() { slot_ = saved_; }
  TokenRecording(const TokenRecording&) = delete;
  TokenRecording& operator=(const TokenRecording&) = delete;

 private:
  std::vector<Token>*& slot_;
  std::vector<Token>* saved_;
};

/// The text of `tokens` as written, each run of whitespace and comments made a single space. Either reader's
/// token type: it has a `text` and says whether `spaceBefore` it.
template <class Token>
std::string joinTokens(const std::vector<Token>& tokens) {
  std::string text;
  for (const Token& token : tokens) {
    if (!text.empty() && token.spaceBefore) text += ' ';
    text += token.text;
  }
  return text;
}

/// A condition node of `kind` at `pos`, with operands `a` and `b` where the kind has them.
CondPtr condNode(CondExpr::Kind kind, model::SourcePos pos, CondPtr a = nullptr, CondPtr b = nullptr);

/// Throws model::UserError at `at` when a proposition is nested `depth` levels deep, more than the recursive
/// descent allows.
void checkConditionDepth(int depth, const model::SourcePos& at);

}  // namespace ptxmm::frontend
