// Program -> HardwareTest: the refusals, the access lists, the location widths, barriers and keys
// (HardwareTest.hpp).
#include "validate/HardwareTest.hpp"

#include <algorithm>
#include <limits>
#include <set>
#include <tuple>

namespace ptxmm::validate {

using frontend::AtomOp;
using frontend::Instruction;
using frontend::Opcode;
using frontend::Operand;
using frontend::Sem;
using frontend::StateSpace;

namespace {

bool isAccess(Opcode op) { return op == Opcode::Ld || op == Opcode::St || op == Opcode::Atom || op == Opcode::Red; }
bool isBarrier(Opcode op) { return op == Opcode::BarSync || op == Opcode::BarArrive; }
bool isJump(Opcode op) { return op == Opcode::Branch || op == Opcode::Goto; }

int labelIndex(const frontend::Thread& t, const std::string& name) {
  for (std::size_t i = 0; i < t.code.size(); ++i)
    if (t.code[i].op == Opcode::Label && t.code[i].operands.at(0).name == name) return static_cast<int>(i);
  return -1;
}

bool fitsInt32(std::int64_t v) {
  return v >= std::numeric_limits<std::int32_t>::min() && v <= std::numeric_limits<std::int32_t>::max();
}

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
    case Opcode::Label: break;
    case Opcode::FenceProxy:
      throw Unsupported(in.pos, "'" + in.text + "': proxy fences need proxy accesses, which the harness does not run");
    default:
      throw Unsupported(in.pos, "'" + in.text + "': the harness runs ld/st/atom/red, fences, CTA barriers and register code only");
  }
  if (isAccess(in.op)) {
    if (in.proxy != model::Proxy::Generic)
      throw Unsupported(in.pos, "'" + in.text + "': only generic-proxy accesses run on hardware (no texture, surface or constant forms)");
    if (in.sem == Sem::Mmio) throw Unsupported(in.pos, "'" + in.text + "': .mmio accesses need memory-mapped I/O");
    if (in.space == StateSpace::Shared || in.space == StateSpace::SharedCta || in.space == StateSpace::SharedCluster)
      throw Unsupported(in.pos, "'" + in.text + "': shared-memory accesses are not supported by the harness yet");
  }
  if (in.op == Opcode::Fence && in.fenceKind != frontend::FenceKind::Plain)
    throw Unsupported(in.pos, "'" + in.text + "': only plain fence and membar forms are supported by the harness");
  if (in.op == Opcode::Atom || in.op == Opcode::Red) {
    switch (in.atomOp) {
      case AtomOp::Sub:
      case AtomOp::Mul:
      case AtomOp::Div:
        throw Unsupported(in.pos, "'" + in.text + "': PTX has no atom/red instruction for this operation");
      case AtomOp::Cas:
      case AtomOp::Exch:
        if (in.op == Opcode::Red) throw Unsupported(in.pos, "'" + in.text + "': red has no .cas/.exch form");
        break;
      default: break;
    }
    if (in.op == Opcode::Red && (in.sem == Sem::Acquire || in.sem == Sem::AcqRel))
      throw Unsupported(in.pos, "'" + in.text + "': red takes only .relaxed or .release");
    if (in.sem == Sem::Weak || in.sem == Sem::Volatile || in.sem == Sem::Sc)
      throw Unsupported(in.pos, "'" + in.text + "': atom/red have no such semantics in PTX");
  }
  if (in.op == Opcode::Fence && in.sem != Sem::Default && in.sem != Sem::Sc && in.sem != Sem::AcqRel &&
      in.sem != Sem::Acquire && in.sem != Sem::Release)
    throw Unsupported(in.pos, "'" + in.text + "': unknown fence semantics");
  if (isBarrier(in.op)) {
    if (in.dat3mBarrier && in.operands.size() > 1)
      throw Unsupported(in.pos, "'" + in.text + "': Dat3M's labelled barrier (label, resource, quorum) has no PTX instruction");
    if (in.text.rfind("barrier", 0) == 0)
      throw Unsupported(in.pos, "'" + in.text + "': only the aligned bar{.cta} forms are supported by the harness");
    for (const auto& op : in.operands)
      if (op.kind != Operand::Kind::Immediate)
        throw Unsupported(op.pos, "'" + in.text + "': barrier ids and counts must be immediates on hardware");
  }
}

// The thread count each barrier instruction gets on hardware, after checking the barrier can never hang or be
// undefined there: a hardware barrier cannot time out, so only patterns that always complete are run. Each
// participant (a role of the CTA using the id) must use the id exactly once, in code without branches, and the
// count must be 32 per participant (a litmus thread is a warp). A missing count means "the test's threads of the
// CTA that use the barrier" (checker/BarrierMatching.hpp), which is also 32 per participant.
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
      const auto& t = p.threads[static_cast<std::size_t>(roles[static_cast<std::size_t>(r)].thread)];
      const Instruction& in = t.code[static_cast<std::size_t>(i)];
      if (key.second < 0 || key.second > 15) throw Unsupported(in.pos, "'" + in.text + "': barrier ids are 0..15");
      if (!participants.insert(r).second)
        throw Unsupported(in.pos, "'" + in.text + "': a thread uses barrier " + std::to_string(key.second) +
                                      " twice; the harness runs only barriers each participant uses once");
      if (std::any_of(t.code.begin(), t.code.end(), [](const Instruction& x) { return isJump(x.op); }))
        throw Unsupported(in.pos, "'" + in.text + "': a barrier in a thread with branches: lanes of one warp play different "
                                      "instances and could reach the aligned barrier divergently");
    }
    const int count = 32 * static_cast<int>(participants.size());
    for (const auto& [r, i] : list) {
      const auto& in = p.threads[static_cast<std::size_t>(roles[static_cast<std::size_t>(r)].thread)].code[static_cast<std::size_t>(i)];
      if (in.operands.size() > 1 && in.operands[1].value != count)
        throw Unsupported(in.operands[1].pos, "'" + in.text + "': the count " + std::to_string(in.operands[1].value) + " is not 32 times the " +
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

}  // namespace

const Operand& addressOperand(const Instruction& in) {
  return in.op == Opcode::Ld || in.op == Opcode::Atom ? in.operands.at(1) : in.operands.at(0);
}

HardwareTest analyze(const frontend::Program& program, const std::vector<std::string>& keys) {
  HardwareTest hw;
  hw.program = program;
  const model::SourcePos at{program.file, 1, 1};

  // Locations: the harness gives each its own global memory. Aliases and shared-memory locations are refused
  // where an instruction uses them (a declaration alone changes nothing).
  std::map<std::string, std::string> refusedLocation;  // name -> why
  // Addresses (Dat3M's `P0:r1 = &x`) are model constants, not the harness's buffer addresses.
  for (const auto& init : program.regInits)
    if (!init.addressOf.empty()) throw Unsupported(init.pos, "register " + init.reg + " holds the address of '" + init.addressOf + "', which the harness does not reproduce");
  for (const auto& loc : program.locations)
    if (!loc.addressOf.empty()) throw Unsupported(loc.pos, "'" + loc.name + "' holds the address of '" + loc.addressOf + "', which the harness does not reproduce");
  for (const auto& loc : program.locations) {
    if (loc.aliasProxy) {
      refusedLocation[loc.name] = "'" + loc.name + "' is an alias of '" + loc.aliasOf + "'; the harness gives every location its own memory";
      continue;
    }
    if (loc.space != StateSpace::Unspecified && loc.space != StateSpace::Global) {
      refusedLocation[loc.name] = "'" + loc.name + "' is in shared memory, which the harness does not support yet";
      continue;
    }
    hw.locationIndex[loc.name] = static_cast<int>(hw.locations.size());
    hw.locations.push_back({loc.name, loc.init, 8});
  }
  auto locationOf = [&](const std::string& name, const model::SourcePos& pos) {
    if (const auto why = refusedLocation.find(name); why != refusedLocation.end()) throw Unsupported(pos, why->second);
    const auto found = hw.locationIndex.find(name);
    if (found == hw.locationIndex.end()) throw Unsupported(pos, "'" + name + "' is not a location");
    return found->second;
  };

  // Placement: one GPU; dense CTAs and clusters as the unroller numbers them.
  std::set<int> gpus;
  std::map<std::pair<int, int>, int> ctaIndex;
  std::map<std::pair<int, int>, int> namedCluster;
  std::map<int, int> clusterOfCta;
  int clusters = 0;
  std::set<std::tuple<int, int, int>> warps;
  for (const auto& t : program.threads) {
    if (t.warp && !warps.emplace(t.gpu, t.cta, *t.warp).second)
      throw Unsupported(t.pos, t.name + " shares a warp with another thread; the harness gives every thread whole warps");
    gpus.insert(t.gpu);
    const auto [it, fresh] = ctaIndex.emplace(std::pair{t.gpu, t.cta}, static_cast<int>(ctaIndex.size()));
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
    hw.roles.push_back(std::move(role));
  }
  if (gpus.size() > 1)
    throw Unsupported(program.threads.back().pos, "the test places threads on " + std::to_string(gpus.size()) +
                                                      " GPUs; the harness runs on one GPU");
  hw.ctaCluster.resize(ctaIndex.size());
  std::vector<int> clusterCtas(static_cast<std::size_t>(clusters), 0);
  for (const auto& [cta, cluster] : clusterOfCta) {
    hw.ctaCluster[static_cast<std::size_t>(cta)] = cluster;
    ++clusterCtas[static_cast<std::size_t>(cluster)];
  }
  hw.clusterSize = clusterCtas.empty() ? 1 : *std::max_element(clusterCtas.begin(), clusterCtas.end());
  if (hw.clusterSize > kMaxClusterSize)
    throw Unsupported(program.threads.front().pos, "a cluster of " + std::to_string(hw.clusterSize) + " CTAs is larger than " +
                                                       std::to_string(kMaxClusterSize));

  // Instructions: refusals, accesses in program order, loop membership, 32-bit locations.
  for (auto& role : hw.roles) {
    const auto& t = program.threads[static_cast<std::size_t>(role.thread)];
    role.inLoop.assign(t.code.size(), false);
    for (std::size_t i = 0; i < t.code.size(); ++i) {
      const Instruction& in = t.code[i];
      checkInstruction(in);
      if (isAccess(in.op)) {
        const Operand& a = addressOperand(in);
        const int loc = locationOf(a.name, a.pos);
        role.accesses.push_back({static_cast<int>(i), loc});
        if ((in.op == Opcode::Atom || in.op == Opcode::Red) && (in.atomOp == AtomOp::Inc || in.atomOp == AtomOp::Dec))
          hw.locations[static_cast<std::size_t>(loc)].width = 4;
      }
      if (isBarrier(in.op)) hw.usesBarriers = true;
      if (isJump(in.op)) {
        const int target = labelIndex(t, in.operands.back().name);
        if (target < 0) throw Unsupported(in.pos, "'" + in.text + "': unknown label");
        if (target <= static_cast<int>(i)) {
          role.hasBackwardBranch = true;
          for (int k = target; k <= static_cast<int>(i); ++k) role.inLoop[static_cast<std::size_t>(k)] = true;
        }
      }
    }
  }
  resolveBarriers(program, hw.roles);

  // A 32-bit location holds the model's 64-bit values only while they fit: check every constant it can get.
  for (auto& role : hw.roles) {
    for (const auto& acc : role.accesses) {
      const HwLocation& loc = hw.locations[static_cast<std::size_t>(acc.location)];
      if (loc.width == 8) continue;
      const Instruction& in = program.threads[static_cast<std::size_t>(role.thread)].code[static_cast<std::size_t>(acc.instr)];
      for (const auto& op : in.operands)
        if (op.kind == Operand::Kind::Immediate && !fitsInt32(op.value))
          throw Unsupported(op.pos, "'" + in.text + "': " + std::to_string(op.value) + " does not fit the 32-bit location '" + loc.name +
                                        "' (.inc/.dec exist only as .u32)");
    }
  }
  for (const auto& loc : hw.locations)
    if (loc.width == 4 && !fitsInt32(loc.init)) throw Unsupported(at, "the initial value of the 32-bit location '" + loc.name + "' does not fit");

  // Keys: registers of a thread ("P1:r0") or locations ("x").
  for (const auto& display : keys) {
    HwKey k;
    k.display = display;
    const auto colon = display.find(':');
    if (colon == std::string::npos) {
      k.location = true;
      k.index = locationOf(display, at);
    } else {
      const std::string thread = display.substr(0, colon), reg = display.substr(colon + 1);
      for (std::size_t r = 0; r < hw.roles.size(); ++r)
        if (program.threads[static_cast<std::size_t>(hw.roles[r].thread)].name == thread) k.role = static_cast<int>(r);
      if (k.role < 0) throw Unsupported(at, "the observed register '" + display + "' names no thread");
      auto& observed = hw.roles[static_cast<std::size_t>(k.role)].observed;
      k.index = static_cast<int>(observed.size());
      observed.push_back(reg);
    }
    hw.keys.push_back(std::move(k));
  }
  return hw;
}

}  // namespace ptxmm::validate
