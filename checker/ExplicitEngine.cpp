// The explicit engine (ExplicitEngine.hpp): the final states of the consistent executions ExecutionSearch
// enumerates.
#include "checker/ExplicitEngine.hpp"

#include <algorithm>
#include <chrono>
#include <map>

#include "checker/ExecutionSearch.hpp"
#include "checker/RaceFinder.hpp"
#include "checker/WitnessReplay.hpp"
#include "model/Evaluator.hpp"
#include "model/GraphAlgorithms.hpp"

namespace ptxmm::checker {

using model::BaseRel;
using model::BitMatrix;
using model::Stage;

namespace {

class Enumeration {
 public:
  Enumeration(const model::CatModel& model, const EngineOptions& options, const frontend::Program& program,
              const model::EventGraph& graph, TestResult& result)
      : options_(options), program_(program), g_(graph), result_(result), search_(model, options, graph),
        eval_(search_.evaluator()) {}

  void run() {
    keys_ = observedKeys(program_, g_);
    if (options_.races) races_.emplace(eval_.model(), g_);
    std::vector<std::vector<ThreadPath>> paths;
    for (std::size_t t = 0; t < g_.threads.size(); ++t) paths.push_back(enumeratePaths(g_, static_cast<int>(t)));
    SearchVisitor visitor;
    visitor.consistent = [&](const Execution& x, bool thinAir, const std::vector<DivergentRelease>&) {
      consistent(x, thinAir);
    };
    visitor.barrierThinAir = [&] { unknown(thinAirReason()); };
    try {
      search_.run(paths, visitor);
    } catch (const SearchLimit& limit) {
      unknown(limit.reason);
      result_.resourceLimit = true;
    }
    finish();
  }

 private:
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
      result_.notes.push_back(noExecutionNote());
  }

  const EngineOptions& options_;
  const frontend::Program& program_;
  const model::EventGraph& g_;
  TestResult& result_;
  ExecutionSearch search_;
  model::Evaluator& eval_;
  std::vector<ObservedKey> keys_;
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
