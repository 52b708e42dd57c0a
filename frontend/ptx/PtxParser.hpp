// The PTX reader: text -> Module (PtxModule.hpp). It reads what nvcc and Triton emit for sm_90/sm_90a: the
// module header, `.file`, `.section` blocks (debug data, skipped), module and function variables with
// initialisers, `.entry`/`.func` with parameters and performance directives, `.reg` ranges, labels, guarded
// instructions with every operand form, `.loc` with `inlined_at`, `.pragma`, and nested `{ }` blocks. It does
// not judge instructions (the instantiator does, naming any it does not support); every syntax error is a
// model::UserError at `file:line:col`. Parsing is iterative: no recursion grows with the input.
#pragma once

#include <string>
#include <string_view>

#include "frontend/ptx/PtxModule.hpp"

namespace ptxmm::frontend::ptx {

/// Reads the PTX module `text`; `file` names it in diagnostics and positions. Throws model::UserError.
Module parsePtx(std::string_view text, const std::string& file);

/// The value of a PTX number as written ("12", "0x1F", "0b101", "017", "12U", "0f3F800000", "1.5"). Throws
/// model::UserError at `at` when it is malformed or does not fit in 64 bits.
Immediate parseNumber(std::string_view text, const SourcePos& at);

}  // namespace ptxmm::frontend::ptx
