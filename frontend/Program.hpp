// The Program IR: a litmus test (or, later, a kernel snippet) after parsing and before unrolling. It keeps the
// instructions as written (mnemonic, qualifiers, operands, source positions) so every later report can point
// at the user's text; the meaning of each instruction is given by the unroller, not here.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/Diagnostic.hpp"
#include "model/Vocabulary.hpp"

namespace ptxmm::frontend {

using model::SourcePos;

enum class Opcode : std::uint8_t {
  Ld,          // ld/tld/suld/cold          operands: dst register, address
  St,          // st/sust                   operands: address, value
  Atom,        // atom/suatom               operands: dst register, address, value [, new value for cas]
  Red,         // red/sured                 operands: address, value
  Fence,       // fence{.sem}.scope, membar.level   no operands
  FenceProxy,  // fence.proxy.<proxy|alias>          no operands
  BarSync,     // bar{.cta}.sync / barrier{.cta}.sync  operands: id [, thread count]
  BarArrive,   // bar{.cta}.arrive                     operands: id, thread count
  Local,       // register arithmetic: operands dst, sources...
  Setp,        // setp.<cmp>{.type} p, a, b
  Branch,      // conditional: `beq a, b, L` (cmp set, operands a, b, label) or `@p bra L` (predicate, label)
  Goto,        // goto L / bra L            operands: label
  Label,       // L:                        operands: label
};

enum class Sem : std::uint8_t { Default, Weak, Relaxed, Acquire, Release, AcqRel, Sc, Volatile, Mmio };

enum class AtomOp : std::uint8_t { Add, Sub, Mul, Div, And, Or, Xor, Cas, Exch, Inc, Dec, Min, Max };

enum class LocalOp : std::uint8_t { Mov, Add, Sub, Mul, Div, Rem, And, Or, Xor, Shl, Shr, Min, Max, Neg, Not };

enum class CmpOp : std::uint8_t { Eq, Ne, Lt, Le, Gt, Ge };

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
  std::vector<Operand> operands;
};

struct Thread {
  std::string name;  // "P0"
  int index = 0;     // position in the thread header row
  int cta = 0;       // user-written coordinates of `P0@cta C,cluster K,gpu G`
  std::optional<int> cluster;  // absent: the CTA is its own cluster
  int gpu = 0;
  SourcePos pos;
  std::vector<Instruction> code;
};

/// A name usable as an address. `x = 0` declares a physical location with its own virtual address;
/// `y @ generic aliases x` a new virtual address for x's physical location (an alias, §1.2); `s @ surface
/// aliases x` the same virtual address as x, meant to be accessed through another proxy (a synonym).
struct Location {
  std::string name;
  std::int64_t init = 0;
  SourcePos pos;
  StateSpace space = StateSpace::Unspecified;
  std::optional<model::Proxy> aliasProxy;  // set for `@ <proxy> aliases <target>` declarations
  std::string aliasOf;                     // the target's name
  bool declared = true;                    // false for locations first seen in the code (initialised to 0)
};

struct RegInit {
  int thread = 0;
  std::string reg;
  std::int64_t value = 0;
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

struct CondExpr {
  enum class Kind : std::uint8_t { True, False, And, Or, Not, Compare };
  Kind kind = Kind::True;
  CmpOp cmp = CmpOp::Eq;
  CondValue lhs, rhs;  // Compare
  CondPtr a, b;        // And, Or (a, b); Not (a)
  SourcePos pos;
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
  Condition condition;
};

}  // namespace ptxmm::frontend
