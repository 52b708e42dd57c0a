// `ptxmm validate --compare`: a stored hardware report re-checked against the current model, without a GPU.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "app/hardware/StoredReport.hpp"
#include "unit/app/AppTestSupport.hpp"

using namespace ptxmm;

TEST_CASE("--compare flags a stored forbidden observation", "[app][report]") {
  app::HardwareOptions o;
  o.modelFile = std::string(PTXMM_SOURCE_DIR) + "/model/cat/ptx.cat";
  const std::string data = std::string(PTXMM_SOURCE_DIR) + "/tests/unit/validate/data/";
  REQUIRE(app::compareReport(data + "MP+rel+acq-forbidden.json", o) == app::ExitCode::ExpectationFailed);
  REQUIRE(app::compareReport(data + "MP+rel+acq-consistent.json", o) == app::ExitCode::Ok);
}

TEST_CASE("--compare skips tests of a corpus outside the repository when it is absent, not a missing case",
          "[app][report]") {
  app::HardwareOptions o;
  o.modelFile = std::string(PTXMM_SOURCE_DIR) + "/model/cat/ptx.cat";
  const std::string histogram = R"("histogram": [{"values": {"P1:r0": 0}, "count": 1, "allowed": true}])";
  const auto write = [](const std::string& name, const std::string& text) {
    const std::string path = testing::tempPath(name).string();
    std::ofstream(path) << text;
    return path;
  };
  const std::string peer = write("ptxmm-compare-peer.json", R"({"tests": [{"name": "t", "file": "../no-such-corpus/t.litmus", )" + histogram + "}]}");
  CHECK(app::compareReport(peer, o) == app::ExitCode::Ok);
  const std::string missing = write("ptxmm-compare-missing.json", R"({"tests": [{"name": "t", "file": "cases/no-such-case.litmus", )" + histogram + "}]}");
  CHECK(app::compareReport(missing, o) == app::ExitCode::UserError);
}
