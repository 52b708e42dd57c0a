// The rows behind InstructionTable.hpp. Scope spellings repeat model/Vocabulary's scope table because membar
// adds `.gl` and each spelling needs its own set of forms; a unit test checks the two tables agree.
#include "frontend/InstructionTable.hpp"

#include <array>

namespace ptxmm::frontend {
namespace {

using model::Proxy;
using model::Scope;

constexpr FormSet kLoad = formBit(InstrForm::Load);
constexpr FormSet kStore = formBit(InstrForm::Store);
constexpr FormSet kAtom = formBit(InstrForm::Atom);
constexpr FormSet kRed = formBit(InstrForm::Red);
constexpr FormSet kFence = formBit(InstrForm::Fence);
constexpr FormSet kMembar = formBit(InstrForm::Membar);
constexpr FormSet kBarrier = formBit(InstrForm::Barrier);
constexpr FormSet kLocal = formBit(InstrForm::Local);
constexpr FormSet kSetp = formBit(InstrForm::Setp);
constexpr FormSet kBra = formBit(InstrForm::Bra);
constexpr FormSet kMemory = kLoad | kStore | kAtom | kRed;
constexpr FormSet kValued = kMemory | kLocal | kSetp;

constexpr MnemonicInfo memory(std::string_view name, InstrForm form, Opcode op, Proxy proxy) {
  return {.name = name, .form = form, .op = op, .proxy = proxy};
}
constexpr MnemonicInfo local(std::string_view name, LocalOp op, int sources) {
  return {.name = name, .form = InstrForm::Local, .op = Opcode::Local, .localOp = op, .sources = sources};
}
constexpr MnemonicInfo compareBranch(std::string_view name, CmpOp cmp) {
  return {.name = name, .form = InstrForm::CompareBranch, .op = Opcode::Branch, .cmp = cmp};
}

constexpr std::array kMnemonics = {
    memory("ld", InstrForm::Load, Opcode::Ld, Proxy::Generic),
    memory("tld", InstrForm::Load, Opcode::Ld, Proxy::Texture),
    memory("suld", InstrForm::Load, Opcode::Ld, Proxy::Surface),
    memory("cold", InstrForm::Load, Opcode::Ld, Proxy::Constant),
    memory("st", InstrForm::Store, Opcode::St, Proxy::Generic),
    memory("sust", InstrForm::Store, Opcode::St, Proxy::Surface),
    memory("atom", InstrForm::Atom, Opcode::Atom, Proxy::Generic),
    memory("suatom", InstrForm::Atom, Opcode::Atom, Proxy::Surface),
    memory("red", InstrForm::Red, Opcode::Red, Proxy::Generic),
    memory("sured", InstrForm::Red, Opcode::Red, Proxy::Surface),
    // `fence.S` is fence.acq_rel.S and membar.L is fence.sc.L (spec §1.5).
    MnemonicInfo{.name = "fence", .form = InstrForm::Fence, .op = Opcode::Fence, .impliedSem = Sem::AcqRel},
    MnemonicInfo{.name = "membar", .form = InstrForm::Membar, .op = Opcode::Fence, .impliedSem = Sem::Sc},
    MnemonicInfo{.name = "bar", .form = InstrForm::Barrier, .op = Opcode::BarSync},
    MnemonicInfo{.name = "barrier", .form = InstrForm::Barrier, .op = Opcode::BarSync},
    local("mov", LocalOp::Mov, 1),
    local("neg", LocalOp::Neg, 1),
    local("not", LocalOp::Not, 1),
    local("add", LocalOp::Add, 2),
    local("sub", LocalOp::Sub, 2),
    local("mul", LocalOp::Mul, 2),
    local("div", LocalOp::Div, 2),
    local("rem", LocalOp::Rem, 2),
    local("and", LocalOp::And, 2),
    local("or", LocalOp::Or, 2),
    local("xor", LocalOp::Xor, 2),
    local("shl", LocalOp::Shl, 2),
    local("shr", LocalOp::Shr, 2),
    local("min", LocalOp::Min, 2),
    local("max", LocalOp::Max, 2),
    MnemonicInfo{.name = "setp", .form = InstrForm::Setp, .op = Opcode::Setp},
    compareBranch("beq", CmpOp::Eq),
    compareBranch("bne", CmpOp::Ne),
    compareBranch("blt", CmpOp::Lt),
    compareBranch("ble", CmpOp::Le),
    compareBranch("bgt", CmpOp::Gt),
    compareBranch("bge", CmpOp::Ge),
    MnemonicInfo{.name = "bra", .form = InstrForm::Bra, .op = Opcode::Goto},
    MnemonicInfo{.name = "goto", .form = InstrForm::Goto, .op = Opcode::Goto},
};

constexpr QualifierInfo semQ(std::string_view name, FormSet forms, Sem sem, bool needsScope) {
  return {.name = name, .kind = QualKind::Sem, .forms = forms, .sem = sem, .needsScope = needsScope};
}
constexpr QualifierInfo scopeQ(std::string_view name, FormSet forms, Scope scope) {
  return {.name = name, .kind = QualKind::Scope, .forms = forms, .scope = scope};
}
constexpr QualifierInfo spaceQ(std::string_view name, StateSpace space) {
  return {.name = name, .kind = QualKind::Space, .forms = kMemory, .space = space};
}
constexpr QualifierInfo atomQ(std::string_view name, AtomOp op, FormSet forms = kAtom | kRed) {
  return {.name = name, .kind = QualKind::AtomOp, .forms = forms, .atomOp = op};
}
constexpr QualifierInfo cmpQ(std::string_view name, CmpOp cmp) {
  return {.name = name, .kind = QualKind::Cmp, .forms = kSetp, .cmp = cmp};
}
constexpr QualifierInfo typeQ(std::string_view name) {
  return {.name = name, .kind = QualKind::Type, .forms = kValued};
}
constexpr QualifierInfo actionQ(std::string_view name, Opcode op) {
  return {.name = name, .kind = QualKind::BarrierAction, .forms = kBarrier, .barrierOp = op};
}
constexpr QualifierInfo unsupportedQ(std::string_view name, FormSet forms, std::string_view message) {
  return {.name = name, .kind = QualKind::Unsupported, .forms = forms, .message = message};
}

constexpr std::string_view kVectorMessage = "vector accesses are not supported yet";

constexpr std::array kQualifiers = {
    // Semantics (spec §1.5): strong ones need a scope on ld/st and fences; red accepts every atomic one.
    semQ("weak", kLoad | kStore, Sem::Weak, false),
    semQ("relaxed", kMemory, Sem::Relaxed, true),
    semQ("acquire", kLoad | kAtom | kRed | kFence, Sem::Acquire, true),
    semQ("release", kStore | kAtom | kRed | kFence, Sem::Release, true),
    semQ("acq_rel", kAtom | kRed | kFence, Sem::AcqRel, true),
    semQ("sc", kFence, Sem::Sc, true),
    semQ("volatile", kLoad | kStore, Sem::Volatile, false),
    QualifierInfo{.name = "mmio", .kind = QualKind::Mmio, .forms = kLoad | kStore, .sem = Sem::Mmio},
    // Scopes (spec §1.1); membar spells the GPU level `.gl`; bar.cta names the only barrier scope.
    scopeQ("cta", kMemory | kFence | kMembar | kBarrier, Scope::Cta),
    scopeQ("cluster", kMemory | kFence, Scope::Cluster),
    scopeQ("gpu", kMemory | kFence, Scope::Gpu),
    scopeQ("sys", kMemory | kFence | kMembar, Scope::Sys),
    scopeQ("gl", kMembar, Scope::Gpu),
    // State spaces (spec §1.3).
    spaceQ("global", StateSpace::Global),
    spaceQ("shared", StateSpace::Shared),
    spaceQ("shared::cta", StateSpace::SharedCta),
    spaceQ("shared::cluster", StateSpace::SharedCluster),
    // Atomic operations; cas needs a result and two values, so red cannot take it.
    atomQ("add", AtomOp::Add),
    atomQ("sub", AtomOp::Sub),
    atomQ("mul", AtomOp::Mul),
    atomQ("div", AtomOp::Div),
    atomQ("and", AtomOp::And),
    atomQ("or", AtomOp::Or),
    atomQ("xor", AtomOp::Xor),
    atomQ("cas", AtomOp::Cas, kAtom),
    atomQ("exch", AtomOp::Exch),
    atomQ("inc", AtomOp::Inc),
    atomQ("dec", AtomOp::Dec),
    atomQ("min", AtomOp::Min),
    atomQ("max", AtomOp::Max),
    cmpQ("eq", CmpOp::Eq),
    cmpQ("ne", CmpOp::Ne),
    cmpQ("lt", CmpOp::Lt),
    cmpQ("le", CmpOp::Le),
    cmpQ("gt", CmpOp::Gt),
    cmpQ("ge", CmpOp::Ge),
    typeQ("b8"), typeQ("b16"), typeQ("b32"), typeQ("b64"), typeQ("b128"),
    typeQ("u8"), typeQ("u16"), typeQ("u32"), typeQ("u64"),
    typeQ("s8"), typeQ("s16"), typeQ("s32"), typeQ("s64"),
    typeQ("f16"), typeQ("f32"), typeQ("f64"), typeQ("pred"),
    actionQ("sync", Opcode::BarSync),
    actionQ("arrive", Opcode::BarArrive),
    QualifierInfo{.name = "aligned", .kind = QualKind::Aligned, .forms = kBarrier},
    QualifierInfo{.name = "uni", .kind = QualKind::Uni, .forms = kBra},
    QualifierInfo{.name = "proxy", .kind = QualKind::ProxyFence, .forms = kFence},
    unsupportedQ("nc", kLoad,
                 "ld.global.nc reads through the non-coherent path, which the PTX memory model does not cover "
                 "(§4.11)"),
    unsupportedQ("v2", kMemory, kVectorMessage),
    unsupportedQ("v4", kMemory, kVectorMessage),
    unsupportedQ("v8", kMemory, kVectorMessage),
    unsupportedQ("red", kBarrier, ""),
};

// The only fence.proxy target that is not a proxy name.
constexpr std::string_view kAliasFenceTarget = "alias";

constexpr std::array<std::string_view, 17> kInitTypeWords = {
    "int",     "long",     "short",    "char",     "unsigned", "signed",   "int8_t",    "int16_t",  "int32_t",
    "int64_t", "uint8_t",  "uint16_t", "uint32_t", "uint64_t", "intptr_t", "uintptr_t", "size_t",
};

// Every proxy in model::Proxy order (Constant is the last one).
std::vector<Proxy> allProxies() {
  std::vector<Proxy> proxies;
  for (int i = 0; i <= static_cast<int>(Proxy::Constant); ++i) proxies.push_back(static_cast<Proxy>(i));
  return proxies;
}

}  // namespace

const MnemonicInfo* findMnemonic(std::string_view name) {
  for (const auto& row : kMnemonics)
    if (row.name == name) return &row;
  return nullptr;
}

const QualifierInfo* findQualifier(std::string_view name) {
  for (const auto& row : kQualifiers)
    if (row.name == name) return &row;
  return nullptr;
}

OperandSignature operandSignature(const MnemonicInfo& info, const Instruction& ins) {
  using Role = OperandRole;
  switch (info.form) {
    case InstrForm::Load: return {{Role::Dst, Role::Addr}, 2};
    case InstrForm::Store:
    case InstrForm::Red: return {{Role::Addr, Role::Value}, 2};
    case InstrForm::Atom:
      if (ins.atomOp == AtomOp::Cas) return {{Role::Dst, Role::Addr, Role::Value, Role::Value}, 4};
      return {{Role::Dst, Role::Addr, Role::Value}, 3};
    case InstrForm::Fence:
    case InstrForm::Membar: return {};
    case InstrForm::Barrier:
      if (ins.dat3mBarrier) return {{Role::Value, Role::Value, Role::Value}, 1};  // label {, id {, quorum}}
      return {{Role::Value, Role::Value}, ins.op == Opcode::BarArrive ? 2u : 1u};  // PTX: arrive needs a count
    case InstrForm::Local: {
      OperandSignature local{{Role::Dst}, 0};
      local.roles.insert(local.roles.end(), static_cast<std::size_t>(info.sources), Role::Value);
      local.required = local.roles.size();
      return local;
    }
    case InstrForm::Setp: return {{Role::Dst, Role::Value, Role::Value}, 3};
    case InstrForm::CompareBranch: return {{Role::Value, Role::Value, Role::Label}, 3};
    case InstrForm::Bra:
    case InstrForm::Goto: return {{Role::Label}, 1};
  }
  return {};
}

std::string arityText(const std::string& written, const OperandSignature& sig) {
  if (sig.roles.empty()) return written + " takes no operands";
  std::string count = std::to_string(sig.required);
  if (sig.required != sig.roles.size()) count += (sig.required + 1 == sig.roles.size() ? " or " : " to ") + std::to_string(sig.roles.size());
  return written + " takes " + count + (sig.roles.size() == 1 ? " operand" : " operands");
}

bool allowsQualifier(InstrForm form, const QualifierInfo& qualifier) { return (qualifier.forms & formBit(form)) != 0; }

std::string qualifierList(InstrForm form, QualKind kind) {
  std::vector<std::string> names;
  for (const auto& row : kQualifiers)
    if (row.kind == kind && allowsQualifier(form, row)) names.push_back("." + std::string(row.name));
  return joinAlternatives(names);
}

std::string scopedSemList(InstrForm form) {
  std::vector<std::string> names;
  for (const auto& row : kQualifiers)
    if (row.kind == QualKind::Sem && row.needsScope && allowsQualifier(form, row))
      names.push_back("." + std::string(row.name));
  return joinAlternatives(names);
}

std::string_view semName(Sem sem) {
  if (sem == Sem::Default) return {};
  for (const auto& row : kQualifiers)
    if ((row.kind == QualKind::Sem || row.kind == QualKind::Mmio) && row.sem == sem) return row.name;
  return {};
}

std::optional<ProxyFenceTarget> findProxyFenceTarget(std::string_view name) {
  if (name == kAliasFenceTarget) return ProxyFenceTarget{.alias = true};
  // fence.proxy.generic (Dat3M's grammar) fences the generic proxy against itself: it orders nothing more.
  auto proxy = findAliasProxy(name);
  if (!proxy) return std::nullopt;
  return ProxyFenceTarget{.proxy = *proxy};
}

std::string proxyFenceTargetList() {
  std::vector<std::string> names = {"." + std::string(kAliasFenceTarget)};
  for (Proxy proxy : allProxies()) names.push_back("." + std::string(model::proxyName(proxy)));
  return joinAlternatives(names);
}

std::optional<Proxy> findAliasProxy(std::string_view name) {
  for (Proxy proxy : allProxies())
    if (model::proxyName(proxy) == name) return proxy;
  return std::nullopt;
}

std::string proxyList() {
  std::vector<std::string> names;
  for (Proxy proxy : allProxies()) names.emplace_back(model::proxyName(proxy));
  return joinAlternatives(names);
}

bool isInitTypeWord(std::string_view word) {
  for (auto type : kInitTypeWords)
    if (type == word) return true;
  return false;
}

std::string joinAlternatives(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? " or " : ", ";
    out += items[i];
  }
  return out;
}

std::span<const MnemonicInfo> mnemonicTable() { return kMnemonics; }
std::span<const QualifierInfo> qualifierTable() { return kQualifiers; }

}  // namespace ptxmm::frontend
