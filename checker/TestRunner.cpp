// Parse, unroll and check one file (TestRunner.hpp).
#include "checker/TestRunner.hpp"

#include <cassert>

#include "checker/ExplicitEngine.hpp"
#include "frontend/Unroller.hpp"
#include "frontend/litmus/LitmusParser.hpp"

namespace ptxmm::checker {

const std::vector<std::string>& engineNames() {
  static const std::vector<std::string> names{"z3", "explicit"};
  return names;
}

std::unique_ptr<Engine> makeEngine(const model::CatModel& model, const RunOptions& options) {
  if (options.engine == "z3") return std::make_unique<Z3Engine>(model, options.limits, options.z3);
  assert(options.engine == "explicit");
  return std::make_unique<ExplicitEngine>(model, options.limits);
}

TestResult checkFile(const model::CatModel& model, const std::string& path, const RunOptions& options) {
  try {
    const frontend::Program program = frontend::parseLitmusFile(path);
    const model::EventGraph graph = frontend::unroll(program, {options.unroll});
    return makeEngine(model, options)->run(program, graph);
  } catch (const model::UserError& e) {
    TestResult r;
    r.file = path;
    r.status = Status::Error;
    r.reason = e.what();
    return r;
  }
}

}  // namespace ptxmm::checker
