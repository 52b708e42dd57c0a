// Parameter files and output folders (HardwareOptions.hpp).
#include "app/hardware/HardwareOptions.hpp"

#include <filesystem>

#include "model/Diagnostic.hpp"
#include "model/TextFile.hpp"

namespace ptxmm::app {

validate::ParamSpace readParamSpace(const std::string& path) {
  const auto text = model::readTextFile(path);
  if (!text) throw model::UserError({path, 0, 0}, "cannot read the parameter file");
  return validate::parseParamSpace(*text, path);
}

validate::ParamSpace paramSpace(const HardwareOptions& options) {
  return options.paramsFile.empty() ? validate::defaultParamSpace() : readParamSpace(options.paramsFile);
}

std::string outputFolder(const HardwareOptions& options) {
  return options.outDir.empty() ? (std::filesystem::temp_directory_path() / "ptxmm-validate").string() : options.outDir;
}

}  // namespace ptxmm::app
