// The tokens of a PTX module as nvcc and Triton write it. Instruction names and their qualifiers are one word
// (`ld.global.nc.v4.u32`, `mbarrier.try_wait.parity.shared::cta.b64`): the reader splits words at the dots, so
// the lexer only has to know that `::` belongs inside a word while a single `:` ends a label. Special registers
// with a component (`%tid.x`) are one word too. Numbers are kept as written (hexadecimal float bit patterns such
// as `0f3F800000` included) and converted by the reader, which knows the instruction's type. The whole module is
// lexed up front into a vector: the parser peeks a token or two and never recurses per token.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/Diagnostic.hpp"

namespace ptxmm::frontend::ptx {

struct PtxToken {
  enum class Kind : std::uint8_t {
    Word,    // identifiers, directives (.reg), registers (%r1, %tid.x), opcodes with qualifiers, labels
    Number,  // 12, 0x1F, 0b101, 017, 12U, 0f3F800000, 0d3FF0000000000000, 1.5, 1e-3 (no sign)
    String,  // "..." (text without the quotes)
    Punct,   // one of , ; : { } [ ] ( ) + - ! @ | < > =
    End,
  };
  Kind kind = Kind::End;
  std::string_view text;
  int line = 1;
  int col = 1;  // 1-based, in bytes
  bool spaceBefore = true;

  bool is(char punct) const { return kind == Kind::Punct && text.size() == 1 && text[0] == punct; }
};

/// The tokens of `text` (which must outlive them), ending with one End token. Throws model::UserError at a
/// character no token can start with, or at an unterminated string or comment.
std::vector<PtxToken> lexPtx(std::string_view text, const std::string& file);

}  // namespace ptxmm::frontend::ptx
