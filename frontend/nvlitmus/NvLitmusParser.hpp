// The reader of NVIDIA's nvlitmus tests (NVlabs/mixedproxy `tests/*.test`): address declarations (`.global x;`,
// `.global y physically aliases x;`, `.surfref s virtually aliases x;`), threads placed by name
// (`d0.b1.t0 { ... }`: device 0, block 1, thread 0), PTX instructions with bracketed addresses, and a final
// `permit (C) as NAME;` (C is reachable) or `assert (C) as NAME;` (C always holds). A `$$` line turns the text
// above it into a template: every following non-empty line is a row whose `|`-separated cells replace `$0`,
// `$1`, ... , and each row is a test of its own. Text in, one Program per test out, each with NVIDIA's expected
// verdict; every problem is a model::UserError at the offending character of the template or of the row.
//
// Readings (the format has no written grammar; these follow the files and the harness's semantics):
// * `ld r0, [x] == v` keeps only the executions in which the load reads v. It becomes the await loop
//   `L: ld r0, [x]; bne r0, v, L`, which ptxmm reduces to the load plus that assumption (design.md, "spin loops
//   are awaits"), so `assert` quantifies over the executions satisfying every `== v` and the states listed are
//   theirs. The branch adds a control dependency from the load, as a real spin loop does.
// * `permit C` is `exists C`, `assert C` is `forall C`; both claims are expected to hold. No other verdict word
//   occurs in the files (`check_r1` in CoMP_volatile.test is an assertion name), so any other is an error.
// * Conditions name registers without a thread (`r1`): the one thread that uses the register; a declared
//   address stands for its final value. Registers may not be named like addresses.
// * Each block is a CTA in a cluster of its own; threads of one block share the CTA. `.const` declares a
//   constant-proxy name, by analogy with `.global` (the files use only `.surfref` and `.texref`).
// * Addresses are declared before use; there are no initial values (every location starts at 0), labels,
//   branches or comments.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "frontend/Program.hpp"

namespace ptxmm::frontend {

/// One test of an nvlitmus file with the verdict NVIDIA expects for it.
struct NvLitmusTest {
  Program program;          // name `FILE#ROW` for a table row (ROW 1-based over the non-empty rows), else `FILE`
  int row = 0;              // the table row (1-based); 0 when the file has no table
  bool expectHolds = true;  // the condition's claim (exists for permit, forall for assert) is expected to hold
  std::string expectation;  // "permit r1: (r1 != 2) is reachable", "assert r1: (r1 == 2) always holds"
};

/// Parses an nvlitmus file's text; `file` names it in diagnostics and test names. Throws model::UserError.
std::vector<NvLitmusTest> parseNvLitmus(std::string_view text, const std::string& file);

/// Reads and parses an nvlitmus file (UserError at 0:0 when it cannot be read).
std::vector<NvLitmusTest> parseNvLitmusFile(const std::string& path);

}  // namespace ptxmm::frontend
