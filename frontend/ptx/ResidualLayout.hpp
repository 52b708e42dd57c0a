// From a thread's residual blocks to its Program code. First the blocks are simplified: edges through blocks
// that hold no code are redirected to where those lead, a conditional branch whose two successors are then the
// same disappears (a backoff branch on %globaltimer that only chooses how long to nanosleep, say), and register
// arithmetic nobody uses goes, to a fixed point. Then the blocks are laid out in reverse post-order with every
// loop contiguous and entered only at its first instruction, which is the structured form the unroller expects
// (a loop is the range from a label to the last jump back to it). Last, what still branches on, or passes as a
// barrier operand, a value that depends on an opaque one is recorded: the engines could take a path no
// execution takes, so it is a reason the residual code is not exact.
#pragma once

#include <optional>
#include <vector>

#include "frontend/Program.hpp"
#include "frontend/ptx/KernelProgram.hpp"

namespace ptxmm::frontend::ptx {

struct ResidualBlock {
  std::vector<Instruction> code;
  std::optional<Instruction> branch;  // a conditional branch to `taken` (its label operand is added here)
  int taken = -1;
  int next = -1;  // where control continues otherwise; -1 ends the thread
  std::optional<Instruction> jump;  // the PTX jump that goes on to `next`, when there is one (a loop's back edge)
};

/// The code of thread `thread` from its blocks (block 0 is the entry); appends to `incomplete` what depends on
/// opaque values.
std::vector<Instruction> layOutResidual(std::vector<ResidualBlock> blocks, int thread, std::vector<Incomplete>& incomplete);

}  // namespace ptxmm::frontend::ptx
