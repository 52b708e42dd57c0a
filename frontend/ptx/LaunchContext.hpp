// What every thread's partial evaluation of one launch shares: the decoded code, the memory layout and kernel
// parameter values, the pass (Discover: every load of writable memory is symbolic, and the bytes any thread may
// write are collected; Emit: loads of bytes no thread writes are read concretely, and the residual code is
// kept), the budgets, and the outputs that gather across threads (Program locations named after their buffer,
// instruction origins, findings and the reasons the residual code is incomplete).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/ptx/DecodedKernel.hpp"
#include "frontend/ptx/KernelProgram.hpp"
#include "frontend/ptx/LaunchMemory.hpp"
#include "frontend/ptx/TensorMap.hpp"

namespace ptxmm::frontend::ptx {

enum class Pass : std::uint8_t { Discover, Emit };

/// Budgets that keep every thread's evaluation finite; running out makes the result UNKNOWN (recorded, never
/// silent).
struct InstantiateLimits {
  std::int64_t stepsPerThread = 4'000'000;  // PTX instructions evaluated per thread (concrete loops)
  int residualPerThread = 100'000;           // residual instructions per thread
  int blocksPerInstruction = 64;             // residual blocks starting at one PTX instruction (polyvariance)
};

/// The bytes some thread of the launch may write, per buffer (a whole buffer, or byte ranges).
class WriteSet {
 public:
  void addRange(int buffer, std::int64_t offset, std::int64_t size);
  void addBuffer(int buffer);
  void addEverything() { everything_ = true; }
  bool mayWrite(int buffer, std::int64_t offset, std::int64_t size) const;

 private:
  bool everything_ = false;
  std::unordered_map<int, bool> whole_;
  std::unordered_map<int, std::map<std::int64_t, std::int64_t>> ranges_;  // start -> end, disjoint
};

struct LaunchContext {
  LaunchContext(const Module& m, const LaunchConfig& l, const InstantiateLimits& budget)
      : module(m), launch(l), limits(budget), decodeContext{m, {}, {}} {}

  const Module& module;
  const LaunchConfig& launch;
  LaunchMemory memory;
  std::vector<DecodedFunction> functions;             // decoded on first call; entry first
  std::unordered_map<std::string, int> functionIndex;
  std::vector<int> globalBuffer;                      // module global index -> its buffer (-1 for shared ones)
  std::vector<std::vector<std::uint8_t>> kernelParams;  // the bytes of each kernel parameter
  std::vector<std::optional<TensorMap>> tensorMaps;     // per kernel parameter: the map a CUtensorMap one describes
  int zeroFillBuffer = -1;  // zeros, never written: the source a tensor copy's out-of-bounds elements are copied from
  Dim3 clusterDims;
  bool explicitCluster = false;
  std::int64_t dynamicShared = 0;
  std::int64_t totalShared = 0;
  std::uint64_t gridWorkspace = 0;    // address of the cooperative grid barrier's workspace (0: none)
  int sharedVariables = 0;            // per CTA
  int sharedFirstBuffer = 0;
  Pass pass = Pass::Discover;
  WriteSet writes;
  InstantiateLimits limits;
  DecodeContext decodeContext;

  // Emit outputs.
  std::vector<Location> locations;
  std::vector<KernelLocation> kernelLocations;
  std::map<std::tuple<int, std::int64_t, int>, int> locationIndex;
  std::vector<KernelOrigin> origins;
  std::map<std::pair<int, int>, int> originIndex;
  std::vector<SymbolicAccess> symbolic;
  std::vector<Ticket> tickets;
  std::vector<OutOfBounds> outOfBounds;
  std::vector<Incomplete> incomplete;
  std::vector<std::int64_t> touchedBytes;  // per buffer: one past the last byte a concrete access reached
  std::vector<std::set<std::pair<int, int>>> accessTypes;  // per buffer: (PtxType kind, bits) of ld/st/atom/red on it

  /// The decoded function named `name` (decoding it on first use), or -1 when the module has no body for it.
  int function(const std::string& name);
  /// The Program location for bytes [offset, offset + size) of `buffer` (created on first use; an mbarrier once
  /// any mbarrier instruction uses it).
  int location(int buffer, std::int64_t offset, int size, LocationKind kind);
  /// The origin index of instruction `pc` of decoded function `function` (created on first use).
  int origin(int function, int pc);
  /// Records why a thread's residual code is not exact (once per thread, origin and reason).
  void addIncomplete(int thread, int origin, const std::string& reason);
};

}  // namespace ptxmm::frontend::ptx
