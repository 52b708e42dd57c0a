// The PTX -> SASS expectation tables for sm_90 (SassExpectation.hpp). Observed with nvcc 13.0 -arch=sm_90
// -rdc=true and cuobjdump 13.2 on every form the harness emits, each compiled alone in a __noinline__ function;
// the comments give the observed SASS. `@!PT LDS RZ, [RZ]` padding and the MEMBAR.ALL.CTA that ptxas puts before
// every MEMBAR.ALL.GPU are left out (the checker skips never-executed instructions and notes extra fences).
// Waterfall loops (`@P0 ELECT P1 ... @P0 BRA.U.ANY`) around instructions with uniform operands iterate over the
// lanes of a warp, not over litmus iterations; the checker knows them.
#include "validate/SassExpectation.hpp"

#include <array>

namespace ptxmm::validate {

using frontend::AtomOp;
using frontend::BulkKind;
using frontend::FenceKind;
using frontend::Sem;
using frontend::StateSpace;

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

// The instruction of an access by where its address points.
//   .global                 -> LDG STG ATOMG REDG        (the rows above)
//   .shared::cta            -> LDS STS ATOMS, never .STRONG: ld.weak/relaxed.cta/acquire.cta/volatile.shared ->
//                              LDS; st.release.cta.shared -> MEMBAR.ALL.CTA; STS; st.release.gpu.shared ->
//                              MEMBAR.ALL.GPU ...; STS; ld.acquire.cluster.shared -> LDS; CCTL.IVALL;
//                              red.relaxed.cta.shared.add.u32 [a], 1 -> ATOMS.POPC.INC.32 (ADD for other values)
//   .shared::cluster (DSMEM) -> the generic LD ST ATOM with the scope's level: ld.weak -> LD.E;
//                              ld.relaxed.cluster -> LD.E.STRONG.GPU; st.relaxed.cta -> ST.E.STRONG.SM;
//                              red.relaxed.cluster.add -> ATOM.E.ADD.STRONG.GPU (no RED form)
//   generic (own shared)    -> LD ST ATOM RED as for DSMEM
struct SpaceRow {
  AddrKind space;
  std::array<const char*, 4> opcodes;  // Load Store Atom Red
  bool strengths;                      // the .STRONG level shows
};
constexpr std::array<SpaceRow, 4> kSpaces{{
    {AddrKind::Global, {"LDG", "STG", "ATOMG", "REDG"}, true},
    {AddrKind::SharedCta, {"LDS", "STS", "ATOMS", "ATOMS"}, false},
    {AddrKind::SharedCluster, {"LD", "ST", "ATOM", "ATOM"}, true},
    {AddrKind::GenericShared, {"LD", "ST", "ATOM", "RED"}, true},
}};

// Fence semantics -> the MEMBAR flavour and whether an invalidation follows (only above CTA scope).
//   fence.sc.gpu / membar.gl -> MEMBAR.SC.GPU; ERRBAR; CGAERRBAR; CCTL.IVALL     fence.sc.cta -> MEMBAR.SC.CTA
//   fence.acq_rel.gpu        -> MEMBAR.ALL.GPU; ...; CCTL.IVALL                  fence.acq_rel.cta -> MEMBAR.ALL.CTA
//   fence.release.gpu        -> MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR                fence.acquire.gpu -> CCTL.IVALL only
//   fence.acquire.cta        -> nothing                                          (.cluster as .gpu)
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

// atom/red operation -> the SASS operation modifier (ATOMG.E.<OP>..., REDG.E.<OP>..., UBLKRED.G.S.<OP>).
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

// An anchor that is recognised by its opcode and modifiers alone (no width or strength).
SassAnchor unit(std::string opcode, std::vector<std::string> required, std::vector<std::string> forbidden = {}) {
  SassAnchor a;
  a.opcode = std::move(opcode);
  a.required = std::move(required);
  a.forbidden = std::move(forbidden);
  a.strong = false;
  a.width = 0;
  return a;
}

SassAnchor depbar(long n) {
  SassAnchor a = unit("DEPBAR", {"LE"});
  a.depbar = n;
  return a;
}

std::optional<SassExpectation> access(const PtxForm& f) {
  SassExpectation e;
  const SpaceRow* row = nullptr;
  for (const auto& r : kSpaces)
    if (r.space == f.space) row = &r;
  const SemRow* sem = semRow(f.sem);
  if (!row || !sem) return std::nullopt;
  SassAnchor a;
  a.opcode = row->opcodes[static_cast<int>(f.kind)];
  if (f.kind == FormKind::Atom || f.kind == FormKind::Red) a.op = opText(f.op);
  if (f.kind == FormKind::Red && f.space == AddrKind::SharedCta && f.op == AtomOp::Add) a.alsoOp = {"POPC"};
  a.width = f.width;
  const model::Scope scope = f.sem == Sem::Volatile ? model::Scope::Sys : f.scope.value_or(model::Scope::Sys);
  if (sem->strong && row->strengths) a.strength = scopeRow(scope).strength;
  if (sem->release) e.membarBefore = SassMembar{MembarKind::All, scopeRow(scope).level};
  e.invalidateAfter = sem->acquire && scope != model::Scope::Cta;
  e.anchors = {a};
  return e;
}

// The release half ptxas adds to a Hopper-era release operation: only above CTA scope (a .release.cta
// mbarrier.arrive is SYNCS.ARRIVE alone; .release.cluster adds MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR).
std::optional<SassMembar> releaseHalf(const PtxForm& f) {
  if (f.sem != Sem::Release || !f.scope || *f.scope == model::Scope::Cta) return std::nullopt;
  return SassMembar{MembarKind::All, scopeRow(*f.scope).level};
}

// mbarrier.*: the SYNCS unit.
//   mbarrier.init.shared::cta.b64 [m], 1          -> FENCE.VIEW.ASYNC.S; SYNCS.EXCH.64 (in a waterfall loop)
//   mbarrier.arrive{.release|.relaxed}.cta [m]    -> SYNCS.ARRIVE.TRANS64.A1T0 (with a count: .ART0)
//   mbarrier.arrive.release.cluster [m]           -> MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR; SYNCS.ARRIVE.TRANS64.A1T0
//   mbarrier.arrive{...}.shared::cluster [peer]   -> SYNCS.ARRIVE.TRANS64.RED.A1T0 (release.cluster: MEMBAR first)
//   mbarrier.arrive.expect_tx [m], n              -> SYNCS.ARRIVE.TRANS64
//   mbarrier.arrive_drop [m]                      -> SYNCS.ARRIVE.TRANS64.OPTOUT.A1T0
//   mbarrier.expect_tx / complete_tx [m], n       -> SYNCS.ARRIVE.TRANS64.RED.A0TR / .A0TX
//   mbarrier.try_wait{.parity}{.acquire.cta}      -> SYNCS.PHASECHK.TRANS64.TRYWAIT P0 (relaxed: the same)
//   mbarrier.test_wait{.parity}                   -> SYNCS.PHASECHK.TRANS64 P0
//   mbarrier.try_wait.parity.acquire.cluster      -> SYNCS.PHASECHK.TRANS64.TRYWAIT P0; @P0 CCTL.IVALL
std::optional<SassExpectation> mbarrier(const PtxForm& f) {
  SassExpectation e;
  const frontend::Instruction& in = f.source;
  const bool remote = f.space == AddrKind::SharedCluster;
  switch (f.kind) {
    case FormKind::MbarInit: e.anchors = {unit("FENCE", {"VIEW", "ASYNC", "S"}), unit("SYNCS", {"EXCH", "64"})}; break;
    case FormKind::MbarArrive: {
      SassAnchor a = unit("SYNCS", {"ARRIVE", "TRANS64"}, {"A0TR", "A0TX"});
      if (remote) a.required.push_back("RED");
      else a.forbidden.push_back("RED");
      if (in.drop) a.required.push_back("OPTOUT");
      e.membarBefore = releaseHalf(f);
      e.anchors = {a};
      break;
    }
    case FormKind::MbarExpectTx:
    case FormKind::MbarCompleteTx:
      e.anchors = {unit("SYNCS", {"ARRIVE", "TRANS64", "RED", f.kind == FormKind::MbarExpectTx ? "A0TR" : "A0TX"})};
      break;
    case FormKind::MbarWait: {
      SassAnchor a = unit("SYNCS", {"PHASECHK", "TRANS64"});
      if (in.tryWait) a.required.push_back("TRYWAIT");
      else a.forbidden.push_back("TRYWAIT");
      e.anchors = {a};
      e.invalidateAfter = f.sem != Sem::Relaxed && f.scope && *f.scope != model::Scope::Cta;
      break;
    }
    default: return std::nullopt;
  }
  return e;
}

// cp.async and its groups, cp.async.mbarrier.arrive.
//   cp.async.ca.shared.global [s], [g], 4 / 8 / 16   -> LDGSTS.E / LDGSTS.E.64 / LDGSTS.E.128 (.cg: LDGSTS.E.BYPASS.128)
//   cp.async.commit_group / cp.async.wait_group N    -> LDGDEPBAR / DEPBAR.LE SB0, N
//   cp.async.wait_all                                -> LDGDEPBAR (when copies are uncommitted); DEPBAR.LE SB0, 0x0
//   cp.async.mbarrier.arrive.noinc.shared.b64 [m]    -> ARRIVES.LDGSTSBAR.64.ARVCNT (waterfall loop)
//   cp.async.mbarrier.arrive.shared.b64 [m]          -> SYNCS.ARRIVE.TRANS64.RED.A0T1; ARRIVES.LDGSTSBAR.64.TRANSCNT
//   cp.async.bulk.commit_group                       -> UTMACMDFLUSH
//   cp.async.bulk.wait_group N / .read N             -> DEPBAR.LE SB0, N; CCTL.IVALL / DEPBAR.LE SB0, N
std::optional<SassExpectation> asyncCopy(const PtxForm& f) {
  SassExpectation e;
  const frontend::Instruction& in = f.source;
  switch (f.kind) {
    case FormKind::CpAsync: {
      SassAnchor a = unit("LDGSTS", {"E"});
      a.width = f.width;
      if (in.text.find(".cg") != std::string::npos) a.required.push_back("BYPASS");
      e.anchors = {a};
      break;
    }
    case FormKind::CpAsyncCommit: e.anchors = {unit(in.bulkGroup ? "UTMACMDFLUSH" : "LDGDEPBAR", {})}; break;
    case FormKind::CpAsyncWait:
      if (in.waitAll) {
        SassAnchor commit = unit("LDGDEPBAR", {});
        commit.optional = true;
        e.anchors = {commit, depbar(0)};
      } else {
        e.anchors = {depbar(static_cast<long>(in.operands.at(0).value))};
        e.invalidateAfter = in.bulkGroup && !in.readOnly;
      }
      break;
    case FormKind::CpAsyncMbarArrive:
      if (in.noinc) e.anchors = {unit("ARRIVES", {"LDGSTSBAR", "64", "ARVCNT"})};
      else e.anchors = {unit("SYNCS", {"ARRIVE", "TRANS64", "RED", "A0T1"}), unit("ARRIVES", {"LDGSTSBAR", "64", "TRANSCNT"})};
      break;
    default: return std::nullopt;
  }
  return e;
}

// Bulk copies (the copy engine), each in a waterfall loop:
//   cp.async.bulk.shared::{cta,cluster}.global.mbarrier::complete_tx::bytes    -> UBLKCP.S.G
//   cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes     -> UBLKCP.S.S
//   cp.async.bulk.global.shared::cta.bulk_group                               -> UBLKCP.G.S
//   cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 / .shared::cluster.shared::cta...add.u32
//                                                                              -> UBLKRED.G.S.ADD / UBLKRED.S.S.ADD
//   cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes -> UTMALDG.1D
//   cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group                -> UTMASTG.1D
//   cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group     -> UTMAREDG.1D.ADD
// st.async / red.async to DSMEM:
//   st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 / .b64          -> STAS / STAS.64
//   red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 -> REDAS.ADD
std::optional<SassExpectation> bulk(const PtxForm& f) {
  SassExpectation e;
  const frontend::Instruction& in = f.source;
  if (f.kind == FormKind::StAsync || f.kind == FormKind::RedAsync) {
    SassAnchor a = unit(f.kind == FormKind::StAsync ? "STAS" : "REDAS", f.kind == FormKind::RedAsync ? std::vector<std::string>{opText(f.op)}
                                                                                                      : std::vector<std::string>{});
    if (f.kind == FormKind::StAsync) a.width = f.width;
    e.anchors = {a};
    return e;
  }
  if (f.kind != FormKind::BulkCopy) return std::nullopt;
  const std::string op = opText(f.op);
  switch (in.bulk) {
    case BulkKind::GlobalToShared: e.anchors = {unit("UBLKCP", {"S", "G"})}; break;
    case BulkKind::SharedToCluster: e.anchors = {in.reduce ? unit("UBLKRED", {"S", "S", op}) : unit("UBLKCP", {"S", "S"})}; break;
    case BulkKind::SharedToGlobal: e.anchors = {in.reduce ? unit("UBLKRED", {"G", "S", op}) : unit("UBLKCP", {"G", "S"})}; break;
    case BulkKind::TensorLoad: e.anchors = {unit("UTMALDG", {"1D"})}; break;
    case BulkKind::TensorStore: e.anchors = {in.reduce ? unit("UTMAREDG", {"1D", op}) : unit("UTMASTG", {"1D"})}; break;
  }
  return e;
}

// Proxy, restricted and cluster-barrier fences, bar.warp.sync:
//   fence.proxy.async                     -> MEMBAR.ALL.GPU; FENCE.VIEW.ASYNC.S   (no .G form)
//   fence.proxy.async.global              -> FENCE.VIEW.ASYNC.G
//   fence.proxy.async.shared::cta         -> MEMBAR.ALL.CTA; FENCE.VIEW.ASYNC.S
//   fence.proxy.async.shared::cluster     -> MEMBAR.ALL.GPU; FENCE.VIEW.ASYNC.S
//   fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster, fence.release.sync_restrict::shared::cta.cluster
//                                         -> MEMBAR.ALL.CTA; FENCE.VIEW.ASYNC.S
//   fence{.proxy.async::generic}.acquire.sync_restrict::shared::cluster.cluster, fence.mbarrier_init.release.cluster
//                                         -> nothing
//   fence.proxy.tensormap::generic.release.{cta,gpu} -> MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR
//   barrier.cluster.arrive{.release}{.aligned} -> MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR; UCGABAR_ARV   (.relaxed: UCGABAR_ARV)
//   barrier.cluster.wait{.acquire}{.aligned}   -> UCGABAR_WAIT; CCTL.IVALL, then, on the path taken outside
//                                                 cluster launches, BAR.SYNC.DEFER_BLOCKING 0x0
//   bar.warp.sync 0xffffffff                   -> nothing (a WARPSYNC.COLLECTIVE on the divergent path)
SassAnchor viewAsync(const char* space) { return unit("FENCE", {"VIEW", "ASYNC", space}); }

// MEMBAR.ALL.CTA; FENCE.VIEW.ASYNC.S: the shared::cta async-proxy fence and the sync_restrict release fences.
void restrictedRelease(SassExpectation& e) {
  e.membarBefore = SassMembar{MembarKind::All, MembarLevel::Cta};
  e.anchors = {viewAsync("S")};
}

std::optional<SassExpectation> fenceLike(const PtxForm& f) {
  SassExpectation e;
  const frontend::Instruction& in = f.source;
  switch (f.kind) {
    case FormKind::FenceProxy:
      if (in.proxy == model::Proxy::Tensormap) {
        e.membarBefore = SassMembar{MembarKind::All, scopeRow(f.scope.value_or(model::Scope::Gpu)).level};
        return e;
      }
      if (in.uniDirectional) {
        if (in.fenceKind == FenceKind::RestrictSharedCta) restrictedRelease(e);
        return e;
      }
      switch (in.space) {
        case StateSpace::Global: e.anchors = {viewAsync("G")}; break;
        case StateSpace::Shared:
        case StateSpace::SharedCta: restrictedRelease(e); break;
        default:
          e.membarBefore = SassMembar{MembarKind::All, MembarLevel::Gpu};
          e.anchors = {viewAsync("S")};
          break;
      }
      return e;
    case FormKind::FenceRestricted:
      if (in.fenceKind == FenceKind::RestrictSharedCta) restrictedRelease(e);
      return e;
    case FormKind::ClusterArrive:
      if (f.sem != Sem::Relaxed) e.membarBefore = SassMembar{MembarKind::All, MembarLevel::Gpu};
      e.anchors = {unit("UCGABAR_ARV", {})};
      return e;
    case FormKind::ClusterWait: {
      SassAnchor fallback;
      fallback.opcode = "BAR";
      fallback.op = "SYNC";
      fallback.strong = false;
      fallback.width = 0;
      fallback.barrierId = 0;
      fallback.barrierCount = -1;
      fallback.optional = true;
      e.anchors = {unit("UCGABAR_WAIT", {}), fallback};
      e.invalidateAfter = true;
      return e;
    }
    case FormKind::BarWarpSync: return e;
    default: return std::nullopt;
  }
}

}  // namespace

std::string membarText(const SassMembar& m) {
  static const char* kinds[] = {"ALL", "SC"};
  static const char* levels[] = {"CTA", "GPU", "SYS"};
  return std::string("MEMBAR.") + kinds[static_cast<int>(m.kind)] + "." + levels[static_cast<int>(m.level)];
}

std::string SassAnchor::describe() const {
  if (opcode == "BAR") {
    std::string s = "BAR." + op + " " + std::to_string(barrierId);
    return barrierCount >= 0 ? s + ", " + std::to_string(barrierCount) : s;
  }
  std::string s = opcode;
  if (!strong && width == 0 && op.empty()) {
    for (const auto& m : required) s += "." + m;
    if (depbar) s += " SB0, " + std::to_string(*depbar);
    return s;
  }
  s += ".E";
  if (!op.empty()) s += "." + op;
  for (const auto& m : required)
    if (m != "E") s += "." + m;
  if (width == 8) s += (op == "MIN" || op == "MAX") ? ".S64" : ".64";
  if (width == 16) s += ".128";
  if (!strength.empty()) s += "." + strength;
  return s;
}

std::string SassExpectation::describe() const {
  std::string s;
  auto add = [&](const std::string& part) { s += (s.empty() ? "" : "; ") + part; };
  if (membarBefore) add(membarText(*membarBefore) + " (or stronger)");
  for (const auto& a : anchors) add(a.describe() + (a.optional ? " (if emitted)" : ""));
  if (invalidateAfter) add("CCTL.IVALL");
  return s.empty() ? "no SASS" : s;
}

std::optional<SassExpectation> expectedSass(const PtxForm& f) {
  switch (f.kind) {
    case FormKind::Load:
    case FormKind::Store:
    case FormKind::Atom:
    case FormKind::Red: return access(f);
    case FormKind::Fence:
    case FormKind::Membar:
      for (const auto& r : kFences)
        if (r.sem == f.sem) {
          SassExpectation e;
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
      a.strong = false;
      a.width = 0;
      a.barrierId = f.barrierId;
      a.barrierCount = f.barrierCount;
      SassExpectation e;
      e.anchors = {a};
      return e;
    }
    case FormKind::MbarInit:
    case FormKind::MbarArrive:
    case FormKind::MbarExpectTx:
    case FormKind::MbarCompleteTx:
    case FormKind::MbarWait: return mbarrier(f);
    case FormKind::CpAsync:
    case FormKind::CpAsyncCommit:
    case FormKind::CpAsyncWait:
    case FormKind::CpAsyncMbarArrive: return asyncCopy(f);
    case FormKind::BulkCopy:
    case FormKind::StAsync:
    case FormKind::RedAsync: return bulk(f);
    case FormKind::FenceProxy:
    case FormKind::FenceRestricted:
    case FormKind::ClusterArrive:
    case FormKind::ClusterWait:
    case FormKind::BarWarpSync: return fenceLike(f);
    case FormKind::None: break;
  }
  return std::nullopt;
}

}  // namespace ptxmm::validate
