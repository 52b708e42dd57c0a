// What the commands' I/O does with hostile inputs and places (issue 16 C5, C6, U1, U5, M1 and --timeout's values):
// names that are not UTF-8, report paths that cannot be written, devices, concurrent writers, bad option values.
#include <catch2/catch.hpp>

#include <thread>
#include <vector>

#include "app/GraphWriter.hpp"
#include "app/MemoryLimit.hpp"
#include "app/OutputFiles.hpp"
#include "app/commands/Command.hpp"
#include "app/commands/CommonOptions.hpp"
#include "unit/app/AppTestSupport.hpp"

using namespace ptxmm;
using namespace ptxmm::app;

TEST_CASE("JSON text replaces bytes that are not UTF-8 instead of throwing (C5)", "[app][output]") {
  const nlohmann::json j = {{"name", std::string("bad\xff\xfe name")}};
  const std::string text = jsonText(j);
  CHECK(text == "{\"name\":\"bad\xEF\xBF\xBD\xEF\xBF\xBD name\"}");
  CHECK(nlohmann::json::parse(text)["name"].get<std::string>().size() == 14);
}

TEST_CASE("a report is written whole or not at all, with a message when it cannot be (U1, U5)", "[app][output]") {
  const std::string path = testing::writeTemp("report.json", "old");
  writeFileAtomically(path, "new\n");
  CHECK(testing::readAll(path) == "new\n");
  CHECK_THROWS_WITH(writeFileAtomically("/nonexistent-ptxmm-folder/report.json", "x"),
                    Catch::Contains("cannot write '/nonexistent-ptxmm-folder/report.json'"));
  CHECK_THROWS_WITH(writeFileAtomically("/dev/full", "x"), Catch::Contains("cannot write '/dev/full'"));
  // Writers racing on one report: every read sees one writer's whole text.
  std::vector<std::thread> writers;
  for (int w = 0; w < 4; ++w)
    writers.emplace_back([&, w] {
      for (int k = 0; k < 50; ++k) writeFileAtomically(path, std::string(10000, static_cast<char>('a' + w)));
    });
  for (int k = 0; k < 200; ++k) {
    const std::string seen = testing::readAll(path);
    CHECK((seen == "new\n" || (seen.size() == 10000 && seen.find_first_not_of(seen[0]) == std::string::npos)));
  }
  for (auto& t : writers) t.join();
}

TEST_CASE("--graph into a path that cannot be a folder is a usage error (C6)", "[app][output]") {
  const std::string file = testing::writeTemp("not-a-folder", "x");
  CHECK_THROWS_AS(requireGraphFolder(file), UsageError);
  CHECK_THROWS_AS(requireGraphFolder(file + "/below"), UsageError);
  const std::string folder = file + "-graphs/deep";
  CHECK_NOTHROW(requireGraphFolder(folder));
  CHECK(std::filesystem::is_directory(folder));
}

TEST_CASE("--timeout accepts finite seconds only", "[app][options]") {
  const CLI::Validator seconds = secondsValidator();
  for (std::string ok : {"0", "5", "0.25", "1e3", "31536000"}) CHECK(seconds(ok).empty());
  for (std::string bad : {"nan", "NaN", "inf", "-inf", "-1", "abc", "", "1e400", "31536001"}) {
    INFO(bad);
    CHECK_FALSE(seconds(bad).empty());
  }
}

TEST_CASE("--max-memory values", "[app][options]") {
  CHECK(parseMemoryLimit("0") == 0);
  CHECK(parseMemoryLimit("512") == 512ull << 20);
  CHECK(parseMemoryLimit("512M") == 512ull << 20);
  CHECK(parseMemoryLimit("24G") == 24ull << 30);
  for (std::string bad : {"", "G", "-1", "1.5G", "12K", "1T", "9999999999G"}) {
    INFO(bad);
    CHECK_THROWS_AS(parseMemoryLimit(bad), UsageError);
  }
  CHECK(defaultMemoryLimit() > 0);
}
