// Output files and standard output (OutputFiles.hpp).
#include "app/OutputFiles.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "app/commands/Command.hpp"

namespace ptxmm::app {

std::string jsonText(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

namespace {

// Writes `text` into `file`; false (errno set) when any of it did not reach the file.
bool writeWhole(const std::string& file, const std::string& text) {
  std::FILE* f = std::fopen(file.c_str(), "wb");
  if (!f) return false;
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const int writeError = errno;
  if (std::fclose(f) != 0) return false;
  errno = writeError;
  return written;
}

}  // namespace

void writeFileAtomically(const std::string& path, const std::string& text) {
  // A device or a pipe (/dev/stdout, /dev/full) is written in place: a rename would replace it.
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (!writeWhole(path, text)) throw UsageError("cannot write '" + path + "': " + std::strerror(errno));
    return;
  }
  // Unique per process and call, in the target's folder so the rename stays on one file system.
  static std::atomic<unsigned> counter{0};
  const std::string temporary = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  auto fail = [&](const std::string& what) {
    const int error = errno;
    std::remove(temporary.c_str());
    throw UsageError("cannot " + what + " '" + path + "': " + std::strerror(error));
  };
  if (!writeWhole(temporary, text)) fail("write");
  if (std::rename(temporary.c_str(), path.c_str()) != 0) fail("replace");
}

void flushStandardOutput() {
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0) {
    const int error = errno;
    std::cout.clear();
    throw UsageError(std::string("cannot write standard output: ") + std::strerror(error ? error : EIO));
  }
}

}  // namespace ptxmm::app
