// --max-memory: a bound on the process's memory, so exhaustion is an UNKNOWN verdict with its reason rather than
// `bad_alloc` as an internal error or the kernel's OOM killer (issue 16 M1). The bound is the process's address
// space (RLIMIT_AS): an allocation past it fails inside the engines, which report UNKNOWN; the default is a share
// of the machine's memory, so one run cannot take the machine down.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace ptxmm::app {

/// The --max-memory option's help text (every command that bounds its memory offers it).
inline constexpr const char* kMaxMemoryHelp =
    "bound on the process's memory (address space): N or NM MiB, NG GiB, 0 none; reaching it gives UNKNOWN "
    "(default: three quarters of the machine's memory)";

/// The default bound in bytes: three quarters of the machine's physical memory.
std::uint64_t defaultMemoryLimit();

/// Parses "N", "NM", "NG" (MiB, MiB, GiB; 0: no bound) into bytes; throws UsageError on anything else.
std::uint64_t parseMemoryLimit(const std::string& text);

/// Lowers the process's address-space limit to `bytes` (0: leaves it), never raising a lower limit already set.
/// Without effect under AddressSanitizer, whose shadow memory needs the whole address space.
void applyMemoryLimit(std::uint64_t bytes);

}  // namespace ptxmm::app
