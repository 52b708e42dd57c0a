// Parsing of the launch options (LaunchArgs.hpp).
#include "frontend/ptx/LaunchArgs.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace ptxmm::frontend {
namespace {

struct ElemRow {
  std::string_view name;
  ElemType type;
  int bytes;
  bool isFloat;
  bool isSigned;
};

constexpr std::array kElemTypes = {
    ElemRow{"int8", ElemType::S8, 1, false, true},      ElemRow{"int16", ElemType::S16, 2, false, true},
    ElemRow{"int32", ElemType::S32, 4, false, true},    ElemRow{"int64", ElemType::S64, 8, false, true},
    ElemRow{"uint8", ElemType::U8, 1, false, false},    ElemRow{"uint16", ElemType::U16, 2, false, false},
    ElemRow{"uint32", ElemType::U32, 4, false, false},  ElemRow{"uint64", ElemType::U64, 8, false, false},
    ElemRow{"float32", ElemType::F32, 4, true, true},   ElemRow{"float64", ElemType::F64, 8, true, true},
};

const ElemRow& row(ElemType type) {
  for (const auto& r : kElemTypes)
    if (r.type == type) return r;
  return kElemTypes[2];
}

std::string typeList() {
  std::string out;
  for (std::size_t i = 0; i < kElemTypes.size(); ++i) out += (i ? ", " : "") + std::string(kElemTypes[i].name);
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (std::size_t start = 0;;) {
    const std::size_t end = s.find(sep, start);
    out.push_back(trim(s.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start)));
    if (end == std::string_view::npos) return out;
    start = end + 1;
  }
}

// A decimal or 0x integer with an optional sign, as a signed 128-bit-safe pair (negative, magnitude).
std::optional<std::pair<bool, std::uint64_t>> parseInteger(std::string_view s) {
  const bool negative = !s.empty() && s.front() == '-';
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) s.remove_prefix(1);
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  std::uint64_t magnitude = 0;
  auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), magnitude, base);
  if (s.empty() || error != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return std::pair{negative, magnitude};
}

[[noreturn]] void fail(std::string_view option, std::string_view text, const std::string& message) {
  throw OptionError(std::string(option) + " " + std::string(text) + ": " + message);
}

// `AxBxC`: positive integers, innermost first.
std::optional<std::vector<std::int64_t>> parseExtents(std::string_view s) {
  std::vector<std::int64_t> out;
  for (std::string_view part : split(s, 'x')) {
    const auto n = parseInteger(part);
    if (!n || n->first || n->second == 0 || n->second > (std::uint64_t{1} << 40)) return std::nullopt;
    out.push_back(static_cast<std::int64_t>(n->second));
  }
  return out;
}

// tensormap(BUFFER,DIMS,box=BOX[,strides=S][,swizzle=N]), the text inside the parentheses. The limits are the
// ones cuTensorMapEncodeTiled checks, so a map ptxmm accepts is one the driver encodes.
TensorMapSpec parseTensorMap(std::string_view text, std::string_view inner) {
  constexpr std::string_view kOption = "--arg";
  const auto parts = split(inner, ',');
  if (parts.size() < 3) fail(kOption, text, "expected tensormap(BUFFER|TYPE,DIMS,box=BOX[,strides=S1x..][,swizzle=32|64|128])");
  TensorMapSpec m;
  m.type = findElemType(parts[0]);
  if (!m.type) m.buffer = std::string(parts[0]);
  if (parts[0].empty()) fail(kOption, text, "the tensor map needs the pointer parameter whose buffer it views, or an element type");
  auto extents = [&](std::string_view s, std::string_view what) {
    auto e = parseExtents(s);
    if (!e || e->empty() || e->size() > 5) fail(kOption, text, std::string(what) + " must be 1 to 5 positive integers joined by 'x' (innermost first)");
    return *e;
  };
  m.dims = extents(parts[1], "the dimensions");
  bool haveBox = false;
  for (std::size_t i = 2; i < parts.size(); ++i) {
    const std::size_t eq = parts[i].find('=');
    const std::string_view key = parts[i].substr(0, eq), value = eq == std::string_view::npos ? "" : parts[i].substr(eq + 1);
    if (key == "box") {
      m.box = extents(value, "box=");
      haveBox = true;
    } else if (key == "strides") {
      m.strides = extents(value, "strides=");
    } else if (key == "swizzle") {
      const auto n = parseInteger(value);
      if (!n || n->first || (n->second != 32 && n->second != 64 && n->second != 128))
        fail(kOption, text, "swizzle= must be 32, 64 or 128 (bytes)");
      m.swizzle = static_cast<int>(n->second);
    } else {
      fail(kOption, text, "unknown tensor-map field '" + std::string(parts[i]) + "' (box=, strides=, swizzle=)");
    }
  }
  if (!haveBox) fail(kOption, text, "the tensor map needs box=B0x.. (the tile a copy moves)");
  if (m.box.size() != m.dims.size()) fail(kOption, text, "box= needs one extent per dimension");
  if (!m.strides.empty() && m.strides.size() + 1 != m.dims.size())
    fail(kOption, text, "strides= gives the byte strides of dimensions 1.. (" + std::to_string(m.dims.size() - 1) + " values)");
  for (std::size_t k = 0; k < m.dims.size(); ++k) {
    if (m.box[k] > 256) fail(kOption, text, "a box extent is at most 256 elements");
    if (m.box[k] > m.dims[k]) fail(kOption, text, "the box is larger than the tensor in dimension " + std::to_string(k));
  }
  for (std::int64_t s : m.strides)
    if (s % 16) fail(kOption, text, "strides= must be multiples of 16 bytes");
  return m;
}

}  // namespace

Dim3 parseDim3(std::string_view text, std::string_view option) {
  const auto parts = split(text, ',');
  if (parts.size() > 3) fail(option, text, "at most three dimensions (X,Y,Z)");
  int v[3] = {1, 1, 1};
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto n = parseInteger(parts[i]);
    if (!n || n->first || n->second == 0 || n->second > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
      fail(option, text, "each dimension must be a positive integer");
    v[i] = static_cast<int>(n->second);
  }
  return {v[0], v[1], v[2]};
}

ArgSpec parseArgSpec(std::string_view text) {
  constexpr std::string_view kOption = "--arg";
  const std::size_t eq = text.find('=');
  ArgSpec spec;
  spec.name = std::string(trim(text.substr(0, eq)));
  if (eq == std::string_view::npos || spec.name.empty())
    fail(kOption, text, "expected NAME=VALUE, NAME=TYPE[N][=v0,v1,...] or NAME=tensormap(...)");
  const std::string_view rest = trim(text.substr(eq + 1));
  if (rest.rfind("tensormap(", 0) == 0) {
    const std::size_t close = rest.find(')');
    if (close == std::string_view::npos) fail(kOption, text, "missing ')' after the tensor map");
    spec.tensorMap = parseTensorMap(text, rest.substr(10, close - 10));
    const std::string_view after = trim(rest.substr(close + 1));
    if (after.empty()) return spec;
    if (after.front() != '=' || !spec.tensorMap->type)
      fail(kOption, text, "initial values follow only a tensor map with a buffer of its own: tensormap(TYPE,DIMS,box=BOX)=v0,v1,...");
    for (std::string_view v : split(after.substr(1), ',')) {
      if (!elemValueBits(*spec.tensorMap->type, v))
        fail(kOption, text, "'" + std::string(v) + "' is not a " + std::string(elemTypeName(*spec.tensorMap->type)) + " value");
      spec.values.emplace_back(v);
    }
    return spec;
  }
  // A buffer starts with a type name: TYPE, TYPE[N], either followed by =values.
  std::size_t typeEnd = 0;
  while (typeEnd < rest.size() && std::isalnum(static_cast<unsigned char>(rest[typeEnd]))) ++typeEnd;
  const auto type = findElemType(rest.substr(0, typeEnd));
  if (!type) {
    if (rest.empty()) fail(kOption, text, "the value of '" + spec.name + "' is missing");
    if (typeEnd > 0 && std::isalpha(static_cast<unsigned char>(rest[0])) &&
        (typeEnd == rest.size() || rest[typeEnd] == '[' || rest[typeEnd] == '='))
      fail(kOption, text, "unknown element type '" + std::string(rest.substr(0, typeEnd)) + "' (" + typeList() + ")");
    spec.scalar = std::string(rest);
    if (!parseInteger(rest) && !elemValueBits(ElemType::F64, rest))
      fail(kOption, text, "'" + std::string(rest) + "' is not a number");
    return spec;
  }
  spec.type = type;
  std::string_view after = rest.substr(typeEnd);
  if (!after.empty() && after.front() == '[') {
    const std::size_t close = after.find(']');
    if (close == std::string_view::npos) fail(kOption, text, "missing ']' after the length");
    const auto n = parseInteger(trim(after.substr(1, close - 1)));
    if (!n || n->first || n->second == 0 || n->second > (std::uint64_t{1} << 32))
      fail(kOption, text, "the length must be a positive integer (at most 2^32)");
    spec.length = static_cast<std::int64_t>(n->second);
    after = after.substr(close + 1);
  }
  if (!after.empty()) {
    if (after.front() != '=') fail(kOption, text, "expected '=' before the initial values");
    for (std::string_view v : split(after.substr(1), ',')) {
      if (!elemValueBits(*type, v))
        fail(kOption, text, "'" + std::string(v) + "' is not a " + std::string(elemTypeName(*type)) + " value");
      spec.values.emplace_back(v);
    }
  }
  if (!spec.length) spec.length = spec.values.empty() ? std::nullopt : std::optional<std::int64_t>(spec.values.size());
  if (spec.length && static_cast<std::int64_t>(spec.values.size()) > *spec.length)
    fail(kOption, text, std::to_string(spec.values.size()) + " values for " + std::to_string(*spec.length) + " elements");
  return spec;
}

std::optional<ElemType> findElemType(std::string_view name) {
  for (const auto& r : kElemTypes)
    if (r.name == name) return r.type;
  return std::nullopt;
}

std::string_view elemTypeName(ElemType type) { return row(type).name; }
int elemBytes(ElemType type) { return row(type).bytes; }
bool elemIsFloat(ElemType type) { return row(type).isFloat; }
bool elemIsSigned(ElemType type) { return row(type).isSigned; }

std::optional<std::uint64_t> elemValueBits(ElemType type, std::string_view text) {
  text = trim(text);
  const ElemRow& r = row(type);
  if (r.isFloat) {
    const std::string s(text);
    char* end = nullptr;
    const double value = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size()) return std::nullopt;
    std::uint64_t bits = 0;
    if (r.bytes == 8) {
      std::memcpy(&bits, &value, sizeof value);
    } else {
      const float f = static_cast<float>(value);
      std::uint32_t b32 = 0;
      std::memcpy(&b32, &f, sizeof f);
      bits = b32;
    }
    return bits;
  }
  const auto n = parseInteger(text);
  if (!n) return std::nullopt;
  const int bits = r.bytes * 8;
  const auto [negative, magnitude] = *n;
  if (r.isSigned) {
    const std::uint64_t limit = std::uint64_t{1} << (bits - 1);  // |min|
    if (negative ? magnitude > limit : magnitude >= limit) return std::nullopt;
  } else if (negative ? magnitude != 0 : (bits < 64 && magnitude >> bits != 0)) {
    return std::nullopt;
  }
  const std::uint64_t value = negative ? ~magnitude + 1 : magnitude;
  return bits == 64 ? value : value & ((std::uint64_t{1} << bits) - 1);
}

}  // namespace ptxmm::frontend
