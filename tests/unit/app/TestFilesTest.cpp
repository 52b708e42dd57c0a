// What a directory on the command line of `run` and `races` stands for (issue 14 scope 3): every `.litmus` and
// `.test` file under it, recursively and in path order; a directory without any is a user error naming it.
#include <catch2/catch.hpp>

#include <filesystem>

#include "app/TestFiles.hpp"
#include "unit/app/AppTestSupport.hpp"

using namespace ptxmm;
using namespace ptxmm::app;

TEST_CASE("a directory names the test files under it, recursively and sorted", "[app][files]") {
  const auto dir = std::filesystem::path(testing::writeTemp("unused", "")).parent_path() / "dir-runs";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "sub");
  std::filesystem::create_directories(dir / "empty");
  testing::writeTemp("dir-runs/z.litmus", "");
  testing::writeTemp("dir-runs/a.litmus", "");
  testing::writeTemp("dir-runs/sub/m.test", "");
  testing::writeTemp("dir-runs/notes.txt", "");
  CHECK(testFilesNamed(dir.string()) ==
        std::vector<std::string>{(dir / "a.litmus").string(), (dir / "sub/m.test").string(), (dir / "z.litmus").string()});
  CHECK(testFilesNamed((dir / "notes.txt").string()) == std::vector<std::string>{(dir / "notes.txt").string()});
  CHECK_THROWS_WITH(testFilesNamed((dir / "empty").string()), Catch::Contains("empty:0:0: error: the directory holds no test file"));

  ExitCode code = ExitCode::Ok;
  CHECK(testFilesNamed({(dir / "empty").string(), (dir / "a.litmus").string()}, code) ==
        std::vector<std::string>{(dir / "a.litmus").string()});
  CHECK(code == ExitCode::UserError);
}
