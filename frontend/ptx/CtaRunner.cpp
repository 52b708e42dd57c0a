// The CTA scheduler of the partial evaluator and the semantics of the warp collectives (CtaRunner.hpp), after
// the PTX ISA pages of shfl.sync, vote.sync, match.sync, redux.sync, elect.sync, bar.red, ldmatrix and stmatrix.
#include "frontend/ptx/CtaRunner.hpp"

#include "frontend/ptx/MatrixFragments.hpp"

#include <map>
#include <stdexcept>

namespace ptxmm::frontend::ptx {
namespace {

using model::UserError;
using Status = ThreadEvaluator::Status;

std::string who(const ThreadEvaluator& t) {
  const KernelThread& w = t.where();
  return "thread (" + std::to_string(w.tid.x) + "," + std::to_string(w.tid.y) + "," + std::to_string(w.tid.z) +
         ") of block (" + std::to_string(w.ctaid.x) + "," + std::to_string(w.ctaid.y) + "," + std::to_string(w.ctaid.z) + ")";
}

class Scheduler {
 public:
  // A thread runs while its status is AtCollective and it is not waiting (so every thread runs first).
  Scheduler(std::vector<ThreadEvaluator>& threads, Pass pass)
      : threads_(threads), pass_(pass), status_(threads.size(), Status::AtCollective), waiting_(threads.size(), false) {}

  void run() {
    while (true) {
      for (std::size_t i = 0; i < threads_.size(); ++i)
        if (status_[i] == Status::AtCollective && !waiting_[i]) {
          status_[i] = threads_[i].run();
          waiting_[i] = status_[i] == Status::AtCollective;
        }
      bool anyWaiting = false;
      for (bool w : waiting_) anyWaiting = anyWaiting || w;
      if (!anyWaiting) return;
      if (!resolveWarps() && !resolveBarRed()) stuck();
    }
  }

 private:
  const ThreadEvaluator::Collective& at(std::size_t t) const { return threads_[t].collective(); }
  bool sameInstruction(std::size_t a, std::size_t b) const {
    return at(a).function == at(b).function && at(a).pc == at(b).pc;
  }

  [[noreturn]] void fail(std::size_t t, const std::string& message) const {
    threads_[t].failAtCollective(message + " (" + who(threads_[t]) + ")");
  }

  // A value a collective needs: concrete, or (discovering) unknown.
  std::optional<std::uint64_t> need(std::size_t t, std::size_t operand, const std::string& what) const {
    const AbsValue& v = at(t).inputs.at(operand);
    if (v.isConcrete()) return static_cast<std::uint64_t>(v.bits);
    if (pass_ == Pass::Discover) return std::nullopt;
    fail(t, what + " depends on a value read from memory some thread writes: not supported yet");
  }

  // A value a collective exchanges or combines (not one that decides which lanes take part): concrete, or
  // nullopt when it depends on memory some thread writes — the result is then opaque (unknown to the checker,
  // which makes what depends on it UNKNOWN), as the residual code cannot carry a register across threads.
  std::optional<std::uint64_t> data(std::size_t t, std::size_t operand) const {
    const AbsValue& v = at(t).inputs.at(operand);
    if (v.isConcrete()) return static_cast<std::uint64_t>(v.bits);
    return std::nullopt;
  }

  // Resolves every warp-collective group whose lanes are all there; says whether any was.
  bool resolveWarps() {
    bool any = false;
    for (std::size_t base = 0; base < threads_.size(); base += 32) {
      const std::size_t end = std::min(threads_.size(), base + 32);
      for (std::size_t t = base; t < end; ++t) {
        if (!waiting_[t] || at(t).instruction->op == PeOp::BarRed) continue;
        any = resolveGroup(base, end, t) || any;
      }
    }
    return any;
  }

  // The group of `t` in its warp [base, end): the lanes its member mask names. False when one of them is not
  // waiting there yet.
  bool resolveGroup(std::size_t base, std::size_t end, std::size_t t) {
    const DecodedInstruction& d = *at(t).instruction;
    const bool matrix = d.op == PeOp::MatrixLoad || d.op == PeOp::MatrixStore;
    const std::size_t maskOperand = d.op == PeOp::Shfl ? 4 : d.op == PeOp::Elect ? 1 : 2;
    std::uint64_t mask = 0xffffffff;
    if (d.op != PeOp::Activemask && !matrix) {
      const auto m = need(t, maskOperand, "the member mask");
      if (!m) mask = 0xffffffff;  // discovering: assume the whole warp
      else mask = *m & 0xffffffff;
    }
    const std::size_t lane = t - base;
    if (!(mask >> lane & 1)) fail(t, "the executing lane is not in the member mask (undefined behaviour)");
    std::vector<std::size_t> members;
    for (std::size_t l = 0; l < 32 && base + l < end; ++l) {
      if (!(mask >> l & 1)) continue;
      const std::size_t u = base + l;
      if (status_[u] == Status::Finished) {
        // ldmatrix/stmatrix are .aligned over the whole warp: undefined if a thread of it has exited.
        if (matrix) fail(t, "lane " + std::to_string(l) + " of the warp has exited (ldmatrix/stmatrix need the whole warp)");
        continue;  // exited lanes take no part
      }
      if (!waiting_[u]) return false;
      if (!sameInstruction(t, u)) {
        if (at(u).instruction->op == PeOp::BarRed) return false;
        fail(t, "lane " + std::to_string(l) + " of the member mask waits at another instruction (line " +
                    std::to_string(at(u).instruction->source->pos.line) + ")");
      }
      members.push_back(u);
    }
    std::uint64_t group = 0;
    for (std::size_t u : members) group |= std::uint64_t{1} << (u - base);
    for (std::size_t u : members) {
      fromItself_ = false;
      std::vector<AbsValue> results = compute(u, base, members, group);
      waiting_[u] = false;
      threads_[u].resume(results, fromItself_ ? 1 : -1);
    }
    return true;
  }

  std::vector<AbsValue> compute(std::size_t t, std::size_t base, const std::vector<std::size_t>& members, std::uint64_t group) {
    const DecodedInstruction& d = *at(t).instruction;
    const std::int64_t lane = static_cast<std::int64_t>(t - base);
    auto c = [](std::uint64_t v) { return AbsValue::concrete(static_cast<std::int64_t>(v)); };
    const AbsValue unknown = AbsValue::opaque();
    switch (d.op) {
      case PeOp::Shfl: {
        const auto b = need(t, 2, "the source lane"), cv = need(t, 3, "the clamp operand");
        if (!b || !cv) return {unknown, unknown};
        const std::int64_t bval = static_cast<std::int64_t>(*b & 31), cval = static_cast<std::int64_t>(*cv & 31);
        const std::int64_t segmask = static_cast<std::int64_t>((*cv >> 8) & 31);
        const std::int64_t maxLane = (lane & segmask) | (cval & ~segmask), minLane = lane & segmask;
        std::int64_t j = 0;
        bool valid = false;
        switch (d.mode) {
          case 0: j = lane - bval; valid = j >= maxLane; break;                 // up
          case 1: j = lane + bval; valid = j <= maxLane; break;                 // down
          case 2: j = lane ^ bval; valid = j <= maxLane; break;                 // bfly
          default: j = minLane | (bval & ~segmask); valid = j <= maxLane; break;  // idx
        }
        if (!valid) j = lane;
        const std::size_t source = base + static_cast<std::size_t>(j);
        const bool present = j >= 0 && j < 32 && (group >> j & 1);
        if (!present) return {unknown, c(valid)};  // an exited or non-member source lane: unpredictable
        const auto value = data(source, 1);
        if (value) return {c(*value), c(valid)};
        fromItself_ = source == t;  // its own register: the residual code can copy it
        // The source lane's register is one runtime value: its ticket term, if it has one, is this lane's too.
        AbsValue copied = unknown;
        if (const auto& t = at(source).inputs.at(1).ticket) copied.ticket = ticket_term::at(*t, 32);
        return {copied, c(valid)};
      }
      case PeOp::Vote: {
        std::uint64_t ballot = 0;
        for (std::size_t u : members) {
          const auto p = data(u, 1);
          if (!p) return {unknown};
          if ((*p != 0) != at(u).instruction->ops[1].negated) ballot |= std::uint64_t{1} << (u - base);
        }
        switch (d.mode) {
          case 0: return {c(ballot == group)};
          case 1: return {c(ballot != 0)};
          case 2: return {c(ballot == 0 || ballot == group)};
          default: return {c(ballot)};
        }
      }
      case PeOp::Match: {
        const auto mine = data(t, 1);
        if (!mine) return {unknown, unknown};
        std::uint64_t equal = 0;
        const std::uint64_t width = widthMask(d.type.bits);
        for (std::size_t u : members) {
          const auto v = data(u, 1);
          if (!v) return {unknown, unknown};
          if ((*v & width) == (*mine & width)) equal |= std::uint64_t{1} << (u - base);
        }
        if (d.mode == 0) return {c(equal)};
        const bool all = equal == group;
        return {c(all ? group : 0), c(all)};
      }
      case PeOp::Redux: {
        std::uint64_t acc = 0;
        bool first = true;
        for (std::size_t u : members) {
          const auto v = data(u, 1);
          if (!v) return {unknown};
          const std::uint64_t x = *v & 0xffffffff;
          const bool s = d.type.isSigned();
          switch (d.combine) {
            case LocalOp::Add: acc = (acc + x) & 0xffffffff; break;
            case LocalOp::Min: acc = first ? x : intMin(acc, x, 32, s); break;
            case LocalOp::Max: acc = first ? x : intMax(acc, x, 32, s); break;
            case LocalOp::And: acc = first ? x : acc & x; break;
            case LocalOp::Or: acc |= x; break;
            default: acc ^= x; break;
          }
          first = false;
        }
        return {c(acc)};
      }
      case PeOp::Elect: {
        std::size_t leader = 32;
        for (std::size_t l = 0; l < 32; ++l)
          if (group >> l & 1) {
            leader = l;
            break;
          }
        return {c(leader), c(static_cast<std::size_t>(lane) == leader)};
      }
      case PeOp::MatrixLoad:
      case PeOp::MatrixStore: return matrixPieces(t, base, group);
      default: return {unknown};  // activemask
    }
  }

  // ldmatrix / stmatrix: the addresses of lane t's fragment pieces, matrix by matrix (MatrixFragments.hpp), from
  // the row addresses lanes 8j..8j+7 give; an address that is not concrete stays unknown (a symbolic access).
  std::vector<AbsValue> matrixPieces(std::size_t t, std::size_t base, std::uint64_t group) const {
    const DecodedInstruction& d = *at(t).instruction;
    std::vector<AbsValue> out;
    for (int j = 0; j < d.vector; ++j)
      for (const FragmentPiece& piece : fragmentPieces(static_cast<int>(t - base), d.mode == 1)) {
        const int lane = 8 * j + piece.row;
        if (!(group >> lane & 1))
          fail(t, "lane " + std::to_string(lane) + ", which gives the address of row " + std::to_string(piece.row) + " of matrix " +
                      std::to_string(j) + ", is not in the warp");
        const AbsValue& row = at(base + static_cast<std::size_t>(lane)).inputs.at(0);
        out.push_back(row.isConcrete() ? AbsValue::concrete(row.bits + piece.offset) : row);
      }
    return out;
  }

  // bar.red: every thread of the CTA that has not exited waits at a bar.red of the same barrier.
  bool resolveBarRed() {
    std::vector<std::size_t> members;
    for (std::size_t t = 0; t < threads_.size(); ++t) {
      if (status_[t] == Status::Finished) continue;
      if (!waiting_[t] || at(t).instruction->op != PeOp::BarRed) return false;
      members.push_back(t);
    }
    if (members.empty()) return false;
    const std::size_t first = members.front();
    const auto id = need(first, 1, "the barrier id");
    const DecodedInstruction& d = *at(first).instruction;
    const std::size_t predicate = d.ops.size() - 1;
    if (d.ops.size() == 4) {
      const auto count = need(first, 2, "the thread count");
      if (count && *count != members.size())
        fail(first, "bar.red with a thread count other than the CTA's live threads is not supported yet");
    }
    std::uint64_t trues = 0;
    bool known = id.has_value();
    for (std::size_t u : members) {
      if (at(u).instruction->op != PeOp::BarRed || at(u).instruction->combine != d.combine)
        fail(u, "threads of the CTA wait at different bar.red operations");
      const auto p = data(u, predicate);
      if (!p) {
        known = false;
        continue;
      }
      trues += (*p != 0) != at(u).instruction->ops[predicate].negated;
    }
    AbsValue result = AbsValue::opaque();
    if (known) {
      switch (d.combine) {
        case LocalOp::Add: result = AbsValue::concrete(static_cast<std::int64_t>(trues)); break;
        case LocalOp::And: result = AbsValue::concrete(trues == members.size()); break;
        default: result = AbsValue::concrete(trues != 0); break;
      }
    }
    for (std::size_t u : members) {
      waiting_[u] = false;
      threads_[u].resume({result});
    }
    return true;
  }

  [[noreturn]] void stuck() const {
    for (std::size_t t = 0; t < threads_.size(); ++t)
      if (waiting_[t])
        fail(t, "the threads of this collective never meet (some lanes or threads wait elsewhere)");
    throw std::logic_error("runCta: waiting threads but none at a collective");
  }

  std::vector<ThreadEvaluator>& threads_;
  Pass pass_;
  bool fromItself_ = false;  // compute(): the shuffle's source lane is the executing lane
  std::vector<Status> status_;
  std::vector<bool> waiting_;
};

}  // namespace

void runCta(std::vector<ThreadEvaluator>& threads, Pass pass) { Scheduler(threads, pass).run(); }

}  // namespace ptxmm::frontend::ptx
