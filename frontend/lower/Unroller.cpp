// Program -> EventGraph: locations, the scope tree, the meaning of each instruction as events, and loop
// unrolling with register liveness (which the engines use to recognise side-effect-free spin iterations).
#include "frontend/lower/Unroller.hpp"

#include "frontend/ConditionWalk.hpp"
#include "frontend/lower/AsyncOrder.hpp"
#include "frontend/lower/InstructionSemantics.hpp"
#include "frontend/lower/MemoryLayout.hpp"

#include <algorithm>
#include <deque>
#include <functional>
#include <map>

namespace ptxmm::frontend {
namespace {

// What a --timeout that runs out here names.
constexpr const char* kStage = "unrolling";

using model::Edge;
using model::Event;
using model::EventGraph;
using model::Tag;
using model::TagSet;
using model::tagBit;
using model::UserError;
using model::ValueOp;
using model::ValuePtr;
namespace value = model::value;

// ---- control flow --------------------------------------------------------------------------------------

struct Flow {
  std::vector<int> succ;  // successor instruction indices; size() marks the end of the thread
  int branchTarget = -1;  // for a conditional branch: the taken target
};

class ThreadUnroller {
 public:
  ThreadUnroller(const Program& program, const Thread& thread, const Layout& layout, const UnrollOptions& options,
                 EventGraph& graph, model::ThreadGraph& out)
      : program_(program), thread_(thread), layout_(layout), bound_(options.bound), options_(options), graph_(graph),
        out_(out) {}

  void run() {
    collectRegisters();
    if (thread_.code.empty()) return;
    buildFlow();
    findLoops();
    computeLiveness();
    discover();
    emitNodes();
  }

 private:
  using Counts = std::vector<int>;  // per loop: iteration index, -1 outside the loop
  struct Key {
    int instr;
    Counts counts;
    bool operator<(const Key& o) const { return std::tie(instr, counts) < std::tie(o.instr, o.counts); }
  };
  struct Discovered {
    Key key;
    Edge next, taken;  // targets are discovery indices until emitNodes renumbers them
  };

  int size() const { return static_cast<int>(thread_.code.size()); }

  int regId(const std::string& name) {
    auto it = std::find(out_.registers.begin(), out_.registers.end(), name);
    if (it != out_.registers.end()) return static_cast<int>(it - out_.registers.begin());
    out_.registers.push_back(name);
    out_.regInit.push_back(0);
    return static_cast<int>(out_.registers.size() - 1);
  }

  void collectRegisters() {
    for (const auto& ri : program_.regInits)
      if (ri.thread == thread_.index)
        out_.regInit[static_cast<std::size_t>(regId(ri.reg))] =
            ri.addressOf.empty() ? ri.value : addressValue(layout_.addresses.at(ri.addressOf));
    for (const auto& in : thread_.code)
      for (const auto& op : in.operands)
        if (op.kind == Operand::Kind::Register) regId(op.name);
    for (const auto& [t, name] : observedRegisters(program_))
      if (t == thread_.index) regId(name);
  }

  int labelIndex(const Operand& label) const {
    for (int i = 0; i < size(); ++i) {
      const auto& in = thread_.code[static_cast<std::size_t>(i)];
      if (in.op == Opcode::Label && in.operands.at(0).name == label.name) return i;
    }
    throw UserError(label.pos, "unknown label '" + label.name + "'");
  }

  void buildFlow() {
    flow_.resize(thread_.code.size());
    for (int i = 0; i < size(); ++i) {
      const auto& in = thread_.code[static_cast<std::size_t>(i)];
      auto& f = flow_[static_cast<std::size_t>(i)];
      if (in.op == Opcode::Goto) {
        f.succ = {labelIndex(in.operands.back())};
      } else if (in.op == Opcode::Branch) {
        f.branchTarget = labelIndex(in.operands.back());
        f.succ = {i + 1, f.branchTarget};
      } else {
        f.succ = {i + 1};
      }
    }
  }

  // Loops are the instruction ranges [target, source] of backward jumps (merged per target). Litmus code is
  // structured; overlapping loops and jumps into a loop body are refused rather than unrolled wrongly.
  void findLoops() {
    for (int i = 0; i < size(); ++i)
      for (int s : flow_[static_cast<std::size_t>(i)].succ) {
        if (s > i) continue;
        auto it = std::find_if(out_.loops.begin(), out_.loops.end(), [&](const auto& l) { return l.header == s; });
        if (it == out_.loops.end()) {
          out_.loops.push_back({s, i, {}, thread_.code[static_cast<std::size_t>(i)].pos});
        } else if (i > it->last) {
          it->last = i;
          it->pos = thread_.code[static_cast<std::size_t>(i)].pos;
        }
      }
    for (const auto& a : out_.loops)
      for (const auto& b : out_.loops)
        if (a.header < b.header && b.header <= a.last && a.last < b.last)
          throw UserError(b.pos, "overlapping loops are not supported");
    for (int i = 0; i < size(); ++i)
      for (int s : flow_[static_cast<std::size_t>(i)].succ)
        for (const auto& l : out_.loops)
          if (s > l.header && s <= l.last && (i < l.header || i > l.last))
            throw UserError(thread_.code[static_cast<std::size_t>(i)].pos,
                            "jump into the middle of a loop body (its first instruction is at line " +
                                std::to_string(thread_.code[static_cast<std::size_t>(l.header)].pos.line) + ")");
  }

  std::vector<int> uses(const Instruction& in) {
    std::vector<int> out;
    for (std::size_t k = writesFirstOperand(in) ? 1 : 0; k < in.operands.size(); ++k)
      if (in.operands[k].kind == Operand::Kind::Register) out.push_back(regId(in.operands[k].name));
    return out;
  }

  std::optional<int> def(const Instruction& in) {
    if (writesFirstOperand(in) && !in.operands.empty() && in.operands[0].kind == Operand::Kind::Register)
      return regId(in.operands[0].name);
    return std::nullopt;
  }

  // Backward liveness on the source CFG; registers the condition observes are live at the end.
  void computeLiveness() {
    std::set<int> atEnd;
    for (const auto& [t, name] : observedRegisters(program_))
      if (t == thread_.index) atEnd.insert(regId(name));
    std::vector<std::set<int>> liveIn(thread_.code.size());
    for (bool changed = true; changed;) {
      changed = false;
      for (int i = size() - 1; i >= 0; --i) {
        const auto& in = thread_.code[static_cast<std::size_t>(i)];
        std::set<int> live;
        for (int s : flow_[static_cast<std::size_t>(i)].succ) {
          const auto& src = s >= size() ? atEnd : liveIn[static_cast<std::size_t>(s)];
          live.insert(src.begin(), src.end());
        }
        if (auto d = def(in)) live.erase(*d);
        for (int u : uses(in)) live.insert(u);
        if (live != liveIn[static_cast<std::size_t>(i)]) {
          liveIn[static_cast<std::size_t>(i)] = std::move(live);
          changed = true;
        }
      }
    }
    for (auto& l : out_.loops) {
      const auto& live = liveIn[static_cast<std::size_t>(l.header)];
      l.liveAtHeader.assign(live.begin(), live.end());
    }
  }

  bool inLoop(std::size_t loop, int instr) const {
    return out_.loops[loop].header <= instr && instr <= out_.loops[loop].last;
  }

  // The key reached by going from instruction `from` (iteration counts `counts`) to `to`, or kBound / kEnd.
  std::pair<std::optional<Key>, Edge> step(int from, const Counts& counts, int to) {
    if (to >= size()) return {std::nullopt, Edge{Edge::kEnd, -1}};
    Counts next(out_.loops.size(), -1);
    int backEdgeOf = -1;
    for (std::size_t l = 0; l < out_.loops.size(); ++l) {
      if (!inLoop(l, to)) continue;
      if (!inLoop(l, from)) {
        next[l] = 0;
      } else if (to == out_.loops[l].header && to <= from) {
        if (counts[l] + 1 >= bound_) return {std::nullopt, Edge{Edge::kBound, static_cast<int>(l)}};
        next[l] = counts[l] + 1;
        backEdgeOf = static_cast<int>(l);
      } else {
        next[l] = counts[l];
      }
    }
    return {Key{to, next}, Edge{0, backEdgeOf}};
  }

  int index(const Key& k) {
    auto [it, inserted] = keyIndex_.emplace(k, static_cast<int>(discovered_.size()));
    if (inserted) {
      discovered_.push_back({k, {}, {}});
      work_.push_back(it->second);
    }
    return it->second;
  }

  Edge edgeTo(int from, const Counts& counts, int to) {
    auto [key, edge] = step(from, counts, to);
    if (key) edge.target = index(*key);
    return edge;
  }

  void discover() {
    Counts start(out_.loops.size(), -1);
    for (std::size_t l = 0; l < out_.loops.size(); ++l)
      if (inLoop(l, 0)) start[l] = 0;
    index(Key{0, start});
    while (!work_.empty()) {
      options_.deadline.check(kStage);
      const int d = work_.front();
      work_.pop_front();
      const Key key = discovered_[static_cast<std::size_t>(d)].key;
      const auto& f = flow_[static_cast<std::size_t>(key.instr)];
      Edge next = edgeTo(key.instr, key.counts, f.succ[0]);
      Edge taken = f.branchTarget >= 0 ? edgeTo(key.instr, key.counts, f.branchTarget) : Edge{};
      discovered_[static_cast<std::size_t>(d)].next = next;
      discovered_[static_cast<std::size_t>(d)].taken = taken;
    }
  }

  // Nodes in a topological order (Kahn), so event ids increase along every path: po is id order.
  std::vector<int> topologicalOrder() const {
    std::vector<int> indegree(discovered_.size(), 0);
    for (const auto& d : discovered_)
      for (const Edge* e : {&d.next, &d.taken})
        if (e->target >= 0) ++indegree[static_cast<std::size_t>(e->target)];
    std::deque<int> ready{0};
    std::vector<int> order;
    while (!ready.empty()) {
      const int d = ready.front();
      ready.pop_front();
      order.push_back(d);
      for (const Edge* e : {&discovered_[static_cast<std::size_t>(d)].next, &discovered_[static_cast<std::size_t>(d)].taken})
        if (e->target >= 0 && --indegree[static_cast<std::size_t>(e->target)] == 0) ready.push_back(e->target);
    }
    return order;
  }

  void emitNodes() {
    const auto order = topologicalOrder();
    std::vector<int> position(discovered_.size());
    for (std::size_t k = 0; k < order.size(); ++k) position[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
    auto renumber = [&](Edge e) {
      if (e.target >= 0) e.target = position[static_cast<std::size_t>(e.target)];
      return e;
    };
    ThreadContext ctx{program_, thread_, layout_, graph_, out_, [this](const std::string& r) { return regId(r); }};
    std::vector<AsyncRecord> records;
    for (int d : order) {
      options_.deadline.check(kStage);
      const auto& disc = discovered_[static_cast<std::size_t>(d)];
      model::Node node;
      node.instr = disc.key.instr;
      node.iteration = disc.key.counts;
      node.next = renumber(disc.next);
      node.taken = renumber(disc.taken);
      for (std::size_t l = 0; l < out_.loops.size(); ++l)
        if (out_.loops[l].header == node.instr) node.startsIterationOf = static_cast<int>(l);
      out_.nodes.push_back(std::move(node));
      const int index = static_cast<int>(out_.nodes.size() - 1);
      records.push_back(emitInstruction(ctx, index, thread_.code[static_cast<std::size_t>(out_.nodes.back().instr)]));
      if (options_.maxEvents && graph_.events.size() > options_.maxEvents)
        throw model::LimitReached("the unrolled test has more than --max-events " + std::to_string(options_.maxEvents) +
                                  " events (unrolling stopped at " + std::to_string(graph_.events.size()) + ")");
    }
    orderAsync(out_, records, graph_);
  }

  const Program& program_;
  const Thread& thread_;
  const Layout& layout_;
  int bound_;
  const UnrollOptions& options_;
  EventGraph& graph_;
  model::ThreadGraph& out_;
  std::vector<Flow> flow_;
  std::map<Key, int> keyIndex_;
  std::vector<Discovered> discovered_;
  std::deque<int> work_;
};

}  // namespace

std::set<std::pair<int, std::string>> observedRegisters(const Program& program) {
  std::set<std::pair<int, std::string>> out;
  auto add = [&](const CondValue& v) {
    if (v.kind == CondValue::Kind::Register) out.emplace(v.thread, v.name);
  };
  for (const auto& v : program.observed) add(v);
  forEachCondValue(program.condition.expr.get(), add);
  forEachCondValue(program.filter.get(), add);
  return out;
}

model::EventGraph unroll(const Program& program, const UnrollOptions& options) {
  checkProgram(program);
  EventGraph g;
  g.name = program.name;
  g.unrollBound = options.bound;
  g.threadsAreWarps = program.threadsAreWarps;
  g.threads.resize(program.threads.size());
  placeThreads(program, g);
  const Layout layout = layOutMemory(program, g);
  for (const auto& t : program.threads) {
    auto& tg = g.threads[static_cast<std::size_t>(t.index)];
    tg.name = t.name;
    ThreadUnroller(program, t, layout, options, g, tg).run();
  }
  return g;
}

}  // namespace ptxmm::frontend
