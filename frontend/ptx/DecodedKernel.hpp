// The PTX functions of a launch decoded once, before any thread runs: every instruction becomes an operation of
// the partial evaluator with its types, flags and resolved operands (register ids, special registers,
// variables, labels), and, for memory and synchronisation instructions, the template of its residual
// Instruction, whose semantics, scope, proxy and Hopper-era flags come from the litmus tables
// (InstructionTable/QualifierRules/HopperSyntax), so a qualifier means the same in a kernel and in a litmus
// test. An instruction ptxmm does not support is decoded to Unsupported with a located message naming it, thrown
// only if a thread reaches it. Registers get dense ids per function, and each instruction the registers live
// before it (the partial evaluator keys its memo table on live registers only).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/Program.hpp"
#include "frontend/litmus/HopperSyntax.hpp"
#include "frontend/ptx/FloatOps.hpp"
#include "frontend/ptx/IntegerOps.hpp"
#include "frontend/ptx/LaunchMemory.hpp"
#include "frontend/ptx/PtxModule.hpp"

namespace ptxmm::frontend::ptx {

/// What the partial evaluator does with an instruction.
enum class PeOp : std::uint8_t {
  // register arithmetic
  Mov, Add, Sub, Mul, Mad, Sad, Div, Rem, Abs, Neg, Min, Max, And, Or, Xor, Not, Cnot, Shl, Shr, Shf,
  Selp, Setp, Cvt, Cvta, Bfe, Bfi, Bfind, Prmt, Popc, Clz, Brev, Fma, FloatArith, Copysign, Testp,
  OpaqueResult,  // an instruction whose result ptxmm does not compute (approximate math, mma, createpolicy)
  // addresses
  Mapa, Getctarank, Isspacep,
  // memory
  Ld, St, Atom, Red,
  // synchronisation and asynchronous copies: the residual template, operands by role
  Sync,
  BarRed,  // bar.red: a CTA barrier with a reduction over the participants
  Wgmma,   // wgmma.fence / mma_async / commit_group / wait_group (mma_async: mode = N of its shape)
  // control
  Bra, Ret, Exit, Call, Trap,
  // warp collectives
  Shfl, Vote, Match, Redux, Activemask, Elect,
  MatrixLoad, MatrixStore,  // ldmatrix, stmatrix: each lane's accesses at rows whose addresses other lanes give
  Nop,  // no memory-model effect: nanosleep, prefetch, pmevent, griddepcontrol, setmaxnreg, applypriority
  Unsupported,
};

enum class Special : std::uint8_t {
  None, Tid, Ntid, Ctaid, Nctaid, Laneid, WarpSize, ClusterCtaid, ClusterNctaid, ClusterCtarank, ClusterNctarank,
  Clusterid, Nclusterid, IsExplicitCluster, DynamicSmemSize, TotalSmemSize, LanemaskEq, LanemaskLe, LanemaskLt,
  LanemaskGe, LanemaskGt,
  GridWorkspaceHigh, GridWorkspaceLow,  // %envreg1, %envreg2: the cooperative grid barrier's workspace address
  Unknown,  // %clock, %clock64, %globaltimer, %smid, %warpid ...: a fresh opaque value at every read
};

/// What a symbol names.
struct SymbolRef {
  enum class Kind : std::uint8_t { None, Global, Shared, Local, KernelParam, FuncParam, Function };
  Kind kind = Kind::None;
  int index = -1;  // Global: module global index; Shared: shared variable; Local: local variable of the function;
                   // KernelParam / FuncParam: parameter index (FuncParam also the return params after the params)
};

struct DOperand {
  enum class Kind : std::uint8_t { None, Reg, Imm, Special, Symbol, Address, Vector, Sink, Label, List };
  Kind kind = Kind::None;
  int reg = -1;           // Reg; Address with a register base
  int second = -1;        // the predicate register of `d|p`
  bool negated = false;   // `!p`
  Immediate imm;          // Imm
  Special special = Special::None;
  int component = 0;      // x, y, z of a special register
  SymbolRef symbol;       // Symbol; Address with a symbol base
  std::int64_t offset = 0;
  int target = -1;        // Label: instruction index
  std::vector<DOperand> elements;  // Vector, List, Address (tensor coordinates)
  SourcePos pos;

  /// The operand naming register `r`.
  static DOperand ofRegister(int r) {
    DOperand o;
    o.kind = Kind::Reg;
    o.reg = r;
    return o;
  }
};

struct DecodedInstruction {
  PeOp op = PeOp::Unsupported;
  const PtxInstruction* source = nullptr;
  std::string error;           // Unsupported: the located message
  PtxType type;                // the instruction type (cvt: the destination type)
  PtxType type2;               // cvt: the source type; mul/mad.wide: the result type
  bool opaqueType = false;     // a half, bfloat, fp8 or packed type: arithmetic is not evaluated
  // flags
  bool hi = false, wide = false, sat = false, ftz = false, nearest = true, uni = false, nc = false, shiftClamp = true;
  bool shfLeft = false;
  std::optional<Rounding> integralRounding;  // cvt.rni/rzi/rmi/rpi
  Rounding rounding = Rounding::Nearest;
  IntCmp icmp = IntCmp::Eq;
  bool unsignedCmp = false;
  FloatCmp fcmp = FloatCmp::Eq;
  bool floatCmp = false;
  LocalOp combine = LocalOp::Mov;  // setp .and/.or/.xor (Mov: none); bar.red/vote/redux operation
  int mode = 0;                    // prmt mode; shfl mode; vote mode; cvta direction; match mode; testp FloatTest;
                                   // ldmatrix/stmatrix: 1 with .trans
  FloatOp floatOp = FloatOp::Add;  // FloatArith
  int vector = 1;                  // .v2/.v4 of ld/st; ldmatrix/stmatrix: the matrices (.x1/.x2/.x4)
  AddrSpace space = AddrSpace::Generic;
  AtomOp atomOp = AtomOp::Add;
  std::vector<DOperand> ops;
  int guard = -1;
  bool guardNegated = false;
  std::optional<frontend::Instruction> residual;  // memory and synchronisation: the residual template
  std::vector<HopperRole> roles;                  // Sync: what each operand is
};

/// A function decoded for the evaluator.
struct DecodedFunction {
  const Function* source = nullptr;
  std::vector<DecodedInstruction> code;
  std::vector<std::string> registerNames;   // by id
  std::vector<int> registerBits;            // by id (1 for predicates)
  std::vector<std::vector<int>> liveBefore; // per instruction: the registers live before it
  std::vector<bool> isLabel;                // per instruction: a branch target
  std::vector<std::int64_t> localOffsets;   // per Function::locals entry: offset in the frame's local memory
  std::int64_t frameBytes = 0;
};

/// Module-level facts the decoder needs: which shared variable index each name has.
struct DecodeContext {
  const Module& module;
  std::unordered_map<std::string, int> sharedVariables;  // module or entry .shared name -> shared variable index
  std::unordered_map<std::string, int> globals;          // module .global/.const name -> index in module.globals
};

/// Decodes `fn` (throws model::UserError only for malformed operands; unsupported instructions decode to
/// Unsupported).
DecodedFunction decodeFunction(const Function& fn, const DecodeContext& context);

}  // namespace ptxmm::frontend::ptx
