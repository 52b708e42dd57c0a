// The process memory bound (MemoryLimit.hpp).
#include "app/MemoryLimit.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <cctype>

#include "app/commands/Command.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define PTXMM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PTXMM_ASAN 1
#endif
#endif

namespace ptxmm::app {

std::uint64_t defaultMemoryLimit() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), size = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || size <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(size) / 4 * 3;
}

std::uint64_t parseMemoryLimit(const std::string& text) {
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  const std::string unit = text.substr(digits);
  if (digits == 0 || digits > 9 || !(unit.empty() || unit == "M" || unit == "G"))
    throw UsageError("--max-memory expects N, NM (MiB) or NG (GiB), at most 9 digits, got '" + text + "'");
  const std::uint64_t n = std::stoull(text.substr(0, digits));
  return n << (unit == "G" ? 30 : 20);
}

void applyMemoryLimit(std::uint64_t bytes) {
#ifndef PTXMM_ASAN
  rlimit limit{};
  if (bytes == 0 || ::getrlimit(RLIMIT_AS, &limit) != 0) return;
  if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur <= bytes) return;
  limit.rlim_cur = bytes;
  ::setrlimit(RLIMIT_AS, &limit);
#else
  (void)bytes;
#endif
}

}  // namespace ptxmm::app
