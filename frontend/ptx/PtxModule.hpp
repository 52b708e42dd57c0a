// A PTX module as read from the text, before any launch: the module header, the `.file` table, module-scope
// variables with their initialisers, and the functions (`.entry` kernels and `.func` helpers) with their
// parameters, performance directives and bodies. A body is a flat list of instructions; labels map to
// instruction indices, and every instruction knows the `.loc` in force where it stands. Names declared in
// nested `{ }` blocks (inline asm, call sequences) are made unique (`p#3`) so one function-wide namespace
// holds them. Nothing here depends on a launch; PtxInstantiator gives the instructions their meaning.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/QualifierRules.hpp"
#include "frontend/ptx/KernelProgram.hpp"
#include "frontend/ptx/PtxTypes.hpp"
#include "model/Diagnostic.hpp"

namespace ptxmm::frontend::ptx {

using model::SourcePos;

/// An immediate as written: an integer, a float given by its bits (0f..., 0d...), or a decimal float.
struct Immediate {
  enum class Kind : std::uint8_t { Integer, F32Bits, F64Bits, Decimal };
  Kind kind = Kind::Integer;
  std::uint64_t bits = 0;  // Integer: two's complement; F32Bits/F64Bits: the IEEE bits; Decimal: a double's bits
};

struct PtxOperand {
  enum class Kind : std::uint8_t {
    Register,   // %r1, %tid.x, p (name), or `d|p` (name and `second`)
    Immediate,  // 12, -1, 0f3F800000
    Symbol,     // a variable, parameter, function or label name, with an optional byte offset (sym+8)
    Address,    // [base+offset] (base: register, symbol or none), or [map, {c0, c1}] (elements)
    Vector,     // {a, b, c, d}
    List,       // (a, b): call arguments and results
    Sink,       // _
  };
  Kind kind = Kind::Immediate;
  std::string name;         // Register, Symbol, Address base (empty for an absolute address)
  std::string second;       // Register: the predicate of `d|p`
  bool baseIsRegister = false;  // Address: whether name is a register
  bool negated = false;     // `!%p`
  Immediate imm;            // Immediate
  std::int64_t offset = 0;  // Symbol, Address
  std::vector<PtxOperand> elements;  // Vector, List, Address (tensor coordinates)
  SourcePos pos;
};

/// A `.loc file line col` directive, with its `inlined_at` position when the code was inlined.
struct LocInfo {
  int file = 0;
  int line = 0;
  int col = 0;
  std::optional<SourcePos> inlinedAt;  // file holds the decimal file index until the module is complete
};

struct PtxInstruction {
  std::string guard;  // predicate register of `@p` / `@!p`, empty when unguarded
  bool guardNegated = false;
  std::string opcode;                   // `ld`
  std::vector<WrittenQual> qualifiers;  // `global`, `u32` (without dots, in order)
  std::vector<PtxOperand> operands;
  std::string text;  // the instruction as written, whitespace-normalised (without `;`)
  SourcePos pos;     // the opcode's position in the .ptx file
  int loc = -1;      // index into Function::locs of the .loc in force, -1 when none
};

/// A variable declared with .global/.const/.shared/.local/.param, at module scope or in a function body.
struct Variable {
  enum class Space : std::uint8_t { Global, Const, Shared, Local, Param };
  /// One element of an initialiser: a number, or the address of a variable (plus a byte offset).
  struct Init {
    bool isSymbol = false;
    Immediate value;
    std::string symbol;
    std::int64_t offset = 0;
  };
  Space space = Space::Global;
  std::string name;
  PtxType type;
  int vector = 1;           // .v2/.v4: elements per entry
  std::int64_t align = 0;   // 0: the type's natural alignment
  std::int64_t count = 1;   // elements (product of the array dimensions); 0 for an unsized `[]` (extern shared)
  bool isArray = false;
  bool isExtern = false;
  bool ptrParam = false;    // a parameter declared `.ptr` (Triton): a pointer into ptrSpace
  std::vector<Init> init;   // flattened, in element order; empty when not initialised
  SourcePos pos;

  /// Bytes of one element (the type's size times the vector width).
  std::int64_t elementBytes() const { return std::int64_t{type.bytes()} * vector; }
  /// Bytes of the whole variable (0 for an unsized array).
  std::int64_t bytes() const { return elementBytes() * count; }
  /// The alignment in bytes (the declared one, or the element's).
  std::int64_t alignment() const { return align > 0 ? align : elementBytes(); }
};

struct Function {
  std::string name;
  bool isEntry = false;
  bool hasBody = false;  // false for a prototype (`.extern .func vprintf (...);`)
  std::vector<Variable> params;   // .param (entry and func) in order
  std::vector<Variable> returns;  // .func return parameters
  // Performance directives [PTX ISA 11.4]: .maxntid/.reqntid/.reqnctapercluster give dimensions.
  std::optional<Dim3> maxntid, reqntid, reqnctapercluster;
  bool explicitCluster = false;
  SourcePos pos;
  // The body.
  std::vector<PtxInstruction> code;
  std::unordered_map<std::string, int> labels;          // label -> index of the instruction that follows it
  std::unordered_map<std::string, PtxType> registers;   // declared registers (ranges expanded)
  std::vector<Variable> locals;                         // .local/.shared/.param declared in the body
  std::vector<LocInfo> locs;
  SourcePos end;  // the closing brace (where falling off the body ends the thread)
};

struct Module {
  std::string file;  // the .ptx file name as given
  std::string version;
  std::vector<std::string> targets;
  int addressSize = 64;
  std::map<int, std::string> files;  // .file index -> path
  std::vector<Variable> globals;     // module-scope .global/.const/.shared variables
  std::vector<Function> functions;

  /// The function named `name`, or nullptr.
  const Function* function(const std::string& name) const;
  /// The module-scope variable named `name`, or nullptr.
  const Variable* global(const std::string& name) const;
};

}  // namespace ptxmm::frontend::ptx
