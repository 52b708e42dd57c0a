// fork/execve with a pipe, a poll loop and a process group per child (ProcessRunner.hpp).
#include "app/ProcessRunner.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace fs = std::filesystem;

namespace ptxmm::app {

CommandResult runCommand(const std::vector<std::string>& argv, double timeoutSeconds,
                         const std::vector<std::string>& extraEnvironment) {
  CommandResult r;
  if (argv.empty()) return r;
  // Everything the child needs is prepared before fork: between fork and exec only async-signal-safe calls.
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) env.emplace_back(*e);
  env.insert(env.end(), extraEnvironment.begin(), extraEnvironment.end());
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

bool isExecutable(const std::string& path) {
  std::error_code error;
  return ::access(path.c_str(), X_OK) == 0 && fs::is_regular_file(path, error);
}

std::vector<std::string> pathFolders() {
  std::vector<std::string> out;
  if (const char* path = std::getenv("PATH")) {
    std::istringstream in(path);
    std::string d;
    while (std::getline(in, d, ':'))
      if (!d.empty()) out.push_back(d);
  }
  return out;
}

std::optional<std::string> findProgram(const std::string& name, const std::vector<std::string>& folders) {
  for (const auto& d : folders)
    if (isExecutable((fs::path(d) / name).string())) return (fs::path(d) / name).string();
  return std::nullopt;
}

}  // namespace ptxmm::app
