// Reading a whole file into memory: one definition for every reader of user files (cat models, parameter files,
// stored reports, generated programs).
#pragma once

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace ptxmm::model {

/// The bytes of the regular file at `path`, or nullopt when it is missing or unreadable.
inline std::optional<std::string> readTextFile(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace ptxmm::model
