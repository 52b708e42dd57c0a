// Finding the cases' described broken siblings (SiblingFiles.hpp).
#include "app/hardware/SiblingFiles.hpp"

#include <algorithm>
#include <filesystem>

#include "frontend/litmus/LitmusParser.hpp"
#include "model/TextFile.hpp"
#include "validate/Sibling.hpp"

namespace fs = std::filesystem;

namespace ptxmm::app {

std::vector<validate::GivenSibling> SiblingFiles::find(const std::string& file, const std::string& name) {
  const fs::path folder = fs::path(file).parent_path().empty() ? fs::path(".") : fs::path(file).parent_path();
  auto [it, fresh] = folders_.try_emplace(folder.string());
  if (fresh) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder, ec))
      if (entry.path().extension() == ".litmus")
        it->second.emplace_back(entry.path().string(), model::readTextFile(entry.path()).value_or(""));
    std::sort(it->second.begin(), it->second.end());
  }
  std::vector<validate::GivenSibling> out;
  std::error_code ec;
  for (const auto& [path, text] : it->second) {
    if (fs::equivalent(path, file, ec) || !validate::namesSiblingOf(text, name)) continue;
    validate::GivenSibling s{path, std::nullopt, {}};
    try {
      s.program = frontend::parseLitmus(text, path);
    } catch (const model::UserError& e) {
      s.problem = e.what();
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace ptxmm::app
