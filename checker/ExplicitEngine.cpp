// The explicit enumeration (ExplicitEngine.hpp). Choices are made stage by stage — paths, reads-from, barrier
// generations, Fence-SC order, coherence — and after each stage the checks that depend on nothing later are
// decided, so a failing check prunes every later choice at once. That is an optimisation only: the set of
// consistent executions is exactly the set of candidates on which every check holds.
#include "checker/ExplicitEngine.hpp"

#include <algorithm>
#include <chrono>
#include <map>

#include "checker/Execution.hpp"
#include "checker/Odometer.hpp"
#include "checker/RaceFinder.hpp"
#include "checker/WitnessReplay.hpp"
#include "model/Evaluator.hpp"
#include "model/GraphAlgorithms.hpp"

namespace ptxmm::checker {

using model::BaseRel;
using model::BitMatrix;
using model::Stage;

namespace {

// Thrown to leave the enumeration when a limit is reached; the result then says Unknown with the reason.
struct LimitReached {
  std::string reason;
};

class Enumeration {
 public:
  Enumeration(const model::CatModel& model, const EngineOptions& options, const frontend::Program& program,
              const model::EventGraph& graph, TestResult& result)
      : options_(options), program_(program), g_(graph), result_(result), eval_(model),
        start_(std::chrono::steady_clock::now()) {}

  void run() {
    keys_ = observedKeys(program_, g_);
    uses_ = staticUses(g_);
    if (options_.races) races_.emplace(eval_.model(), g_);
    std::vector<std::vector<ThreadPath>> paths;
    for (std::size_t t = 0; t < g_.threads.size(); ++t) paths.push_back(enumeratePaths(g_, static_cast<int>(t)));
    try {
      std::vector<std::size_t> choice(paths.size(), 0);
      if (std::none_of(paths.begin(), paths.end(), [](const auto& p) { return p.empty(); }))
        do {
          std::vector<const ThreadPath*> chosen;
          for (std::size_t t = 0; t < choice.size(); ++t) chosen.push_back(&paths[t][choice[t]]);
          Execution x(g_, std::move(chosen));
          pathCombination(x);
        } while (advance(choice, [&](std::size_t t) { return paths[t].size(); }));
    } catch (const LimitReached& limit) {
      unknown(limit.reason);
      result_.resourceLimit = true;
    }
    finish();
  }

 private:
  void tick() {
    ++candidates_;
    if (options_.maxCandidates && candidates_ > options_.maxCandidates)
      throw LimitReached{"the explicit engine examined its limit of " + std::to_string(options_.maxCandidates) +
                         " candidate executions"};
    if (options_.timeoutSeconds > 0 && (candidates_ & 255) == 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() > options_.timeoutSeconds)
      throw LimitReached{timeoutReason(options_.timeoutSeconds)};
  }

  // A check of an earlier stage fails: every later choice is rejected with it.
  bool rejectedAt(Stage stage) {
    if (!eval_.firstFailingCheck(stage)) return false;
    tick();
    return true;
  }

  void pathCombination(Execution& x) {
    eval_.reset(x.candidate());
    if (eval_.firstFailingCheck(Stage::Static)) return;
    std::vector<std::vector<std::size_t>> sources;
    for (std::size_t r : x.reads()) sources.push_back(x.sourcesOf(r));
    std::vector<std::size_t> choice(sources.size(), 0), rf(sources.size());
    do {
      for (std::size_t k = 0; k < choice.size(); ++k) rf[k] = sources[k][choice[k]];
      const Execution::Values values = x.setReadsFrom(rf);
      if (values == Execution::Values::Contradicted) continue;
      eval_.invalidate(Stage::ReadsFrom);
      if (rejectedAt(Stage::ReadsFrom)) continue;
      const auto arrivals = x.arrivals();
      if (!arrivals) {
        unknown(thinAirReason());
        continue;
      }
      for (auto& matching : barrierMatchings(*arrivals, x.barrierContext(uses_), x.size())) {
        // An aligned barrier reached from divergent code has no defined outcome; the liveness check reports it.
        if (!matching.divergent.empty()) continue;
        x.candidate().rel(BaseRel::Syncbar) = std::move(matching.syncbar);
        eval_.invalidate(Stage::Barrier);
        if (!rejectedAt(Stage::Barrier)) fenceOrders(x, values == Execution::Values::ThinAir);
      }
    } while (advance(choice, [&](std::size_t k) { return sources[k].size(); }));
  }

  void fenceOrders(Execution& x, bool thinAir) {
    std::vector<std::size_t> fences = x.scFences();
    do {
      x.setFenceOrder(fences);
      eval_.invalidate(Stage::FenceOrder);
      if (!rejectedAt(Stage::FenceOrder)) coherenceOrders(x, thinAir);
    } while (std::next_permutation(fences.begin(), fences.end()));
  }

  void coherenceOrders(Execution& x, bool thinAir) {
    const auto& writes = x.writesPerLocation();
    std::vector<const std::vector<model::Order>*> orders;
    for (std::size_t p = 0; p < writes.size(); ++p) {
      const int m = static_cast<int>(writes[p].size()) - 1;
      if (m > model::kMaxOrderedElements)
        throw LimitReached{"location " + g_.physicalNames[p] + " has " + std::to_string(m) +
                           " writes: more coherence orders than the explicit engine enumerates (limit " +
                           std::to_string(model::kMaxOrderedElements) + ")"};
      orders.push_back(&model::strictPartialOrders(m));
    }
    std::vector<std::size_t> choice(writes.size(), 0);
    do {
      tick();
      BitMatrix co(x.size());
      for (std::size_t p = 0; p < writes.size(); ++p) {
        const auto& w = writes[p];
        for (std::size_t k = 1; k < w.size(); ++k) co.set(w[0], w[k]);
        for (auto [a, b] : (*orders[p])[choice[p]])
          co.set(w[static_cast<std::size_t>(a) + 1], w[static_cast<std::size_t>(b) + 1]);
      }
      x.candidate().rel(BaseRel::Co) = std::move(co);
      eval_.invalidate(Stage::Coherence);
      if (!eval_.firstFailingCheck(Stage::Coherence)) consistent(x, thinAir);
    } while (advance(choice, [&](std::size_t p) { return orders[p]->size(); }));
  }

  static std::string thinAirReason() {
    return "the model permits an execution whose values depend on themselves (out of thin air); its values "
           "cannot be enumerated";
  }

  void consistent(const Execution& x, bool thinAir) {
    if (thinAir) return unknown(thinAirReason());
    if (const int t = x.boundThread(); t >= 0) {
      const auto& loop = g_.threads[static_cast<std::size_t>(t)].loops[static_cast<std::size_t>(x.paths()[static_cast<std::size_t>(t)]->boundLoop)];
      return unknown("an execution of " + g_.threads[static_cast<std::size_t>(t)].name + " needs more than " +
                     std::to_string(g_.unrollBound) + " iterations of the loop ending at " + loop.pos.file + ":" +
                     std::to_string(loop.pos.line) + " (raise --unroll)");
    }
    if (x.needsUnspecifiedValue(keys_)) return unknown(unspecifiedReason());
    for (auto f : eval_.raisedFlags()) result_.flags.insert(eval_.model().checks[f].name);
    auto finals = x.finalStates(keys_);
    // `filter P`: final states that do not satisfy P are not counted.
    if (program_.filter)
      std::erase_if(finals, [&](const auto& state) { return !satisfies(*program_.filter, keys_, state); });
    if (finals.empty()) return;
    for (const auto& state : finals) {
      auto [it, fresh] = states_.try_emplace(state);
      ++it->second.count;
      if (fresh) it->second.witness = witnessOf(x, state);
    }
    if (races_) collectRaces(x, finals.front());
  }

  void collectRaces(const Execution& x, const std::vector<std::int64_t>& outcome) {
    for (std::size_t k = 0; k < raceKinds().size(); ++k) {
      const auto& pairs = std::get<BitMatrix>(eval_.definition(races_->definitions()[k]));
      for (auto [a, b] : pairs.pairs()) {
        const int ga = x.global(a), gb = x.global(b);
        if (a < b && x.event(a).thread >= 0 && x.event(b).thread >= 0 && !races_->known(ga, gb))
          races_->add(k, ga, gb, witnessOf(x, outcome));
      }
    }
  }

  // The first reason wins; the states found so far are kept but the verdict is UNKNOWN.
  void unknown(const std::string& reason) {
    if (result_.status == Status::Ok) {
      result_.status = Status::Unknown;
      result_.reason = reason;
    }
  }

  void finish() {
    for (auto& [values, seen] : states_) {
      FinalState s;
      s.values = values;
      s.satisfies = satisfies(*program_.condition.expr, keys_, values);
      s.executions = seen.count;
      s.witness = std::move(seen.witness);
      (s.satisfies ? result_.positive : result_.negative) += seen.count;
      result_.states.push_back(std::move(s));
    }
    if (races_) {
      result_.racesChecked = true;
      result_.races = races_->races();
    }
    for (const auto& k : keys_) result_.keys.push_back(k.display);
    result_.noExecution = states_.empty() && result_.status == Status::Ok;
    if (result_.noExecution)
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
  std::vector<StaticUse> uses_;
  struct Seen {
    std::uint64_t count = 0;
    Witness witness;  // the first execution ending in the state
  };
  std::map<std::vector<std::int64_t>, Seen> states_;
  std::optional<RaceCollector> races_;
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
