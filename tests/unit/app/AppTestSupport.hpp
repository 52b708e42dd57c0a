// What the app tests share: test files written into a temporary folder (the app layer is the one that reads
// files, so its tests give it real ones).
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

namespace ptxmm::testing {

/// Writes `text` to `name` in the app tests' temporary folder; returns its path.
inline std::string writeTemp(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / "ptxmm-app-test";
  std::filesystem::create_directories(dir);
  const auto path = (dir / name).string();
  std::ofstream(path) << text;
  return path;
}

/// The whole text of a file.
inline std::string readAll(const std::filesystem::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace ptxmm::testing
