// DOT files and their SVG renderings (GraphWriter.hpp).
#include "app/GraphWriter.hpp"

#include <filesystem>
#include <fstream>

#include "app/ProcessRunner.hpp"

namespace ptxmm::app {

void writeDrawings(checker::TestResult& result, const std::string& dir) {
  if (result.drawings.empty()) return;
  std::filesystem::create_directories(dir);
  const auto dot = findProgram("dot", pathFolders());
  for (const auto& d : result.drawings) {
    const std::string dotFile = dir + "/" + d.file + ".dot", svgFile = dir + "/" + d.file + ".svg";
    std::ofstream(dotFile) << d.dot;
    const bool rendered = dot && runCommand({*dot, "-Tsvg", dotFile, "-o", svgFile}).status == 0;
    result.notes.push_back("graph: " + (rendered ? svgFile : dotFile));
  }
}

}  // namespace ptxmm::app
