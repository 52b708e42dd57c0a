// The Program IR: a litmus test (or, later, a kernel snippet) after parsing and before unrolling. It keeps the
// instructions as written (mnemonic, qualifiers, operands, source positions) so every later report can point
// at the user's text; the meaning of each instruction is given by the unroller, not here.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/Diagnostic.hpp"
#include "model/TreeRelease.hpp"
#include "model/Vocabulary.hpp"

namespace ptxmm::frontend {

using model::SourcePos;

enum class Opcode : std::uint8_t {
  Ld,          // ld/tld/suld/cold          operands: dst register, address
  St,          // st/sust                   operands: address, value
  Atom,        // atom/suatom               operands: dst register, address, value [, new value for cas]
  Red,         // red/sured                 operands: address, value
  Fence,       // fence{.sem}.scope, membar.level, fence.mbarrier_init, fence.sync_restrict   no operands
  FenceProxy,  // fence.proxy.<proxy|alias>{...}  operands: none, or the address of a ranged tensormap acquire
  BarSync,     // bar{.cta}.sync / barrier{.cta}.sync  operands: id [, thread count]; Dat3M: label [, id [, quorum]]
  BarArrive,   // bar{.cta}.arrive                     operands: id, thread count; Dat3M: label [, id [, quorum]]
  BarWarpSync, // bar.warp.sync                        operands: member mask
  ClusterArrive,  // barrier.cluster.arrive{.release|.relaxed}   no operands
  ClusterWait,    // barrier.cluster.wait{.acquire}              no operands
  MbarInit,       // mbarrier.init           operands: [m], count
  MbarArrive,     // mbarrier.arrive / arrive_drop (drop), {.expect_tx}: state|_, [m] [, count | tx count]
  MbarExpectTx,   // mbarrier.expect_tx      operands: [m], tx count
  MbarCompleteTx, // mbarrier.complete_tx    operands: [m], tx count
  MbarWait,       // mbarrier.test_wait / try_wait {.parity}: predicate, [m], token | parity
  CpAsync,        // cp.async.ca|cg          operands: [dst], [src], size
  CpAsyncCommit,  // cp.async{.bulk}.commit_group
  CpAsyncWait,    // cp.async{.bulk}.wait_group{.read} N, cp.async.wait_all   operands: N (none for wait_all)
  CpAsyncMbarArrive,  // cp.async.mbarrier.arrive{.noinc}  operands: [m]
  BulkCopy,       // cp.async.bulk{.tensor}: operands [dst], [src] (or [tmap, src] / [tmap, dst]), size, [m]
  StAsync,        // st.async                operands: [a], value [, [m]]
  RedAsync,       // red.async               operands: [a], value, [m]
  TcMma,          // tcgen05.mma             operands: [d], [a], [b]   (abstract: d := a + b)
  TcCp,           // tcgen05.cp              operands: [d], [s]
  TcLd,           // tcgen05.ld              operands: dst register, [t]
  TcSt,           // tcgen05.st              operands: [t], value
  TcCommit,       // tcgen05.commit.mbarrier::arrive::one   operands: [m]
  TcWait,         // tcgen05.wait::ld / wait::st
  TcFence,        // tcgen05.fence::before_thread_sync / after_thread_sync
  WgmmaFence,     // wgmma.fence
  WgmmaMma,       // wgmma.mma_async         operands: dst register, [a], [b]   (abstract: dst := a + b)
  WgmmaCommit,    // wgmma.commit_group
  WgmmaWait,      // wgmma.wait_group N      operands: N
  Local,       // register arithmetic: operands dst, sources...
  Setp,        // setp.<cmp>{.type} p, a, b
  Branch,      // conditional: `beq a, b, L` (cmp set, operands a, b, label) or `@p bra L` (predicate, label)
  Goto,        // goto L / bra L            operands: label
  Label,       // L:                        operands: label
};

/// Whether `op` belongs to a Hopper-era family (bar.warp.sync through wgmma), which only HopperSyntax reads; its
/// fence forms are plain Fence and FenceProxy. Their qualifiers are many, so `Instruction::text` is the one
/// faithful spelling of such an instruction.
constexpr bool isHopperEra(Opcode op) {
  switch (op) {
    case Opcode::BarWarpSync:
    case Opcode::ClusterArrive:
    case Opcode::ClusterWait:
    case Opcode::MbarInit:
    case Opcode::MbarArrive:
    case Opcode::MbarExpectTx:
    case Opcode::MbarCompleteTx:
    case Opcode::MbarWait:
    case Opcode::CpAsync:
    case Opcode::CpAsyncCommit:
    case Opcode::CpAsyncWait:
    case Opcode::CpAsyncMbarArrive:
    case Opcode::BulkCopy:
    case Opcode::StAsync:
    case Opcode::RedAsync:
    case Opcode::TcMma:
    case Opcode::TcCp:
    case Opcode::TcLd:
    case Opcode::TcSt:
    case Opcode::TcCommit:
    case Opcode::TcWait:
    case Opcode::TcFence:
    case Opcode::WgmmaFence:
    case Opcode::WgmmaMma:
    case Opcode::WgmmaCommit:
    case Opcode::WgmmaWait: return true;
    default: return false;
  }
}

/// What a fence is beyond its semantics and scope [§4.9, §4.10].
enum class FenceKind : std::uint8_t {
  Plain,                 // fence{.sem}.scope, membar
  MbarrierInit,          // fence.mbarrier_init.release.cluster: covers prior mbarrier.init only
  RestrictSharedCta,     // fence.release.sync_restrict::shared::cta.cluster (and its async::generic proxy form)
  RestrictSharedCluster, // fence.acquire.sync_restrict::shared::cluster.cluster (and its proxy form)
};

/// How a bulk asynchronous copy moves data and completes [§4.7].
enum class BulkKind : std::uint8_t {
  GlobalToShared,   // cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
  SharedToCluster,  // cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes
  SharedToGlobal,   // cp.async.bulk.global.shared::cta.bulk_group
  TensorLoad,       // cp.async.bulk.tensor...shared::cluster.global...mbarrier::complete_tx::bytes [dst], [tmap, src], [m]
  TensorStore,      // cp.async.bulk.tensor...global.shared::cta...bulk_group [tmap, dst], [src]
};

enum class Sem : std::uint8_t { Default, Weak, Relaxed, Acquire, Release, AcqRel, Sc, Volatile, Mmio };

enum class AtomOp : std::uint8_t { Add, Sub, Mul, Div, And, Or, Xor, Cas, Exch, Inc, Dec, Min, Max };

/// Register operations. Opaque (kernels only): the destination gets a value ptxmm does not compute (float
/// arithmetic on symbolic inputs, a clock, an operation the IR cannot express), depending on the sources.
enum class LocalOp : std::uint8_t { Mov, Add, Sub, Mul, Div, Rem, And, Or, Xor, Shl, Shr, Min, Max, Neg, Not, Opaque };

enum class CmpOp : std::uint8_t { Eq, Ne, Lt, Le, Gt, Ge };

/// The operator `cmp` is written as in litmus conditions and in C: "==", "!=", "<", "<=", ">", ">=".
constexpr std::string_view cmpOperator(CmpOp cmp) {
  switch (cmp) {
    case CmpOp::Eq: return "==";
    case CmpOp::Ne: return "!=";
    case CmpOp::Lt: return "<";
    case CmpOp::Le: return "<=";
    case CmpOp::Gt: return ">";
    case CmpOp::Ge: return ">=";
  }
  return {};
}

/// The state space named on an instruction or a location; Unspecified means "generic addressing", which for a
/// litmus location declared without a space is global memory.
enum class StateSpace : std::uint8_t { Unspecified, Global, Shared, SharedCta, SharedCluster };

struct Operand {
  enum class Kind : std::uint8_t { Register, Immediate, Location, Label };
  Kind kind = Kind::Immediate;
  std::string name;       // register, location or label name
  std::int64_t value = 0; // immediate value
  SourcePos pos;
};

struct Instruction {
  Opcode op = Opcode::Label;
  std::string text;  // the instruction as written, whitespace-normalised, for reports
  SourcePos pos;
  Sem sem = Sem::Default;
  std::optional<model::Scope> scope;         // .cta/.cluster/.gpu/.sys (membar.gl gives Gpu)
  model::Proxy proxy = model::Proxy::Generic;  // proxy of a memory access, or the proxy a proxy fence fences
  bool aliasFence = false;                   // fence.proxy.alias
  StateSpace space = StateSpace::Unspecified;
  AtomOp atomOp = AtomOp::Add;               // Atom, Red
  LocalOp localOp = LocalOp::Mov;            // Local
  CmpOp cmp = CmpOp::Eq;                     // Setp, conditional Branch
  bool predicated = false;                   // `@p bra L` / `@!p bra L`: operands[0] is the predicate register
  bool negatePredicate = false;              // `@!p`
  FenceKind fenceKind = FenceKind::Plain;    // Fence, and the release/acquire half of a FenceProxy
  bool uniDirectional = false;               // FenceProxy: generic -> proxy only (tensormap, async::generic)
  BulkKind bulk = BulkKind::GlobalToShared;  // BulkCopy
  bool reduce = false;                       // BulkCopy: cp.reduce.async.bulk, combining with atomOp
  bool sink = false;                         // MbarArrive: the state goes to `_`
  bool drop = false;                         // MbarArrive: arrive_drop
  bool expectTx = false;                     // MbarArrive: .expect_tx
  bool noComplete = false;                   // MbarArrive: .noComplete
  bool parity = false;                       // MbarWait: .parity (else a token)
  bool tryWait = false;                      // MbarWait: try_wait (else test_wait)
  bool bulkGroup = false;                    // CpAsyncCommit/CpAsyncWait: the bulk-group form
  bool readOnly = false;                     // CpAsyncWait: .read
  bool waitAll = false;                      // CpAsyncWait: cp.async.wait_all
  bool noinc = false;                        // CpAsyncMbarArrive: .noinc
  bool afterSync = false;                    // TcFence: ::after_thread_sync (else ::before_thread_sync)
  bool waitSt = false;                       // TcWait: ::st (else ::ld)
  int valueBits = 0;          // kernels: Atom/Red values are valueBits wide and wrap (0: untyped litmus values)
  bool valueUnsigned = false; // kernels: Atom/Red min/max/inc/dec compare unsigned
  bool opaqueValue = false;   // kernels: an Atom/Red that writes a value ptxmm does not compute (atom.add.f32)
  int origin = -1;            // kernels: index into KernelProgram::origins
  // BarSync/BarArrive written in Dat3M's litmus form `bar.cta.sync|arrive C{, ID{, Q}}`: C is a static label
  // (only barriers with the same label and resource synchronise), ID the resource (without it, C), Q the quorum
  // in test threads. Otherwise PTX's `bar{.cta}.sync a{, b}`: resource a, b a thread count [§4.4].
  bool dat3mBarrier = false;
  bool aligned = false;                      // BarSync/BarArrive: bar, or barrier...aligned: divergence is UB [§4.4]
  std::vector<Operand> operands;
};

/// Whether `in` writes a register, named by its first operand (every other register operand is read).
constexpr bool writesFirstOperand(const Instruction& in) {
  switch (in.op) {
    case Opcode::Ld:
    case Opcode::Atom:
    case Opcode::Local:
    case Opcode::Setp:
    case Opcode::MbarWait:
    case Opcode::TcLd:
    case Opcode::WgmmaMma: return true;
    case Opcode::MbarArrive: return !in.sink;
    default: return false;
  }
}

struct Thread {
  std::string name;  // "P0"
  int index = 0;     // position in the thread header row
  int cta = 0;       // user-written coordinates of `P0@cta C,cluster K,warp W,gpu G`
  std::optional<int> cluster;  // absent: the CTA is its own cluster
  std::optional<int> warp;     // absent: the thread is a warp of its own (litmus threads stand for warps)
  int gpu = 0;
  SourcePos pos;
  std::vector<Instruction> code;
};

/// What a location holds.
enum class LocationKind : std::uint8_t {
  Memory,     // plain data (global by default; in a CTA's shared memory when declared so)
  MBarrier,   // an mbarrier object in a CTA's shared memory (8 bytes) [§4.2]
  TensorMap,  // a tensor map (TMA descriptor) in global memory, read by TMA in the tensormap proxy [§4.7]
  Tmem,       // a cell of a CTA's tensor memory (tcgen05) [§4.12]
};

/// A name usable as an address. `x = 0` declares a physical location with its own virtual address;
/// `y @ generic aliases x` a new virtual address for x's physical location (an alias, §1.2); `s @ surface
/// aliases x` the same virtual address as x, meant to be accessed through another proxy (a synonym).
/// `s @ shared cta 1 = 0` puts a location in CTA 1's shared memory; `b @ mbarrier cta 0`, `tm @ tensormap = 0`
/// and `t @ tmem cta 0 = 0` declare the other kinds; `size N` gives the object's size in bytes.
struct Location {
  std::string name;
  std::int64_t init = 0;
  SourcePos pos;
  StateSpace space = StateSpace::Unspecified;  // Shared for shared-memory and mbarrier locations
  LocationKind kind = LocationKind::Memory;
  std::optional<int> ownerCta;                 // shared memory / mbarrier / tmem: the owning CTA
  int ownerGpu = 0;
  int size = 4;                                // bytes (bulk copies must match their operands' sizes)
  std::optional<model::Proxy> aliasProxy;  // set for `@ <proxy> aliases <target>` declarations
  std::string aliasOf;                     // the target's name
  bool declared = true;                    // false for locations first seen in the code (initialised to 0)
  std::string addressOf;                   // `x = &y` (or `x = y`): x initially holds y's address, not `init`
};

struct RegInit {
  int thread = 0;
  std::string reg;
  std::int64_t value = 0;
  std::string addressOf;  // `P0:r1 = &x` (or `= x`): the register holds x's address, not `value`
  SourcePos pos;
};

/// A value in the final condition: a constant, a thread's register or a location's final value.
struct CondValue {
  enum class Kind : std::uint8_t { Constant, Register, Location };
  Kind kind = Kind::Constant;
  std::int64_t value = 0;
  int thread = -1;
  std::string name;
  SourcePos pos;
};

struct CondExpr;
using CondPtr = std::shared_ptr<const CondExpr>;

/// A proposition of the final condition. A chain of /\ or \/ is as deep as it is long (200,000 conjuncts are
/// 200,000 levels): walk it with ConditionWalk.hpp, never recursively; it is destroyed without recursion too.
struct CondExpr {
  enum class Kind : std::uint8_t { True, False, And, Or, Not, Compare };
  Kind kind = Kind::True;
  CmpOp cmp = CmpOp::Eq;
  CondValue lhs, rhs;  // Compare
  CondPtr a, b;        // And, Or (a, b); Not (a)
  SourcePos pos;

  CondExpr() = default;
  CondExpr(const CondExpr&) = default;
  CondExpr& operator=(const CondExpr&) = default;
  ~CondExpr() {
    model::releaseChildren(*this, [](CondExpr& e) { return model::ChildSlots<CondExpr>{{&e.a, &e.b, nullptr}, 2}; });
  }
};

struct Condition {
  enum class Quantifier : std::uint8_t { Exists, NotExists, Forall };
  Quantifier quantifier = Quantifier::Exists;
  CondPtr expr;
  std::string text;  // the proposition as written (without the quantifier), whitespace-normalised
  SourcePos pos;
};

struct Program {
  std::string arch;  // "PTX"
  std::string name;
  std::string file;
  std::vector<std::string> descriptions;
  std::vector<Location> locations;
  std::vector<RegInit> regInits;
  std::vector<Thread> threads;
  std::vector<CondValue> observed;  // `locations [...]`: registers and locations to show besides the condition's
  CondPtr filter;                   // `filter P` before the condition: only final states satisfying P count
  std::string filterText;           // P as written
  Condition condition;
  bool threadsAreWarps = true;  // litmus threads stand for warps; a kernel's threads are threads
};

}  // namespace ptxmm::frontend
