// Expectation files, nvlitmus directories and exceptions files (ExpectationFiles.hpp).
#include "app/ExpectationFiles.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/TestFiles.hpp"
#include "frontend/nvlitmus/NvLitmusParser.hpp"

namespace ptxmm::app {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(trim(cur));
  if (!s.empty() && s.back() == sep) out.emplace_back();
  return out;
}

}  // namespace

std::vector<checker::Expectation> readExpectations(const std::string& file) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec))  // it would open, read as empty and run nothing (issue 16 U1)
    throw model::UserError({file, 0, 0}, "the expectations file is a directory");
  std::ifstream in(file);
  if (!in) throw model::UserError({file, 0, 0}, "cannot read expectations file");
  std::vector<checker::Expectation> out;
  std::string line;
  for (int lineNo = 1; std::getline(in, line); ++lineNo) {
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    const auto fields = split(t, ',');
    const model::SourcePos pos{file, lineNo, 1};
    if (fields.size() < 2 || fields.size() > 5 || fields[0].empty())
      throw model::UserError(pos, "expected 'path,1|0' or 'path,1|0,state;state;...[,race|race-free][,hang|terminates]'");
    if (fields[1] != "0" && fields[1] != "1")
      throw model::UserError({file, lineNo, static_cast<int>(line.find(',')) + 2}, "expected 1 or 0 after the path");
    checker::Expectation e;
    e.path = fields[0];
    e.holds = fields[1] == "1";
    e.pos = pos;
    if (fields.size() >= 3 && !(fields.size() >= 4 && fields[2].empty())) {
      e.states.emplace();
      if (!fields[2].empty())
        for (const auto& s : split(fields[2], ';')) e.states->push_back(s);
    }
    for (std::size_t f = 3; f < fields.size(); ++f) {
      const std::string& word = fields[f];
      if (word == "race" || word == "race-free") e.racy = word == "race";
      else if (word == "hang" || word == "terminates") e.terminates = word == "terminates";
      else if (!(word.empty() && f == 3 && fields.size() == 5))
        throw model::UserError({file, lineNo, static_cast<int>(line.rfind(',')) + 2},
                               "expected 'race', 'race-free', 'hang' or 'terminates'");
    }
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<checker::Expectation> readNvLitmusExpectations(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  const bool single = fs::is_regular_file(path, error);
  std::vector<fs::path> files;
  if (single) {
    files.emplace_back(path);
  } else if (fs::is_directory(path, error)) {
    files = filesUnder(path, {".test"});
  }
  if (files.empty()) throw model::UserError({path, 0, 0}, "no nvlitmus .test file here");
  const fs::path root = single ? fs::path(path).parent_path() : fs::path(path);
  std::vector<checker::Expectation> out;
  for (const auto& file : files) {
    const std::string relative = single ? file.filename().string() : file.lexically_relative(root).string();
    try {
      for (auto& test : frontend::parseNvLitmusFile(file.string())) {
        checker::Expectation e;
        e.path = relative + (test.row ? "#" + std::to_string(test.row) : "");
        e.holds = test.expectHolds;
        e.pos = test.program.condition.pos;
        e.program = std::make_shared<const frontend::Program>(std::move(test.program));
        out.push_back(std::move(e));
      }
    } catch (const model::UserError&) {
      // Without a program the suite reads the file itself, and reports the same diagnostic as its failure.
      checker::Expectation e;
      e.path = relative;
      e.holds = true;
      e.pos = {file.string(), 0, 0};
      out.push_back(std::move(e));
    }
  }
  return out;
}

std::vector<checker::KnownDifference> readKnownDifferences(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw model::UserError({file, 0, 0}, "cannot read exceptions file");
  std::vector<checker::KnownDifference> out;
  std::string line;
  for (int lineNo = 1; std::getline(in, line); ++lineNo) {
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    const auto space = t.find_first_of(" \t");
    if (space == std::string::npos)
      throw model::UserError({file, lineNo, 1}, "expected 'path reason' (the reason is mandatory)");
    out.push_back({t.substr(0, space), trim(t.substr(space))});
  }
  return out;
}

}  // namespace ptxmm::app
