// The shared pieces of the two readers (ReaderSupport.hpp).
#include "frontend/ReaderSupport.hpp"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <utility>

namespace ptxmm::frontend {
namespace {

using model::UserError;

// Deep enough for any real condition, shallow enough that the recursive descent cannot exhaust the stack.
constexpr int kMaxConditionDepth = 500;

}  // namespace

std::string readSourceFile(const std::string& path) {
  std::error_code error;
  std::ifstream in;
  if (std::filesystem::is_regular_file(path, error)) in.open(path, std::ios::binary);
  if (!in.is_open()) throw UserError({path, 0, 0}, "cannot read the file");
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) throw UserError({path, 0, 0}, "cannot read the file");
  return text;
}

std::int64_t integerValue(std::string_view digits, bool negative, const model::SourcePos& digitsAt,
                          const model::SourcePos& at) {
  const std::string written(digits);
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    digits.remove_prefix(2);
    base = 16;
  }
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  std::uint64_t magnitude = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
  if (end != digits.data() + digits.size()) throw UserError(digitsAt, "malformed integer '" + written + "'");
  if (error != std::errc() || magnitude > kMax + (negative ? 1 : 0))
    throw UserError(at, "integer " + std::string(negative ? "-" : "") + written + " does not fit in 64 bits");
  if (!negative) return static_cast<std::int64_t>(magnitude);
  return magnitude > kMax ? std::numeric_limits<std::int64_t>::min() : -static_cast<std::int64_t>(magnitude);
}

CondPtr condNode(CondExpr::Kind kind, model::SourcePos pos, CondPtr a, CondPtr b) {
  auto node = std::make_shared<CondExpr>();
  node->kind = kind;
  node->pos = std::move(pos);
  node->a = std::move(a);
  node->b = std::move(b);
  return node;
}

void checkConditionDepth(int depth, const model::SourcePos& at) {
  if (depth > kMaxConditionDepth)
    throw UserError(at, "proposition nested too deeply (more than " + std::to_string(kMaxConditionDepth) + " levels)");
}

}  // namespace ptxmm::frontend
