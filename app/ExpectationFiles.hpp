// The files a suite reads its expectations from. Dat3M's CSV (`path,1|0`, 1 = the condition's claim holds) or
// the project's superset `path,1|0,state;state;...,race|race-free` whose third column pins the permitted final
// states (each state written `P0:r0=1 x=2`, keys in ptxmm's order; an empty column pins nothing) and whose fourth
// says whether some permitted execution has a PTX data race. An exceptions file lists, with reasons, tests where
// ptxmm's reading of the spec knowingly differs from a peer's expectation. NVIDIA's nvlitmus `.test` files carry
// their own expectations (`permit` / `assert`), so a directory of them is an expectations source of its own: one
// expectation per table row, named `FILE#ROW`.
#pragma once

#include <string>
#include <vector>

#include "checker/Expectation.hpp"

namespace ptxmm::app {

/// Reads an expectations file. Throws model::UserError on malformed lines.
std::vector<checker::Expectation> readExpectations(const std::string& file);

/// The tests of every nvlitmus `.test` file under `path` (a directory, searched recursively, or one file), in
/// path order, each expecting its claim to hold (`permit C`: C is reachable, `assert C`: C always holds); paths
/// are `FILE#ROW` relative to the directory. A file that does not parse gives one expectation, its own path,
/// which fails with the diagnostic when run. Throws model::UserError when `path` holds no `.test` file.
std::vector<checker::Expectation> readNvLitmusExpectations(const std::string& path);

/// Reads an exceptions file (`path reason...` per line, `#` comments).
std::vector<checker::KnownDifference> readKnownDifferences(const std::string& file);

}  // namespace ptxmm::app
