// Renaming the input's `.file` entry in nvcc's PTX (PtxFileTable.hpp).
#include "app/PtxFileTable.hpp"

#include <filesystem>

namespace ptxmm::app {
namespace {

std::string normal(const std::string& path) {
  std::error_code ignored;
  return std::filesystem::absolute(path, ignored).lexically_normal().string();
}

}  // namespace

std::string nameInputAsGiven(const std::string& ptx, const std::string& input) {
  // A name with a quote or backslash would need PTX string escapes; such an input keeps nvcc's spelling.
  if (input.find_first_of("\"\\\n") != std::string::npos) return ptx;
  const std::string wanted = normal(input);
  std::string out;
  out.reserve(ptx.size());
  std::size_t start = 0;
  while (start < ptx.size()) {
    std::size_t end = ptx.find('\n', start);
    end = end == std::string::npos ? ptx.size() : end + 1;
    std::string line = ptx.substr(start, end - start);
    const std::size_t directive = line.find_first_not_of(" \t");
    if (directive != std::string::npos && line.compare(directive, 5, ".file") == 0) {
      const std::size_t open = line.find('"', directive);
      const std::size_t close = open == std::string::npos ? open : line.find('"', open + 1);
      if (close != std::string::npos && normal(line.substr(open + 1, close - open - 1)) == wanted)
        line.replace(open + 1, close - open - 1, input);
    }
    out += line;
    start = end;
  }
  return out;
}

}  // namespace ptxmm::app
