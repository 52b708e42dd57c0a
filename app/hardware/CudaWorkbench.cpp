// Tool discovery, builds and runs (CudaWorkbench.hpp).
#include "app/hardware/CudaWorkbench.hpp"

#include <filesystem>
#include <fstream>
#include <regex>

#include "app/ProcessRunner.hpp"
#include "model/TextFile.hpp"

namespace fs = std::filesystem;

namespace ptxmm::app {
namespace {

// Where `make setup` installs cuobjdump and nvdisasm (the nvidia-cuda-cuobjdump/-nvdisasm wheels).
std::string localToolDir() {
  for (const fs::path& root : {fs::current_path(), fs::path(PTXMM_SOURCE_DIR)}) {
    const fs::path dir = root / ".tools/cuobjdump/nvidia/cu13/bin";
    if (isExecutable((dir / "cuobjdump").string())) return dir.string();
  }
  return (fs::path(PTXMM_SOURCE_DIR) / ".tools/cuobjdump/nvidia/cu13/bin").string();
}

void writeFile(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

}  // namespace

std::optional<std::string> findCudaTool(const std::string& name) {
  std::vector<std::string> dirs;
  if (const char* home = std::getenv("CUDA_HOME")) dirs.push_back((fs::path(home) / "bin").string());
  dirs.push_back("/usr/local/cuda/bin");
  for (const auto& d : pathFolders()) dirs.push_back(d);
  dirs.push_back(localToolDir());
  return findProgram(name, dirs);
}

CudaWorkbench::CudaWorkbench() {
  const auto nvcc = findCudaTool("nvcc");
  if (!nvcc) {
    problem_ = "nvcc not found (looked in $CUDA_HOME/bin, /usr/local/cuda/bin and PATH)";
    return;
  }
  const auto cuobjdump = findCudaTool("cuobjdump");
  if (!cuobjdump) {
    problem_ = "cuobjdump not found (looked in $CUDA_HOME/bin, /usr/local/cuda/bin, PATH and " + localToolDir() +
               "); `make setup` installs it from the nvidia-cuda-cuobjdump wheel";
    return;
  }
  nvcc_ = *nvcc;
  cuobjdump_ = *cuobjdump;
  const CommandResult v = runCommand({nvcc_, "--version"}, 60);
  std::smatch m;
  static const std::regex release(R"(release [0-9.]+, V[0-9.]+)");
  nvccVersion_ = std::regex_search(v.output, m, release) ? m.str() : "unknown";
}

validate::BuiltProgram CudaWorkbench::build(const std::string& dir, const std::string& source) {
  validate::BuiltProgram b;
  fs::create_directories(dir);
  const std::string cu = dir + "/test.cu";
  b.binary = dir + "/test";
  b.listingFile = dir + "/test.sass";
  // A binary built from exactly this program is reused (a parallel `--compile-only` pass over the same --out
  // folder can build everything before the runs); its SASS is checked again all the same.
  if (!(fs::exists(b.binary) && model::readTextFile(cu) == source)) {
    fs::remove(b.binary);
    writeFile(cu, source);
    // -rdc=true compiles each role function as a function of its own (its own section in the listing).
    const CommandResult r = runCommand({nvcc_, "-arch=sm_90", "-rdc=true", "-O3", "-std=c++17", "-o", b.binary, cu}, 600);
    if (r.status != 0)
      throw validate::ToolFailure("nvcc failed on the generated program " + cu + ":\n" +
                                  (r.output.empty() ? "nvcc exited with status " + std::to_string(r.status) : r.output));
  }
  // A cuobjdump from the project-local wheel finds its nvdisasm beside it through NVDISASM_PATH.
  std::vector<std::string> env;
  if (!std::getenv("NVDISASM_PATH")) env.push_back("NVDISASM_PATH=" + fs::path(cuobjdump_).parent_path().string());
  const CommandResult r = runCommand({cuobjdump_, "-sass", b.binary}, 300, env);
  if (r.status != 0 || r.output.find("Function") == std::string::npos)
    throw validate::ToolFailure("cuobjdump -sass failed: " + r.output);
  b.listing = r.output;
  writeFile(b.listingFile, b.listing);
  return b;
}

validate::ProgramRun CudaWorkbench::run(const std::string& binary, const std::vector<std::string>& arguments,
                                        double timeoutSeconds) {
  std::vector<std::string> argv{binary};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  const CommandResult c = runCommand(argv, timeoutSeconds);
  return {c.status, c.status == 124, c.output};
}

void CudaWorkbench::keep(const std::string& dir, const std::string& name, const std::string& text) {
  writeFile(dir + "/" + name, text);
}

}  // namespace ptxmm::app
