// The kernel checker's pipeline (KernelChecker.hpp).
#include "checker/kernel/KernelChecker.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <deque>
#include <map>
#include <set>

#include "checker/RaceFinder.hpp"
#include "checker/kernel/BarrierPhases.hpp"
#include "checker/kernel/ClusterPhases.hpp"
#include "checker/kernel/ConflictSweep.hpp"
#include "checker/kernel/FinalValues.hpp"
#include "checker/kernel/KernelClaims.hpp"
#include "checker/kernel/KernelGraph.hpp"
#include "checker/kernel/KernelValues.hpp"
#include "checker/kernel/LoopLiveness.hpp"
#include "checker/kernel/MbarrierPhases.hpp"
#include "checker/kernel/MayOrder.hpp"
#include "checker/kernel/PairOracle.hpp"
#include "checker/kernel/PeerLifetimes.hpp"
#include "checker/kernel/TicketAddresses.hpp"
#include "checker/kernel/ScheduleExplorer.hpp"
#include "checker/kernel/SliceRunner.hpp"
#include "checker/kernel/SpinLocks.hpp"
#include "checker/kernel/WeakWitness.hpp"
#include "frontend/ptx/LaunchArgs.hpp"

namespace ptxmm::checker::kernel {
namespace {

using model::Tag;
using Clock = std::chrono::steady_clock;

constexpr const char* kPartialOverlap = "partial overlap";
// Seconds the schedules of one claim may take without a --timeout.
constexpr double kScheduleSeconds = 10;

std::string lineOf(const KernelPosition& p) { return p.file + ":" + std::to_string(p.line); }

// A model value (64-bit) as an element of the buffer's type: truncated to its width, sign-extended when signed.
std::int64_t asElement(std::int64_t v, frontend::ElemType t) {
  const int bits = 8 * frontend::elemBytes(t);
  if (bits == 64) return v;
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  std::uint64_t u = static_cast<std::uint64_t>(v) & mask;
  if (frontend::elemIsSigned(t) && (u >> (bits - 1))) u |= ~mask;
  return static_cast<std::int64_t>(u);
}

std::string elementText(std::int64_t v, frontend::ElemType t) {
  if (t == frontend::ElemType::F32) {
    const auto bits = static_cast<std::uint32_t>(v);
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return std::to_string(f);
  }
  if (t == frontend::ElemType::F64) {
    double d;
    std::memcpy(&d, &v, sizeof d);
    return std::to_string(d);
  }
  if (!frontend::elemIsSigned(t) && frontend::elemBytes(t) == 8) return std::to_string(static_cast<std::uint64_t>(v));
  return std::to_string(asElement(v, t));
}

class Checker {
 public:
  Checker(const model::CatModel& model, const frontend::KernelProgram& kernel, const KernelOptions& options)
      : model_(model), kernel_(kernel), options_(options), start_(Clock::now()),
        deadline_(model::Deadline::after(options.timeoutSeconds)) {}

  KernelResult run() {
    result_.name = kernel_.displayName;
    result_.file = kernel_.file;
    result_.kernel = kernel_.entry;
    result_.grid = kernel_.launch.grid;
    result_.block = kernel_.launch.block;
    result_.cluster = kernel_.launch.cluster.value_or(frontend::Dim3{});
    claims_ = parseClaims();
    try {
      graph_.emplace(kernel_, options_.run.unroll);
    } catch (const model::UserError& e) {
      // The residual code is the instantiator's; a shape the unroller refuses is a limit, not bad input.
      result_.status = KernelStatus::Unknown;
      result_.unknowns.push_back("the launch's residual code cannot be unrolled: " + std::string(e.what()));
      result_.checkSeconds = seconds();
      return std::move(result_);
    }
    phases_.emplace(*graph_);
    values_.emplace(*graph_, *phases_);
    oracle_.emplace(model_, *graph_);
    tickets_.emplace(*graph_, [this](int a, int b) { return oracle_->verdict(a, b).morallyStrong; });
    instantiationFindings();
    clusters_.emplace(*graph_, [this](int a, int b) { return oracle_->verdict(a, b).morallyStrong; });
    values_->addOrder([this](int a, int b) { return clusters_->ordered(a, b); });
    mbarriers_.emplace(*graph_, *phases_, [this](int a, int b) { return oracle_->verdict(a, b).morallyStrong; },
                       [this](int e) { return surely(e); }, &*clusters_);
    values_->addOrder([this](int a, int b) { return mbarriers_->ordered(a, b); });
    if (options_.mayOrderShortcut) order_.emplace(*graph_, &*phases_);
    finals_.emplace(*graph_, *values_, [this](int a, int b) { return oracle_->verdict(a, b).morallyStrong; });
    // Spin locks are decided by the bundled model's base causality (SpinLocks.hpp), like the may-order rule.
    if (options_.mayOrderShortcut) {
      locks_.emplace(model_, *graph_, *values_, [this](int a, int b) -> const PairVerdict& { return oracle_->verdict(a, b); });
      finals_->addLockedIncrements([this](int w) { return locks_->increment(w); },
                                   [this](int a, int b) { return locks_->ordered(a, b); });
    }
    builder_.emplace(*graph_, *phases_, *values_, order_ ? &*order_ : nullptr);
    RunOptions sliceRuns = options_.run;
    sliceRuns.engineOptions.deadline = deadline_;  // no slice runs past the check's --timeout (issue 16)
    runner_.emplace(model_, sliceRuns);
    for (const auto& h : phases_->hangs()) result_.hangs.push_back(h);
    for (auto& gap : clusters_->exitGaps()) result_.unknowns.push_back(std::move(gap));
    LoopLiveness liveness(*graph_, *phases_, *values_, &*mbarriers_, &*clusters_,
                          [this](int a, int b) -> const PairVerdict& { return oracle_->verdict(a, b); }, *builder_, *runner_,
                          options_.slices, [this] { return remaining(); });
    if (locks_) liveness.endsBy([this](int t, int l) { return locks_->acquireEnds(t, l); });
    // Hang witnesses from schedules: the argument that a schedule is an execution is the bundled model's.
    if (options_.mayOrderShortcut) liveness.spinsBy([this](int t, int l) -> std::optional<std::string> {
      if (!spins_) {
        if (!explorer_) explorer_.emplace(*graph_);
        spins_ = explorer_->spinsForever(scheduleDeadline());
      }
      const auto it = spins_->find({t, l});
      if (it == spins_->end()) return std::nullopt;
      return "a sequentially consistent schedule of the launch (" + it->second + ")";
    });
    liveness.check(result_.hangs, result_.unknowns, &endingLoops_);
    forEachConflict(*graph_, [&](const KernelAccess& a, const KernelAccess& b) { classify(a, b); });
    peerLifetimes();
    for (auto& [key, race] : races_) result_.races.push_back(std::move(race));
    decideClaims();
    // A pair of a group that already has its race changes nothing the report says (one witness per group).
    for (auto& [key, pair] : unknownPairs_)
      if (!races_.count(pair.first)) result_.unknowns.push_back(std::move(pair.second));
    if (!result_.unknowns.empty()) result_.status = KernelStatus::Unknown;
    result_.notes.push_back(std::to_string(pairs_) + " conflicting pairs: " + std::to_string(decidedStatically_) +
                            " decided without an engine, " + std::to_string(runner_->engineRuns()) + " slices run, " +
                            std::to_string(runner_->cacheHits()) + " answered by a symmetric slice");
    result_.checkSeconds = seconds();
    return std::move(result_);
  }

 private:
  using Instr = std::pair<int, int>;  // (kernel thread, instruction)
  static std::pair<Instr, Instr> unordered(Instr x, Instr y) { return x < y ? std::pair{x, y} : std::pair{y, x}; }

  double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  // What is left of --timeout for the next engine run (0: no limit); negative once it is spent.
  double remaining() const { return options_.timeoutSeconds > 0 ? options_.timeoutSeconds - seconds() : 0; }

  struct ParsedClaim {
    std::string text;
    ClaimPtr claim;
  };
  struct Claims {
    std::vector<ParsedClaim> asserts;
    std::vector<ElementRef> observes;
  };

  Claims parseClaims() const {
    Claims c;
    for (const auto& a : options_.asserts) {
      c.asserts.push_back({a, parseClaim(a, "--assert")});
      for (const auto& e : elementsOf(*c.asserts.back().claim)) bufferOf(e);
    }
    for (const auto& o : options_.observes) {
      c.observes.push_back(parseElement(o, "--observe"));
      bufferOf(c.observes.back());
    }
    return c;
  }

  // The buffer an element names (a global buffer: shared memory has one copy per block). Throws model::UserError.
  int bufferOf(const ElementRef& e) const {
    int found = -1;
    std::string names;
    for (std::size_t b = 0; b < kernel_.buffers.size(); ++b) {
      const auto& buffer = kernel_.buffers[b];
      if (buffer.space == frontend::Buffer::Space::Shared) continue;
      if (names.find(" " + buffer.name + ",") == std::string::npos) names += " " + buffer.name + ",";
      if (buffer.name == e.buffer || std::find(buffer.aliases.begin(), buffer.aliases.end(), e.buffer) != buffer.aliases.end())
        found = static_cast<int>(b);
    }
    if (found < 0) {
      if (!names.empty()) names.pop_back();
      throw model::UserError(e.pos, "no global buffer '" + e.buffer + "' (the kernel's buffers:" + names + ")");
    }
    const auto& buffer = kernel_.buffers[static_cast<std::size_t>(found)];
    const std::int64_t bytes = frontend::elemBytes(buffer.elem);
    if ((e.index + 1) * bytes > buffer.bytes)
      throw model::UserError(e.pos, "'" + e.buffer + "' has " + std::to_string(buffer.bytes / bytes) + " elements; index " +
                                        std::to_string(e.index) + " is outside it");
    return found;
  }

  // Symbolic addresses and cut-short threads are found per thread; one reason per source line and cause is
  // reported, with how many threads it concerns, so 512 threads do not print the same line 512 times.
  void instantiationFindings() {
    std::vector<std::pair<std::string, int>> reasons;
    const auto add = [&](std::string why) {
      const auto it = std::find_if(reasons.begin(), reasons.end(), [&](const auto& r) { return r.first == why; });
      if (it == reasons.end()) reasons.emplace_back(std::move(why), 1);
      else ++it->second;
    };
    for (std::size_t i = 0; i < kernel_.symbolic.size(); ++i) {
      const auto& s = kernel_.symbolic[i];
      if (tickets_->undecided(i).empty()) continue;  // a ticket address no other thread's access can meet
      add("the access at " + lineOf(graph_->originPosition(s.thread, s.origin)) +
          " has an address that depends on values read from memory (" + tickets_->undecided(i) + "): not supported yet");
    }
    for (const auto& i : kernel_.incomplete) add("at " + lineOf(graph_->originPosition(i.thread, i.origin)) + ": " + i.reason);
    for (auto& [why, threads] : reasons)
      result_.unknowns.push_back(threads == 1 ? why : why + " (" + std::to_string(threads) + " threads)");
    for (const auto& o : kernel_.outOfBounds) result_.outOfBounds.push_back({graph_->originPosition(o.thread, o.origin), o.detail});
  }

  // Whether `e` happens in every execution: on every path of its thread, with nothing before it that might
  // block forever (a loop, a barrier whose generations are not static, a cluster barrier wait — unless the
  // cluster barrier is static and every participant surely arrives for that generation). With `endingLoops`,
  // a loop before it does not count when loop liveness proved every loop of its thread ends (fair executions).
  bool surely(int e, bool endingLoops = false) {
    auto& memo = endingLoops ? surelyAfterLoops_ : surely_;
    if (const auto it = memo.find(e); it != memo.end()) return it->second;
    memo[e] = false;  // a cycle through cluster waits proves nothing
    const int thread = graph_->event(e).thread;
    const auto& loops = graph_->graph().threads[static_cast<std::size_t>(thread)].loops;
    const bool loopsEnd = endingLoops && std::all_of(loops.begin(), loops.end(), [&](const model::LoopInfo& l) {
                            return endingLoops_.count({thread, static_cast<int>(&l - loops.data())}) > 0;
                          });
    if (!graph_->unconditional(e) || (graph_->afterLoop(e) && !loopsEnd) || graph_->inLoop(e) || phases_->unreachable(e))
      return false;
    const model::Event& ev = graph_->event(e);
    // The write half of a compare-and-swap happens only when its compare succeeds (an acquire wait's marker only
    // when the wait does): not surely, whatever its node does.
    if (ev.existsIf) return false;
    const auto& nodes = graph_->graph().threads[static_cast<std::size_t>(ev.thread)].nodes;
    for (int n = 0; n < ev.node; ++n)
      for (int x : nodes[static_cast<std::size_t>(n)].events) {
        const model::Event& ex = graph_->event(x);
        if (ex.is(Tag::BW) && !phases_->isStatic(x)) return false;
        if (!ex.assume) continue;
        const int generation = clusters_ ? clusters_->waitGeneration(x) : -1;
        if (generation < 0) return false;
        for (int a : clusters_->arrivals(ex.thread, generation))
          if (!surely(a, endingLoops)) return false;
      }
    return memo[e] = true;
  }

  // DSMEM accesses not shown to happen before the owning CTA exits (PeerLifetimes): outside the model, UNKNOWN.
  // An access on a line with a race is left out: the race already says it is not ordered, and its fix (a release
  // arrive, a fence) is what orders it before the owner's exit too.
  void peerLifetimes() {
    std::set<std::pair<std::string, int>> raceLines;
    for (const auto& [key, race] : races_)
      raceLines.insert({race.first.file, race.first.line}), raceLines.insert({race.second.file, race.second.line});
    PeerLifetimes lifetimes(*graph_, *phases_, [this](int a, int e) {
      return values_->before(a, e) || clusters_->beforeWait(a, e) || mbarriers_->completedBefore(a, e);
    });
    for (const PeerLifetimes::Gap& g : lifetimes.gaps()) {
      const KernelPosition at = graph_->position(g.access);
      if (raceLines.count({at.file, at.line})) continue;
      const std::string owner = coordinates(kernel_.threads[static_cast<std::size_t>(g.ownerThread)].ctaid);
      result_.unknowns.push_back("the access at " + lineOf(at) + " (block " + coordinates(at.block) + " thread " +
                                 coordinates(at.thread) + ") to the shared memory of block " + owner +
                                 " may run after block " + owner +
                                 " exited: its shared memory is undefined then (spec §4.1); a cluster barrier after it "
                                 "in both CTAs orders it");
    }
  }

  void classify(const KernelAccess& a, const KernelAccess& b) {
    if (phases_->unreachable(a.event) || phases_->unreachable(b.event)) return;
    ++pairs_;
    const bool ordered = values_->before(a.event, b.event) || values_->before(b.event, a.event);
    if (a.location != b.location) {
      // Partial overlap is never morally strong (spec §2.4); the engines see different locations.
      if (ordered) return ++decidedStatically_, void();
      if (order_ && !order_->reaches(a.event, b.event) && !order_->reaches(b.event, a.event) && surely(a.event, true) &&
        surely(b.event, true)) {
        ++decidedStatically_;
        return race(kPartialOverlap, a.event, b.event);
      }
      return unknown(kPartialOverlap, a.event, b.event, "accesses of different sizes overlap and may be ordered: mixed-size accesses are "
                                       "not supported by the engines yet");
    }
    const PairVerdict& v = oracle_->verdict(a.event, b.event);
    if (v.morallyStrong || ordered || (locks_ && locks_->ordered(a.event, b.event))) return ++decidedStatically_, void();
    const auto group = groupKey(v.kind, a.event, b.event);
    if (races_.count(group)) return ++decidedStatically_, void();  // one witness per group is enough
    if (order_ && !order_->reaches(a.event, b.event) && !order_->reaches(b.event, a.event) && surely(a.event, true) &&
        surely(b.event, true)) {
      ++decidedStatically_;
      return race(v.kind, a.event, b.event);
    }
    if (locks_)
      if (const auto kind = locks_->race(a.event, b.event)) return ++decidedStatically_, race(*kind, a.event, b.event);
    const Instr ia = instructionOf(a.event), ib = instructionOf(b.event);
    const RunSlice* run = sliceContaining(ia, ib);
    if (!run) {
      if (remaining() < 0) return unknown(v.kind, a.event, b.event, "the --timeout was spent before this pair was decided");
      std::string why;
      auto slice = builder_->build({a.event, b.event}, {{a.event, b.event}}, {}, options_.slices, why);
      if (!slice) return unknown(v.kind, a.event, b.event, why);
      run = &remember(std::move(*slice));
    }
    if (run->answer->status != Status::Ok) return unknown(v.kind, a.event, b.event, "the engine on its slice: " + run->answer->reason);
    const auto wanted = unordered(ia, ib);
    for (const SliceRace& r : run->answer->races)
      if (unordered(kernelInstruction(run->slice, r.first), kernelInstruction(run->slice, r.second)) == wanted)
        return race(r.kind, a.event, b.event);
  }

  // A slice that was run, with its answer. A closed slice holding both instructions of a pair is a slice for
  // that pair too (closure is per event), so its answer decides the pair without another engine run.
  struct RunSlice {
    Slice slice;
    const SliceAnswer* answer;
  };

  const RunSlice* sliceContaining(const std::pair<int, int>& a, const std::pair<int, int>& b) const {
    const auto it = slicesOf_.find(a);
    if (it == slicesOf_.end()) return nullptr;
    for (std::size_t k : it->second) {
      const auto other = slicesOf_.find(b);
      if (other != slicesOf_.end() && std::find(other->second.begin(), other->second.end(), k) != other->second.end())
        return &ran_[k];
    }
    return nullptr;
  }

  const RunSlice& remember(Slice slice) {
    const SliceAnswer& answer = runner_->run(slice, std::max(0.0, remaining()));
    ran_.push_back({std::move(slice), &answer});
    const Slice& kept = ran_.back().slice;
    for (std::size_t t = 0; t < kept.threads.size(); ++t)
      for (std::size_t i = 0; i < kept.instructions[t].size(); ++i)
        if (kept.instructions[t][i] >= 0 &&
            performsEvents(kept.program.threads[t].code[i]) && kept.program.threads[t].code[i].op != frontend::Opcode::Local)
          slicesOf_[{kept.threads[t], kept.instructions[t][i]}].push_back(ran_.size() - 1);
    return ran_.back();
  }

  std::pair<int, int> instructionOf(int e) const { return {graph_->event(e).thread, graph_->instructionIndex(e)}; }
  static std::pair<int, int> kernelInstruction(const Slice& s, std::pair<int, int> at) {
    return {s.threads[static_cast<std::size_t>(at.first)],
            s.instructions[static_cast<std::size_t>(at.first)][static_cast<std::size_t>(at.second)]};
  }

  using GroupKey = std::tuple<std::string, int, std::string, int, std::string>;
  GroupKey groupKey(const std::string& kind, int a, int b) const {
    KernelPosition pa = graph_->position(a), pb = graph_->position(b);
    if (std::tie(pb.file, pb.line) < std::tie(pa.file, pa.line)) std::swap(pa, pb);
    return {pa.file, pa.line, pb.file, pb.line, kind};
  }

  void race(const std::string& kind, int a, int b) {
    const auto key = groupKey(kind, a, b);
    if (races_.count(key)) return;
    KernelPosition pa = graph_->position(a), pb = graph_->position(b);
    if (std::tie(pb.file, pb.line) < std::tie(pa.file, pa.line)) std::swap(pa, pb), std::swap(a, b);
    const std::string fix = kind == kPartialOverlap
                                ? "make the two accesses the same size and address, or order them"
                                : raceAdvice(kind, graph_->graph(), graph_->event(a), graph_->event(b));
    races_.emplace(key, KernelRace{kind, fix, pa, pb});
  }

  // A pair not decided; `kind` is the race it would be (its group).
  void unknown(const std::string& kind, int a, int b, const std::string& why) {
    KernelPosition pa = graph_->position(a), pb = graph_->position(b);
    if (std::tie(pb.file, pb.line) < std::tie(pa.file, pa.line)) std::swap(pa, pb);
    const std::string key = lineOf(pa) + " " + lineOf(pb) + " " + kind + " " + why;
    unknownPairs_.try_emplace(key, groupKey(kind, a, b),
                              "the accesses at " + lineOf(pa) + " and " + lineOf(pb) + " (block " + coordinates(pa.block) +
                                  " thread " + coordinates(pa.thread) + ", block " + coordinates(pb.block) + " thread " +
                                  coordinates(pb.thread) + "): " + why);
  }

  static std::string coordinates(const frontend::Dim3& d) {
    return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
  }

  // ---- claims on final memory ---------------------------------------------------------------------------------

  // The program location holding exactly element `e` (-1: the kernel never accesses it as such).
  int locationOf(const ElementRef& e) const {
    const int buffer = bufferOf(e);
    const std::int64_t bytes = frontend::elemBytes(kernel_.buffers[static_cast<std::size_t>(buffer)].elem);
    for (std::size_t l = 0; l < kernel_.locations.size(); ++l) {
      const auto& kl = kernel_.locations[l];
      if (kl.buffer == buffer && kl.offset == e.index * bytes && kl.size == bytes) return static_cast<int>(l);
    }
    return -1;
  }

  std::int64_t initialValue(const ElementRef& e) const {
    const auto& buffer = kernel_.buffers[static_cast<std::size_t>(bufferOf(e))];
    const int bytes = frontend::elemBytes(buffer.elem);
    std::uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i)
      v = (v << 8) | buffer.init[static_cast<std::size_t>(e.index * bytes + i)];
    return asElement(static_cast<std::int64_t>(v), buffer.elem);
  }

  // Whether some access overlaps the element's bytes without being exactly it (its final value is then not one
  // location's).
  bool mixedElement(const ElementRef& e, int location) const {
    const int buffer = bufferOf(e);
    const std::int64_t bytes = frontend::elemBytes(kernel_.buffers[static_cast<std::size_t>(buffer)].elem);
    for (const auto& a : graph_->accesses())
      if (a.buffer == buffer && a.write && a.location != location && a.lo < (e.index + 1) * bytes && a.hi > e.index * bytes)
        return true;
    return false;
  }

  // The final values of the elements: forced ones directly, the rest from one slice of all their writes.
  struct ClaimStates {
    std::vector<std::vector<std::int64_t>> states;  // per permitted state, per element
    std::string unknown;                            // why they could not be decided
    bool needsEngine = false;                       // only an engine on a slice can decide them (not run)
  };

  // With `engine` false, stops where an engine would be run on a slice (needsEngine). An --assert (`asserted`)
  // compares integers, so it decides nothing on a floating-point element; --observe prints its values.
  ClaimStates finalValues(const std::vector<ElementRef>& elements, bool engine = true, bool asserted = true) {
    ClaimStates out;
    // What the residual code leaves out can change final memory: a thread cut short (a budget ran out, a branch on
    // a value ptxmm does not compute), or a write through an address ptxmm does not compute that may reach one
    // of the elements' buffers. No value is claimed then, neither "holds" nor a counterexample.
    if (!kernel_.incomplete.empty()) {
      const auto& i = kernel_.incomplete.front();
      out.unknown = "the code after " + lineOf(graph_->originPosition(i.thread, i.origin)) + " is not exact (" + i.reason +
                    "): what it writes is unknown";
      return out;
    }
    for (const auto& e : elements)
      for (std::size_t i = 0; i < kernel_.symbolic.size(); ++i) {
        const auto& a = kernel_.symbolic[i];
        if (a.write && std::find(a.buffers.begin(), a.buffers.end(), bufferOf(e)) != a.buffers.end() &&
            !tickets_->undecided(i).empty()) {
          out.unknown = e.text + " may be written by the access at " + lineOf(graph_->originPosition(a.thread, a.origin)) +
                        ", whose address ptxmm does not compute";
          return out;
        }
      }
    // Nor when a read of the launch may read such a write: the value it carries into the elements is not known.
    for (std::size_t i = 0; i < kernel_.symbolic.size(); ++i) {
      const auto& a = kernel_.symbolic[i];
      if (!a.write || tickets_->undecided(i).empty()) continue;
      for (const KernelAccess& r : graph_->accesses())
        if (!r.write && std::find(a.buffers.begin(), a.buffers.end(), r.buffer) != a.buffers.end()) {
          out.unknown = "the read at " + lineOf(graph_->position(r.event)) + " may read what the access at " +
                        lineOf(graph_->originPosition(a.thread, a.origin)) + " writes, whose address ptxmm does not compute";
          return out;
        }
    }
    // Elements that decided ticket-addressed stores may reach take their values from the tickets' orders.
    std::vector<TicketAddresses::Element> ranges;
    std::string floating;
    for (const auto& e : elements) {
      const auto& buffer = kernel_.buffers[static_cast<std::size_t>(bufferOf(e))];
      const std::int64_t bytes = frontend::elemBytes(buffer.elem);
      if (frontend::elemIsFloat(buffer.elem)) floating = e.text + " is a floating-point element: its values are not computed";
      ranges.push_back({bufferOf(e), e.index * bytes, (e.index + 1) * bytes});
    }
    std::string slotsWhy;
    if (const auto slots = tickets_->slotStates(ranges, [this](int a, int b) { return mayOrderAround(a, b); }, slotsWhy)) {
      if (!floating.empty()) {
        out.unknown = floating;
        return out;
      }
      for (const auto& s : *slots) {
        std::vector<std::int64_t> state;
        for (std::size_t i = 0; i < elements.size(); ++i)
          state.push_back(asElement(s[i], kernel_.buffers[static_cast<std::size_t>(bufferOf(elements[i]))].elem));
        out.states.push_back(std::move(state));
      }
      return out;
    }
    if (!slotsWhy.empty()) {
      out.unknown = slotsWhy;
      return out;
    }
    std::vector<int> locations;
    std::vector<std::optional<std::int64_t>> forced;
    std::vector<int> seeds;
    for (const auto& e : elements) {
      const int loc = locationOf(e);
      locations.push_back(loc);
      if (mixedElement(e, loc)) {
        out.unknown = e.text + " is written by accesses of other sizes (mixed-size accesses are not supported yet)";
        return out;
      }
      if (asserted && frontend::elemIsFloat(kernel_.buffers[static_cast<std::size_t>(bufferOf(e))].elem)) {
        out.unknown = e.text + " is a floating-point element: --assert compares integers (--observe prints its values)";
        return out;
      }
      forced.push_back(loc < 0 ? std::optional<std::int64_t>(initialValue(e)) : lastWriteValue(loc, seeds));
    }
    const auto elemOf = [&](std::size_t i) { return kernel_.buffers[static_cast<std::size_t>(bufferOf(elements[i]))].elem; };
    if (seeds.empty()) {
      std::vector<std::int64_t> state;
      for (std::size_t i = 0; i < elements.size(); ++i) state.push_back(asElement(*forced[i], elemOf(i)));
      out.states.push_back(std::move(state));
      return out;
    }
    if (!engine) {
      out.needsEngine = true;
      return out;
    }
    std::string why;
    std::vector<int> observed;
    for (std::size_t i = 0; i < elements.size(); ++i)
      if (locations[i] >= 0 && !forced[i]) observed.push_back(locations[i]);
    auto slice = builder_->build(seeds, {}, observed, options_.slices, why);
    if (!slice) {
      out.unknown = "its slice cannot be built: " + why;
      return out;
    }
    if (slice->opaque) {
      out.unknown = "it depends on values ptxmm does not compute (floating-point arithmetic, clocks, warp collectives over loaded values, uninitialised shared memory)";
      return out;
    }
    // Observe the elements the slice holds; the others keep their forced values.
    std::vector<int> keyOf(elements.size(), -1);
    for (std::size_t i = 0; i < elements.size(); ++i) {
      const auto it = locations[i] < 0 ? slice->locationNames.end() : slice->locationNames.find(locations[i]);
      if (forced[i] || it == slice->locationNames.end()) continue;
      frontend::CondValue v;
      v.kind = frontend::CondValue::Kind::Location;
      v.name = it->second;
      slice->program.observed.push_back(v);
      keyOf[i] = static_cast<int>(slice->program.observed.size() - 1);
      slice->key += "observe " + v.name + "\n";
    }
    if (remaining() < 0) {
      out.unknown = "the --timeout was spent before it was decided";
      return out;
    }
    const SliceAnswer& answer = runner_->run(*slice, std::max(0.0, remaining()));
    if (answer.status != Status::Ok) {
      out.unknown = "the engine on its slice: " + answer.reason;
      return out;
    }
    for (const FinalState& s : answer.states) {
      std::vector<std::int64_t> state;
      for (std::size_t i = 0; i < elements.size(); ++i) {
        const std::int64_t raw = keyOf[i] >= 0 ? s.values[static_cast<std::size_t>(indexOfKey(answer, slice->program.observed[static_cast<std::size_t>(keyOf[i])].name))]
                                               : *forced[i];
        state.push_back(asElement(raw, elemOf(i)));
      }
      out.states.push_back(std::move(state));
    }
    return out;
  }

  static std::size_t indexOfKey(const SliceAnswer& a, const std::string& name) {
    return static_cast<std::size_t>(std::find(a.keys.begin(), a.keys.end(), name) - a.keys.begin());
  }

  // The value of the write every other write to `location` is ordered before, when forced; otherwise nothing,
  // and the location's writes become seeds of a slice.
  std::optional<std::int64_t> lastWriteValue(int location, std::vector<int>& seeds) {
    std::vector<int> writes;
    for (const auto& a : graph_->accesses())
      if (a.location == location && a.write && !phases_->unreachable(a.event)) writes.push_back(a.event);
    if (writes.empty()) return kernel_.program.locations[static_cast<std::size_t>(location)].init;
    for (int w : writes) {
      if (!surely(w)) continue;
      if (std::all_of(writes.begin(), writes.end(), [&](int o) { return o == w || values_->before(o, w); }))
        if (const auto v = values_->writeValue(w)) return v;
    }
    if (const auto v = finals_->finalValue(graph_->graph().locationNames.at(static_cast<std::size_t>(location)).second)) return v;
    seeds.insert(seeds.end(), writes.begin(), writes.end());
    return std::nullopt;
  }

  // Whether something may order RMW a before RMW b of another thread other than their own location's reads-from:
  // an event after a in its thread that may reach an event before b's instruction in its thread (MayOrder). Two
  // RMWs of one thread are ordered by po; without the may-order graph (another --model) anything may be.
  bool mayOrderAround(int a, int b) {
    const model::Event &ea = graph_->event(a), &eb = graph_->event(b);
    if (!order_ || ea.thread == eb.thread) return true;
    const int events = static_cast<int>(graph_->graph().events.size()), first = static_cast<int>(graph_->graph().initCount());
    int after = -1, before = -1;
    for (int e = a + 1; e < events && after < 0; ++e)
      if (graph_->event(e).thread == ea.thread) after = e;
    for (int e = b - 1; e >= first && before < 0; --e)
      if (graph_->event(e).thread == eb.thread && graph_->event(e).node != eb.node) before = e;
    return after >= 0 && before >= 0 && order_->reaches(after, before);
  }

  // A bounded share of the time for one use of the schedules: a spin that never sleeps runs each schedule to its
  // step bound, and the model's replays are slow on many pairwise strong accesses (SC-per-location's cliques).
  model::Deadline scheduleDeadline() const {
    return deadline_.earliest(model::Deadline::after(remaining() > 0 ? remaining() / 4 : kScheduleSeconds));
  }

  // A counterexample to `claim` from one schedule of the whole launch, for a claim the static values and the slices
  // leave undecided: a sequentially consistent one (ScheduleExplorer.hpp), else one with a stale read that the model
  // accepts on replay (WeakWitness.hpp). The elements' values and how the execution was found. The argument that
  // a sequentially consistent schedule is an execution is the bundled model's (ptx-core.cat), so another --model
  // gets none.
  std::optional<std::pair<std::string, std::string>> scheduledCounterexample(const Claim& claim,
                                                                             const std::vector<ElementRef>& elements) {
    if (!options_.mayOrderShortcut || remaining() < 0) return std::nullopt;
    for (const auto& e : elements)
      if (frontend::elemIsFloat(kernel_.buffers[static_cast<std::size_t>(bufferOf(e))].elem) || mixedElement(e, locationOf(e)))
        return std::nullopt;
    if (!explorer_) explorer_.emplace(*graph_);
    const auto value = [&](const std::vector<std::int64_t>& memory, const ElementRef& e) {
      const int loc = locationOf(e);
      if (loc < 0) return initialValue(e);
      const int paddr = graph_->graph().locationNames.at(static_cast<std::size_t>(loc)).second;
      return asElement(memory[static_cast<std::size_t>(paddr)], kernel_.buffers[static_cast<std::size_t>(bufferOf(e))].elem);
    };
    const auto breaks = [&](const std::vector<std::int64_t>& memory) {
      return !evaluateClaim(claim, [&](const ElementRef& e) { return value(memory, e); });
    };
    const model::Deadline until = scheduleDeadline();
    std::string how = "a sequentially consistent schedule (";
    auto x = explorer_->find(breaks, until);
    if (!x) {
      x = findWeak(model_, *graph_, *explorer_, breaks, until);
      how = "a schedule the model accepts on replay (";
    }
    if (!x) return std::nullopt;
    std::string values;
    for (const auto& e : elements) values += (values.empty() ? "" : " ") + e.text + "=" + std::to_string(value(x->memory, e));
    return std::pair{values, how + x->schedule + ")"};
  }

  void decideClaims() {
    for (const auto& [text, claim] : claims_.asserts) {
      AssertionVerdict verdict;
      verdict.text = text;
      const auto elements = elementsOf(*claim);
      // A schedule's counterexample is tried before an engine runs on a slice: it is bounded, and a slice of a lock's
      // users can take the engine the whole --timeout.
      ClaimStates f = finalValues(elements, false);
      std::optional<std::pair<std::string, std::string>> x;
      if (f.needsEngine || !f.unknown.empty()) x = scheduledCounterexample(*claim, elements);
      if (!x && f.needsEngine) f = finalValues(elements);
      if (x) {
        verdict.holds = false;
        verdict.counterexample = x->first;
        result_.notes.push_back("--assert '" + text + "' fails in an execution of the whole launch: " + x->second);
      } else if (!f.unknown.empty()) {
        verdict.reason = f.unknown;
        result_.unknowns.push_back("--assert '" + text + "': " + f.unknown);
      } else {
        verdict.holds = true;
        for (const auto& state : f.states) {
          auto value = [&](const ElementRef& e) {
            for (std::size_t i = 0; i < elements.size(); ++i)
              if (elements[i].text == e.text) return state[i];
            return std::int64_t{0};
          };
          if (evaluateClaim(*claim, value)) continue;
          verdict.holds = false;
          for (std::size_t i = 0; i < elements.size(); ++i)
            verdict.counterexample += (i ? " " : "") + elements[i].text + "=" + std::to_string(state[i]);
          break;
        }
      }
      result_.assertions.push_back(std::move(verdict));
    }
    for (const auto& e : claims_.observes) {
      ObservedValues o;
      o.location = e.text;
      const ClaimStates f = finalValues({e}, true, false);
      const auto elem = kernel_.buffers[static_cast<std::size_t>(bufferOf(e))].elem;
      if (!f.unknown.empty()) {
        o.complete = false;
        o.reason = f.unknown;
        result_.unknowns.push_back("--observe '" + e.text + "': " + f.unknown);
      }
      std::set<std::int64_t> values;
      for (const auto& s : f.states) values.insert(s[0]);
      for (std::int64_t v : values) o.values.push_back(elementText(v, elem));
      result_.observed.push_back(std::move(o));
    }
  }

  const model::CatModel& model_;
  const frontend::KernelProgram& kernel_;
  const KernelOptions& options_;
  Clock::time_point start_;
  model::Deadline deadline_;  // --timeout, for the whole check
  KernelResult result_;
  Claims claims_;
  std::optional<KernelGraph> graph_;
  std::optional<BarrierPhases> phases_;
  std::optional<KernelValues> values_;
  std::optional<MayOrder> order_;
  std::optional<PairOracle> oracle_;
  std::optional<TicketAddresses> tickets_;
  std::optional<ClusterPhases> clusters_;
  std::optional<MbarrierPhases> mbarriers_;
  std::map<int, bool> surely_, surelyAfterLoops_;  // memos of surely()
  std::set<std::pair<int, int>> endingLoops_;       // (thread, loop) proven to end by loop liveness
  std::optional<FinalValues> finals_;
  std::optional<SpinLocks> locks_;
  std::optional<SliceBuilder> builder_;
  std::optional<SliceRunner> runner_;
  std::optional<ScheduleExplorer> explorer_;  // built when a claim or a loop first needs it
  std::optional<std::map<std::pair<int, int>, std::string>> spins_;  // ScheduleExplorer::spinsForever, once
  std::deque<RunSlice> ran_;
  std::map<std::pair<int, int>, std::vector<std::size_t>> slicesOf_;  // kept instruction -> slices holding it
  std::map<GroupKey, KernelRace> races_;
  std::map<std::string, std::pair<GroupKey, std::string>> unknownPairs_;  // text -> (group, why)
  std::size_t pairs_ = 0, decidedStatically_ = 0;
};

}  // namespace

KernelResult checkKernel(const model::CatModel& model, const frontend::KernelProgram& kernel, const KernelOptions& options) {
  return Checker(model, kernel, options).run();
}

}  // namespace ptxmm::checker::kernel
