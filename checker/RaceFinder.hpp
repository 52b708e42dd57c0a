// Race reports: the table of race kinds (each names the cat definition that holds its pairs, so the kinds are
// part of the model, not of C++), the advice for each kind, and a collector that keeps one report per pair of
// racing instructions with the first execution found for it. Both engines feed it: the explicit one with every
// consistent execution, the Z3 one with the models of its race queries.
#pragma once

#include <map>
#include <utility>
#include <vector>

#include "checker/Race.hpp"
#include "model/EventGraph.hpp"
#include "model/RelationIR.hpp"

namespace ptxmm::checker {

struct RaceKind {
  std::string name;        // as reported ("no synchronisation", ...)
  std::string definition;  // the cat definition holding its pairs ("race-unsync", ...)
};

/// The race kinds, in the order they are tried.
const std::vector<RaceKind>& raceKinds();

/// What would remove a race of kind `kind` (a name from raceKinds()) between events a and b of `graph`.
std::string raceAdvice(const std::string& kind, const model::EventGraph& graph, const model::Event& a, const model::Event& b);

class RaceCollector {
 public:
  /// Finds each kind's definition in `model`; throws model::UserError when the model lacks one.
  RaceCollector(const model::CatModel& model, const model::EventGraph& graph);

  /// Per kind, the index of its definition in the model.
  const std::vector<std::size_t>& definitions() const { return definitions_; }
  /// Whether the instructions of events a and b already have a report.
  bool known(int a, int b) const;
  /// Records that events a and b race with this kind in the execution `witness` (first one wins).
  void add(std::size_t kind, int a, int b, const Witness& witness);
  /// The reports, ordered by thread and line.
  std::vector<Race> races() const;

 private:
  using InstrId = std::pair<int, int>;  // (thread, instruction index)
  InstrId instrOf(int event) const;
  std::pair<InstrId, InstrId> key(int a, int b) const;

  const model::EventGraph& graph_;
  std::vector<std::size_t> definitions_;
  std::map<std::pair<InstrId, InstrId>, Race> races_;
};

}  // namespace ptxmm::checker
