// What the app tests share: test files written into a temporary folder (the app layer is the one that reads
// files, so its tests give it real ones).
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace ptxmm::testing {

/// `name` in this process's own temporary folder: test binaries running at once (ctest -j, the ASan and
/// release builds, other checkouts on the machine) never share, or delete, each other's files.
inline std::filesystem::path tempPath(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("ptxmm-app-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir / name;
}

/// Writes `text` to `name` in the app tests' temporary folder; returns its path.
inline std::string writeTemp(const std::string& name, const std::string& text) {
  const auto path = tempPath(name).string();
  std::ofstream(path) << text;
  return path;
}

/// The whole text of a file.
inline std::string readAll(const std::filesystem::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace ptxmm::testing
