// The whole launch unrolled, with per-event facts (KernelGraph.hpp).
#include "checker/kernel/KernelGraph.hpp"

#include <algorithm>
#include <map>

#include "frontend/lower/Unroller.hpp"

namespace ptxmm::checker::kernel {
namespace {

constexpr std::uint8_t kUnconditional = 1;
constexpr std::uint8_t kAfterLoop = 2;
constexpr std::uint8_t kInLoop = 4;

std::string regName(int r) { return "r" + std::to_string(r); }
std::string readName(int e) { return "e" + std::to_string(e); }

bool isLoopNode(const model::Node& n) {
  for (int it : n.iteration)
    if (it >= 0) return true;
  return false;
}

}  // namespace

KernelGraph::KernelGraph(const frontend::KernelProgram& kernel, int unrollBound)
    : kernel_(kernel), graph_(frontend::unroll(kernel.program, {unrollBound})) {
  nodeFlags_.resize(graph_.threads.size());
  for (std::size_t t = 0; t < graph_.threads.size(); ++t) {
    classifyNodes(static_cast<int>(t));
    paths_.push_back(enumeratePaths(graph_, static_cast<int>(t)));
  }
  // Program locations are laid out in declaration order; a kernel has no aliases, so the i-th name is the i-th
  // location of the KernelProgram.
  locationOfPhysical_.assign(graph_.physicalNames.size(), -1);
  for (std::size_t i = 0; i < graph_.locationNames.size() && i < kernel.locations.size(); ++i)
    locationOfPhysical_[static_cast<std::size_t>(graph_.locationNames[i].second)] = static_cast<int>(i);
  accessOf_.assign(graph_.events.size(), -1);
  for (std::size_t e = graph_.initCount(); e < graph_.events.size(); ++e) {
    const model::Event& ev = graph_.events[e];
    if (!(ev.is(model::Tag::R) || ev.is(model::Tag::W)) || ev.paddr < 0) continue;
    const int loc = locationOfPhysical_[static_cast<std::size_t>(ev.paddr)];
    if (loc < 0) continue;  // the virtual location of a cluster barrier
    const frontend::KernelLocation& kl = kernel.locations[static_cast<std::size_t>(loc)];
    accessOf_[e] = static_cast<int>(accesses_.size());
    accesses_.push_back({static_cast<int>(e), kl.buffer, kl.offset, kl.offset + kl.size, loc, ev.is(model::Tag::W)});
  }
}

// Unconditional nodes are the dominators of the thread's end (a virtual node after every edge to kEnd), found
// with the Cooper-Harvey-Kennedy intersection over the nodes' topological order; paths into the unrolling bound
// are not complete executions and do not count.
void KernelGraph::classifyNodes(int thread) {
  const auto& nodes = graph_.threads[static_cast<std::size_t>(thread)].nodes;
  const int n = static_cast<int>(nodes.size());
  auto& flags = nodeFlags_[static_cast<std::size_t>(thread)];
  flags.assign(nodes.size(), 0);
  if (n == 0) return;
  const int end = n;  // the virtual end node
  std::vector<std::vector<int>> preds(static_cast<std::size_t>(n + 1));
  for (int i = 0; i < n; ++i)
    for (const model::Edge* e : {&nodes[static_cast<std::size_t>(i)].next, &nodes[static_cast<std::size_t>(i)].taken}) {
      if (e == &nodes[static_cast<std::size_t>(i)].taken && !nodes[static_cast<std::size_t>(i)].branch) continue;
      if (e->target >= 0) preds[static_cast<std::size_t>(e->target)].push_back(i);
      if (e->target == model::Edge::kEnd) preds[static_cast<std::size_t>(end)].push_back(i);
    }
  std::vector<int> idom(static_cast<std::size_t>(n + 1), -1);
  idom[0] = 0;
  auto intersect = [&](int a, int b) {
    while (a != b) {
      while (a > b) a = idom[static_cast<std::size_t>(a)];
      while (b > a) b = idom[static_cast<std::size_t>(b)];
    }
    return a;
  };
  for (int v = 1; v <= n; ++v) {
    int d = -1;
    for (int p : preds[static_cast<std::size_t>(v)])
      if (idom[static_cast<std::size_t>(p)] >= 0) d = d < 0 ? p : intersect(d, p);
    idom[static_cast<std::size_t>(v)] = d;
  }
  for (int v = idom[static_cast<std::size_t>(end)]; v >= 0; v = v == 0 ? -1 : idom[static_cast<std::size_t>(v)])
    flags[static_cast<std::size_t>(v)] |= kUnconditional;
  for (int v = 0; v < n; ++v) {
    if (isLoopNode(nodes[static_cast<std::size_t>(v)])) flags[static_cast<std::size_t>(v)] |= kInLoop;
    for (int p : preds[static_cast<std::size_t>(v)])
      if (flags[static_cast<std::size_t>(p)] & (kAfterLoop | kInLoop)) flags[static_cast<std::size_t>(v)] |= kAfterLoop;
  }
}

int KernelGraph::instructionIndex(int e) const {
  const model::Event& ev = event(e);
  return graph_.threads[static_cast<std::size_t>(ev.thread)].nodes[static_cast<std::size_t>(ev.node)].instr;
}

const frontend::Instruction& KernelGraph::instruction(int e) const {
  return kernel_.program.threads[static_cast<std::size_t>(event(e).thread)].code[static_cast<std::size_t>(instructionIndex(e))];
}

bool KernelGraph::unconditional(int e) const {
  const model::Event& ev = event(e);
  return nodeFlags_[static_cast<std::size_t>(ev.thread)][static_cast<std::size_t>(ev.node)] & kUnconditional;
}

bool KernelGraph::afterLoop(int e) const {
  const model::Event& ev = event(e);
  return nodeFlags_[static_cast<std::size_t>(ev.thread)][static_cast<std::size_t>(ev.node)] & kAfterLoop;
}

bool KernelGraph::inLoop(int e) const {
  const model::Event& ev = event(e);
  return nodeFlags_[static_cast<std::size_t>(ev.thread)][static_cast<std::size_t>(ev.node)] & kInLoop;
}

model::ValuePtr KernelGraph::writeTerm(int e) const {
  model::ValuePtr found;
  for (const ThreadPath& p : paths(event(e).thread))
    for (const auto& [w, term] : p.writeValues) {
      if (w != e) continue;
      if (found && model::value::print(found, regName, readName) != model::value::print(term, regName, readName)) return nullptr;
      found = term;
    }
  return found;
}

const KernelAccess* KernelGraph::access(int e) const {
  const int a = accessOf_[static_cast<std::size_t>(e)];
  return a < 0 ? nullptr : &accesses_[static_cast<std::size_t>(a)];
}

std::string KernelGraph::threadRange(const std::vector<int>& threads) const {
  const auto& kt = kernel_.threads;
  const auto& block = kernel_.launch.block;
  auto linear = [&](int t) {
    const auto& tid = kt[static_cast<std::size_t>(t)].tid;
    return tid.x + block.x * (tid.y + block.y * tid.z);
  };
  std::map<int, std::vector<int>> byBlock;
  for (int t : threads) byBlock[kt[static_cast<std::size_t>(t)].cta].push_back(linear(t));
  std::string out;
  for (auto& [cta, ids] : byBlock) {
    std::sort(ids.begin(), ids.end());
    std::string list;
    for (std::size_t i = 0; i < ids.size();) {
      std::size_t j = i;
      while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
      list += (list.empty() ? "" : ", ") + std::to_string(ids[i]) + (j > i ? ".." + std::to_string(ids[j]) : "");
      i = j + 1;
    }
    const int block = cta;  // a copy: clang 14 (the fuzz build) cannot capture a structured binding
    const frontend::Dim3 c = kt[static_cast<std::size_t>(std::find_if(kt.begin(), kt.end(), [&](const auto& k) { return k.cta == block; }) - kt.begin())].ctaid;
    const std::string name = c.y == 0 && c.z == 0 ? std::to_string(c.x)
                                                  : "(" + std::to_string(c.x) + "," + std::to_string(c.y) + "," + std::to_string(c.z) + ")";
    out += (out.empty() ? "" : "; ") + ("block " + name + (ids.size() == 1 ? " thread " : " threads ") + list);
  }
  return out;
}

KernelPosition KernelGraph::position(int thread, int instr) const {
  const frontend::Instruction& in = kernel_.program.threads[static_cast<std::size_t>(thread)].code[static_cast<std::size_t>(instr)];
  if (in.origin >= 0) return originPosition(thread, in.origin);
  KernelPosition p = originPosition(thread, -1);
  p.file = in.pos.file;
  p.line = p.ptxLine = in.pos.line;
  p.column = in.pos.col;
  p.instruction = in.text;
  return p;
}

KernelPosition KernelGraph::loopPosition(int thread, int loop) const {
  const auto& code = kernel_.program.threads[static_cast<std::size_t>(thread)].code;
  const auto& info = graph_.threads[static_cast<std::size_t>(thread)].loops[static_cast<std::size_t>(loop)];
  for (int i = info.last; i >= 0; --i)
    if (code[static_cast<std::size_t>(i)].origin >= 0) return position(thread, i);
  return position(thread, info.last);
}

KernelPosition KernelGraph::originPosition(int thread, int origin) const {
  KernelPosition p;
  if (origin >= 0 && origin < static_cast<int>(kernel_.origins.size())) {
    const frontend::KernelOrigin& o = kernel_.origins[static_cast<std::size_t>(origin)];
    p.file = o.source.file;
    p.line = o.source.line;
    p.column = o.source.col;
    p.ptxLine = o.ptx.line;
    p.instruction = o.ptxText;
  }
  if (thread >= 0 && thread < static_cast<int>(kernel_.threads.size())) {
    p.block = kernel_.threads[static_cast<std::size_t>(thread)].ctaid;
    p.thread = kernel_.threads[static_cast<std::size_t>(thread)].tid;
  }
  return p;
}

}  // namespace ptxmm::checker::kernel
