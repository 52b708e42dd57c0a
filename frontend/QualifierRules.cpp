// The checks behind QualifierRules.hpp. Each qualifier is looked up as it comes, so the error reported is the
// first bad qualifier as written; the rules between kinds run once every qualifier is known.
#include "frontend/QualifierRules.hpp"

#include <array>

namespace ptxmm::frontend {
namespace {

using model::UserError;

constexpr std::string_view kAlignedMnemonic = "bar";

/// A written qualifier with its table row; empty where no qualifier of that kind was written.
struct Known {
  const WrittenQual* qual = nullptr;
  const QualifierInfo* info = nullptr;

  explicit operator bool() const { return qual != nullptr; }
};

/// The qualifiers of one instruction by kind: an instruction carries at most one of each.
class QualifierSet {
 public:
  QualifierSet(Instruction& ins, const MnemonicInfo& info, std::string_view mnemonic, const model::SourcePos& at)
      : ins_(ins), info_(info), name_(mnemonic), at_(at) {}

  /// Looks every qualifier up, then applies the rules between kinds.
  void apply(const std::vector<WrittenQual>& quals);

 private:
  const QualifierInfo& lookUp(const WrittenQual& qual) const;
  void applyProxyFence(const std::vector<WrittenQual>& quals, std::size_t proxy);
  void applySlots();
  void checkMemoryScope();
  void require(QualKind kind, const std::string& what) const;
  const Known& slot(QualKind kind) const { return slots_[static_cast<std::size_t>(kind)]; }
  [[noreturn]] static void fail(const model::SourcePos& pos, const std::string& message) {
    throw UserError(pos, message);
  }

  Instruction& ins_;
  const MnemonicInfo& info_;
  const std::string name_;  // the mnemonic as written
  const model::SourcePos& at_;
  std::array<Known, kQualKindCount> slots_{};
};

void QualifierSet::apply(const std::vector<WrittenQual>& quals) {
  for (std::size_t i = 0; i < quals.size(); ++i) {
    const WrittenQual& qual = quals[i];
    const QualifierInfo& info = lookUp(qual);
    if (info.kind == QualKind::ProxyFence) return applyProxyFence(quals, i);
    Known& known = slots_[static_cast<std::size_t>(info.kind)];
    if (known) fail(qual.pos, "qualifier '." + qual.spelling + "' conflicts with '." + known.qual->spelling + "'");
    known = {&qual, &info};
  }
  applySlots();
}

const QualifierInfo& QualifierSet::lookUp(const WrittenQual& qual) const {
  const std::string written = "'." + qual.spelling + "'";
  const QualifierInfo* info = findQualifier(qual.spelling);
  if (!info) fail(qual.pos, "unknown qualifier " + written + " on " + name_);
  if (!allowsQualifier(info_.form, *info)) fail(qual.pos, "qualifier " + written + " is not allowed on " + name_);
  if (info->kind == QualKind::Unsupported)
    fail(qual.pos, info->message.empty() ? name_ + "." + qual.spelling + " is not supported yet"
                                         : std::string(info->message));
  return *info;
}

// The qualifiers after `.proxy` spell what is fenced (`.alias`, `.texture`), so they are not looked up.
void QualifierSet::applyProxyFence(const std::vector<WrittenQual>& quals, std::size_t proxy) {
  if (proxy != 0) fail(quals[proxy].pos, "'.proxy' must come right after " + name_);
  if (proxy + 1 == quals.size())
    fail(quals[proxy].pos, name_ + ".proxy needs a target (" + proxyFenceTargetList() + ")");
  std::string target;
  for (std::size_t i = proxy + 1; i < quals.size(); ++i) target += (i > proxy + 1 ? "." : "") + quals[i].spelling;
  auto fenced = findProxyFenceTarget(target);
  if (!fenced) fail(quals[proxy + 1].pos, name_ + ".proxy." + target + " is not supported yet");
  ins_.op = Opcode::FenceProxy;
  ins_.aliasFence = fenced->alias;
  ins_.proxy = fenced->proxy;
}

void QualifierSet::applySlots() {
  const Known& sem = slot(QualKind::Sem);
  const Known& scope = slot(QualKind::Scope);
  ins_.sem = sem ? sem.info->sem : info_.impliedSem;
  if (scope) ins_.scope = scope.info->scope;
  if (const Known& space = slot(QualKind::Space)) ins_.space = space.info->space;
  if (const Known& op = slot(QualKind::AtomOp)) ins_.atomOp = op.info->atomOp;
  if (const Known& cmp = slot(QualKind::Cmp)) ins_.cmp = cmp.info->cmp;
  if (const Known& action = slot(QualKind::BarrierAction)) ins_.op = action.info->barrierOp;
  switch (info_.form) {
    case InstrForm::Load:
    case InstrForm::Store: checkMemoryScope(); break;
    case InstrForm::Fence:
    case InstrForm::Membar:
      if (!scope)
        fail(sem ? sem.qual->pos : at_, name_ + (sem ? "." + sem.qual->spelling : "") + " needs a scope (" +
                                            qualifierList(info_.form, QualKind::Scope) + ")");
      break;
    case InstrForm::Atom:
    case InstrForm::Red: require(QualKind::AtomOp, "an operation"); break;
    case InstrForm::Barrier:
      require(QualKind::BarrierAction, "an action");
      ins_.aligned = name_ == kAlignedMnemonic || slot(QualKind::Aligned);  // bar is barrier.aligned [§4.4]
      break;
    case InstrForm::Setp: require(QualKind::Cmp, "a comparison"); break;
    default: break;
  }
}

void QualifierSet::checkMemoryScope() {
  const Known& sem = slot(QualKind::Sem);
  const Known& scope = slot(QualKind::Scope);
  const std::string name = name_ + (sem ? "." + sem.qual->spelling : "");
  if (const Known& mmio = slot(QualKind::Mmio)) {
    const bool relaxedSys = sem && sem.info->sem == Sem::Relaxed && scope && scope.info->scope == model::Scope::Sys;
    if (!relaxedSys)
      fail(mmio.qual->pos, name_ + "." + mmio.qual->spelling + " needs ." + std::string(semName(Sem::Relaxed)) +
                               "." + std::string(model::scopeName(model::Scope::Sys)));
    ins_.sem = Sem::Mmio;
    return;
  }
  const bool strong = sem && sem.info->needsScope;
  if (strong && !scope)
    fail(sem.qual->pos, name + " needs a scope (" + qualifierList(info_.form, QualKind::Scope) + ")");
  if (!strong && scope)
    fail(scope.qual->pos,
         sem ? name + " takes no scope" : name + " takes a scope only with " + scopedSemList(info_.form));
}

void QualifierSet::require(QualKind kind, const std::string& what) const {
  if (!slot(kind)) fail(at_, name_ + " needs " + what + " (" + qualifierList(info_.form, kind) + ")");
}

}  // namespace

void applyQualifiers(Instruction& ins, const MnemonicInfo& info, std::string_view mnemonic,
                     const model::SourcePos& at, const std::vector<WrittenQual>& quals) {
  QualifierSet(ins, info, mnemonic, at).apply(quals);
}

}  // namespace ptxmm::frontend
