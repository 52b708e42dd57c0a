// Running a validation program and reading its output (HardwareRun.hpp).
#include "validate/HardwareRun.hpp"

namespace ptxmm::validate {

HardwareRun parseRunOutput(const std::string& output, int status) {
  HardwareRun r;
  // The program prints one JSON document last; anything before it (driver warnings) is not ours.
  const auto start = output.rfind("{\"ok\"");
  nlohmann::json j;
  if (start == std::string::npos) {
    r.error = "the program printed no result (exit status " + std::to_string(status) + "): " + output.substr(0, 2000);
    return r;
  }
  try {
    j = nlohmann::json::parse(output.substr(start));
  } catch (const nlohmann::json::exception& e) {
    r.error = std::string("the program's result is not JSON: ") + e.what();
    return r;
  }
  if (!j.value("ok", false)) {
    r.error = j.value("error", std::string("the program failed"));
    return r;
  }
  try {
    r.device = j.at("device");
    r.params = j.at("params");
    r.geometry = j.at("geometry");
    r.seed = j.at("seed").get<std::uint64_t>();
    r.launches = j.at("launches").get<std::uint64_t>();
    r.instances = j.at("instances").get<std::uint64_t>();
    r.seconds = j.at("seconds").get<double>();
    r.capped = j.at("capped").get<std::uint64_t>();
    r.missing = j.at("missing").get<std::uint64_t>();
    r.barrierTimeouts = j.at("barrier_timeouts").get<std::uint64_t>();
    r.lost = j.at("lost").get<std::uint64_t>();
    r.gpuForbidden = j.at("forbidden").get<std::uint64_t>();
    for (const auto& h : j.at("histogram"))
      r.histogram.emplace_back(h.at("values").get<std::vector<std::int64_t>>(), h.at("count").get<std::uint64_t>());
    r.forbiddenExamples = j.at("forbidden_examples");
  } catch (const nlohmann::json::exception& e) {
    r.error = std::string("the program's result lacks a field: ") + e.what();
    return r;
  }
  r.ok = status == 0;
  if (!r.ok) r.error = "the program exited with status " + std::to_string(status);
  return r;
}

HardwareRun runProgram(Workbench& bench, const std::string& binary, double budget, std::uint64_t seed,
                       const ParamSet& params, std::uint64_t maxLaunches) {
  std::vector<std::string> args = {"--budget", std::to_string(budget), "--seed", std::to_string(seed)};
  if (maxLaunches) args.insert(args.end(), {"--max-launches", std::to_string(maxLaunches)});
  for (const auto& [name, value] : params) args.insert(args.end(), {"--param", name + "=" + std::to_string(value)});
  // The program stops itself at the budget; the limit only catches a hang (a harness bug), with room for set-up.
  const ProgramRun c = bench.run(binary, args, budget + 120);
  if (c.timedOut) {
    HardwareRun r;
    r.error = "the program did not finish within " + std::to_string(static_cast<int>(budget + 120)) + " s and was killed";
    return r;
  }
  return parseRunOutput(c.output, c.status);
}

}  // namespace ptxmm::validate
