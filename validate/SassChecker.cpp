// Parsing cuobjdump listings and comparing role functions with their expectations (SassChecker.hpp).
#include "validate/SassChecker.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

namespace ptxmm::validate {

namespace {

// Opcodes that access memory other than the thread's local and constant memory: each must be a litmus access.
const std::set<std::string> kMemoryOpcodes = {"LD",    "LDG",  "LDS",   "LDSM",   "ST",   "STG",    "STS",   "ATOM",
                                              "ATOMG", "ATOMS", "RED",  "REDG",   "REDS", "STAS",   "REDAS", "LDGSTS",
                                              "SULD",  "SUST",  "SUATOM", "SURED", "TLD",  "TEX",    "TLD4",  "UBLKCP",
                                              "UTMALDG", "UTMASTG", "UTMAREDG", "UBLKRED"};
// Opcodes that combine the lanes of a warp: how ptxas aggregates warp-uniform atomics.
const std::set<std::string> kCollectiveOpcodes = {"VOTE", "VOTEU", "MATCH", "REDUX", "SHFL", "ELECT"};

bool isAnchor(const SassInstruction& i) { return kMemoryOpcodes.count(i.base) || i.base == "BAR"; }

std::string hex(unsigned a) {
  std::ostringstream os;
  os << "0x" << std::hex << a;
  return os.str();
}

std::string where(const ExpectedInstruction& e, const std::string& who) {
  return who + " `" + e.text + "` (line " + std::to_string(e.pos.line) + ")";
}

bool has(const SassInstruction& i, const std::string& m) {
  return std::find(i.modifiers.begin(), i.modifiers.end(), m) != i.modifiers.end();
}

int widthOf(const SassInstruction& i) {
  for (const char* m : {"64", "S64", "U64"})
    if (has(i, m)) return 8;
  for (const char* m : {"128", "U8", "S8", "U16", "S16"})
    if (has(i, m)) return 0;
  return 4;
}

std::string strengthOf(const SassInstruction& i) {
  for (std::size_t k = 0; k + 1 < i.modifiers.size(); ++k)
    if (i.modifiers[k] == "STRONG") return "STRONG." + i.modifiers[k + 1];
  return "";
}

std::vector<long> hexNumbers(const std::string& s) {
  std::vector<long> out;
  static const std::regex number("0x([0-9a-fA-F]+)");
  for (auto it = std::sregex_iterator(s.begin(), s.end(), number); it != std::sregex_iterator(); ++it)
    out.push_back(std::stol((*it)[1].str(), nullptr, 16));
  return out;
}

// Why `i` is not the anchor `a`; empty when it is.
std::string mismatch(const SassInstruction& i, const SassAnchor& a) {
  if (i.base != a.opcode) return "a different instruction";
  if (a.opcode == "BAR") {
    if (i.modifiers.empty() || i.modifiers[0] != a.op) return "a different barrier operation";
    const auto n = hexNumbers(i.operands);
    if (n.size() != 2 || n[0] != a.barrierId || n[1] != a.barrierCount) return "a different barrier id or thread count";
    return "";
  }
  if (!a.op.empty() && !has(i, a.op)) return "a different operation";
  if (widthOf(i) != a.width) return "a different width";
  for (const char* m : {"CONSTANT", "MMIO", "PRIVATE"})
    if (has(i, m)) return std::string("the .") + m + " qualifier";
  if (strengthOf(i) != a.strength) return a.strength.empty() ? "a strong access where a weak one was written" : "a different strength or scope";
  return "";
}

// MEMBAR.<kind>.<level> as found in the listing; nullopt for other instructions.
std::optional<SassMembar> membarOf(const SassInstruction& i) {
  if (i.base != "MEMBAR" || i.modifiers.size() < 2) return std::nullopt;
  SassMembar m;
  if (i.modifiers[0] == "SC") m.kind = MembarKind::Sc;
  else if (i.modifiers[0] == "ALL") m.kind = MembarKind::All;
  else return std::nullopt;
  if (i.modifiers[1] == "CTA") m.level = MembarLevel::Cta;
  else if (i.modifiers[1] == "GPU") m.level = MembarLevel::Gpu;
  else if (i.modifiers[1] == "SYS") m.level = MembarLevel::Sys;
  else return std::nullopt;
  return m;
}

bool isInvalidate(const SassInstruction& i) { return i.base == "CCTL" && has(i, "IVALL"); }

bool isFenceClass(const SassInstruction& i) {
  return i.base == "MEMBAR" || i.base == "CCTL" || i.base == "FENCE";
}

}  // namespace

std::vector<SassFunction> parseSass(const std::string& listing) {
  std::vector<SassFunction> out;
  static const std::regex function(R"(^\s*Function\s*:\s*(\S+))");
  // "        /*00b0*/              @!P0 BRA 0x250 ;     /* 0x... */"
  static const std::regex line(R"(^\s*/\*([0-9a-fA-F]{4,})\*/\s+(@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)\s*([^;]*);)");
  std::istringstream in(listing);
  std::string text;
  std::smatch m;
  while (std::getline(in, text)) {
    if (std::regex_search(text, m, function)) {
      std::string name = m[1].str();
      if (const auto dollar = name.find('$'); dollar != std::string::npos) name.resize(dollar);
      out.push_back({name, {}});
      continue;
    }
    if (out.empty() || !std::regex_search(text, m, line)) continue;
    SassInstruction i;
    i.address = static_cast<unsigned>(std::stoul(m[1].str(), nullptr, 16));
    i.predicate = m[2].str();
    i.predicate.erase(i.predicate.find_last_not_of(' ') + 1);
    i.opcode = m[3].str();
    std::string operands = m[4].str();
    operands.erase(operands.find_last_not_of(' ') + 1);
    i.operands = operands;
    std::istringstream parts(i.opcode);
    std::string part;
    std::getline(parts, i.base, '.');
    while (std::getline(parts, part, '.')) i.modifiers.push_back(part);
    out.back().code.push_back(std::move(i));
  }
  return out;
}

const SassFunction* findFunction(const std::vector<SassFunction>& functions, const std::string& name) {
  for (const auto& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

SassVerdict checkRole(const SassFunction& function, const std::vector<ExpectedInstruction>& expected, const std::string& who) {
  SassVerdict v;
  std::vector<const SassInstruction*> code;
  for (const auto& i : function.code)
    if (i.predicate != "@!PT" && i.base != "NOP") code.push_back(&i);  // @!PT never executes

  for (const auto* i : code)
    if (kCollectiveOpcodes.count(i->base))
      v.problems.push_back(who + ": warp-collective instruction " + i->opcode + " at " + hex(i->address) +
                           " (ptxas may have aggregated atomics across lanes, which play different instances)");

  // Anchors: litmus accesses and barriers against memory and BAR instructions, one to one, in order.
  std::vector<std::size_t> anchorAt;  // SASS position of each expected anchor
  std::vector<std::size_t> found;
  for (std::size_t k = 0; k < code.size(); ++k)
    if (isAnchor(*code[k])) found.push_back(k);
  std::vector<std::size_t> wanted;
  for (std::size_t e = 0; e < expected.size(); ++e)
    if (expected[e].sass.anchor) wanted.push_back(e);
  const std::size_t common = std::min(found.size(), wanted.size());
  for (std::size_t k = 0; k < common; ++k) {
    const ExpectedInstruction& e = expected[wanted[k]];
    const SassInstruction& i = *code[found[k]];
    const std::string why = mismatch(i, *e.sass.anchor);
    if (!why.empty())
      v.problems.push_back(where(e, who) + ": expected " + e.sass.describe() + ", found " + i.opcode + " " + i.operands + " at " +
                           hex(i.address) + " (" + why + ")");
  }
  for (std::size_t k = common; k < wanted.size(); ++k)
    v.problems.push_back(where(expected[wanted[k]], who) + ": no SASS memory instruction left for it (expected " +
                         expected[wanted[k]].sass.describe() + "): the access was lost or merged");
  for (std::size_t k = common; k < found.size(); ++k)
    v.problems.push_back(who + ": extra SASS instruction " + code[found[k]]->opcode + " " + code[found[k]]->operands + " at " +
                         hex(code[found[k]]->address) + " that no litmus instruction accounts for (duplicated or added)");
  if (!v.problems.empty()) return v;
  v.anchors = static_cast<int>(found.size());
  anchorAt.assign(expected.size(), 0);
  for (std::size_t k = 0; k < wanted.size(); ++k) anchorAt[wanted[k]] = found[k];

  // Backward branches delimit SASS loops: [target, branch].
  std::vector<std::pair<unsigned, unsigned>> loops;
  for (const auto* i : code)
    if (i->base == "BRA")
      for (long target : hexNumbers(i->operands))
        if (static_cast<unsigned>(target) <= i->address) loops.emplace_back(static_cast<unsigned>(target), i->address);
  auto inSassLoop = [&](unsigned a) {
    return std::any_of(loops.begin(), loops.end(), [&](const auto& l) { return l.first <= a && a <= l.second; });
  };

  // Fences: each requirement is met inside its window of SASS positions (exclusive bounds).
  std::vector<bool> used(code.size(), false);
  auto previousAnchor = [&](std::size_t e) -> long {
    for (long k = static_cast<long>(e) - 1; k >= 0; --k)
      if (expected[static_cast<std::size_t>(k)].sass.anchor) return static_cast<long>(anchorAt[static_cast<std::size_t>(k)]);
    return -1;
  };
  auto nextAnchor = [&](std::size_t e) -> long {
    for (std::size_t k = e + 1; k < expected.size(); ++k)
      if (expected[k].sass.anchor) return static_cast<long>(anchorAt[k]);
    return static_cast<long>(code.size());
  };
  auto find = [&](long from, long to, auto&& accept) {
    bool ok = false;
    for (long k = from + 1; k < to; ++k)
      if (accept(*code[static_cast<std::size_t>(k)])) used[static_cast<std::size_t>(k)] = ok = true;
    return ok;
  };
  for (std::size_t e = 0; e < expected.size(); ++e) {
    const auto& x = expected[e];
    const long self = x.sass.anchor ? static_cast<long>(anchorAt[e]) : -1;
    const long before = x.sass.anchor ? self : nextAnchor(e);
    const long afterFrom = x.sass.anchor ? self : previousAnchor(e);
    if (x.sass.membarBefore) {
      const SassMembar need = *x.sass.membarBefore;
      const bool ok = find(previousAnchor(e), before, [&](const SassInstruction& i) {
        const auto m = membarOf(i);
        return m && m->kind >= need.kind && m->level >= need.level;
      });
      if (!ok) v.problems.push_back(where(x, who) + ": no " + membarText(need) + " (or stronger) where the PTX needs it");
    }
    if (x.sass.invalidateAfter && !find(afterFrom, nextAnchor(e), isInvalidate))
      v.problems.push_back(where(x, who) + ": no CCTL.IVALL after it (the acquire half is missing)");
    if (x.sass.anchor && x.inLoop != inSassLoop(code[static_cast<std::size_t>(self)]->address))
      v.problems.push_back(where(x, who) + (x.inLoop ? ": its SASS instruction is outside the loop (hoisted)"
                                                     : ": its SASS instruction is inside a loop the litmus code does not have"));
  }
  for (std::size_t k = 0; k < code.size(); ++k)
    if (isFenceClass(*code[k]) && !used[k])
      v.notes.push_back(who + ": extra " + code[k]->opcode + " at " + hex(code[k]->address) + " (only strengthens ordering)");
  return v;
}

std::string fnv1a(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ull;
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

}  // namespace ptxmm::validate
