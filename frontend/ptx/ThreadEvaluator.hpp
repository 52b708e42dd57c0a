// The partial evaluation of one thread of a launch: its code is executed with concrete coordinates, so every
// value that depends only on them, on the launch and on read-only memory is computed, and what remains (loads
// of memory some thread may write, stores, atomics, synchronisation, and register arithmetic and branches on
// loaded values) is written out as residual code in the Program IR.
//
// Residual code is made of blocks. A block starts at a PTX instruction in an abstract state (which registers
// hold which concrete values, which hold residual values, thread-private memory, the call stack) and runs until a
// branch or guard depends on a residual value; both successors are then blocks of their own, looked up in a memo
// table keyed by (instruction, state restricted to live registers), so paths that meet again share code and a
// spin loop becomes a residual loop (its back edge targets the block it started from). A loop whose counter is
// concrete but whose exit is not is widened: the registers that differ between two visits become residual
// values. Budgets on evaluated instructions, residual instructions and blocks per instruction bound everything;
// running out is recorded as a reason the result is incomplete, never hidden.
//
// Warp-collective instructions (shfl.sync, vote.sync, ldmatrix, ...) and bar.red need other threads' values: the
// evaluator stops there (run() returns AtCollective), the launch computes the results for the whole warp or
// CTA, and resume() continues.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "frontend/ptx/AbstractValue.hpp"
#include "frontend/ptx/LaunchContext.hpp"
#include "frontend/ptx/ResidualBuilder.hpp"

namespace ptxmm::frontend::ptx {

class ThreadEvaluator {
 public:
  ThreadEvaluator(LaunchContext& context, int index, const KernelThread& where, const AddressingThread& addressing);

  enum class Status : std::uint8_t { Finished, AtCollective };
  /// Evaluates until the thread is done or waits at a collective.
  Status run();

  /// A collective the thread waits at: the instruction and the values of its source operands.
  struct Collective {
    const DecodedInstruction* instruction = nullptr;
    int function = -1;
    int pc = -1;
    std::vector<AbsValue> inputs;  // per operand (destinations included, as Undefined)
  };
  /// The collective run() stopped at.
  const Collective& collective() const { return collective_; }
  /// Continues after the collective with the values of its destination operand(s); with `ownOperand` >= 0 the
  /// first destination is a copy of that source operand of this thread (a shuffle from the lane itself).
  void resume(const std::vector<AbsValue>& results, int ownOperand = -1);
  /// Throws the located error `message` about the collective run() stopped at.
  [[noreturn]] void failAtCollective(const std::string& message) const;

  /// The residual code as a Program thread (after run() returned Finished).
  Thread takeThread();

  int index() const { return index_; }
  const KernelThread& where() const { return where_; }

 private:
  // ---- state ----
  struct Frame {
    int function = 0;
    int returnPc = -1;                      // in the caller
    const DecodedInstruction* call = nullptr;  // the caller's call instruction
    std::int64_t localBase = 0;             // this frame's private memory, from kLocalStart
    std::vector<std::int64_t> paramAddress; // FuncParam i -> private address (the caller's argument variable)
    std::vector<AbsValue> regs;
  };
  struct Slot {
    int size = 0;
    AbsValue value;
  };
  struct State {
    int pc = 0;
    bool guardTaken = false;  // the guard of the instruction at pc is known to hold
    // A branch on a residual value came before: this code may not run in every execution. Not part of the memo
    // key: a block first reached without a split runs in every execution even when a loop's back edge (the only
    // way a split path can come back to it) joins it again.
    bool divergent = false;
    std::vector<Frame> frames;
    std::map<std::int64_t, Slot> priv;  // thread-private memory (local and call parameters) by offset
  };
  struct Block {
    std::vector<int> path;  // the call sites and the PTX instruction it starts at (layout order, then creation)
    State entry;
    std::vector<Instruction> code;
    // How the block ends: fall through to `next` (or end the thread when -1); a conditional branch to `taken`.
    int next = -1;
    int taken = -1;
    std::optional<Instruction> branch;
    std::optional<Instruction> jump;  // the PTX jump that goes on to `next` (a loop's back edge), for its origin
  };

  // ---- blocks and control ----
  /// The block for `state` (found in the memo table or made); `backward` widens a loop's changing registers,
  /// `counted` counts it against the blocks-per-instruction budget (blocks made where paths split).
  int blockFor(State state, bool backward, bool counted = true);
  std::string memoKey(const State& s) const;
  static std::vector<int> pathOf(const State& s);
  void startBlock(int block);
  bool joinAtLabel();
  bool repeatsState(int target);
  void endBlock(int next, int taken = -1, std::optional<Instruction> branch = std::nullopt);
  bool step();  // false: stopped at a collective
  void branchOn(const AbsValue& condition, const std::string& reg, bool negate, int takenPc, int nextPc, bool backward);
  /// On the side of a branch on `pred` where the setp just before it found a symbolic register equal to a
  /// constant, the register is that constant (so nvcc's code that re-tests it, e.g. an unrolled loop's guard on
  /// `prev < 3` after `prev == n - 1`, does not take paths no execution takes).
  void refineByEquality(State& side, int pred, bool predHolds) const;
  void finishThread();
  [[noreturn]] void fail(const DecodedInstruction& d, const std::string& message) const;
  /// The located error about instruction `pc` (= `d`) of decoded function `function`.
  [[noreturn]] void failAt(int function, int pc, const DecodedInstruction& d, const std::string& message) const;
  void incomplete(const std::string& reason);
  /// The thread executes `what` (trap, a failing device assert), which aborts the whole launch: UNKNOWN, naming it.
  void abortsLaunch(const std::string& what);
  State generalize(const State& seen, State now);

  // ---- values ----
  Frame& frame() { return state_.frames.back(); }
  const DecodedFunction& code() const;
  const DecodedInstruction& instruction() const;
  std::string regName(int reg) const;
  int regBits(int reg) const;
  AbsValue& reg(int r) { return frame().regs[static_cast<std::size_t>(r)]; }
  /// The value of a source operand; fresh opaque values (clocks) get a residual register `out`.
  AbsValue read(const DOperand& o, std::string& residual);
  AbsValue readSpecial(const DOperand& o, std::string& residual);
  /// The IR operand holding `v` as a canonical `width`-bit value.
  Operand irOperand(const AbsValue& v, const std::string& residual, int width);
  void setConcrete(int r, std::uint64_t bits, const PtxType& type);
  void setResidual(int r, AbsValue::Kind kind, int provenance);
  void setOpaque(int r, const std::vector<Operand>& deps, int provenance = -1);
  /// r := value, which is canonical at `valueBits` bits (narrowed when r is narrower; predicates are 0/1); r
  /// now holds a residual value of `kind`.
  void assign(ResidualBuilder& b, int r, const Operand& value, int valueBits, AbsValue::Kind kind, int provenance);
  /// The address of a variable symbol (plus its offset) in the variable's state space, or nullopt.
  std::optional<std::uint64_t> symbolAddress(const DOperand& symbol, int width) const;
  void emit(Instruction in);
  /// Makes the last residual instruction, which computed temporary `temp`, write register `reg` instead.
  bool retarget(const std::string& temp, const std::string& reg);
  ResidualBuilder builder();
  Instruction prototype() const;
  std::string temp();

  // ---- instruction families (EvalArithmetic.cpp, EvalMemory.cpp, EvalTensorCopy.cpp, EvalControl.cpp) ----
  void arithmetic(const DecodedInstruction& d);
  void move(const DecodedInstruction& d);
  void convert(const DecodedInstruction& d);
  void setp(const DecodedInstruction& d);
  /// Remembers `pred := (reg == value)` (or !=) for the branch that may follow this setp at once.
  void noteEquality(const DecodedInstruction& d, const AbsValue& a, const AbsValue& b);
  void symbolicArithmetic(const DecodedInstruction& d, const std::vector<AbsValue>& in, const std::vector<std::string>& names);
  void addressing(const DecodedInstruction& d);
  void memoryAccess(const DecodedInstruction& d);
  void synchronisation(const DecodedInstruction& d);
  /// cp.async.bulk.tensor through a tensor-map parameter (EvalTensorCopy.cpp); `in` is its residual template.
  void tensorCopy(const DecodedInstruction& d, Instruction in);
  /// The kernel parameter a tensor-map address operand names, or nullopt with the reason in `why`.
  std::optional<int> tensorMapParam(const DOperand& address, std::string& why);
  /// wgmma.fence / mma_async / commit_group / wait_group (EvalWgmma.cpp).
  void wgmma(const DecodedInstruction& d);
  // ---- ldmatrix / stmatrix (EvalMatrix.cpp) ----
  /// The address this lane gives for its row (concrete, or the kind of value it is).
  AbsValue matrixRowAddress(const DecodedInstruction& d);
  /// The lane's accesses once the warp met: `addresses` holds, per matrix and fragment piece (MatrixFragments),
  /// the address of the piece (concrete, or not computed).
  void matrixAccess(const DecodedInstruction& d, const std::vector<AbsValue>& addresses);
  /// Discovering, a second path reaches a matrix instruction while the first waits at a collective: its loaded
  /// registers are opaque and a store may write any shared byte.
  void matrixUnmet(const DecodedInstruction& d);
  void call(const DecodedInstruction& d);
  void returnFromCall();

  // ---- memory ----
  struct Access {
    enum class Kind : std::uint8_t { Buffer, Private, KernelParam, Symbolic, Miss } kind = Kind::Miss;
    int buffer = -1;
    std::int64_t offset = 0;  // Buffer: in the buffer; Private: from kLocalStart; KernelParam: in the parameter
    int param = -1;
    std::string reason;       // Symbolic / Miss
    int provenance = -1;      // Symbolic: the buffer the address points into
    std::optional<TicketTerm> ticket;  // Symbolic: the address as a ticket term
  };
  Access resolve(const DOperand& address, std::int64_t extra, std::int64_t size, AddrSpace space);
  void splitCopy(Instruction copy, const Access& dst, const Access& src);
  std::string locationFor(const Access& a, int size);
  void recordWrite(const Access& a, std::int64_t size);
  bool readOnly(const Access& a, std::int64_t size) const;
  AbsValue initialValue(const Access& a, int size) const;
  AbsValue privateRead(std::int64_t offset, int size, std::string& residual);
  void privateWrite(std::int64_t offset, int size, const AbsValue& v, const std::string& residual);
  void symbolicAccess(const Access& a, bool write, std::optional<TicketAddress> address = std::nullopt);
  std::vector<int> reach(const Access& a) const;  // the buffers a symbolic address may point into
  void outOfBounds(const std::string& detail);

  // ---- ticket terms (EvalTickets.cpp) ----
  /// The ticket term the destination of register instruction `d` gets from its sources (read before it runs).
  std::optional<TicketTerm> carriedTicket(const DecodedInstruction& d);
  /// Gives the destination of `d`, just computed, the term carriedTicket found.
  void keepTicket(const DecodedInstruction& d, const std::optional<TicketTerm>& term);
  /// Makes `dst`, the result of the atom.add `d` on `counter` with a concrete increment, a fresh ticket (Emit pass).
  void newTicket(const DecodedInstruction& d, int dst, const Access& counter, std::int64_t increment);
  /// The address of a symbolic access `size` bytes wide as a ticket term into a global buffer, if it is one.
  std::optional<TicketAddress> ticketAddress(const Access& a, int size) const;

  LaunchContext& ctx_;
  int index_;
  KernelThread where_;
  AddressingThread addressing_;
  State state_;
  std::vector<Block> blocks_;
  std::unordered_map<std::string, int> memo_;
  std::set<std::pair<std::vector<int>, int>> queue_;    // (path, block) of blocks not yet evaluated
  std::map<std::vector<int>, std::vector<int>> blocksAt_;  // path -> the blocks starting there
  std::map<std::vector<int>, int> divergentBlocks_;  // path -> blocks made there by splits
  std::unordered_set<std::string> seenAtBackEdges_;   // states at decided backward jumps
  int current_ = -1;
  bool active_ = false;
  bool atBlockStart_ = false;
  std::int64_t steps_ = 0;
  int residualCount_ = 0;
  int temps_ = 0;
  bool stopped_ = false;  // a budget ran out: no more code is evaluated
  Collective collective_;
  std::optional<State> parked_;  // the state waiting at a collective
  // What the setp at `pc` (in call depth `depth`) found: pred holds iff (reg == value) == whenEqual. Cleared at
  // every block start, so it only refines a branch reached from that setp on the same path.
  struct EqualityFact {
    int pc = -1;
    std::size_t depth = 0;
    int pred = -1;
    int reg = -1;
    std::int64_t value = 0;  // canonical at the register's width
    bool whenEqual = true;
  };
  std::optional<EqualityFact> equality_;
  int parkedBlock_ = -1;
};

}  // namespace ptxmm::frontend::ptx
