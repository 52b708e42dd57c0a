// DOT files and their SVG renderings (GraphWriter.hpp).
#include "app/GraphWriter.hpp"

#include <filesystem>
#include <fstream>

#include "app/ProcessRunner.hpp"
#include "app/commands/Command.hpp"

namespace ptxmm::app {

void requireGraphFolder(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir))
    throw UsageError("--graph '" + dir + "': cannot create the folder" + (ec ? ": " + ec.message() : std::string()));
}

void writeDrawings(checker::TestResult& result, const std::string& dir) {
  if (result.drawings.empty()) return;
  // The folder was checked when the options were read (requireGraphFolder); it may have gone since: say so per file
  // rather than fail the check.
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const auto dot = findProgram("dot", pathFolders());
  for (const auto& d : result.drawings) {
    const std::string dotFile = dir + "/" + d.file + ".dot", svgFile = dir + "/" + d.file + ".svg";
    std::ofstream out(dotFile);
    out << d.dot;
    out.close();
    if (!out) {
      result.notes.push_back("graph: cannot write " + dotFile);
      continue;
    }
    const bool rendered = dot && runCommand({*dot, "-Tsvg", dotFile, "-o", svgFile}).status == 0;
    result.notes.push_back("graph: " + (rendered ? svgFile : dotFile));
  }
}

}  // namespace ptxmm::app
