// Simplification and structured layout of residual blocks (ResidualLayout.hpp). Graph algorithms are
// iterative: a thread may have thousands of blocks.
#include "frontend/ptx/ResidualLayout.hpp"

#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace ptxmm::frontend::ptx {
namespace {

class Layout {
 public:
  Layout(std::vector<ResidualBlock> blocks, int thread, std::vector<Incomplete>& incomplete)
      : blocks_(std::move(blocks)), thread_(thread), incomplete_(incomplete) {}

  std::vector<Instruction> run() {
    simplify();
    const int entry = resolve(0);
    if (entry < 0) return {};
    order(entry);
    std::vector<Instruction> code = emit();
    checkOpaque(code);
    return code;
  }

 private:
  bool empty(int b) const { return b >= 0 && blocks_[static_cast<std::size_t>(b)].code.empty() && !blocks_[static_cast<std::size_t>(b)].branch; }

  // Where control entering block b really arrives: past blocks without code.
  int resolve(int b) const {
    std::unordered_set<int> seen;
    while (empty(b) && seen.insert(b).second) b = blocks_[static_cast<std::size_t>(b)].next;
    return b;
  }

  void simplify() {
    for (bool changed = true; changed;) {
      changed = false;
      for (auto& b : blocks_) {
        b.next = resolve(b.next);
        if (!b.branch) continue;
        b.taken = resolve(b.taken);
        if (b.taken == b.next) {  // both ways lead to the same code: the branch decides nothing
          b.branch.reset();
          b.taken = -1;
          changed = true;
        }
      }
      changed = removeDeadRegisterCode() || changed;
    }
  }

  bool removeDeadRegisterCode() {
    std::unordered_set<std::string> used;
    auto use = [&](const Instruction& in) {
      for (std::size_t k = writesFirstOperand(in) ? 1 : 0; k < in.operands.size(); ++k)
        if (in.operands[k].kind == Operand::Kind::Register) used.insert(in.operands[k].name);
    };
    for (const auto& b : blocks_) {
      for (const auto& in : b.code) use(in);
      if (b.branch) use(*b.branch);
    }
    bool changed = false;
    for (auto& b : blocks_) {
      const auto dead = [&](const Instruction& in) {
        return (in.op == Opcode::Local || in.op == Opcode::Setp) && !used.count(in.operands.at(0).name);
      };
      const auto before = b.code.size();
      b.code.erase(std::remove_if(b.code.begin(), b.code.end(), dead), b.code.end());
      changed = changed || b.code.size() != before;
    }
    return changed;
  }

  std::vector<int> successors(int b) const {
    const auto& x = blocks_[static_cast<std::size_t>(b)];
    std::vector<int> out;
    if (x.branch && x.taken >= 0) out.push_back(x.taken);  // visited first: laid out after the fall-through
    if (x.next >= 0 && x.next != (x.branch ? x.taken : -1)) out.push_back(x.next);
    return out;
  }

  // Reverse post-order, natural loops, and the placement that keeps each loop contiguous after its header.
  void order(int entry) {
    const std::size_t n = blocks_.size();
    std::vector<int> post, state(n, 0);  // 0 unvisited, 1 on the stack, 2 done
    std::vector<std::pair<int, int>> backEdges;
    std::vector<std::pair<int, std::size_t>> stack{{entry, 0}};
    state[static_cast<std::size_t>(entry)] = 1;
    while (!stack.empty()) {
      auto& [b, i] = stack.back();
      const auto succ = successors(b);
      if (i < succ.size()) {
        const int s = succ[i++];
        if (state[static_cast<std::size_t>(s)] == 0) {
          state[static_cast<std::size_t>(s)] = 1;
          stack.emplace_back(s, 0);
        } else if (state[static_cast<std::size_t>(s)] == 1) {
          backEdges.emplace_back(b, s);
        }
        continue;
      }
      state[static_cast<std::size_t>(b)] = 2;
      post.push_back(b);
      stack.pop_back();
    }
    std::vector<int> rpo(post.rbegin(), post.rend());
    std::vector<int> rank(n, -1);
    for (std::size_t k = 0; k < rpo.size(); ++k) rank[static_cast<std::size_t>(rpo[k])] = static_cast<int>(k);
    std::vector<std::vector<int>> preds(n);
    for (int b : rpo)
      for (int s : successors(b)) preds[static_cast<std::size_t>(s)].push_back(b);
    for (const auto& [u, h] : backEdges) {
      auto& body = loops_[h];
      body.insert(h);
      std::vector<int> work{u};
      while (!work.empty()) {
        const int x = work.back();
        work.pop_back();
        if (!body.insert(x).second) continue;
        for (int p : preds[static_cast<std::size_t>(x)]) work.push_back(p);
      }
    }
    placed_.assign(n, false);
    place(rpo, -1, rank);
    // Inner loops first (smaller bodies): a latch added to an inner loop may end the body of the loop around it.
    std::vector<int> headers;
    for (const auto& [header, body] : loops_) headers.push_back(header);
    std::sort(headers.begin(), headers.end(), [&](int a, int b) { return loops_[a].size() < loops_[b].size(); });
    for (int header : headers) addLatch(header, loops_[header]);
  }

  // The unroller reads a loop as the range from its header to the last jump back to it. When the block laid out
  // last in a loop's body does not jump back (an inner loop ends the body and the outer back edge leaves from
  // inside it, as nvcc lays out libcu++'s semaphore acquire), the ranges would overlap: every back edge then goes
  // through a latch block laid out last in the body instead, so loops nest as ranges as they do as bodies.
  void addLatch(int header, std::set<int>& body) {
    std::vector<std::ptrdiff_t> position(blocks_.size(), -1);
    for (std::size_t k = 0; k < layout_.size(); ++k) position[static_cast<std::size_t>(layout_[k])] = static_cast<std::ptrdiff_t>(k);
    int last = header;
    for (int b : body)
      if (position[static_cast<std::size_t>(b)] > position[static_cast<std::size_t>(last)]) last = b;
    const std::size_t after = static_cast<std::size_t>(position[static_cast<std::size_t>(last)]) + 1;
    if (lastJump(last, after < layout_.size() ? layout_[after] : -1) == header) return;
    const int latch = static_cast<int>(blocks_.size());
    ResidualBlock l;
    l.next = header;
    for (int b : body) {
      ResidualBlock& x = blocks_[static_cast<std::size_t>(b)];
      if (x.branch && x.taken == header) {
        x.taken = latch;
        if (!l.jump) l.jump = *x.branch;  // the latch keeps the origin of a back edge: a hang is reported there
      }
      if (x.next == header) {
        x.next = latch;
        if (!l.jump) l.jump = x.jump;
      }
    }
    if (l.jump) {
      l.jump->operands.clear();
      l.jump->predicated = l.jump->negatePredicate = false;
    }
    blocks_.push_back(std::move(l));
    layout_.insert(layout_.begin() + position[static_cast<std::size_t>(last)] + 1, latch);
    for (auto& [outer, outerBody] : loops_)
      if (outer == header || outerBody.count(header)) outerBody.insert(latch);  // the latch is in every enclosing body
  }

  // Whether emit() ends block x with a jump to x.next when `following` is laid out after it (-1: nothing is).
  static bool jumpsOn(const ResidualBlock& x, int following) { return x.next >= 0 ? following != x.next : following != -1; }

  // Where the last jump emitted for block b goes when `following` is laid out after it (-2: it ends without one).
  int lastJump(int b, int following) const {
    const ResidualBlock& x = blocks_[static_cast<std::size_t>(b)];
    if (jumpsOn(x, following)) return x.next;
    return x.branch ? x.taken : -2;
  }

  void place(const std::vector<int>& region, int header, const std::vector<int>& rank) {
    for (int b : region) {
      if (placed_[static_cast<std::size_t>(b)]) continue;
      const auto loop = loops_.find(b);
      if (b != header && loop != loops_.end()) {
        std::vector<int> body(loop->second.begin(), loop->second.end());
        body.erase(std::remove_if(body.begin(), body.end(), [&](int x) { return rank[static_cast<std::size_t>(x)] < 0; }), body.end());
        std::sort(body.begin(), body.end(), [&](int x, int y) { return rank[static_cast<std::size_t>(x)] < rank[static_cast<std::size_t>(y)]; });
        place(body, b, rank);
        continue;
      }
      placed_[static_cast<std::size_t>(b)] = true;
      layout_.push_back(b);
    }
  }

  std::vector<Instruction> emit() {
    const std::string end = "Lend";
    auto label = [](int b) { return "B" + std::to_string(b); };
    auto labelOperand = [](std::string name) {
      Operand o;
      o.kind = Operand::Kind::Label;
      o.name = std::move(name);
      return o;
    };
    std::vector<Instruction> code;
    std::unordered_set<std::string> targets;
    auto jump = [&](Instruction in, int to) {
      const std::string name = to >= 0 ? label(to) : end;
      targets.insert(name);
      in.operands.push_back(labelOperand(name));
      code.push_back(std::move(in));
    };
    for (std::size_t k = 0; k < layout_.size(); ++k) {
      ResidualBlock& b = blocks_[static_cast<std::size_t>(layout_[k])];
      Instruction l;
      l.op = Opcode::Label;
      l.operands = {labelOperand(label(layout_[k]))};
      code.push_back(std::move(l));
      for (auto& in : b.code) code.push_back(std::move(in));
      if (b.branch) jump(std::move(*b.branch), b.taken);
      if (jumpsOn(b, k + 1 == layout_.size() ? -1 : layout_[k + 1])) {
        // A loop's back edge keeps the origin of its PTX jump: a hang is reported at the loop's own line.
        Instruction go = b.jump.value_or(Instruction{});
        go.op = Opcode::Goto;
        jump(std::move(go), b.next);
      }
    }
    if (targets.count(end)) {
      Instruction l;
      l.op = Opcode::Label;
      l.operands = {labelOperand(end)};
      code.push_back(std::move(l));
    }
    code.erase(std::remove_if(code.begin(), code.end(),
                              [&](const Instruction& in) { return in.op == Opcode::Label && !targets.count(in.operands[0].name); }),
               code.end());
    return code;
  }

  // Registers whose value depends on an opaque one (flow-insensitively), and what uses them to decide anything.
  void checkOpaque(const std::vector<Instruction>& code) {
    std::unordered_set<std::string> tainted;
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& in : code) {
        if (in.op != Opcode::Local && in.op != Opcode::Setp) continue;
        const std::string& dst = in.operands.at(0).name;
        if (tainted.count(dst)) continue;
        bool t = in.op == Opcode::Local && in.localOp == LocalOp::Opaque;
        for (std::size_t k = 1; k < in.operands.size() && !t; ++k)
          t = in.operands[k].kind == Operand::Kind::Register && tainted.count(in.operands[k].name);
        if (t) changed = tainted.insert(dst).second || changed;
      }
    }
    std::set<std::pair<int, std::string>> seen;
    for (const auto& in : code) {
      std::string reason;
      if (in.op == Opcode::Branch && in.predicated && tainted.count(in.operands.at(0).name)) {
        reason = "a branch depends on a value ptxmm does not compute (a float computed from memory, a clock, a "
                 "warp collective on unknown values ...)";
      } else if (in.op == Opcode::BarSync || in.op == Opcode::BarArrive) {
        for (const auto& o : in.operands)
          if (o.kind == Operand::Kind::Register && tainted.count(o.name))
            reason = "a barrier id or count depends on a value ptxmm does not compute";
      }
      if (!reason.empty() && seen.emplace(in.origin, reason).second) incomplete_.push_back({thread_, in.origin, reason});
    }
  }

  std::vector<ResidualBlock> blocks_;
  int thread_;
  std::vector<Incomplete>& incomplete_;
  std::unordered_map<int, std::set<int>> loops_;  // header -> body
  std::vector<bool> placed_;
  std::vector<int> layout_;
};

}  // namespace

std::vector<Instruction> layOutResidual(std::vector<ResidualBlock> blocks, int thread, std::vector<Incomplete>& incomplete) {
  return Layout(std::move(blocks), thread, incomplete).run();
}

}  // namespace ptxmm::frontend::ptx
