// Subprocesses and tool discovery (Toolchain.hpp).
#include "validate/Toolchain.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace ptxmm::validate {

namespace {

bool executable(const fs::path& p) { return ::access(p.c_str(), X_OK) == 0 && fs::is_regular_file(p); }

}  // namespace

CommandResult runCommand(const std::vector<std::string>& argv, double timeoutSeconds) {
  CommandResult r;
  if (argv.empty()) return r;
  // Everything the child needs is prepared before fork: between fork and exec only async-signal-safe calls.
  // A cuobjdump from the project-local wheel finds its nvdisasm beside it through NVDISASM_PATH.
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) env.emplace_back(*e);
  const std::string dir = fs::path(argv[0]).parent_path().string();
  if (!dir.empty() && !std::getenv("NVDISASM_PATH")) env.push_back("NVDISASM_PATH=" + dir);
  std::vector<char*> args, envp;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  int fds[2];
  if (::pipe(fds) != 0) return r;
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return r;
  }
  if (pid == 0) {
    ::setpgid(0, 0);  // its own process group, so a timeout ends the tool and everything it started
    ::dup2(fds[1], STDOUT_FILENO);
    ::dup2(fds[1], STDERR_FILENO);
    ::close(fds[0]);
    ::close(fds[1]);
    ::execve(args[0], args.data(), envp.data());
    static const char message[] = "cannot execute the program\n";
    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, message, sizeof message - 1);
    ::_exit(127);
  }
  ::setpgid(pid, pid);
  ::close(fds[1]);
  const auto start = std::chrono::steady_clock::now();
  bool killed = false;
  char buffer[65536];
  for (;;) {
    pollfd p{fds[0], POLLIN, 0};
    const int ready = ::poll(&p, 1, 200);
    if (ready > 0) {
      const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
      if (n <= 0) break;
      r.output.append(buffer, static_cast<std::size_t>(n));
    }
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (timeoutSeconds > 0 && elapsed > timeoutSeconds && !killed) {
      ::kill(-pid, SIGKILL);
      killed = true;
    }
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  r.status = killed ? 124 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

std::string localToolDir() {
  for (const fs::path& root : {fs::current_path(), fs::path(PTXMM_SOURCE_DIR)}) {
    const fs::path dir = root / ".tools/cuobjdump/nvidia/cu13/bin";
    if (executable(dir / "cuobjdump")) return dir.string();
  }
  return (fs::path(PTXMM_SOURCE_DIR) / ".tools/cuobjdump/nvidia/cu13/bin").string();
}

std::optional<std::string> findTool(const std::string& name) {
  std::vector<fs::path> dirs;
  if (const char* home = std::getenv("CUDA_HOME")) dirs.push_back(fs::path(home) / "bin");
  dirs.push_back("/usr/local/cuda/bin");
  if (const char* path = std::getenv("PATH")) {
    std::istringstream in(path);
    std::string d;
    while (std::getline(in, d, ':'))
      if (!d.empty()) dirs.push_back(d);
  }
  dirs.push_back(localToolDir());
  for (const auto& d : dirs)
    if (executable(d / name)) return (d / name).string();
  return std::nullopt;
}

std::optional<Toolchain> findToolchain(std::string& problem) {
  Toolchain tc;
  const auto nvcc = findTool("nvcc");
  if (!nvcc) {
    problem = "nvcc not found (looked in $CUDA_HOME/bin, /usr/local/cuda/bin and PATH)";
    return std::nullopt;
  }
  const auto cuobjdump = findTool("cuobjdump");
  if (!cuobjdump) {
    problem = "cuobjdump not found (looked in $CUDA_HOME/bin, /usr/local/cuda/bin, PATH and " + localToolDir() +
              "); `make setup` installs it from the nvidia-cuda-cuobjdump wheel";
    return std::nullopt;
  }
  tc.nvcc = *nvcc;
  tc.cuobjdump = *cuobjdump;
  const CommandResult v = runCommand({tc.nvcc, "--version"}, 60);
  std::smatch m;
  static const std::regex release(R"(release [0-9.]+, V[0-9.]+)");
  tc.nvccVersion = std::regex_search(v.output, m, release) ? m.str() : "unknown";
  return tc;
}

std::optional<std::string> compileCuda(const Toolchain& tc, const std::string& cu, const std::string& binary) {
  // -rdc=true compiles each role function as a function of its own (its own section in the listing).
  const CommandResult r = runCommand({tc.nvcc, "-arch=sm_90", "-rdc=true", "-O3", "-std=c++17", "-o", binary, cu}, 600);
  if (r.status != 0) return r.output.empty() ? "nvcc exited with status " + std::to_string(r.status) : r.output;
  return std::nullopt;
}

std::optional<std::string> disassemble(const Toolchain& tc, const std::string& binary, std::string& problem) {
  const CommandResult r = runCommand({tc.cuobjdump, "-sass", binary}, 300);
  if (r.status != 0 || r.output.find("Function") == std::string::npos) {
    problem = "cuobjdump -sass failed: " + r.output;
    return std::nullopt;
  }
  return r.output;
}

std::string fnv1a(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ull;
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

}  // namespace ptxmm::validate
