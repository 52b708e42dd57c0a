// The instruction vocabulary of PTX litmus tests, in one place: every mnemonic with its opcode, proxy and
// syntactic form, and every qualifier spelling with its meaning and the forms that accept it. Readers look
// spellings up here and build their diagnostics from these tables ("needs a scope (.cta, .cluster, .gpu or
// .sys)"), so a new qualifier or mnemonic is a one-row change and no message can list a stale spelling.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/Program.hpp"

namespace ptxmm::frontend {

/// How an instruction is written: which qualifiers and operands it takes. Mnemonics of one form differ only
/// in opcode, proxy or operation (ld, tld, suld and cold are all loads).
enum class InstrForm : std::uint8_t {
  Load,           // dst, address
  Store,          // address, value
  Atom,           // dst, address, value [, new value for cas]
  Red,            // address, value
  Fence,          // fence{.sem}.scope and fence.proxy.<target>
  Membar,         // membar.level
  Barrier,        // bar/barrier{.cta}.sync|arrive id [, count]
  Local,          // register arithmetic: dst, sources
  Setp,           // setp.cmp p, a, b
  CompareBranch,  // beq a, b, L
  Bra,            // {@p} bra{.uni} L
  Goto,           // goto L
};

struct MnemonicInfo {
  std::string_view name{};
  InstrForm form = InstrForm::Load;
  Opcode op = Opcode::Ld;                      // Barrier: replaced by the action; Bra: Branch when predicated
  model::Proxy proxy = model::Proxy::Generic;  // memory accesses
  Sem impliedSem = Sem::Default;               // the semantics when none is written (membar is fence.sc)
  LocalOp localOp = LocalOp::Mov;              // Local
  int sources = 0;                             // Local: number of source operands
  CmpOp cmp = CmpOp::Eq;                       // CompareBranch
};

/// What may be written at an operand position (the Hopper-era instructions have a few more, HopperRole).
enum class OperandRole : std::uint8_t { Dst, Addr, Value, Label };

/// The operand positions of an instruction; the first `required` must be present.
struct OperandSignature {
  std::vector<OperandRole> roles;
  std::size_t required = 0;
};

/// What a qualifier says. An instruction carries at most one qualifier of each kind.
enum class QualKind : std::uint8_t {
  Sem,            // .weak .relaxed .acquire .release .acq_rel .sc .volatile
  Mmio,           // .mmio (written together with .relaxed.sys)
  Scope,          // .cta .cluster .gpu .sys, and membar's .gl
  Space,          // .global .shared .shared::cta .shared::cluster
  AtomOp,         // .add .cas .exch ...
  Cmp,            // setp's .eq .ne ...
  Type,           // .b32 .u64 .pred ... (accepted, ignored: litmus values are 64-bit integers)
  BarrierAction,  // .sync .arrive
  Aligned,        // barriers' .aligned
  Uni,            // bra.uni
  ProxyFence,     // fence.proxy: the qualifiers after it name what is fenced
  Unsupported,    // known, refused with a message (.nc, vectors, bar.red)
};
inline constexpr std::size_t kQualKindCount = static_cast<std::size_t>(QualKind::Unsupported) + 1;

using FormSet = std::uint16_t;
/// The set holding only `form`.
constexpr FormSet formBit(InstrForm form) { return static_cast<FormSet>(1u << static_cast<unsigned>(form)); }

struct QualifierInfo {
  std::string_view name{};                    // the spelling without the leading dot
  QualKind kind = QualKind::Sem;
  FormSet forms = 0;                          // the forms that accept it
  Sem sem = Sem::Default;                     // Sem, Mmio
  bool needsScope = false;                    // Sem: strong, so written with a scope on ld/st and fences
  model::Scope scope = model::Scope::Thread;  // Scope
  StateSpace space = StateSpace::Unspecified; // Space
  AtomOp atomOp = AtomOp::Add;                // AtomOp
  CmpOp cmp = CmpOp::Eq;                      // Cmp
  Opcode barrierOp = Opcode::BarSync;         // BarrierAction
  std::string_view message{};                 // Unsupported; empty means "<mnemonic>.<name> is not supported yet"
};

/// What a proxy fence orders: the alias fence, or accesses of one non-generic proxy against generic ones.
struct ProxyFenceTarget {
  bool alias = false;
  model::Proxy proxy = model::Proxy::Generic;
};

/// The mnemonic spelled `name`, or nullptr.
const MnemonicInfo* findMnemonic(std::string_view name);
/// The qualifier spelled `name` (without the dot), or nullptr.
const QualifierInfo* findQualifier(std::string_view name);
/// The operands of an instruction of `info`'s form, as far as `ins` (its qualifiers applied) tells them: atom.cas
/// takes one value more, Dat3M's barrier form a label, an id and a quorum, PTX's bar.arrive a count.
OperandSignature operandSignature(const MnemonicInfo& info, const Instruction& ins);
/// For messages: "ld.weak takes 2 operands", "bar.sync takes 1 or 2 operands", "bar.cta.sync takes 1 to 3
/// operands", "fence.sc.gpu takes no operands".
std::string arityText(const std::string& written, const OperandSignature& sig);
/// Whether `qualifier` may be written on an instruction of `form`.
bool allowsQualifier(InstrForm form, const QualifierInfo& qualifier);
/// The `kind` qualifiers accepted by `form`, for messages: ".cta, .cluster, .gpu or .sys".
std::string qualifierList(InstrForm form, QualKind kind);
/// The semantic qualifiers of `form` that come with a scope, for messages: ".relaxed, .acquire or .release".
std::string scopedSemList(InstrForm form);
/// The spelling of a semantic qualifier without the dot ("relaxed", "mmio"); empty for Default.
std::string_view semName(Sem sem);
/// What `fence.proxy.<name>` fences; nullopt when ptxmm does not support that proxy fence.
std::optional<ProxyFenceTarget> findProxyFenceTarget(std::string_view name);
/// The supported fence.proxy targets, for messages: ".alias, .surface, .texture or .constant".
std::string proxyFenceTargetList();
/// The proxies of `@ <proxy> aliases` declarations, for messages: "generic, surface, texture or constant".
std::string proxyList();
/// The proxy of an `@ <proxy> aliases` declaration (generic, surface, texture or constant), or nullopt.
std::optional<model::Proxy> findAliasProxy(std::string_view name);
/// Whether `word` is a C type accepted before a location in the init block (`int x = 0`, `uint64_t x = 0`).
bool isInitTypeWord(std::string_view word);
/// Joins alternatives for a message: {"a", "b", "c"} gives "a, b or c".
std::string joinAlternatives(const std::vector<std::string>& items);

/// Every mnemonic row, in table order.
std::span<const MnemonicInfo> mnemonicTable();
/// Every qualifier row, in table order.
std::span<const QualifierInfo> qualifierTable();

}  // namespace ptxmm::frontend
