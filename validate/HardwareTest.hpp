// What a hardware run needs to know about a litmus test, decided once from the Program: which instructions a
// GPU can execute exactly (the rest is refused, never approximated), every address each thread's instructions
// use in program order (global memory, the shared memory of its own or of another CTA of its cluster, mbarrier
// objects, the tensor map), the locations with their width and the bytes their slot needs, the test's CTAs and
// clusters, the resolved thread count of every CTA barrier, the cluster-barrier phases, the asynchronous
// operations each thread must drain before it leaves, and how each observed register or location reaches the
// outcome tuple.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "frontend/Program.hpp"
#include "model/Diagnostic.hpp"

namespace ptxmm::validate {

/// A test, or one instruction of it, that cannot run exactly on a GPU: "unsupported on hardware: ...".
class Unsupported : public model::UserError {
 public:
  Unsupported(model::SourcePos pos, const std::string& what) : model::UserError(std::move(pos), "unsupported on hardware: " + what) {}
};

/// How an address operand reaches the GPU instruction.
enum class AddrKind : std::uint8_t {
  Global,         // 64-bit address of a location in global memory
  SharedCta,      // 32-bit .shared::cta address of a location in the executing CTA
  SharedCluster,  // 32-bit .shared::cluster address (mapa) of a location in a CTA of the executing cluster
  GenericShared,  // 64-bit generic address of a location in the executing CTA's shared memory
  TensorMap,      // 64-bit generic address of the 1-D tensor map over the location buffer (a kernel parameter)
  TensorCoord,    // 32-bit element coordinate of a global location in that tensor map
};

/// One address argument of a role function: the instruction, its operand and the location it names. Each gets
/// its own argument, in program (then operand) order.
struct HwAccess {
  int instr = -1;
  int operand = -1;  // index into Instruction::operands
  int location = -1;
  AddrKind kind = AddrKind::Global;
};

struct HwRole {
  int thread = -1;                      // index into Program::threads
  int cta = 0;                          // dense test CTA
  int warp = 0;                         // dense test warp: roles with the same one are lanes of one hardware warp
  bool sharesWarp = false;              // another thread of the test is in its warp: its CTA barriers run as the
                                        // non-aligned barrier.sync/arrive (the lanes reach them from different code)
  std::vector<HwAccess> accesses;       // every address argument, in program order
  std::vector<std::string> observed;    // registers this role returns, in key order
  std::vector<bool> inLoop;             // per instruction: inside a litmus loop (a backward branch spans it)
  std::map<int, int> barrierCount;      // per CTA barrier instruction: the thread count the hardware gets
  bool hasBackwardBranch = false;
  bool drainsCpAsync = false;           // issues cp.async: the harness waits for them after the role
  bool drainsBulkGroup = false;         // issues bulk-group copies: the harness waits for them after the role
  std::vector<int> drainsMbarriers;     // mbarriers its mbarrier-completed copies signal: waited on after the role
};

struct HwLocation {
  std::string name;
  std::int64_t init = 0;
  int width = 8;           // bytes of the value: 8, or 4 (shared memory, 32-bit-only operations, copied data)
  int bytes = 8;           // bytes its slot must hold (a bulk copy moves `size` bytes)
  bool shared = false;     // in the shared memory of CTA `ownerCta`
  int ownerCta = -1;       // dense test CTA (shared locations)
  bool mbarrier = false;   // an mbarrier object (shared, 8 bytes, initialised by the test)
  bool tensorMap = false;  // a tensor map: the harness's 1-D map over the location buffer, no slot of its own
  int slot = -1;           // index among the global locations, or among the shared ones
};

/// One element of the outcome tuple.
struct HwKey {
  std::string display;   // "P1:r0" or "x", as TestResult::keys writes it
  bool location = false;
  int role = -1;         // register: the role and the register's index in HwRole::observed
  int index = -1;        // register: index in observed; location: index in HardwareTest::locations
};

struct HardwareTest {
  frontend::Program program;
  std::vector<HwRole> roles;
  std::vector<int> ctaCluster;          // per dense test CTA: its dense test cluster
  std::vector<HwLocation> locations;
  std::map<std::string, int> locationIndex;
  std::vector<int> globalLocations;     // indices into `locations`, by slot
  std::vector<int> sharedLocations;     // indices into `locations`, by slot
  std::vector<HwKey> keys;
  int clusterSize = 1;                  // CTAs per hardware cluster; 1: no cluster launch
  bool usesBarriers = false;            // CTA barriers: one group of instances per block
  bool sharedWarps = false;             // some threads share a warp (HwRole::warp)
  int clusterPhases = 0;                // barrier.cluster arrive/wait pairs every thread of a cluster makes
  bool clusterSync = false;             // a thread reaches another CTA's shared memory: the harness brackets
                                        // the roles with cluster-wide barriers (peers initialised and alive)
  bool usesTensorMap = false;
  int globalAlign = 8;                  // alignment (and least stride) of global slots
  int globalBytes = 8;                  // the most bytes a global slot holds
  int sharedAlign = 8;
  int sharedBytes = 8;
};

/// The largest cluster the harness launches (the portable limit on sm_90).
inline constexpr int kMaxClusterSize = 8;

/// The bytes one TMA box moves: the harness's tensor map has 4-byte elements and boxes of 16 bytes.
inline constexpr int kTensorBoxBytes = 16;

/// Analyses `program` for a run observing `keys` (TestResult::keys). Throws Unsupported for anything a GPU
/// cannot execute exactly, at the offending instruction.
HardwareTest analyze(const frontend::Program& program, const std::vector<std::string>& keys);

/// The location a plain memory access (ld/st/atom/red) addresses.
const frontend::Operand& addressOperand(const frontend::Instruction& in);

}  // namespace ptxmm::validate
