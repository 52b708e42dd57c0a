// Warnings about names a test reads but never gives a value, the usual trace of a typo: herd's rules make a location
// first seen in the code exist with value 0, and a register nobody wrote holds 0, so `ld r0, flga` silently reads 0
// and can flip a verdict. Warnings never change a verdict; each names the closest name the test does give a value
// to. Rendered `file:line:col: warning: message`, like user errors.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "frontend/Program.hpp"

namespace ptxmm::frontend {

/// The warnings of `program`, locations first, then registers by thread in code order: a location that is not declared and that only plain loads
/// (ld) use; a register that an instruction reads at a point no path from the thread's start has written it and no
/// initialiser gives it a value.
std::vector<std::string> nameWarnings(const Program& program);

/// The number of single-character insertions, deletions, substitutions and adjacent swaps turning `a` into `b`.
std::size_t editDistance(std::string_view a, std::string_view b);

/// The `file:line:col: warning: message` rendering.
std::string warningText(const SourcePos& pos, const std::string& message);

}  // namespace ptxmm::frontend
