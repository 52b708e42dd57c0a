// Z3 queries behind the engine (Z3Engine.hpp).
#include "checker/z3/Z3Engine.hpp"

#include <chrono>
#include <functional>
#include <map>

#include "checker/RaceFinder.hpp"
#include "checker/WitnessReplay.hpp"
#include "checker/z3/ModelEncoding.hpp"
#include "checker/z3/ProgramEncoding.hpp"
#include "frontend/ConditionWalk.hpp"

namespace ptxmm::checker {

using frontend::CondExpr;
using frontend::CondValue;

namespace {

// The proposition as a formula over the observed values. Chains of /\ and \/ become one n-ary and/or (a 200,000
// conjunct condition is one `and`, not 200,000 nested ones); the fold gathers each chain's operands as it goes.
z3::expr condition(z3::context& ctx, const CondExpr& e, const std::vector<ObservedKey>& keys,
                   const std::vector<z3::expr>& outcome) {
  auto value = [&](const CondValue& v) -> z3::expr {
    if (v.kind == CondValue::Kind::Constant) return ctx.bv_val(v.value, 64);
    for (std::size_t k = 0; k < keys.size(); ++k) {
      const bool reg = v.kind == CondValue::Kind::Register;
      if ((reg && keys[k].kind == ObservedKey::Kind::Register && keys[k].thread == v.thread && keys[k].name == v.name) ||
          (!reg && keys[k].kind == ObservedKey::Kind::Location && keys[k].name == v.name))
        return outcome[k];
    }
    return ctx.bv_val(0, 64);  // unreachable: every condition value is an observed key
  };
  // A formula, or the operands of an and/or chain not closed yet.
  struct Part {
    CondExpr::Kind chain;  // And or Or while open; True otherwise
    std::vector<z3::expr> operands;
  };
  auto close = [&](Part& p) -> z3::expr {
    if (p.chain == CondExpr::Kind::True) return p.operands.front();
    z3::expr_vector v(ctx);
    for (const auto& x : p.operands) v.push_back(x);
    return p.chain == CondExpr::Kind::And ? z3::mk_and(v) : z3::mk_or(v);
  };
  auto atom = [](z3::expr x) { return Part{CondExpr::Kind::True, {std::move(x)}}; };
  Part top = frontend::foldCondition<Part>(
      e,
      [&](const CondExpr& leaf) -> Part {
        if (leaf.kind == CondExpr::Kind::True) return atom(ctx.bool_val(true));
        if (leaf.kind == CondExpr::Kind::False) return atom(ctx.bool_val(false));
        const z3::expr l = value(leaf.lhs), r = value(leaf.rhs);
        switch (leaf.cmp) {
          case frontend::CmpOp::Eq: return atom(l == r);
          case frontend::CmpOp::Ne: return atom(l != r);
          case frontend::CmpOp::Lt: return atom(l < r);
          case frontend::CmpOp::Le: return atom(l <= r);
          case frontend::CmpOp::Gt: return atom(l > r);
          case frontend::CmpOp::Ge: return atom(l >= r);
        }
        return atom(ctx.bool_val(false));
      },
      [&](const CondExpr& node, Part* args) -> Part {
        if (node.kind == CondExpr::Kind::Not) return atom(!close(args[0]));
        Part out{node.kind, {}};
        for (int i = 0; i < 2; ++i) {
          if (args[i].chain == node.kind) {
            if (out.operands.empty()) out.operands = std::move(args[i].operands);
            else out.operands.insert(out.operands.end(), args[i].operands.begin(), args[i].operands.end());
          } else {
            out.operands.push_back(close(args[i]));
          }
        }
        return out;
      });
  return close(top);
}

// One Z3 context per thread for the thread's lifetime: creating the first costs more than solving a typical
// litmus test (10–16 ms on the developer machine; bench/allsat_floor.cpp prints it), and the queries of one
// thread never overlap. Each query still gets its own solver, so nothing but hash-consed terms is shared.
z3::context& threadContext() {
  thread_local z3::context ctx;
  return ctx;
}

class Query {
 public:
  Query(const model::CatModel& model, const EngineOptions& options, const frontend::Program& program,
        const model::EventGraph& graph, TestResult& result)
      : model_(model), options_(options), program_(program), graph_(graph), result_(result),
        // The simple solver is the incremental SMT core that push/pop queries end up in anyway; the default
        // solver first probes the formula for a tactic, ≈6 ms per solver for nothing.
        solver_(ctx_, z3::solver::simple()) {}

  void run() {
    keys_ = observedKeys(program_, graph_);
    for (const auto& k : keys_) result_.keys.push_back(k.display);
    z3enc::ProgramEncoding program(ctx_, graph_, keys_, nullptr, deadline_);
    z3enc::ModelEncoding model(ctx_, model_, program);
    if (model.unsupported()) return unknown(*model.unsupported());

    z3::params p(ctx_);
    p.set("random_seed", options_.seed);
    solver_.set(p);
    for (const auto& c : program.constraints()) solver_.add(c);
    // Each axiom hangs on a literal named after it, assumed in every query; --explain drops some of them.
    for (const auto& a : model.axioms()) {
      const z3::expr lit = ctx_.bool_const(("axiom:" + a.name).c_str());
      solver_.add(z3::implies(lit, a.holds));
      axiomLits_.push_back(lit);
      axiomNames_.push_back(a.name);
    }

    // The explicit engine's UNKNOWN cases: a consistent execution beyond the bound, or out of thin air. Those
    // executions contribute no state there, so they are excluded here too.
    for (const auto& hit : program.boundHits()) {
      if (!sat(hit.when)) continue;
      const auto& t = graph_.threads[static_cast<std::size_t>(hit.thread)];
      const auto& loop = t.loops[static_cast<std::size_t>(hit.loop)];
      unknown("an execution of " + t.name + " needs more than " + std::to_string(graph_.unrollBound) +
              " iterations of the loop ending at " + loop.pos.file + ":" + std::to_string(loop.pos.line) +
              " (raise --unroll)");
    }
    for (const auto& hit : program.boundHits()) solver_.add(!hit.when);
    const z3::expr thinAir = program.thinAir();
    if (sat(thinAir))
      unknown("the model permits an execution whose values depend on themselves (out of thin air); its values "
              "cannot be enumerated");
    solver_.add(!thinAir);
    const z3::expr unspecified = program.unspecified();
    if (sat(unspecified)) unknown(unspecifiedReason());
    solver_.add(!unspecified);
    if (stopped_) return;
    // `filter P`: only executions whose final state satisfies P count (the explicit engine filters them after
    // deciding the bound and thin air, as here).
    if (program_.filter) solver_.add(condition(ctx_, *program_.filter, keys_, program.outcome()));

    for (const auto& f : model.flags())
      if (sat(f.holds)) result_.flags.insert(f.name);
    if (options_.listStates)
      listStates(program);
    else
      decideByQuery(program);
    if (options_.races && !stopped_) findRaces(program, model);
    if (options_.explain && !stopped_) explain(program);
  }

  // The outcome the condition asks about, when the model forbids it: `p` for exists/~exists, `~p` for forall.
  // The smallest sets of axioms whose removal permits it, and an execution that needs exactly the first set
  // removed (herd7's -skipchecks, searched by increasing size).
  void explain(const z3enc::ProgramEncoding& program) {
    z3::expr target = condition(ctx_, *program_.condition.expr, keys_, program.outcome());
    if (program_.condition.quantifier == frontend::Condition::Quantifier::Forall) target = !target;
    if (sat(target)) return;  // permitted: nothing to explain
    Explanation e;
    e.targetText = explainedTarget(program_.condition.quantifier, program_.condition.text);
    const std::size_t k = axiomLits_.size();
    for (std::size_t size = 1; size <= k && e.minimalSets.empty() && !stopped_; ++size) {
      std::vector<bool> drop(k, false);
      std::fill(drop.begin(), drop.begin() + static_cast<std::ptrdiff_t>(size), true);
      do {
        z3::expr_vector kept(ctx_);
        std::vector<std::string> dropped;
        for (std::size_t i = 0; i < k; ++i)
          if (drop[i]) dropped.push_back(axiomNames_[i]);
          else kept.push_back(axiomLits_[i]);
        solver_.push();
        solver_.add(target);
        const z3::check_result r = check(kept);
        if (r == z3::sat) {
          if (!e.witness) e.witness = program.decode(solver_.get_model());
          e.minimalSets.push_back(dropped);
        }
        solver_.pop();
        if (r == z3::unknown) break;
      } while (std::prev_permutation(drop.begin(), drop.end()));
    }
    result_.explanation = std::move(e);
  }

 private:
  // Whether some consistent execution also satisfies `extra`; a solver `unknown` stops the run.
  bool sat(const z3::expr& extra) {
    solver_.push();
    solver_.add(extra);
    const z3::check_result r = check(axiomLits_);
    solver_.pop();
    return r == z3::sat;
  }

  // One solver call within what is left of --timeout (a limit for the whole test, not per call); `unknown`
  // stops the run with the reason.
  z3::check_result check(const z3::expr_vector& assumptions) {
    if (stopped_) return z3::unknown;
    if (deadline_.bounded()) {
      if (deadline_.passed()) return timedOut();
      z3::params p(ctx_);
      p.set("timeout", static_cast<unsigned>(std::max(1.0, deadline_.secondsLeft() * 1000)));
      solver_.set(p);
    }
    const z3::check_result r = solver_.check(assumptions);
    if (r != z3::unknown) return r;
    // Z3 names an expired timeout "canceled" or "timeout"; the clock settles it either way.
    const std::string why = solver_.reason_unknown();
    if (deadline_.bounded() && (why == "canceled" || why == "timeout" || deadline_.passed())) return timedOut();
    stopped_ = true;
    result_.resourceLimit = true;
    unknown("Z3 answered unknown (" + why + ")");
    return z3::unknown;
  }

  z3::check_result timedOut() {
    stopped_ = true;
    result_.resourceLimit = true;
    unknown(timeoutReason(deadline_.seconds()));
    return z3::unknown;
  }

  void unknown(const std::string& reason) {
    if (result_.status == Status::Ok) {
      result_.status = Status::Unknown;
      result_.reason = reason;
    }
  }

  void listStates(const z3enc::ProgramEncoding& program) {
    std::vector<std::vector<ThreadPath>> paths;
    if (options_.crossCheck)
      for (std::size_t t = 0; t < graph_.threads.size(); ++t) paths.push_back(enumeratePaths(graph_, static_cast<int>(t)));
    const auto& outcome = program.outcome();
    solver_.push();
    for (;;) {
      const z3::check_result r = check(axiomLits_);
      if (r != z3::sat) break;
      const z3::model m = solver_.get_model();
      const Witness w = program.decode(m);
      if (options_.crossCheck)
        if (auto why = crossCheck(model_, graph_, paths, keys_, w)) {
          result_.status = Status::Internal;
          result_.reason = "cross-check failed: the Z3 engine found an execution with outcome " + show(w.outcome) +
                           " that the explicit evaluator rejects: " + *why;
          break;
        }
      FinalState s;
      s.values = w.outcome;
      s.witness = w;
      s.satisfies = satisfies(*program_.condition.expr, keys_, s.values);
      s.executions = 1;
      (s.satisfies ? result_.positive : result_.negative) += 1;
      result_.states.push_back(std::move(s));
      z3::expr_vector differs(ctx_);
      for (std::size_t k = 0; k < outcome.size(); ++k) differs.push_back(outcome[k] != ctx_.bv_val(w.outcome[k], 64));
      solver_.add(differs.empty() ? ctx_.bool_val(false) : z3::mk_or(differs));
    }
    solver_.pop();
    std::sort(result_.states.begin(), result_.states.end(),
              [](const FinalState& a, const FinalState& b) { return a.values < b.values; });
    decideCondition(result_);
    result_.noExecution = result_.states.empty() && result_.status == Status::Ok;
    if (result_.noExecution)
      result_.notes.push_back(noExecutionNote());
  }

  // One query decides the claim: exists/~exists ask for a state satisfying the proposition, forall for one
  // violating it.
  void decideByQuery(const z3enc::ProgramEncoding& program) {
    const z3::expr p = condition(ctx_, *program_.condition.expr, keys_, program.outcome());
    switch (program_.condition.quantifier) {
      case frontend::Condition::Quantifier::Exists: result_.holds = sat(p); break;
      case frontend::Condition::Quantifier::NotExists: result_.holds = !sat(p); break;
      case frontend::Condition::Quantifier::Forall: result_.holds = !sat(!p); break;
    }
    result_.notes.push_back("states not listed: the condition was decided by a single query");
    // A claim that holds because no execution exists at all must not pass unnoticed (issue 16 D5).
    if (result_.holds && program_.condition.quantifier != frontend::Condition::Quantifier::Exists &&
        !sat(ctx_.bool_val(true)) && !stopped_) {
      result_.noExecution = true;
      result_.notes.push_back(noExecutionNote());
    }
  }

  // Every pair of racing instructions: ask for an execution with a race between instructions not reported
  // yet, record all races of that model, repeat until none is left.
  void findRaces(const z3enc::ProgramEncoding& program, z3enc::ModelEncoding& model) {
    RaceCollector races(model_, graph_);
    std::vector<const z3enc::SymRel*> kinds;
    for (auto d : races.definitions()) kinds.push_back(&std::get<z3enc::SymRel>(model.definition(d)));
    for (;;) {
      z3::expr_vector open(ctx_);
      for (const auto* r : kinds)
        for (auto [a, b] : r->may.pairs())
          if (a < b && graph_.events[a].thread >= 0 && graph_.events[b].thread >= 0 &&
              !races.known(static_cast<int>(a), static_cast<int>(b)))
            open.push_back(r->at(a, b));
      if (open.empty()) break;
      solver_.push();
      solver_.add(z3::mk_or(open));
      const z3::check_result r = check(axiomLits_);
      if (r != z3::sat) {
        solver_.pop();
        break;
      }
      const z3::model m = solver_.get_model();
      solver_.pop();
      const Witness w = program.decode(m);
      for (std::size_t k = 0; k < kinds.size(); ++k)
        for (auto [a, b] : kinds[k]->may.pairs())
          if (a < b && graph_.events[a].thread >= 0 && graph_.events[b].thread >= 0 &&
              m.eval(kinds[k]->at(a, b), true).is_true())
            races.add(k, static_cast<int>(a), static_cast<int>(b), w);
    }
    result_.racesChecked = !stopped_;
    result_.races = races.races();
  }

  static std::string show(const std::vector<std::int64_t>& values) {
    std::string s = "(";
    for (std::size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + std::to_string(values[i]);
    return s + ")";
  }

  z3::context& ctx_ = threadContext();
  const model::CatModel& model_;
  const EngineOptions& options_;
  const model::Deadline deadline_ = engineDeadline(options_);
  const frontend::Program& program_;
  const model::EventGraph& graph_;
  TestResult& result_;
  z3::solver solver_;
  std::vector<ObservedKey> keys_;
  z3::expr_vector axiomLits_{ctx_};
  std::vector<std::string> axiomNames_;
  bool stopped_ = false;
};

}  // namespace

Z3Engine::Z3Engine(const model::CatModel& model, EngineOptions options) : model_(model), options_(options) {}

TestResult Z3Engine::run(const frontend::Program& program, const model::EventGraph& graph) {
  TestResult result;
  result.name = program.name;
  result.file = program.file;
  result.engine = name();
  result.quantifier = program.condition.quantifier;
  result.conditionText = program.condition.text;
  result.countsExecutions = false;
  result.seed = options_.seed;
  const auto start = std::chrono::steady_clock::now();
  try {
    z3enc::mappingOutOfMemory([&] { Query(model_, options_, program, graph, result).run(); });
  } catch (const model::LimitReached& e) {
    // The encoding overran --timeout: nothing decided so far counts (a partial list of states is no answer).
    result.states.clear();
    result.races.clear();
    result.status = Status::Unknown;
    result.resourceLimit = true;
    result.reason = e.what();
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace ptxmm::checker
