// Qualifier tables and interpretation of the Hopper-era instruction families (HopperSyntax.hpp). Sections of
// spec/ptx-model.md: §4.2 mbarrier, §4.3 barrier.cluster, §4.5 bar.warp.sync, §4.6-§4.8 async copies and stores,
// §4.9-§4.10 proxy and restricted fences, §4.12 tcgen05, §4.13 wgmma.
#include "frontend/litmus/HopperSyntax.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <tuple>

namespace ptxmm::frontend {
namespace {

using model::Scope;
using model::UserError;
using R = HopperRole;

[[noreturn]] void fail(const model::SourcePos& pos, const std::string& message) { throw UserError(pos, message); }

bool digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// Shape, layout and type qualifiers of tensor-core and bulk instructions: no memory-model meaning.
bool isShapeOrType(std::string_view q) {
  static constexpr std::string_view kTypes[] = {"b8",  "b16", "b32", "b64", "b128", "u8",  "u16", "u32", "u64",
                                                "s8",  "s16", "s32", "s64", "f16",  "f32", "f64", "bf16", "tf32",
                                                "e4m3", "e5m2", "f16x2", "pred", "aligned", "sync", "unpack::16b",
                                                "pack::16b", "tile", "im2col", "warpx2::02_13", "warpx2::01_23", "warpx4"};
  if (std::find(std::begin(kTypes), std::end(kTypes), q) != std::end(kTypes)) return true;
  for (std::string_view prefix : {"cta_group::", "kind::", "L2::", "collector::", "multicast::"})
    if (q.rfind(prefix, 0) == 0) return true;
  // .1d .. .5d, .x1 .. .x128, .m64n8k16, .32x32b / .16x64b / .128x256b shapes.
  if (q.size() == 2 && q[1] == 'd' && q[0] >= '1' && q[0] <= '5') return true;
  if (q.size() > 1 && q[0] == 'x' && digits(q.substr(1))) return true;
  if (q.size() > 1 && q[0] == 'm' && q.find('n') != std::string_view::npos && q.find('k') != std::string_view::npos) return true;
  const auto x = q.find('x');
  return x != std::string_view::npos && x > 0 && digits(q.substr(0, x)) && q.back() == 'b';
}

std::optional<StateSpace> spaceNamed(std::string_view q) {
  if (q == "global") return StateSpace::Global;
  if (q == "shared") return StateSpace::Shared;
  if (q == "shared::cta") return StateSpace::SharedCta;
  if (q == "shared::cluster") return StateSpace::SharedCluster;
  return std::nullopt;
}

std::optional<Sem> semNamed(std::string_view q) {
  if (q == "relaxed") return Sem::Relaxed;
  if (q == "acquire") return Sem::Acquire;
  if (q == "release") return Sem::Release;
  if (q == "acq_rel") return Sem::AcqRel;
  if (q == "weak") return Sem::Weak;
  return std::nullopt;
}

// Reads the qualifiers one by one, each consumed at most once, and reports the first one nobody consumed.
class Quals {
 public:
  Quals(std::string_view mnemonic, const model::SourcePos& at, const std::vector<WrittenQual>& quals)
      : mnemonic_(mnemonic), at_(at), quals_(quals), used_(quals.size(), false) {}

  /// Takes the qualifier spelled `q`, if written.
  bool take(std::string_view q) {
    for (std::size_t i = 0; i < quals_.size(); ++i)
      if (!used_[i] && quals_[i].spelling == q) return used_[i] = true;
    return false;
  }
  /// Takes the one qualifier among `options` that is written (error if two are).
  std::optional<std::string> takeOne(std::initializer_list<std::string_view> options) {
    std::optional<std::string> found;
    for (std::size_t i = 0; i < quals_.size(); ++i)
      if (!used_[i] && std::find(options.begin(), options.end(), quals_[i].spelling) != options.end()) {
        if (found) fail(quals_[i].pos, "'." + quals_[i].spelling + "' conflicts with '." + *found + "'");
        found = quals_[i].spelling;
        used_[i] = true;
      }
    return found;
  }
  std::optional<Sem> sem(std::initializer_list<std::string_view> allowed) {
    const auto s = takeOne(allowed);
    return s ? semNamed(*s) : std::nullopt;
  }
  std::optional<Scope> scope(std::initializer_list<std::string_view> allowed) {
    const auto s = takeOne(allowed);
    return s ? model::findScope(*s) : std::nullopt;
  }
  /// The state spaces written, in order (a copy names its destination first).
  std::vector<StateSpace> spaces() {
    std::vector<StateSpace> out;
    for (std::size_t i = 0; i < quals_.size(); ++i)
      if (!used_[i])
        if (auto s = spaceNamed(quals_[i].spelling)) {
          out.push_back(*s);
          used_[i] = true;
        }
    return out;
  }
  /// Every qualifier left must be a shape or type qualifier.
  void finish() {
    for (std::size_t i = 0; i < quals_.size(); ++i)
      if (!used_[i] && !isShapeOrType(quals_[i].spelling))
        fail(quals_[i].pos, "qualifier '." + quals_[i].spelling + "' is not allowed on " + std::string(mnemonic_) + " here");
  }
  [[noreturn]] void missing(const std::string& what) const {
    fail(at_, std::string(mnemonic_) + " needs " + what);
  }
  const model::SourcePos& at() const { return at_; }

 private:
  std::string_view mnemonic_;
  model::SourcePos at_;
  const std::vector<WrittenQual>& quals_;
  std::vector<bool> used_;
};

HopperForm make(Opcode op, std::vector<HopperRole> roles, std::size_t required) {
  HopperForm f;
  f.ins.op = op;
  f.roles = std::move(roles);
  f.required = required;
  return f;
}

bool has(const std::vector<WrittenQual>& quals, std::string_view q) {
  return std::any_of(quals.begin(), quals.end(), [&](const WrittenQual& w) { return w.spelling == q; });
}

// ---- families ---------------------------------------------------------------------------------------------------

HopperForm barriers(Quals& q) {
  if (q.take("warp")) {  // bar.warp.sync membermask [§4.5]
    if (!q.take("sync")) q.missing(".sync");
    q.finish();
    return make(Opcode::BarWarpSync, {R::Value}, 1);
  }
  q.take("cluster");  // barrier.cluster.arrive / .wait [§4.3]
  const auto action = q.takeOne({"arrive", "wait"});
  if (!action) q.missing(".arrive or .wait");
  HopperForm f = make(*action == "arrive" ? Opcode::ClusterArrive : Opcode::ClusterWait, {}, 0);
  f.ins.sem = *action == "arrive" ? q.sem({"release", "relaxed"}).value_or(Sem::Default) : q.sem({"acquire"}).value_or(Sem::Default);
  f.ins.scope = Scope::Cluster;
  q.finish();
  return f;
}

HopperForm fences(Quals& q) {
  if (q.take("proxy")) {
    HopperForm f = make(Opcode::FenceProxy, {}, 0);
    if (q.take("async")) {  // bidirectional generic<->async, optionally limited to a state space [§4.9]
      f.ins.proxy = model::Proxy::Async;
      const auto spaces = q.spaces();
      if (spaces.size() > 1) fail(q.at(), "fence.proxy.async takes at most one state space");
      if (!spaces.empty()) f.ins.space = spaces[0];
      q.finish();
      return f;
    }
    f.ins.uniDirectional = true;
    if (q.take("tensormap::generic")) {
      f.ins.proxy = model::Proxy::Tensormap;
    } else if (q.take("async::generic")) {
      f.ins.proxy = model::Proxy::Async;
    } else {
      q.missing(".async, .tensormap::generic or .async::generic");
    }
    const auto sem = q.sem({"release", "acquire"});
    if (!sem) q.missing(".release or .acquire");
    f.ins.sem = *sem;
    if (q.take("sync_restrict::shared::cta")) f.ins.fenceKind = FenceKind::RestrictSharedCta;
    if (q.take("sync_restrict::shared::cluster")) f.ins.fenceKind = FenceKind::RestrictSharedCluster;
    f.ins.scope = q.scope({"cta", "cluster", "gpu", "sys"});
    if (!f.ins.scope) q.missing("a scope");
    if (f.ins.proxy == model::Proxy::Async && f.ins.fenceKind == FenceKind::Plain)
      q.missing(".sync_restrict::shared::cta (release) or ::shared::cluster (acquire)");
    // The tensormap acquire names the map: fence.proxy.tensormap::generic.acquire.S [a], 128 [§4.9].
    if (f.ins.proxy == model::Proxy::Tensormap && *sem == Sem::Acquire) f.roles = {R::Addr, R::Count}, f.required = 2;
    q.finish();
    return f;
  }
  HopperForm f = make(Opcode::Fence, {}, 0);
  if (q.take("mbarrier_init")) {
    f.ins.fenceKind = FenceKind::MbarrierInit;
    if (!q.take("release")) q.missing(".release");
  } else if (q.take("sync_restrict::shared::cta")) {
    f.ins.fenceKind = FenceKind::RestrictSharedCta;
    if (!q.take("release")) q.missing(".release (sync_restrict::shared::cta restricts a release fence)");
  } else {
    q.take("sync_restrict::shared::cluster");
    f.ins.fenceKind = FenceKind::RestrictSharedCluster;
    if (!q.take("acquire")) q.missing(".acquire (sync_restrict::shared::cluster restricts an acquire fence)");
  }
  f.ins.sem = f.ins.fenceKind == FenceKind::RestrictSharedCluster ? Sem::Acquire : Sem::Release;
  if (!q.take("cluster")) q.missing(".cluster (restricted fences have cluster scope)");
  f.ins.scope = Scope::Cluster;
  q.finish();
  return f;
}

HopperForm mbarriers(Quals& q) {
  // `.expect_tx` is an operation of its own or a modifier of `.arrive` (mbarrier.arrive.expect_tx): look for
  // the other operations first.
  auto action = q.takeOne({"init", "arrive", "arrive_drop", "test_wait", "try_wait"});
  if (!action) action = q.takeOne({"expect_tx", "complete_tx"});
  if (!action) {
    if (q.take("inval") || q.take("pending_count")) fail(q.at(), "this mbarrier operation is not supported yet");
    q.missing("an operation (.init, .arrive, .arrive_drop, .expect_tx, .complete_tx, .test_wait or .try_wait)");
  }
  HopperForm f;
  if (*action == "init") {
    f = make(Opcode::MbarInit, {R::Addr, R::Value}, 2);
  } else if (*action == "arrive" || *action == "arrive_drop") {
    f = make(Opcode::MbarArrive, {R::DstOrSink, R::Addr, R::Value}, 2);
    f.ins.drop = *action == "arrive_drop";
    f.ins.expectTx = q.take("expect_tx");
    f.ins.noComplete = q.take("noComplete");
    if (f.ins.expectTx) f.required = 3;
    f.ins.sem = q.sem({"release", "relaxed"}).value_or(Sem::Default);
  } else if (*action == "expect_tx" || *action == "complete_tx") {
    f = make(*action == "expect_tx" ? Opcode::MbarExpectTx : Opcode::MbarCompleteTx, {R::Addr, R::Value}, 2);
    f.ins.sem = q.sem({"relaxed"}).value_or(Sem::Default);
  } else {
    f = make(Opcode::MbarWait, {R::Dst, R::Addr, R::Value, R::Value}, 3);
    f.ins.tryWait = *action == "try_wait";
    f.ins.parity = q.take("parity");
    f.ins.sem = q.sem({"acquire", "relaxed"}).value_or(Sem::Default);
  }
  f.ins.scope = q.scope({"cta", "cluster"});
  if ((f.ins.sem != Sem::Default) != f.ins.scope.has_value())
    q.missing("its semantics and scope together (e.g. .release.cluster) or neither");
  const auto spaces = q.spaces();
  if (spaces.size() > 1) fail(q.at(), "an mbarrier instruction takes one state space");
  if (!spaces.empty()) f.ins.space = spaces[0];
  q.finish();
  return f;
}

// The reduction of red.async and cp.reduce.async.bulk, if written.
std::optional<AtomOp> reduction(Quals& q) {
  static const std::pair<std::string_view, AtomOp> ops[] = {
      {"add", AtomOp::Add}, {"min", AtomOp::Min}, {"max", AtomOp::Max}, {"inc", AtomOp::Inc},
      {"dec", AtomOp::Dec}, {"and", AtomOp::And}, {"or", AtomOp::Or},   {"xor", AtomOp::Xor}};
  for (const auto& [name, op] : ops)
    if (q.take(name)) return op;
  return std::nullopt;
}

HopperForm copies(Quals& q) {
  const bool reduce = q.take("reduce");  // cp.reduce.async.bulk{.tensor} [§4.7]
  if (!q.take("async")) q.missing(".async");
  const bool bulk = q.take("bulk");
  if (reduce && !bulk) q.missing(".bulk (cp.reduce.async.bulk)");
  if (q.take("commit_group")) {
    HopperForm f = make(Opcode::CpAsyncCommit, {}, 0);
    f.ins.bulkGroup = bulk;
    q.finish();
    return f;
  }
  const bool waitAll = !bulk && q.take("wait_all");  // cp.async.wait_all = commit_group + wait_group 0
  if (waitAll || q.take("wait_group")) {
    HopperForm f = make(Opcode::CpAsyncWait, {R::Count}, 1);
    f.ins.bulkGroup = bulk;
    f.ins.readOnly = bulk && q.take("read");
    if (waitAll) f.roles.clear(), f.required = 0, f.ins.waitAll = true;
    q.finish();
    return f;
  }
  if (!bulk && q.take("mbarrier")) {  // cp.async.mbarrier.arrive{.noinc}
    if (!q.take("arrive")) q.missing(".arrive");
    HopperForm f = make(Opcode::CpAsyncMbarArrive, {R::Addr}, 1);
    f.ins.noinc = q.take("noinc");
    const auto spaces = q.spaces();
    if (!spaces.empty()) f.ins.space = spaces[0];
    q.finish();
    return f;
  }
  if (!bulk) {  // cp.async.ca|cg.shared{::cta}.global [dst], [src], size
    if (!q.takeOne({"ca", "cg"})) q.missing(".ca or .cg");
    const auto spaces = q.spaces();
    if (spaces.size() != 2 || spaces[1] != StateSpace::Global || spaces[0] == StateSpace::Global || spaces[0] == StateSpace::SharedCluster)
      fail(q.at(), "cp.async copies from .global to .shared{::cta}: write cp.async.ca.shared.global");
    q.finish();
    return make(Opcode::CpAsync, {R::Addr, R::Addr, R::Count}, 3);
  }
  const bool tensor = q.take("tensor");
  const auto spaces = q.spaces();
  if (spaces.size() != 2) q.missing("a destination and a source state space (e.g. .shared::cluster.global)");
  const bool mbar = q.take("mbarrier::complete_tx::bytes");
  const bool group = q.take("bulk_group");
  if (mbar == group) q.missing("one completion mechanism: .mbarrier::complete_tx::bytes or .bulk_group");
  HopperForm f = make(Opcode::BulkCopy, {}, 0);
  if (reduce) {
    const auto op = reduction(q);
    if (!op) q.missing("a reduction (.add, .min, .max, .inc, .dec, .and, .or or .xor)");
    f.ins.reduce = true;
    f.ins.atomOp = *op;
  }
  const auto [dst, src] = std::pair{spaces[0], spaces[1]};
  const bool toCluster = dst == StateSpace::SharedCluster;
  const bool toOwnCta = dst == StateSpace::SharedCta || dst == StateSpace::Shared;  // PTX 8.6 form
  if ((toCluster || toOwnCta) && src == StateSpace::Global && mbar) {
    f.ins.bulk = tensor ? BulkKind::TensorLoad : BulkKind::GlobalToShared;
    f.ins.space = toOwnCta ? StateSpace::SharedCta : StateSpace::SharedCluster;  // the destination's
    f.roles = tensor ? std::vector{R::Addr, R::AddrPair, R::Addr} : std::vector{R::Addr, R::Addr, R::Count, R::Addr};
  } else if (toCluster && (src == StateSpace::SharedCta || src == StateSpace::Shared) && mbar && !tensor) {
    f.ins.bulk = BulkKind::SharedToCluster;
    f.roles = {R::Addr, R::Addr, R::Count, R::Addr};
  } else if (dst == StateSpace::Global && (src == StateSpace::SharedCta || src == StateSpace::Shared) && group) {
    f.ins.bulk = tensor ? BulkKind::TensorStore : BulkKind::SharedToGlobal;
    f.roles = tensor ? std::vector{R::AddrPair, R::Addr} : std::vector{R::Addr, R::Addr, R::Count};
  } else {
    fail(q.at(), "unsupported bulk copy direction or completion: ptxmm knows .shared::{cta,cluster}.global and "
                 ".shared::cluster.shared::cta with .mbarrier::complete_tx::bytes, and .global.shared::cta with .bulk_group");
  }
  if (reduce && (f.ins.bulk == BulkKind::GlobalToShared || f.ins.bulk == BulkKind::TensorLoad))
    fail(q.at(), "cp.reduce.async.bulk reduces from .shared::cta into .shared::cluster (.mbarrier::complete_tx::bytes) "
                 "or into .global (.bulk_group)");
  f.required = f.roles.size();
  q.finish();
  return f;
}

HopperForm asyncStores(std::string_view mnemonic, Quals& q) {
  q.take("async");
  const bool red = mnemonic == "red";
  HopperForm f = make(red ? Opcode::RedAsync : Opcode::StAsync, {R::Addr, R::Value, R::Addr}, 3);
  f.ins.sem = q.sem({"weak", "relaxed", "release"}).value_or(Sem::Default);
  f.ins.scope = q.scope({"cluster", "gpu", "sys"});
  q.take("mmio");
  const auto spaces = q.spaces();
  if (!spaces.empty()) f.ins.space = spaces[0];
  const bool mbar = q.take("mbarrier::complete_tx::bytes");
  if (red) {
    const auto op = reduction(q);
    if (!op) q.missing("an operation (.add ...)");
    f.ins.atomOp = *op;
  }
  // The mbarrier form completes on the destination's mbarrier; the release form (to global) has none [§4.8].
  if (!mbar) {
    if (f.ins.sem != Sem::Release) q.missing(".mbarrier::complete_tx::bytes (or the .release form to .global)");
    f.roles.pop_back();
    f.required = 2;
  }
  q.finish();
  return f;
}

HopperForm tcgen05(Quals& q) {
  // Data-moving operations: (opcode, operand roles); shapes and types are ignored.
  for (const auto& [name, op, roles] : {std::tuple{"mma", Opcode::TcMma, std::vector{R::Addr, R::Addr, R::Addr}},
                                        std::tuple{"cp", Opcode::TcCp, std::vector{R::Addr, R::Addr}},
                                        std::tuple{"ld", Opcode::TcLd, std::vector{R::Dst, R::Addr}},
                                        std::tuple{"st", Opcode::TcSt, std::vector{R::Addr, R::Value}}})
    if (q.take(name)) {
      q.finish();
      return make(op, roles, roles.size());
    }
  if (q.take("commit")) {
    if (!q.take("mbarrier::arrive::one")) q.missing(".mbarrier::arrive::one");
    HopperForm f = make(Opcode::TcCommit, {R::Addr}, 1);
    const auto spaces = q.spaces();
    if (!spaces.empty()) f.ins.space = spaces[0];
    q.finish();
    return f;
  }
  if (const auto w = q.takeOne({"wait::ld", "wait::st"})) {
    HopperForm f = make(Opcode::TcWait, {}, 0);
    f.ins.waitSt = *w == "wait::st";
    q.finish();
    return f;
  }
  if (const auto fence = q.takeOne({"fence::before_thread_sync", "fence::after_thread_sync"})) {
    HopperForm f = make(Opcode::TcFence, {}, 0);
    f.ins.afterSync = *fence == "fence::after_thread_sync";
    q.finish();
    return f;
  }
  q.missing("an operation (.mma, .cp, .ld, .st, .commit, .wait::ld, .wait::st, .fence::before_thread_sync, "
            ".fence::after_thread_sync)");
}

HopperForm wgmma(Quals& q) {
  HopperForm f;
  if (q.take("fence")) f = make(Opcode::WgmmaFence, {}, 0);
  else if (q.take("mma_async")) f = make(Opcode::WgmmaMma, {R::Dst, R::Addr, R::Addr}, 3);
  else if (q.take("commit_group")) f = make(Opcode::WgmmaCommit, {}, 0);
  else if (q.take("wait_group")) f = make(Opcode::WgmmaWait, {R::Count}, 1);
  else q.missing("an operation (.fence, .mma_async, .commit_group or .wait_group)");
  q.finish();
  return f;
}

}  // namespace

bool isHopperInstruction(std::string_view mnemonic, const std::vector<WrittenQual>& quals) {
  if (mnemonic == "mbarrier" || mnemonic == "cp" || mnemonic == "tcgen05" || mnemonic == "wgmma") return true;
  if (mnemonic == "bar" || mnemonic == "barrier") return has(quals, "warp") || has(quals, "cluster");
  if (mnemonic == "st" || mnemonic == "red") return has(quals, "async");
  if (mnemonic == "fence")
    return has(quals, "mbarrier_init") || has(quals, "sync_restrict::shared::cta") ||
           has(quals, "sync_restrict::shared::cluster") ||
           (has(quals, "proxy") && (has(quals, "async") || has(quals, "tensormap::generic") || has(quals, "async::generic")));
  return false;
}

HopperForm interpretHopper(std::string_view mnemonic, const model::SourcePos& at, const std::vector<WrittenQual>& quals) {
  Quals q(mnemonic, at, quals);
  if (mnemonic == "bar" || mnemonic == "barrier") return barriers(q);
  if (mnemonic == "fence") return fences(q);
  if (mnemonic == "mbarrier") return mbarriers(q);
  if (mnemonic == "cp") return copies(q);
  if (mnemonic == "st" || mnemonic == "red") return asyncStores(mnemonic, q);
  if (mnemonic == "tcgen05") return tcgen05(q);
  return wgmma(q);
}

}  // namespace ptxmm::frontend
