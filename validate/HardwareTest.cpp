// Program -> HardwareTest: the refusals, the address arguments, the location widths and slot sizes, CTA and
// cluster barriers, drains and keys (HardwareTest.hpp).
#include "validate/HardwareTest.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <tuple>

#include "validate/PtxForm.hpp"

namespace ptxmm::validate {

using frontend::AtomOp;
using frontend::BulkKind;
using frontend::Instruction;
using frontend::Opcode;
using frontend::Operand;
using frontend::Sem;
using frontend::StateSpace;

namespace {

bool isAccess(Opcode op) { return op == Opcode::Ld || op == Opcode::St || op == Opcode::Atom || op == Opcode::Red; }
bool isBarrier(Opcode op) { return op == Opcode::BarSync || op == Opcode::BarArrive; }
bool isClusterBarrier(Opcode op) { return op == Opcode::ClusterArrive || op == Opcode::ClusterWait; }
bool isJump(Opcode op) { return op == Opcode::Branch || op == Opcode::Goto; }

int labelIndex(const frontend::Thread& t, const std::string& name) {
  for (std::size_t i = 0; i < t.code.size(); ++i)
    if (t.code[i].op == Opcode::Label && t.code[i].operands.at(0).name == name) return static_cast<int>(i);
  return -1;
}

// A forward jump passes over instruction `i`: some lanes could skip it.
bool skippable(const frontend::Thread& t, int i) {
  for (std::size_t j = 0; j < t.code.size(); ++j)
    if (isJump(t.code[j].op) && static_cast<int>(j) < i && labelIndex(t, t.code[j].operands.back().name) > i) return true;
  return false;
}

bool fitsInt32(std::int64_t v) {
  return v >= std::numeric_limits<std::int32_t>::min() && v <= std::numeric_limits<std::int32_t>::max();
}

std::string quoted(const Instruction& in) { return "'" + in.text + "'"; }

// The instruction forms the harness emits as exactly the same PTX; everything else is refused here, at the
// instruction, with the reason. Opcodes this file does not know (the IR grows) are refused too.
void checkInstruction(const Instruction& in) {
  switch (in.op) {
    case Opcode::Ld:
    case Opcode::St:
    case Opcode::Atom:
    case Opcode::Red:
    case Opcode::Fence:
    case Opcode::BarSync:
    case Opcode::BarArrive:
    case Opcode::Local:
    case Opcode::Setp:
    case Opcode::Branch:
    case Opcode::Goto:
    case Opcode::Label:
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
    case Opcode::BulkCopy: break;
    case Opcode::BarWarpSync:
      if (in.operands.at(0).kind != Operand::Kind::Immediate || (in.operands[0].value & 0xffffffffLL) != 0xffffffffLL)
        throw Unsupported(in.pos, quoted(in) + ": the lanes of a harness warp play different instances of one thread; only the "
                                               "full mask 0xffffffff names exactly them");
      break;
    case Opcode::StAsync:
    case Opcode::RedAsync:
      if (in.operands.size() < 3)
        throw Unsupported(in.pos, quoted(in) + ": only the .mbarrier::complete_tx::bytes forms of st.async/red.async are run");
      break;
    case Opcode::FenceProxy:
      if (in.proxy == model::Proxy::Async) break;
      if (in.proxy == model::Proxy::Tensormap && in.operands.empty()) break;
      if (in.proxy == model::Proxy::Tensormap)
        throw Unsupported(in.pos, quoted(in) + ": the harness's tensor map is a __grid_constant__ kernel parameter, not in .global "
                                               "memory where this acquire must name it");
      throw Unsupported(in.pos, quoted(in) + ": proxy fences of the texture, surface, constant and alias proxies need accesses "
                                             "through those proxies, which the harness does not run");
    case Opcode::TcMma:
    case Opcode::TcCp:
    case Opcode::TcLd:
    case Opcode::TcSt:
    case Opcode::TcCommit:
    case Opcode::TcWait:
    case Opcode::TcFence:
      throw Unsupported(in.pos, quoted(in) + ": tcgen05 needs sm_100 (Blackwell); Hopper GPUs cannot run it");
    case Opcode::WgmmaFence:
    case Opcode::WgmmaMma:
    case Opcode::WgmmaCommit:
    case Opcode::WgmmaWait:
      throw Unsupported(in.pos, quoted(in) + ": wgmma is a warpgroup-collective matrix operation; its abstract litmus form "
                                             "(d := a + b) has no instruction the harness could run");
    default:
      throw Unsupported(in.pos, quoted(in) + ": the harness does not run this instruction");
  }
  if (isAccess(in.op)) {
    if (in.proxy != model::Proxy::Generic)
      throw Unsupported(in.pos, quoted(in) + ": only generic-proxy accesses run on hardware (no texture, surface or constant forms)");
    if (in.sem == Sem::Mmio) throw Unsupported(in.pos, quoted(in) + ": .mmio accesses need memory-mapped I/O");
  }
  if (in.op == Opcode::Atom || in.op == Opcode::Red) {
    switch (in.atomOp) {
      case AtomOp::Sub:
      case AtomOp::Mul:
      case AtomOp::Div:
        throw Unsupported(in.pos, quoted(in) + ": PTX has no atom/red instruction for this operation");
      case AtomOp::Cas:
      case AtomOp::Exch:
        if (in.op == Opcode::Red) throw Unsupported(in.pos, quoted(in) + ": red has no .cas/.exch form");
        break;
      default: break;
    }
    if (in.op == Opcode::Red && (in.sem == Sem::Acquire || in.sem == Sem::AcqRel))
      throw Unsupported(in.pos, quoted(in) + ": red takes only .relaxed or .release");
    if (in.sem == Sem::Weak || in.sem == Sem::Volatile || in.sem == Sem::Sc)
      throw Unsupported(in.pos, quoted(in) + ": atom/red have no such semantics in PTX");
  }
  if (in.op == Opcode::Fence && in.fenceKind == frontend::FenceKind::Plain && in.sem != Sem::Default && in.sem != Sem::Sc &&
      in.sem != Sem::AcqRel && in.sem != Sem::Acquire && in.sem != Sem::Release)
    throw Unsupported(in.pos, quoted(in) + ": unknown fence semantics");
  if (isBarrier(in.op)) {
    if (in.dat3mBarrier && in.operands.size() > 1)
      throw Unsupported(in.pos, quoted(in) + ": Dat3M's labelled barrier (label, resource, quorum) has no PTX instruction");
    if (in.text.rfind("barrier", 0) == 0)
      throw Unsupported(in.pos, quoted(in) + ": only the aligned bar{.cta} forms are supported by the harness");
    for (const auto& op : in.operands)
      if (op.kind != Operand::Kind::Immediate)
        throw Unsupported(op.pos, quoted(in) + ": barrier ids and counts must be immediates on hardware");
  }
  if (in.op == Opcode::CpAsyncWait && !in.waitAll && in.operands.at(0).kind != Operand::Kind::Immediate)
    throw Unsupported(in.pos, quoted(in) + ": the group count must be an immediate");
}

// The thread count each CTA barrier instruction gets on hardware, after checking the barrier can never hang or
// be undefined there: a hardware barrier cannot time out, so only patterns that always complete are run. Each
// participant (a role of the CTA using the id) must use the id exactly once, outside loops and where no branch
// can skip it (a capped loop falls through, so every lane of the warp still arrives), and the count must be 32
// per participant (a litmus thread is a warp). A missing count means "the test's threads of the CTA that use
// the barrier" (checker/BarrierMatching.hpp), which is also 32 per participant.
void resolveBarriers(const frontend::Program& p, std::vector<HwRole>& roles) {
  std::map<std::pair<int, std::int64_t>, std::vector<std::pair<int, int>>> uses;  // (cta, id) -> (role, instr)
  for (std::size_t r = 0; r < roles.size(); ++r) {
    const auto& t = p.threads[static_cast<std::size_t>(roles[r].thread)];
    for (std::size_t i = 0; i < t.code.size(); ++i)
      if (isBarrier(t.code[i].op)) uses[{roles[r].cta, t.code[i].operands.at(0).value}].emplace_back(static_cast<int>(r), static_cast<int>(i));
  }
  for (const auto& [key, list] : uses) {
    std::set<int> participants;
    for (const auto& [r, i] : list) {
      const HwRole& role = roles[static_cast<std::size_t>(r)];
      const auto& t = p.threads[static_cast<std::size_t>(role.thread)];
      const Instruction& in = t.code[static_cast<std::size_t>(i)];
      if (key.second < 0 || key.second > 15) throw Unsupported(in.pos, quoted(in) + ": barrier ids are 0..15");
      if (!participants.insert(r).second)
        throw Unsupported(in.pos, quoted(in) + ": a thread uses barrier " + std::to_string(key.second) +
                                      " twice; the harness runs only barriers each participant uses once");
      if (role.inLoop[static_cast<std::size_t>(i)] || skippable(t, i))
        throw Unsupported(in.pos, quoted(in) + ": a barrier inside a loop or behind a branch: the lanes of a harness warp play "
                                               "different instances and could reach the aligned barrier a different number of times");
    }
    const int count = 32 * static_cast<int>(participants.size());
    for (const auto& [r, i] : list) {
      const auto& in = p.threads[static_cast<std::size_t>(roles[static_cast<std::size_t>(r)].thread)].code[static_cast<std::size_t>(i)];
      if (in.operands.size() > 1 && in.operands[1].value != count)
        throw Unsupported(in.operands[1].pos, quoted(in) + ": the count " + std::to_string(in.operands[1].value) + " is not 32 times the " +
                                                  std::to_string(participants.size()) + " thread(s) of the CTA using barrier " +
                                                  std::to_string(key.second) + "; on hardware it would hang or mix generations");
      roles[static_cast<std::size_t>(r)].barrierCount[i] = count;
    }
  }
  // Barriers used once by each participant can still wait on each other in a cycle (P0: bar 0 then bar 1, P1:
  // bar 1 then bar 0). Run the barrier code abstractly: an arrive passes, a sync passes once every participant
  // of its barrier has arrived; if some thread never gets through, the hardware would hang.
  std::map<std::pair<int, std::int64_t>, int> arrived;
  std::vector<std::vector<std::pair<const Instruction*, std::pair<int, std::int64_t>>>> pending(roles.size());
  for (std::size_t r = 0; r < roles.size(); ++r)
    for (const auto& in : p.threads[static_cast<std::size_t>(roles[r].thread)].code)
      if (isBarrier(in.op)) pending[r].push_back({&in, {roles[r].cta, in.operands.at(0).value}});
  std::vector<std::size_t> next(roles.size(), 0);
  std::vector<bool> counted(roles.size(), false);
  for (bool moved = true; moved;) {
    moved = false;
    for (std::size_t r = 0; r < roles.size(); ++r) {
      while (next[r] < pending[r].size()) {
        const auto& [in, key] = pending[r][next[r]];
        if (!counted[r]) ++arrived[key], counted[r] = true;
        if (in->op == Opcode::BarSync && arrived[key] < static_cast<int>(uses.at(key).size())) break;
        ++next[r], counted[r] = false, moved = true;
      }
    }
  }
  for (std::size_t r = 0; r < roles.size(); ++r)
    if (next[r] < pending[r].size())
      throw Unsupported(pending[r][next[r]].first->pos, "'" + pending[r][next[r]].first->text +
                                                            "' can never complete: the test's barriers deadlock, and a hardware barrier cannot time out");
}

// Threads sharing a warp are lanes of one hardware warp: a lane that reaches a CTA barrier waits for the other
// lanes of its warp, and bar.warp.sync for every lane of the mask, so the threads of a shared warp must reach
// the same barriers: all of them or none take part in each CTA barrier, and all pass bar.warp.sync equally
// often (outside loops and branches, like every warp-level barrier). barrier.cluster in a shared warp is
// refused: no test needs it, and its .aligned form cannot be reached from the lanes' different code.
void checkWarpBarriers(const frontend::Program& p, const std::vector<HwRole>& roles) {
  for (const auto& role : roles) {
    const auto& t = p.threads[static_cast<std::size_t>(role.thread)];
    int warpSyncs = 0;
    std::set<std::int64_t> ids;
    for (std::size_t i = 0; i < t.code.size(); ++i) {
      const Instruction& in = t.code[i];
      if (in.op == Opcode::BarWarpSync) {
        if (role.inLoop[i] || skippable(t, static_cast<int>(i)))
          throw Unsupported(in.pos, quoted(in) + ": a warp barrier inside a loop or behind a branch could be reached a different number "
                                                 "of times by the lanes of a harness warp");
        ++warpSyncs;
      }
      if (isBarrier(in.op)) ids.insert(in.operands.at(0).value);
      if (role.sharesWarp && isClusterBarrier(in.op))
        throw Unsupported(in.pos, quoted(in) + ": the harness runs barrier.cluster only in threads with a warp of their own (the lanes "
                                               "of a shared warp would reach it from different code, where its .aligned form is undefined)");
    }
    if (!role.sharesWarp) continue;
    for (const auto& mate : roles) {
      if (mate.warp != role.warp || &mate == &role) continue;
      const auto& m = p.threads[static_cast<std::size_t>(mate.thread)];
      int mateSyncs = 0;
      std::set<std::int64_t> mateIds;
      for (const auto& in : m.code) {
        mateSyncs += in.op == Opcode::BarWarpSync ? 1 : 0;
        if (isBarrier(in.op)) mateIds.insert(in.operands.at(0).value);
      }
      if (mateSyncs != warpSyncs || mateIds != ids)
        throw Unsupported(t.pos, t.name + " and " + m.name + " share a warp but not their barriers: a lane waits at a barrier for the "
                                 "other lanes of its warp, so the threads of a warp must pass the same CTA barriers and as many "
                                 "bar.warp.sync");
    }
  }
}

// barrier.cluster waits for every non-exited thread of the cluster, harness warps included: every thread must
// arrive and wait the same number of times, alternately, outside loops and branches. Returns that number.
int resolveClusterPhases(const frontend::Program& p, const std::vector<HwRole>& roles, int clusterSize) {
  std::optional<int> phases;
  const Instruction* first = nullptr;
  for (const auto& role : roles) {
    const auto& t = p.threads[static_cast<std::size_t>(role.thread)];
    int arrives = 0;
    bool waiting = false;  // arrived, not yet waited
    for (std::size_t i = 0; i < t.code.size(); ++i) {
      const Instruction& in = t.code[i];
      if (!isClusterBarrier(in.op)) continue;
      if (!first) first = &in;
      if (role.inLoop[i] || skippable(t, static_cast<int>(i)))
        throw Unsupported(in.pos, quoted(in) + ": a cluster barrier inside a loop or behind a branch could be reached a different "
                                               "number of times by the lanes of a harness warp");
      if ((in.op == Opcode::ClusterArrive) == waiting)
        throw Unsupported(in.pos, quoted(in) + ": the harness runs cluster barriers as alternating arrive and wait");
      waiting = in.op == Opcode::ClusterArrive;
      arrives += waiting ? 1 : 0;
    }
    if (waiting) throw Unsupported(t.pos, t.name + " arrives at a cluster barrier and never waits");
    if (phases && *phases != arrives)
      throw Unsupported(t.pos, t.name + " passes " + std::to_string(arrives) + " cluster barrier(s) and another thread " +
                                   std::to_string(*phases) + ": barrier.cluster waits for every thread of the cluster, so the "
                                   "harness runs only tests whose threads all pass the same number");
    phases = arrives;
  }
  const int k = phases.value_or(0);
  if (k > 0 && clusterSize == 1)
    throw Unsupported(first->pos, quoted(*first) + ": outside a cluster launch ptxas lowers barrier.cluster.wait to bar.sync 0 over "
                                                   "the whole CTA; the harness runs cluster barriers only in clusters of several CTAs");
  return k;
}

// Per location, what the operations touching it need; filled while the addresses are collected.
struct LocationUse {
  bool narrow = false;    // a 32-bit-only operation or a copy touches it: 4-byte values
  int bytes = 0;          // the most bytes a copy moves from or into it
  int align = 8;          // a cp.async or bulk copy touches it: 16; the shared side of a TMA copy: 128
};

class Analyzer {
 public:
  Analyzer(const frontend::Program& program, HardwareTest& hw) : p_(program), hw_(hw) {}

  void run(const std::vector<std::string>& keys) {
    hw_.program = p_;
    place();
    declareLocations();
    for (auto& role : hw_.roles) instructions(role);
    resolveBarriers(p_, hw_.roles);
    checkWarpBarriers(p_, hw_.roles);
    hw_.clusterPhases = resolveClusterPhases(p_, hw_.roles, hw_.clusterSize);
    sizes();
    this->keys(keys);
  }

 private:
  // Placement: one GPU; dense CTAs and clusters as the unroller numbers them; every thread a warp of its own.
  void place() {
    std::set<int> gpus;
    std::map<int, int> clusterOfCta;
    std::map<std::pair<int, int>, int> namedCluster;
    int clusters = 0;
    std::map<std::tuple<int, int, int>, int> warps;  // (gpu, cta, warp) -> dense test warp
    int soloWarps = 0;
    for (const auto& t : p_.threads) {
      gpus.insert(t.gpu);
      const auto [it, fresh] = ctaIndex_.emplace(std::pair{t.gpu, t.cta}, static_cast<int>(ctaIndex_.size()));
      int cluster;
      if (t.cluster) {
        auto [c, inserted] = namedCluster.emplace(std::pair{t.gpu, *t.cluster}, clusters);
        if (inserted) ++clusters;
        cluster = c->second;
      } else {
        cluster = fresh ? clusters++ : clusterOfCta.at(it->second);
      }
      clusterOfCta.emplace(it->second, cluster);
      HwRole role;
      role.thread = t.index;
      role.cta = it->second;
      // Threads naming one warp of one CTA share a test warp; the others have one of their own (numbered after).
      role.warp = t.warp ? warps.emplace(std::tuple{t.gpu, t.cta, *t.warp}, static_cast<int>(warps.size())).first->second
                         : -1 - soloWarps++;
      hw_.roles.push_back(std::move(role));
    }
    for (auto& role : hw_.roles) {
      if (role.warp < 0) role.warp = static_cast<int>(warps.size()) - 1 - role.warp;
      const auto mates = std::count_if(hw_.roles.begin(), hw_.roles.end(), [&](const HwRole& r) { return r.warp == role.warp; });
      const auto& t = p_.threads[static_cast<std::size_t>(role.thread)];
      if (mates > 1) {
        if (32 % mates != 0)
          throw Unsupported(t.pos, t.name + " shares a warp with " + std::to_string(mates - 1) + " other thread(s); the harness splits a "
                                       "warp's lanes evenly among its threads, which needs 2, 4, 8, 16 or 32 of them");
        role.sharesWarp = hw_.sharedWarps = true;
      }
    }
    if (gpus.size() > 1)
      throw Unsupported(p_.threads.back().pos, "the test places threads on " + std::to_string(gpus.size()) +
                                                   " GPUs; the harness runs on one GPU");
    gpu_ = gpus.empty() ? 0 : *gpus.begin();
    hw_.ctaCluster.resize(ctaIndex_.size());
    std::vector<int> clusterCtas(static_cast<std::size_t>(clusters), 0);
    for (const auto& [cta, cluster] : clusterOfCta) {
      hw_.ctaCluster[static_cast<std::size_t>(cta)] = cluster;
      ++clusterCtas[static_cast<std::size_t>(cluster)];
    }
    hw_.clusterSize = clusterCtas.empty() ? 1 : *std::max_element(clusterCtas.begin(), clusterCtas.end());
    if (hw_.clusterSize > kMaxClusterSize)
      throw Unsupported(p_.threads.front().pos, "a cluster of " + std::to_string(hw_.clusterSize) + " CTAs is larger than " +
                                                    std::to_string(kMaxClusterSize));
  }

  // The CTA whose shared memory a location declared without a state space lives in: the CTA of its accessing
  // threads when every access names .shared{::cta} (tests written before shared declarations), else none.
  std::optional<int> impliedSharedCta(const std::string& name) const {
    std::optional<int> cta;
    for (const auto& role : hw_.roles)
      for (const auto& in : p_.threads[static_cast<std::size_t>(role.thread)].code) {
        if (!isAccess(in.op) || addressOperand(in).name != name) continue;
        if ((in.space != StateSpace::Shared && in.space != StateSpace::SharedCta) || (cta && *cta != role.cta)) return std::nullopt;
        cta = role.cta;
      }
    return cta;
  }

  // Locations: global memory, a CTA's shared memory (data or mbarrier), or the tensor map. Aliases, tensor
  // memory and shared memory of CTAs without threads are refused where an instruction uses them. Addresses
  // (Dat3M's `P0:r1 = &x`, `y = &x`) are model constants, not the harness's buffer addresses: refused outright.
  void declareLocations() {
    for (const auto& init : p_.regInits)
      if (!init.addressOf.empty())
        throw Unsupported(init.pos, "register " + init.reg + " holds the address of '" + init.addressOf + "', which the harness does not reproduce");
    for (const auto& loc : p_.locations)
      if (!loc.addressOf.empty())
        throw Unsupported(loc.pos, "'" + loc.name + "' holds the address of '" + loc.addressOf + "', which the harness does not reproduce");
    for (const auto& loc : p_.locations) {
      auto refuse = [&](const std::string& why) { refused_[loc.name] = why; };
      if (loc.aliasProxy) {
        refuse("'" + loc.name + "' is an alias of '" + loc.aliasOf + "'; the harness gives every location its own memory");
        continue;
      }
      if (loc.kind == frontend::LocationKind::Tmem) {
        refuse("'" + loc.name + "' is tensor memory (tcgen05, sm_100); Hopper GPUs have none");
        continue;
      }
      HwLocation h;
      h.name = loc.name;
      h.init = loc.init;
      if (loc.kind == frontend::LocationKind::TensorMap) {
        h.tensorMap = true;
      } else if (loc.kind == frontend::LocationKind::MBarrier || (loc.space != StateSpace::Unspecified && loc.space != StateSpace::Global)) {
        const auto cta = ctaIndex_.find({loc.ownerGpu, loc.ownerCta.value_or(0)});
        if (loc.ownerGpu != gpu_ || cta == ctaIndex_.end()) {
          refuse("'" + loc.name + "' is in the shared memory of CTA " + std::to_string(loc.ownerCta.value_or(0)) +
                 ", where no thread of the test runs");
          continue;
        }
        h.shared = true;
        h.ownerCta = cta->second;
        h.mbarrier = loc.kind == frontend::LocationKind::MBarrier;
      } else if (const auto cta = impliedSharedCta(loc.name)) {
        h.shared = true;
        h.ownerCta = *cta;
      }
      hw_.locationIndex[loc.name] = static_cast<int>(hw_.locations.size());
      hw_.locations.push_back(h);
    }
    use_.assign(hw_.locations.size(), {});
  }

  int location(const Operand& op) {
    if (const auto why = refused_.find(op.name); why != refused_.end()) throw Unsupported(op.pos, why->second);
    const auto found = hw_.locationIndex.find(op.name);
    if (found == hw_.locationIndex.end()) throw Unsupported(op.pos, "'" + op.name + "' is not a location");
    return found->second;
  }

  const HwLocation& loc(int index) const { return hw_.locations[static_cast<std::size_t>(index)]; }

  bool sameCluster(int ctaA, int ctaB) const {
    return hw_.ctaCluster[static_cast<std::size_t>(ctaA)] == hw_.ctaCluster[static_cast<std::size_t>(ctaB)];
  }

  // The address kind of a shared-memory operand written with state space `space` by a thread of CTA `cta`.
  AddrKind sharedKind(const Instruction& in, const Operand& op, int l, StateSpace space, int cta) const {
    const HwLocation& h = loc(l);
    const std::string owner = "CTA " + std::to_string(h.ownerCta);
    if (space == StateSpace::SharedCluster) {
      if (!sameCluster(h.ownerCta, cta))
        throw Unsupported(op.pos, quoted(in) + ": '" + h.name + "' is in the shared memory of a CTA outside the thread's cluster");
      return AddrKind::SharedCluster;
    }
    if (space == StateSpace::Global)
      throw Unsupported(op.pos, quoted(in) + ": '" + h.name + "' is in shared memory, not in .global");
    if (h.ownerCta != cta)
      throw Unsupported(op.pos, quoted(in) + ": '" + h.name + "' is in the shared memory of another CTA; only .shared::cluster "
                                                              "addresses reach it");
    return space == StateSpace::Unspecified ? AddrKind::GenericShared : AddrKind::SharedCta;
  }

  void add(HwRole& role, int instr, int operand, AddrKind kind, int l) { role.accesses.push_back({instr, operand, l, kind}); }

  // A data location (not an mbarrier or the tensor map) addressed by `op` with state space `space`.
  void data(HwRole& role, int i, int operand, StateSpace space) {
    const Instruction& in = code(role)[static_cast<std::size_t>(i)];
    const Operand& op = in.operands.at(static_cast<std::size_t>(operand));
    const int l = location(op);
    const HwLocation& h = loc(l);
    if (h.mbarrier) throw Unsupported(op.pos, quoted(in) + ": '" + h.name + "' is an mbarrier object, which only mbarrier instructions may access");
    if (h.tensorMap)
      throw Unsupported(op.pos, quoted(in) + ": '" + h.name + "' is a tensor map; its bytes on hardware are the TMA descriptor, "
                                                             "which the test's abstract value cannot stand for");
    if (!h.shared) {
      if (space != StateSpace::Unspecified && space != StateSpace::Global)
        throw Unsupported(op.pos, quoted(in) + ": '" + h.name + "' is in global memory, not in shared memory");
      add(role, i, operand, AddrKind::Global, l);
      return;
    }
    add(role, i, operand, sharedKind(in, op, l, space, role.cta), l);
  }

  // An mbarrier object addressed by `op`; waits and inits need the executing CTA's own.
  int mbarrier(HwRole& role, int i, int operand, StateSpace space, bool ownOnly) {
    const Instruction& in = code(role)[static_cast<std::size_t>(i)];
    const Operand& op = in.operands.at(static_cast<std::size_t>(operand));
    const int l = location(op);
    if (!loc(l).mbarrier) throw Unsupported(op.pos, quoted(in) + ": '" + loc(l).name + "' is not an mbarrier object");
    const AddrKind kind = sharedKind(in, op, l, space, role.cta);
    if (ownOnly && kind == AddrKind::SharedCluster)
      throw Unsupported(op.pos, quoted(in) + ": this mbarrier operation takes the executing CTA's own object (.shared::cta)");
    add(role, i, operand, kind, l);
    return l;
  }

  void copied(int l, int bytes, int align = 16) {
    auto& u = use_[static_cast<std::size_t>(l)];
    u.narrow = true;
    u.bytes = std::max(u.bytes, bytes);
    u.align = std::max(u.align, align);
  }

  std::int64_t immediate(const Instruction& in, std::size_t operand, const char* what) const {
    const Operand& op = in.operands.at(operand);
    if (op.kind != Operand::Kind::Immediate) throw Unsupported(op.pos, quoted(in) + ": " + what + " must be an immediate");
    return op.value;
  }

  const std::vector<Instruction>& code(const HwRole& role) const { return p_.threads[static_cast<std::size_t>(role.thread)].code; }

  // Instructions: refusals, address arguments in program order, loop membership, what the locations need.
  void instructions(HwRole& role) {
    const auto& t = p_.threads[static_cast<std::size_t>(role.thread)];
    role.inLoop.assign(t.code.size(), false);
    for (std::size_t k = 0; k < t.code.size(); ++k) {
      const int i = static_cast<int>(k);
      const Instruction& in = t.code[k];
      checkInstruction(in);
      switch (in.op) {
        case Opcode::Ld:
        case Opcode::St:
        case Opcode::Atom:
        case Opcode::Red: {
          const int operand = in.op == Opcode::Ld || in.op == Opcode::Atom ? 1 : 0;
          data(role, i, operand, in.space);
          const int l = role.accesses.back().location;
          if ((in.op == Opcode::Atom || in.op == Opcode::Red) && (in.atomOp == AtomOp::Inc || in.atomOp == AtomOp::Dec))
            use_[static_cast<std::size_t>(l)].narrow = true;
          narrowImmediates(in, l);
          break;
        }
        case Opcode::MbarInit: mbarrier(role, i, 0, in.space, true); break;
        case Opcode::MbarArrive: {
          const int l = mbarrier(role, i, 1, in.space, false);
          if (!in.sink && role.accesses.back().kind == AddrKind::SharedCluster)
            throw Unsupported(in.pos, quoted(in) + ": an arrive on another CTA's mbarrier returns no state (write _)");
          if (!in.sink) tokens_.insert({role.thread, in.operands[0].name});
          (void)l;
          break;
        }
        case Opcode::MbarExpectTx:
        case Opcode::MbarCompleteTx: mbarrier(role, i, 0, in.space, false); break;
        case Opcode::MbarWait: mbarrier(role, i, 1, in.space, true); break;
        case Opcode::CpAsyncMbarArrive: mbarrier(role, i, 0, in.space, true); break;
        case Opcode::CpAsync: {
          const std::int64_t size = immediate(in, 2, "the copy size");
          data(role, i, 0, StateSpace::SharedCta);
          copied(role.accesses.back().location, static_cast<int>(size));
          data(role, i, 1, StateSpace::Global);
          copied(role.accesses.back().location, static_cast<int>(size));
          role.drainsCpAsync = true;
          break;
        }
        case Opcode::BulkCopy: bulkCopy(role, i); break;
        case Opcode::StAsync:
        case Opcode::RedAsync: {
          data(role, i, 0, StateSpace::SharedCluster);
          const int target = role.accesses.back().location;
          copied(target, asyncStoreWidth(in));
          narrowImmediates(in, target);
          const int m = mbarrier(role, i, 2, StateSpace::SharedCluster, false);
          if (loc(m).ownerCta != loc(target).ownerCta)
            throw Unsupported(in.pos, quoted(in) + ": the mbarrier must be in the CTA of the destination");
          break;
        }
        case Opcode::CpAsyncCommit:
        case Opcode::CpAsyncWait:
          if (in.bulkGroup) role.drainsBulkGroup = true;
          break;
        default: break;
      }
      if (isBarrier(in.op)) hw_.usesBarriers = true;
      if (isJump(in.op)) {
        const int target = labelIndex(t, in.operands.back().name);
        if (target < 0) throw Unsupported(in.pos, quoted(in) + ": unknown label");
        if (target <= i) {
          role.hasBackwardBranch = true;
          for (int j = target; j <= i; ++j) role.inLoop[static_cast<std::size_t>(j)] = true;
        }
      }
    }
    for (const auto& a : role.accesses)
      if (a.kind == AddrKind::SharedCluster && loc(a.location).ownerCta != role.cta) hw_.clusterSync = true;
  }

  // cp.async.bulk{.tensor} and cp.reduce.async.bulk{.tensor}: destination, source, size and mbarrier as the
  // direction says (frontend/Program.hpp BulkKind); TMA operands are the map and the location it stands for.
  void bulkCopy(HwRole& role, int i) {
    const Instruction& in = code(role)[static_cast<std::size_t>(i)];
    auto size = [&](std::size_t operand) {
      const std::int64_t n = immediate(in, operand, "the copy size");
      if (n <= 0 || n % 16 != 0) throw Unsupported(in.pos, quoted(in) + ": bulk copy sizes are multiples of 16 bytes");
      return static_cast<int>(n);
    };
    auto tensor = [&](int mapOperand) {
      const Operand& map = in.operands.at(static_cast<std::size_t>(mapOperand));
      const int m = location(map);
      if (!loc(m).tensorMap) throw Unsupported(map.pos, quoted(in) + ": '" + map.name + "' is not a tensor map");
      add(role, i, mapOperand, AddrKind::TensorMap, m);
      const Operand& g = in.operands.at(static_cast<std::size_t>(mapOperand + 1));
      const int l = location(g);
      if (loc(l).shared || loc(l).mbarrier || loc(l).tensorMap)
        throw Unsupported(g.pos, quoted(in) + ": the tensor map stands for '" + g.name + "', which is not in global memory");
      add(role, i, mapOperand + 1, AddrKind::TensorCoord, l);
      copied(l, kTensorBoxBytes);
      hw_.usesTensorMap = true;
    };
    // The shared side of a tensor copy must be 128-byte aligned (cp.async.bulk.tensor), of a bulk copy 16.
    auto sharedData = [&](int operand, StateSpace space, int bytes, int align = 16) {
      data(role, i, operand, space);
      copied(role.accesses.back().location, bytes, align);
      return role.accesses.back().location;
    };
    const StateSpace dstSpace = in.space == StateSpace::SharedCta ? StateSpace::SharedCta : StateSpace::SharedCluster;
    int dst = -1, bar = -1;
    switch (in.bulk) {
      case BulkKind::GlobalToShared: {
        const int n = size(2);
        dst = sharedData(0, dstSpace, n);
        data(role, i, 1, StateSpace::Global);
        copied(role.accesses.back().location, n);
        bar = mbarrier(role, i, 3, dstSpace, false);
        break;
      }
      case BulkKind::TensorLoad:
        dst = sharedData(0, dstSpace, kTensorBoxBytes, 128);
        tensor(1);
        bar = mbarrier(role, i, 3, dstSpace, false);
        break;
      case BulkKind::SharedToCluster: {
        const int n = size(2);
        dst = sharedData(0, StateSpace::SharedCluster, n);
        sharedData(1, StateSpace::SharedCta, n);
        bar = mbarrier(role, i, 3, StateSpace::SharedCluster, false);
        break;
      }
      case BulkKind::SharedToGlobal: {
        const int n = size(2);
        data(role, i, 0, StateSpace::Global);
        copied(role.accesses.back().location, n);
        sharedData(1, StateSpace::SharedCta, n);
        role.drainsBulkGroup = true;
        break;
      }
      case BulkKind::TensorStore:
        tensor(0);
        sharedData(2, StateSpace::SharedCta, kTensorBoxBytes, 128);
        role.drainsBulkGroup = true;
        break;
    }
    if (bar >= 0) {
      if (loc(bar).ownerCta != loc(dst).ownerCta)
        throw Unsupported(in.pos, quoted(in) + ": the mbarrier must be in the CTA of the destination");
      if (loc(bar).ownerCta == role.cta &&
          std::find(role.drainsMbarriers.begin(), role.drainsMbarriers.end(), bar) == role.drainsMbarriers.end())
        role.drainsMbarriers.push_back(bar);
    }
  }

  // Immediates written into a 4-byte location must fit it; remembered and checked once widths are known.
  void narrowImmediates(const Instruction& in, int l) { written_.emplace_back(&in, l); }

  // Widths, slot sizes and alignments; values that must fit 32 bits.
  void sizes() {
    for (std::size_t l = 0; l < hw_.locations.size(); ++l) {
      HwLocation& h = hw_.locations[l];
      const LocationUse& u = use_[l];
      if (h.tensorMap) continue;
      h.width = h.mbarrier ? 8 : (h.shared || u.narrow) ? 4 : 8;
      h.bytes = std::max(h.width, u.bytes);
      const int align = u.align;
      if (h.shared) {
        h.slot = static_cast<int>(hw_.sharedLocations.size());
        hw_.sharedLocations.push_back(static_cast<int>(l));
        hw_.sharedAlign = std::max(hw_.sharedAlign, align);
        hw_.sharedBytes = std::max(hw_.sharedBytes, h.bytes);
      } else {
        h.slot = static_cast<int>(hw_.globalLocations.size());
        hw_.globalLocations.push_back(static_cast<int>(l));
        hw_.globalAlign = std::max(hw_.globalAlign, align);
        hw_.globalBytes = std::max(hw_.globalBytes, h.bytes);
      }
      if (h.width == 4 && !fitsInt32(h.init))
        throw Unsupported(p_.locations[l].pos, "the initial value of the 32-bit location '" + h.name + "' does not fit");
    }
    for (const auto& [in, l] : written_) {
      const HwLocation& h = loc(l);
      if (h.width == 8) continue;
      for (const auto& op : in->operands)
        if (op.kind == Operand::Kind::Immediate && op.name != "_" && !fitsInt32(op.value))
          throw Unsupported(op.pos, quoted(*in) + ": " + std::to_string(op.value) + " does not fit the 32-bit location '" + h.name +
                                        "' (shared memory, .inc/.dec and copied data are 32-bit on hardware)");
    }
  }

  // Keys: registers of a thread ("P1:r0") or final values of global locations ("x").
  void keys(const std::vector<std::string>& keys) {
    const model::SourcePos at{p_.file, 1, 1};
    for (const auto& display : keys) {
      HwKey k;
      k.display = display;
      const auto colon = display.find(':');
      if (colon == std::string::npos) {
        k.location = true;
        k.index = location({Operand::Kind::Location, display, 0, at});
        const HwLocation& h = loc(k.index);
        if (h.shared || h.tensorMap)
          throw Unsupported(at, "the condition reads the final value of '" + display +
                                    "', which is not in global memory; the harness reads final values of global memory only");
      } else {
        const std::string thread = display.substr(0, colon), reg = display.substr(colon + 1);
        for (std::size_t r = 0; r < hw_.roles.size(); ++r)
          if (p_.threads[static_cast<std::size_t>(hw_.roles[r].thread)].name == thread) k.role = static_cast<int>(r);
        if (k.role < 0) throw Unsupported(at, "the observed register '" + display + "' names no thread");
        if (tokens_.count({hw_.roles[static_cast<std::size_t>(k.role)].thread, reg}))
          throw Unsupported(at, "the condition reads '" + display + "', an mbarrier state token whose bits the hardware defines");
        auto& observed = hw_.roles[static_cast<std::size_t>(k.role)].observed;
        k.index = static_cast<int>(observed.size());
        observed.push_back(reg);
      }
      hw_.keys.push_back(std::move(k));
    }
  }

  const frontend::Program& p_;
  HardwareTest& hw_;
  int gpu_ = 0;
  std::map<std::pair<int, int>, int> ctaIndex_;
  std::map<std::string, std::string> refused_;  // location -> why it cannot be used
  std::vector<LocationUse> use_;
  std::vector<std::pair<const Instruction*, int>> written_;
  std::set<std::pair<int, std::string>> tokens_;  // (thread, register) holding an mbarrier state
};

}  // namespace

const Operand& addressOperand(const Instruction& in) {
  return in.op == Opcode::Ld || in.op == Opcode::Atom ? in.operands.at(1) : in.operands.at(0);
}

HardwareTest analyze(const frontend::Program& program, const std::vector<std::string>& keys) {
  HardwareTest hw;
  Analyzer(program, hw).run(keys);
  return hw;
}

}  // namespace ptxmm::validate
