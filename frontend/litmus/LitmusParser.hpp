// The reader of PTX litmus tests: Dat3M's PTX dialect (header, init block with proxy aliases, placed thread
// columns, `exists`/`~exists`/`forall` conditions) plus cluster placement, state spaces, register arithmetic
// and `locations [...]`. Text in, Program out; every problem is a model::UserError at the offending token.
#pragma once

#include <string>
#include <string_view>

#include "frontend/Program.hpp"

namespace ptxmm::frontend {

/// Parses a PTX litmus test; `file` names it in diagnostics. Throws model::UserError on any error.
Program parseLitmus(std::string_view text, const std::string& file);

/// Reads and parses a litmus file (UserError at 0:0 when it cannot be read).
Program parseLitmusFile(const std::string& path);

}  // namespace ptxmm::frontend
