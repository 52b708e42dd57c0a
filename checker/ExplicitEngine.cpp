// The explicit enumeration (ExplicitEngine.hpp). Choices are made stage by stage — paths, reads-from, barrier
// generations, Fence-SC order, coherence — and after each stage the checks that depend on nothing later are
// decided, so a failing check prunes every later choice at once. That is an optimisation only: the set of
// consistent executions is exactly the set of candidates on which every check holds.
#include "checker/ExplicitEngine.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <set>

#include "checker/BarrierMatching.hpp"
#include "checker/CoherenceOrders.hpp"
#include "checker/GraphAlgorithms.hpp"
#include "checker/PathEnumerator.hpp"
#include "model/Candidate.hpp"
#include "model/Evaluator.hpp"

namespace ptxmm::checker {

using model::BaseRel;
using model::BitMatrix;
using model::Stage;
using model::Tag;

namespace {

// Thrown to leave the enumeration when a limit is reached; the result then says Unknown with the reason.
struct LimitReached {
  std::string reason;
};

class Enumeration {
 public:
  Enumeration(const model::CatModel& model, const EngineOptions& options, const frontend::Program& program,
              const model::EventGraph& graph, TestResult& result)
      : options_(options), program_(program), g_(graph), result_(result), eval_(model, maximalCliques),
        start_(std::chrono::steady_clock::now()) {}

  void run() {
    keys_ = observedKeys(program_, g_);
    for (std::size_t t = 0; t < g_.threads.size(); ++t) paths_.push_back(enumeratePaths(g_, static_cast<int>(t)));
    std::vector<std::size_t> choice(paths_.size(), 0);
    const bool anyThreadWithoutPath = std::any_of(paths_.begin(), paths_.end(), [](const auto& p) { return p.empty(); });
    try {
      if (!anyThreadWithoutPath)
        do pathCombination(choice);
        while (advance(choice, [&](std::size_t t) { return paths_[t].size(); }));
    } catch (const LimitReached& limit) {
      unknown(limit.reason);
    }
    finish();
  }

 private:
  // ---- odometer over independent choices --------------------------------------------------------------
  template <class Size>
  static bool advance(std::vector<std::size_t>& digits, Size size) {
    for (std::size_t i = 0; i < digits.size(); ++i) {
      if (++digits[i] < size(i)) return true;
      digits[i] = 0;
    }
    return false;
  }

  void tick() {
    ++candidates_;
    if (options_.maxCandidates && candidates_ > options_.maxCandidates)
      throw LimitReached{"the explicit engine examined its limit of " + std::to_string(options_.maxCandidates) +
                         " candidate executions"};
    if (options_.timeoutSeconds > 0 && (candidates_ & 255) == 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() > options_.timeoutSeconds)
      throw LimitReached{"timeout after " + std::to_string(options_.timeoutSeconds) + " s"};
  }

  // ---- stage 0: one path per thread ---------------------------------------------------------------------
  void pathCombination(const std::vector<std::size_t>& choice) {
    chosen_.clear();
    for (std::size_t t = 0; t < choice.size(); ++t) chosen_.push_back(&paths_[t][choice[t]]);
    events_.clear();
    local_.assign(g_.events.size(), -1);
    for (std::size_t p = 0; p < g_.initCount(); ++p) addLocal(static_cast<int>(p));
    for (const ThreadPath* path : chosen_)
      for (int e : path->events) addLocal(e);
    buildStatic();
    eval_.reset(*cand_);
    if (eval_.firstFailingCheck(Stage::Static)) return;

    reads_.clear();
    rfOptions_.clear();
    for (std::size_t i = 0; i < events_.size(); ++i) {
      if (!ev(i).is(Tag::R)) continue;
      reads_.push_back(i);
      std::vector<std::size_t> sources;
      for (std::size_t j = 0; j < events_.size(); ++j)
        if (ev(j).is(Tag::W) && ev(j).paddr == ev(i).paddr) sources.push_back(j);
      rfOptions_.push_back(std::move(sources));
    }
    std::vector<std::size_t> rf(reads_.size(), 0);
    if (std::any_of(rfOptions_.begin(), rfOptions_.end(), [](const auto& o) { return o.empty(); })) return;
    do readsFrom(rf);
    while (advance(rf, [&](std::size_t r) { return rfOptions_[r].size(); }));
  }

  const model::Event& ev(std::size_t local) const { return g_.events[static_cast<std::size_t>(events_[local])]; }

  void addLocal(int e) {
    local_[static_cast<std::size_t>(e)] = static_cast<int>(events_.size());
    events_.push_back(e);
  }

  std::size_t loc(int global) const { return static_cast<std::size_t>(local_[static_cast<std::size_t>(global)]); }

  void buildStatic() {
    const std::size_t n = events_.size();
    cand_.emplace(n);
    auto& c = *cand_;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t t = 0; t < model::kTagCount; ++t)
        if (ev(i).tags.test(t)) c.sets[t].set(i);
    c.rel(BaseRel::Id) = BitMatrix::identity(n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        const auto& a = ev(i);
        const auto& b = ev(j);
        if (a.paddr >= 0 && a.paddr == b.paddr) c.rel(BaseRel::Loc).set(i, j);
        if (a.vaddr >= 0 && a.vaddr == b.vaddr) c.rel(BaseRel::Vloc).set(i, j);
        if (a.thread < 0 || b.thread < 0) continue;
        const auto& ta = g_.threads[static_cast<std::size_t>(a.thread)];
        const auto& tb = g_.threads[static_cast<std::size_t>(b.thread)];
        if (a.thread == b.thread) c.rel(BaseRel::Int).set(i, j);
        if (ta.cta == tb.cta) c.rel(BaseRel::Scta).set(i, j);
        if (ta.cluster == tb.cluster) c.rel(BaseRel::Scluster).set(i, j);
        if (ta.gpu == tb.gpu) c.rel(BaseRel::Sgpu).set(i, j);
        // Events of one thread are listed in path order, so po is index order within a thread.
        if (a.thread == b.thread && i < j) c.rel(BaseRel::Po).set(i, j);
        if (a.thread == b.thread && a.node == b.node && a.is(Tag::R) && b.is(Tag::W) && a.paddr >= 0)
          c.rel(BaseRel::Rmw).set(i, j);
      }
    for (const ThreadPath* path : chosen_) {
      for (auto [r, e] : path->data) c.rel(BaseRel::Data).set(loc(r), loc(e));
      for (auto [r, e] : path->ctrl) c.rel(BaseRel::Ctrl).set(loc(r), loc(e));
    }
  }

  // ---- stage 1: reads-from and values -----------------------------------------------------------------
  void readsFrom(const std::vector<std::size_t>& rf) {
    auto& c = *cand_;
    c.rel(BaseRel::Rf) = BitMatrix(events_.size());
    rfSource_.assign(events_.size(), SIZE_MAX);
    for (std::size_t k = 0; k < reads_.size(); ++k) {
      rfSource_[reads_[k]] = rfOptions_[k][rf[k]];
      c.rel(BaseRel::Rf).set(rfOptions_[k][rf[k]], reads_[k]);
    }
    computeValues();
    if (!thinAir_ && !assumptionsHold()) return;
    eval_.invalidate(Stage::ReadsFrom);
    if (eval_.firstFailingCheck(Stage::ReadsFrom)) {
      tick();
      return;
    }
    std::vector<Arrival> arrivals;
    if (!collectArrivals(arrivals)) return;
    for (auto& syncbar : barrierMatchings(arrivals, events_.size())) {
      c.rel(BaseRel::Syncbar) = std::move(syncbar);
      eval_.invalidate(Stage::Barrier);
      if (eval_.firstFailingCheck(Stage::Barrier)) {
        tick();
        continue;
      }
      fenceOrders();
    }
  }

  const model::ValuePtr& writeTerm(std::size_t local) const {
    const auto& e = ev(local);
    if (e.thread < 0) return e.value;
    for (const auto& [w, v] : chosen_[static_cast<std::size_t>(e.thread)]->writeValues)
      if (w == events_[local]) return v;
    return e.value;  // unreachable for executed writes: the path records every value it writes
  }

  // Values of reads and writes by following rf into write terms. A cycle (a value that depends on itself
  // through rf and dependencies) is an out-of-thin-air candidate: its values are left undetermined.
  void computeValues() {
    values_.assign(events_.size(), std::nullopt);
    state_.assign(events_.size(), 0);
    thinAir_ = false;
    for (std::size_t i = 0; i < events_.size(); ++i) valueOf(i);
  }

  std::optional<std::int64_t> valueOf(std::size_t i) {
    if (state_[i] == 2) return values_[i];
    if (state_[i] == 1) {
      thinAir_ = true;
      return std::nullopt;
    }
    state_[i] = 1;
    std::optional<std::int64_t> v;
    if (ev(i).is(Tag::R)) {
      v = valueOf(rfSource_[i]);
    } else if (ev(i).is(Tag::W)) {
      v = model::value::evaluate(*writeTerm(i), [&](int read) { return valueOf(loc(read)); });
    }
    state_[i] = 2;
    values_[i] = v;
    return v;
  }

  std::optional<std::int64_t> evaluate(const model::ValuePtr& term) {
    return model::value::evaluate(*term, [&](int read) { return values_[loc(read)]; });
  }

  bool assumptionsHold() {
    for (const ThreadPath* path : chosen_)
      for (const auto& a : path->assumptions) {
        const auto v = evaluate(a.term);
        if (!v) {
          thinAir_ = true;
          return true;
        }
        if ((*v != 0) != a.holds) return false;
      }
    return true;
  }

  // ---- stage 2: barrier generations ---------------------------------------------------------------------
  bool collectArrivals(std::vector<Arrival>& out) {
    for (const ThreadPath* path : chosen_)
      for (const auto& b : path->barriers) {
        const auto& e = g_.events[static_cast<std::size_t>(b.event)];
        if (!e.is(Tag::BA)) continue;
        const auto id = evaluate(b.id);
        std::optional<std::int64_t> count;
        if (b.count) count = evaluate(b.count);
        if (!id || (b.count && !count)) return false;  // thin air: no generation can be determined
        Arrival a{loc(b.event), std::nullopt, e.thread, g_.threads[static_cast<std::size_t>(e.thread)].cta, *id, count};
        for (const auto& w : path->barriers)
          if (g_.events[static_cast<std::size_t>(w.event)].node == e.node && g_.events[static_cast<std::size_t>(w.event)].is(Tag::BW))
            a.wait = loc(w.event);
        out.push_back(a);
      }
    return true;
  }

  // ---- stage 3: Fence-SC order --------------------------------------------------------------------------
  void fenceOrders() {
    auto& c = *cand_;
    std::vector<std::size_t> fences;
    for (std::size_t i = 0; i < events_.size(); ++i)
      if (ev(i).is(Tag::F) && ev(i).is(Tag::SC)) fences.push_back(i);
    do {
      BitMatrix order(events_.size());
      for (std::size_t a = 0; a < fences.size(); ++a)
        for (std::size_t b = a + 1; b < fences.size(); ++b) order.set(fences[a], fences[b]);
      c.rel(BaseRel::SyncFence) = std::move(order);
      eval_.invalidate(Stage::FenceOrder);
      if (eval_.firstFailingCheck(Stage::FenceOrder)) {
        tick();
        continue;
      }
      coherenceOrders();
    } while (std::next_permutation(fences.begin(), fences.end()));
  }

  // ---- stage 4: coherence -------------------------------------------------------------------------------
  void coherenceOrders() {
    std::vector<std::vector<std::size_t>> writes(g_.initCount());  // per location, init first
    for (std::size_t i = 0; i < events_.size(); ++i)
      if (ev(i).is(Tag::W)) writes[static_cast<std::size_t>(ev(i).paddr)].push_back(i);
    std::vector<const std::vector<Order>*> orders;
    for (std::size_t p = 0; p < writes.size(); ++p) {
      const int m = static_cast<int>(writes[p].size()) - 1;
      if (m > kMaxCoherenceWrites)
        throw LimitReached{"location " + g_.physicalNames[p] + " has " + std::to_string(m) +
                           " writes: more coherence orders than the explicit engine enumerates (limit " +
                           std::to_string(kMaxCoherenceWrites) + ")"};
      orders.push_back(&strictPartialOrders(m));
    }
    std::vector<std::size_t> choice(writes.size(), 0);
    do {
      tick();
      BitMatrix co(events_.size());
      for (std::size_t p = 0; p < writes.size(); ++p) {
        const auto& w = writes[p];
        for (std::size_t k = 1; k < w.size(); ++k) co.set(w[0], w[k]);
        for (auto [a, b] : (*orders[p])[choice[p]])
          co.set(w[static_cast<std::size_t>(a) + 1], w[static_cast<std::size_t>(b) + 1]);
      }
      cand_->rel(BaseRel::Co) = std::move(co);
      eval_.invalidate(Stage::Coherence);
      if (!eval_.firstFailingCheck(Stage::Coherence)) consistent(writes);
    } while (advance(choice, [&](std::size_t p) { return orders[p]->size(); }));
  }

  // ---- a consistent execution ---------------------------------------------------------------------------
  void consistent(const std::vector<std::vector<std::size_t>>& writes) {
    if (thinAir_) {
      unknown("the model permits an execution whose values depend on themselves (out of thin air); its values "
              "cannot be enumerated");
      return;
    }
    for (std::size_t thread = 0; thread < chosen_.size(); ++thread)
      if (const int boundLoop = chosen_[thread]->boundLoop; boundLoop >= 0) {
        const auto& loop = g_.threads[thread].loops[static_cast<std::size_t>(boundLoop)];
        unknown("an execution of " + g_.threads[thread].name + " needs more than " + std::to_string(g_.unrollBound) +
                " iterations of the loop at " + loop.pos.file + ":" + std::to_string(loop.pos.line) +
                " (raise --unroll)");
        return;
      }
    for (auto f : eval_.raisedFlags()) ++result_.flags[eval_.model().checks[f].name];
    // With a partial coherence order several writes may be co-maximal: each is a legal final value [§2.12].
    std::vector<std::vector<std::size_t>> finals(keys_.size());
    for (std::size_t k = 0; k < keys_.size(); ++k) {
      if (keys_[k].kind != ObservedKey::Kind::Location) continue;
      for (std::size_t w : writes[static_cast<std::size_t>(keys_[k].physical)]) {
        bool maximal = true;
        for (std::size_t x : writes[static_cast<std::size_t>(keys_[k].physical)])
          if (cand_->rel(BaseRel::Co).test(w, x)) maximal = false;
        if (maximal) finals[k].push_back(w);
      }
    }
    std::vector<std::size_t> pick(keys_.size(), 0);
    do {
      std::vector<std::int64_t> state(keys_.size());
      for (std::size_t k = 0; k < keys_.size(); ++k) {
        const auto& key = keys_[k];
        if (key.kind == ObservedKey::Kind::Location) {
          state[k] = *values_[finals[k][pick[k]]];
        } else {
          state[k] = *evaluate(chosen_[static_cast<std::size_t>(key.thread)]->finalRegisters[static_cast<std::size_t>(key.reg)]);
        }
      }
      auto& s = states_[state];
      ++s;
    } while (advance(pick, [&](std::size_t k) { return finals[k].empty() ? 1 : finals[k].size(); }));
  }

  // The first reason wins; the states found so far are kept but the verdict is UNKNOWN.
  void unknown(const std::string& reason) {
    if (result_.status == Status::Ok) {
      result_.status = Status::Unknown;
      result_.reason = reason;
    }
  }

  void finish() {
    for (const auto& [values, count] : states_) {
      FinalState s;
      s.values = values;
      s.satisfies = satisfies(*program_.condition.expr, keys_, values);
      s.executions = count;
      (s.satisfies ? result_.positive : result_.negative) += count;
      result_.states.push_back(std::move(s));
    }
    for (const auto& k : keys_) result_.keys.push_back(k.display);
    if (states_.empty() && result_.status == Status::Ok)
      result_.notes.push_back("no candidate execution is consistent with the model (check for barrier deadlocks "
                              "or contradictory assumptions)");
  }

  const EngineOptions& options_;
  const frontend::Program& program_;
  const model::EventGraph& g_;
  TestResult& result_;
  model::Evaluator eval_;
  std::chrono::steady_clock::time_point start_;
  std::uint64_t candidates_ = 0;

  std::vector<ObservedKey> keys_;
  std::vector<std::vector<ThreadPath>> paths_;
  std::vector<const ThreadPath*> chosen_;
  std::vector<int> events_;  // candidate index -> global event id
  std::vector<int> local_;   // global event id -> candidate index, -1 if not executed
  std::optional<model::Candidate> cand_;
  std::vector<std::size_t> reads_;
  std::vector<std::vector<std::size_t>> rfOptions_;
  std::vector<std::size_t> rfSource_;
  std::vector<std::optional<std::int64_t>> values_;
  std::vector<int> state_;
  bool thinAir_ = false;
  std::map<std::vector<std::int64_t>, std::uint64_t> states_;
};

}  // namespace

ExplicitEngine::ExplicitEngine(const model::CatModel& model, EngineOptions options)
    : model_(model), options_(options) {}

TestResult ExplicitEngine::run(const frontend::Program& program, const model::EventGraph& graph) {
  TestResult result;
  result.name = program.name;
  result.file = program.file;
  result.engine = name();
  result.quantifier = program.condition.quantifier;
  result.conditionText = program.condition.text;
  const auto start = std::chrono::steady_clock::now();
  Enumeration(model_, options_, program, graph, result).run();
  decideCondition(result);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace ptxmm::checker
