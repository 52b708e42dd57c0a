// What `ptxmm kernel` finds in one kernel at one launch: the races (grouped by source-line pair and kind, each
// with one witness), the verdict of each --assert, the permitted final values of each --observe, the hangs and
// undefined behaviour, out-of-bounds accesses, and why anything stayed undecided. The kernel checker fills it;
// the views (KernelReport.hpp) and the command only read it. Positions point at the kernel's own source lines.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frontend/ptx/KernelProgram.hpp"

namespace ptxmm::checker::kernel {

/// One instruction of one thread of the launch, as a report names it.
struct KernelPosition {
  std::string file;         // the kernel's own source (.cu, or the .ptx when there is no .loc)
  int line = 0;
  int column = 0;
  int ptxLine = 0;          // the instruction's line in the PTX
  frontend::Dim3 block;     // %ctaid of the witness thread
  frontend::Dim3 thread;    // %tid of the witness thread
  std::string instruction;  // the PTX instruction as written
};

/// Kinds of races, as the cat model's race-kind definitions name them plus partial overlap (spec §2.4).
struct KernelRace {
  std::string kind;   // "no synchronisation", "scope too narrow", "different proxies", "partial overlap"
  std::string fix;    // what would remove it: a change that was re-checked when fixChecked, else advice
  KernelPosition first, second;
  bool fixChecked = false;  // the kernel with `fix` applied was checked again and no longer has this race (RaceFixes)
};

struct AssertionVerdict {
  std::string text;                    // the claim as written
  std::optional<bool> holds;           // nullopt: undecided (the reason says why)
  std::string counterexample;          // final values of a permitted state where it fails ("out[0]=7")
  std::string reason;
};

struct ObservedValues {
  std::string location;              // as written ("out[0]")
  std::vector<std::string> values;   // every permitted final value, in the buffer's element type, sorted
  bool complete = true;              // false: undecided (the reason says why), values may be missing
  std::string reason;
};

/// A way the launch can get stuck (or reach undefined behaviour that stands for one).
struct KernelHang {
  std::string kind;     // "barrier never completes", "undefined behaviour: aligned barrier in divergent code", ...
  std::string threads;  // "block 0 threads 128..255 never arrive"
  KernelPosition at;    // where the stuck threads wait
};

struct OutOfBoundsAccess {
  KernelPosition at;
  std::string detail;
};

enum class KernelStatus : std::uint8_t { Ok, Unknown, Error };

struct KernelResult {
  std::string name;    // the kernel's CUDA name
  std::string file;    // the file the user gave
  std::string kernel;  // the mangled entry name
  frontend::Dim3 grid, block, cluster;
  KernelStatus status = KernelStatus::Ok;
  std::vector<std::string> unknowns;  // every reason a verdict stayed undecided (status Unknown when any)
  std::vector<KernelRace> races;
  std::vector<AssertionVerdict> assertions;
  std::vector<ObservedValues> observed;
  std::vector<KernelHang> hangs;
  std::vector<OutOfBoundsAccess> outOfBounds;
  std::vector<std::string> notes;
  double checkSeconds = 0;   // the check of the PTX
  double nvccSeconds = -1;   // nvcc's compile time (the command fills it; -1: no compilation)
  double fixSeconds = 0;     // checking the races' fixes (RaceFixes.hpp), after the check

  /// Whether something definitely wrong was found: a race, a hang, a failed assertion, an out-of-bounds access.
  bool hasFinding() const {
    if (!races.empty() || !hangs.empty() || !outOfBounds.empty()) return true;
    for (const auto& a : assertions)
      if (a.holds == false) return true;
    return false;
  }
};

}  // namespace ptxmm::checker::kernel
