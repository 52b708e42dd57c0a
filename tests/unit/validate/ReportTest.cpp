// Statistics, the comparison of a histogram with the model, and the program output reader. (--compare on the
// hand-written reports of data/ is tested with the command, tests/unit/app/StoredReportTest.cpp.)
#include <catch2/catch.hpp>

#include <cmath>

#include "validate/HardwareRun.hpp"
#include "validate/Report.hpp"
#include "validate/Statistics.hpp"

using namespace ptxmm::validate;

TEST_CASE("rates and reproducibility", "[validate][statistics]") {
  REQUIRE(ratePerSecond(500, 2.0) == Approx(250.0));
  REQUIRE(ratePerSecond(5, 0) == 0);
  REQUIRE(reproducibility(0) == 0);
  REQUIRE(reproducibility(1) == Approx(1 - std::exp(-1.0)));
  REQUIRE(reproducibility(3) == Approx(0.950213).epsilon(1e-5));
  REQUIRE(reproducibility(1000) == 1.0);
}

TEST_CASE("a histogram is compared with the model's states", "[validate][report]") {
  ModelView m;
  m.keys = {"P1:r0", "P1:r1"};
  m.allowed = {{0, 0}, {0, 1}, {1, 1}};
  m.complete = true;
  m.quantifier = ptxmm::frontend::Condition::Quantifier::Exists;
  auto target = [](const Values& v) { return v[0] == 1 && v[1] == 0; };
  const Comparison c = compare(m, {{{0, 0}, 60}, {{1, 1}, 30}, {{1, 0}, 2}, {{0, 0}, 8}}, 2.0, target);
  REQUIRE(c.histogram.size() == 3);  // the two (0,0) entries merge
  REQUIRE(c.histogram[0].values == Values{0, 0});
  REQUIRE(c.histogram[0].count == 68);
  REQUIRE(c.histogram[0].rate == Approx(34.0));
  REQUIRE(c.forbiddenStates == 1);
  REQUIRE(c.forbiddenInstances == 2);
  REQUIRE(c.allowedUnseen == std::vector<Values>{{0, 1}});
  REQUIRE(c.positive == 2);
  REQUIRE(c.negative == 98);
  REQUIRE(c.validated);
  REQUIRE(stateText(m.keys, {1, 0}) == "P1:r0=1; P1:r1=0;");

  m.complete = false;  // an incomplete model list never calls anything forbidden
  REQUIRE(compare(m, {{{1, 0}, 2}}, 1.0, target).forbiddenStates == 0);
}

TEST_CASE("the program's JSON output is read back", "[validate][report]") {
  const std::string out = R"(some driver chatter
{"ok": true, "test": "MP",
 "device": {"name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0", "multiprocessors": 132, "sm_clock_khz": 1980000, "driver_version": 13000, "runtime_version": 13000, "l2_bytes": 52428800},
 "seed": 7, "params": {"warps_per_block": 8},
 "geometry": {"blocks": 1056, "threads_per_block": 256, "cluster_size": 1, "groups": 3696, "instances_per_launch": 118272, "co_resident_blocks": 1056},
 "launches": 10, "instances": 1182720, "seconds": 0.5,
 "capped": 0, "missing": 0, "barrier_timeouts": 3, "lost": 0, "forbidden": 0,
 "histogram": [
  {"values": [0, 0], "count": 1000000},
  {"values": [1, -1], "count": 182720}],
 "forbidden_examples": []}
)";
  const HardwareRun r = parseRunOutput(out, 0);
  REQUIRE(r.ok);
  REQUIRE(r.seed == 7);
  REQUIRE(r.instances == 1182720);
  REQUIRE(r.barrierTimeouts == 3);
  REQUIRE(r.histogram.size() == 2);
  REQUIRE(r.histogram[1].first == std::vector<std::int64_t>{1, -1});
  REQUIRE(r.device["name"] == "NVIDIA H100 80GB HBM3");

  const HardwareRun failed = parseRunOutput(R"({"ok": false, "error": "cudaGetDeviceProperties: no CUDA-capable device is detected"})", 1);
  REQUIRE_FALSE(failed.ok);
  REQUIRE(failed.error.find("no CUDA-capable device") != std::string::npos);
  REQUIRE_FALSE(parseRunOutput("Segmentation fault", 139).ok);
}
