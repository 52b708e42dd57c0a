// Recovering CUDA names (CudaNames.hpp). Demangling uses the C++ runtime's __cxa_demangle; the source scan is
// a bracket-counting split of one parameter list, not a C++ parser.
#include "frontend/ptx/CudaNames.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cxxabi.h>
#include <memory>

namespace ptxmm::frontend::ptx {
namespace {

bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Splits `s` at the commas outside brackets of any kind.
std::vector<std::string_view> splitTopLevel(std::string_view s) {
  std::vector<std::string_view> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '(' || c == '<' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == '>' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  out.push_back(trim(s.substr(start)));
  return out;
}

// The index of the bracket closing the one at `open` (same kind), or npos.
std::size_t matching(std::string_view s, std::size_t open) {
  const char o = s[open], c = o == '(' ? ')' : o == '<' ? '>' : o == '[' ? ']' : '}';
  int depth = 0;
  for (std::size_t i = open; i < s.size(); ++i) {
    if (s[i] == o) ++depth;
    if (s[i] == c && --depth == 0) return i;
  }
  return std::string_view::npos;
}

// The top-level '(' that opens the parameter list of a demangled signature.
std::size_t parameterListStart(std::string_view d) {
  int depth = 0;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (d[i] == '<') ++depth;
    if (d[i] == '>') --depth;
    if (d[i] == '(' && depth == 0) return i;
  }
  return std::string_view::npos;
}

// The last identifier of a declaration ("const int* __restrict__ in" -> "in"), skipping qualifier keywords.
std::string declaredName(std::string_view decl) {
  if (const auto eq = decl.find('='); eq != std::string_view::npos) decl = trim(decl.substr(0, eq));
  while (!decl.empty() && decl.back() == ']') {
    const auto open = decl.rfind('[');
    if (open == std::string_view::npos) break;
    decl = trim(decl.substr(0, open));
  }
  std::size_t end = decl.size();
  while (end > 0 && !identChar(decl[end - 1])) --end;
  std::size_t start = end;
  while (start > 0 && identChar(decl[start - 1])) --start;
  const std::string name(decl.substr(start, end - start));
  static const char* const kKeywords[] = {"__restrict__", "__restrict", "const", "volatile", "int", "float",
                                          "double", "unsigned", "char", "long", "short", "void", "bool"};
  for (const char* k : kKeywords)
    if (name == k) return {};
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return {};
  // A declaration of one word is a type without a name.
  return trim(decl.substr(0, start)).empty() ? std::string() : name;
}

}  // namespace

std::string demangle(const std::string& mangled) {
  if (mangled.rfind("_Z", 0) != 0) return mangled;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && out ? std::string(out.get()) : mangled;
}

std::string templatedName(const std::string& demangled) {
  std::string_view d = demangled;
  const std::size_t paren = parameterListStart(d);
  if (paren != std::string_view::npos) d = d.substr(0, paren);
  d = trim(d);
  // A return type (templates print one) precedes the name after a space outside brackets.
  int depth = 0;
  for (std::size_t i = d.size(); i-- > 0;) {
    if (d[i] == '>' || d[i] == ')') ++depth;
    if (d[i] == '<' || d[i] == '(') --depth;
    if (d[i] == ' ' && depth == 0) return std::string(d.substr(i + 1));
  }
  return std::string(d);
}

std::string functionName(const std::string& demangled) {
  const std::string full = templatedName(demangled);
  std::string_view d = full;
  if (!d.empty() && d.back() == '>') {  // template arguments
    int depth = 0;
    for (std::size_t i = d.size(); i-- > 0;) {
      if (d[i] == '>') ++depth;
      if (d[i] == '<' && --depth == 0) return std::string(trim(d.substr(0, i)));
    }
  }
  return std::string(d);
}

std::vector<std::string> parameterTypes(const std::string& demangled) {
  const std::string_view d = demangled;
  const std::size_t open = parameterListStart(d);
  if (open == std::string_view::npos) return {};
  const std::size_t close = matching(d, open);
  if (close == std::string_view::npos) return {};
  const std::string_view list = trim(d.substr(open + 1, close - open - 1));
  if (list.empty() || list == "void") return {};
  std::vector<std::string> out;
  for (std::string_view t : splitTopLevel(list)) out.emplace_back(t);
  return out;
}

std::string variableName(const std::string& mangled) {
  // nvcc splits a small array into scalars named `<mangled>_$_<i>`: element i of the variable.
  std::string base = mangled, element;
  if (const std::size_t split = mangled.rfind("_$_"); split != std::string::npos && split + 3 < mangled.size() &&
      std::all_of(mangled.begin() + static_cast<std::ptrdiff_t>(split + 3), mangled.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    base = mangled.substr(0, split);
    element = "$" + mangled.substr(split + 3);
  }
  const std::string demangled = demangle(base);
  const std::size_t colons = demangled.rfind("::");
  return (colons == std::string::npos ? demangled : demangled.substr(colons + 2)) + element;
}

std::vector<std::string> parameterNames(std::string_view source, int line, const std::string& name, std::size_t count) {
  // Start a few lines before the .loc line: a signature may begin above it.
  std::size_t at = 0;
  for (int l = 1; l < line - 5 && at != std::string_view::npos; ++l) {
    at = source.find('\n', at);
    if (at != std::string_view::npos) ++at;
  }
  if (at == std::string_view::npos || name.empty()) return {};
  const std::size_t limit = std::min(source.size(), at + 4000);
  for (std::size_t pos = source.find(name, at); pos != std::string_view::npos && pos < limit;
       pos = source.find(name, pos + 1)) {
    if ((pos > 0 && identChar(source[pos - 1])) || (pos + name.size() < source.size() && identChar(source[pos + name.size()])))
      continue;
    std::size_t open = pos + name.size();
    while (open < source.size() && std::isspace(static_cast<unsigned char>(source[open]))) ++open;
    if (open < source.size() && source[open] == '<') {  // template<...> name<...>(
      const std::size_t close = matching(source, open);
      if (close == std::string_view::npos) continue;
      open = close + 1;
      while (open < source.size() && std::isspace(static_cast<unsigned char>(source[open]))) ++open;
    }
    if (open >= source.size() || source[open] != '(') continue;
    const std::size_t close = matching(source, open);
    if (close == std::string_view::npos) continue;
    const std::string_view list = trim(source.substr(open + 1, close - open - 1));
    std::vector<std::string> names;
    if (!list.empty() && list != "void")
      for (std::string_view decl : splitTopLevel(list)) names.push_back(declaredName(decl));
    if (names.size() == count) return names;
  }
  return {};
}

}  // namespace ptxmm::frontend::ptx
