// The PTX -> SASS expectation tables for sm_90 (SassExpectation.hpp). Observed with nvcc 13.0 -arch=sm_90
// -rdc=true and cuobjdump 13.2 on every form the harness emits; the comments give the observed SASS.
#include "validate/SassExpectation.hpp"

#include <array>

namespace ptxmm::validate {

using frontend::AtomOp;
using frontend::Sem;

namespace {

// Scope -> the .STRONG level of an access and the MEMBAR level of a fence. `.cluster` is lowered to GPU level.
struct ScopeRow {
  model::Scope scope;
  const char* strength;
  MembarLevel level;
};
constexpr std::array<ScopeRow, 4> kScopes{{
    {model::Scope::Cta, "STRONG.SM", MembarLevel::Cta},       // ld.relaxed.cta -> LDG.E.64.STRONG.SM
    {model::Scope::Cluster, "STRONG.GPU", MembarLevel::Gpu},  // ld.relaxed.cluster -> LDG.E.64.STRONG.GPU
    {model::Scope::Gpu, "STRONG.GPU", MembarLevel::Gpu},
    {model::Scope::Sys, "STRONG.SYS", MembarLevel::Sys},
}};

const ScopeRow& scopeRow(model::Scope s) {
  for (const auto& r : kScopes)
    if (r.scope == s) return r;
  return kScopes[2];
}

// Access semantics -> the halves ptxas adds around the access.
//   st.release.gpu      -> MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR; STG.E.64.STRONG.GPU
//   ld.acquire.gpu      -> LDG.E.64.STRONG.GPU; CCTL.IVALL   (ld.acquire.cta: no CCTL)
//   atom.acq_rel.gpu    -> MEMBAR.ALL.GPU; ...; ATOMG.E.ADD.64.STRONG.GPU; CCTL.IVALL
//   ld/st.volatile      -> LDG/STG.E.64.STRONG.SYS, no fences
struct SemRow {
  Sem sem;
  bool strong;
  bool release;
  bool acquire;
};
constexpr std::array<SemRow, 6> kAccessSems{{
    {Sem::Weak, false, false, false},
    {Sem::Relaxed, true, false, false},
    {Sem::Acquire, true, false, true},
    {Sem::Release, true, true, false},
    {Sem::AcqRel, true, true, true},
    {Sem::Volatile, true, false, false},
}};

// Fence semantics -> the MEMBAR flavour and whether an invalidation follows (only above CTA scope).
//   fence.sc.gpu / membar.gl -> MEMBAR.SC.GPU; ERRBAR; CGAERRBAR; CCTL.IVALL     fence.sc.cta -> MEMBAR.SC.CTA
//   fence.acq_rel.gpu        -> MEMBAR.ALL.GPU; ...; CCTL.IVALL                  fence.acq_rel.cta -> MEMBAR.ALL.CTA
//   fence.release.gpu        -> MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR                fence.acquire.gpu -> CCTL.IVALL only
//   fence.acquire.cta        -> nothing
struct FenceRow {
  Sem sem;
  std::optional<MembarKind> membar;
  bool invalidate;
};
const std::array<FenceRow, 4> kFences{{
    {Sem::Sc, MembarKind::Sc, true},
    {Sem::AcqRel, MembarKind::All, true},
    {Sem::Release, MembarKind::All, false},
    {Sem::Acquire, std::nullopt, true},
}};

// atom/red operation -> the SASS operation modifier (ATOMG.E.<OP>..., REDG.E.<OP>...).
struct OpRow {
  AtomOp op;
  const char* sass;
};
constexpr std::array<OpRow, 10> kOps{{
    {AtomOp::Add, "ADD"}, {AtomOp::And, "AND"}, {AtomOp::Or, "OR"},     {AtomOp::Xor, "XOR"}, {AtomOp::Min, "MIN"},
    {AtomOp::Max, "MAX"}, {AtomOp::Exch, "EXCH"}, {AtomOp::Cas, "CAS"}, {AtomOp::Inc, "INC"}, {AtomOp::Dec, "DEC"},
}};

const char* opText(AtomOp op) {
  for (const auto& r : kOps)
    if (r.op == op) return r.sass;
  return "?";
}

const SemRow* semRow(Sem s) {
  for (const auto& r : kAccessSems)
    if (r.sem == s) return &r;
  return nullptr;
}

}  // namespace

std::string membarText(const SassMembar& m) {
  static const char* kinds[] = {"ALL", "SC"};
  static const char* levels[] = {"CTA", "GPU", "SYS"};
  return std::string("MEMBAR.") + kinds[static_cast<int>(m.kind)] + "." + levels[static_cast<int>(m.level)];
}

std::string SassExpectation::describe() const {
  std::string s;
  auto add = [&](const std::string& part) { s += (s.empty() ? "" : "; ") + part; };
  if (membarBefore) add(membarText(*membarBefore) + " (or stronger)");
  if (anchor) {
    if (anchor->opcode == "BAR") {
      add("BAR." + anchor->op + " " + std::to_string(anchor->barrierId) + ", " + std::to_string(anchor->barrierCount));
    } else {
      std::string a = anchor->opcode + ".E";
      if (!anchor->op.empty()) a += "." + anchor->op;
      if (anchor->width == 8) a += (anchor->op == "MIN" || anchor->op == "MAX") ? ".S64" : ".64";
      if (!anchor->strength.empty()) a += "." + anchor->strength;
      add(a);
    }
  }
  if (invalidateAfter) add("CCTL.IVALL");
  return s.empty() ? "no SASS" : s;
}

std::optional<SassExpectation> expectedSass(const PtxForm& f) {
  SassExpectation e;
  switch (f.kind) {
    case FormKind::Load:
    case FormKind::Store:
    case FormKind::Atom:
    case FormKind::Red: {
      static const char* opcodes[] = {"LDG", "STG", "ATOMG", "REDG"};
      SassAnchor a;
      a.opcode = opcodes[static_cast<int>(f.kind)];
      if (f.kind == FormKind::Atom || f.kind == FormKind::Red) a.op = opText(f.op);
      a.width = f.width;
      const SemRow* row = semRow(f.sem);
      if (!row) return std::nullopt;
      const model::Scope scope = f.sem == Sem::Volatile ? model::Scope::Sys : f.scope.value_or(model::Scope::Sys);
      if (row->strong) a.strength = scopeRow(scope).strength;
      if (row->release) e.membarBefore = SassMembar{MembarKind::All, scopeRow(scope).level};
      e.invalidateAfter = row->acquire && scope != model::Scope::Cta;
      e.anchor = a;
      return e;
    }
    case FormKind::Fence:
    case FormKind::Membar:
      for (const auto& r : kFences)
        if (r.sem == f.sem) {
          const model::Scope scope = f.scope.value_or(model::Scope::Sys);
          if (r.membar) e.membarBefore = SassMembar{*r.membar, scopeRow(scope).level};
          e.invalidateAfter = r.invalidate && scope != model::Scope::Cta;
          return e;
        }
      return std::nullopt;
    case FormKind::BarSync:
    case FormKind::BarArrive: {
      // bar.sync 1, 64 -> BAR.SYNC.DEFER_BLOCKING 0x1, 0x40; bar.arrive 1, 64 -> BAR.ARV 0x1, 0x40 (no MEMBAR)
      SassAnchor a;
      a.opcode = "BAR";
      a.op = f.kind == FormKind::BarSync ? "SYNC" : "ARV";
      a.barrierId = f.barrierId;
      a.barrierCount = f.barrierCount;
      e.anchor = a;
      return e;
    }
    case FormKind::None: break;
  }
  return std::nullopt;
}

}  // namespace ptxmm::validate
