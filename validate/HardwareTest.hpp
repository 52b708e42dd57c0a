// What a hardware run needs to know about a litmus test, decided once from the Program: which instructions a
// GPU can execute exactly (the rest is refused, never approximated), each thread's memory accesses in program
// order, the locations with their width, the test's CTAs and clusters, the resolved thread count of every CTA
// barrier, and how each observed register or location reaches the outcome tuple.
#pragma once

#include <cstdint>
#include <map>
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

/// One memory access of a role: its instruction and the location it addresses. Each access gets its own
/// address argument, in this order.
struct HwAccess {
  int instr = -1;
  int location = -1;
};

struct HwRole {
  int thread = -1;                      // index into Program::threads
  int cta = 0;                          // dense test CTA
  std::vector<HwAccess> accesses;
  std::vector<std::string> observed;    // registers this role returns, in key order
  std::vector<bool> inLoop;             // per instruction: inside a litmus loop (a backward branch spans it)
  std::map<int, int> barrierCount;      // per barrier instruction: the thread count the hardware gets
  bool hasBackwardBranch = false;
};

struct HwLocation {
  std::string name;
  std::int64_t init = 0;
  int width = 8;  // bytes: 8, or 4 for locations that atom/red .inc/.dec touch (those exist only as .u32)
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
  std::vector<HwKey> keys;
  int clusterSize = 1;                  // CTAs per hardware cluster; 1: no cluster launch
  bool usesBarriers = false;
};

/// The largest cluster the harness launches (the portable limit on sm_90).
inline constexpr int kMaxClusterSize = 8;

/// Analyses `program` for a run observing `keys` (TestResult::keys). Throws Unsupported for anything a GPU
/// cannot execute exactly, at the offending instruction.
HardwareTest analyze(const frontend::Program& program, const std::vector<std::string>& keys);

/// The location an access instruction addresses.
const frontend::Operand& addressOperand(const frontend::Instruction& in);

}  // namespace ptxmm::validate
