// What the checker tests share: the bundled models, loaded once per test process, and a result's states as
// comparable text.
#pragma once

#include <set>
#include <string>

#include "checker/ResultPrinter.hpp"
#include "model/CatParser.hpp"

namespace ptxmm::testing {

inline const model::CatModel& ptxModel() {
  static const model::CatModel m = model::parseCatFile(PTXMM_SOURCE_DIR "/model/cat/ptx.cat");
  return m;
}

/// ptx.cat with the lenient reading of A6 (mbarrier scopes).
inline const model::CatModel& lenientModel() {
  static const model::CatModel m = model::parseCatFile(PTXMM_SOURCE_DIR "/model/cat/ptx-mbarrier-lenient.cat");
  return m;
}

inline std::set<std::string> states(const checker::TestResult& r) {
  std::set<std::string> out;
  for (const auto& s : r.states) out.insert(checker::stateText(r, s));
  return out;
}

}  // namespace ptxmm::testing
