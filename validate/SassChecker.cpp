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

// Opcodes that must each be accounted for by a litmus instruction: memory accesses, CTA barriers, and the
// Hopper-era units (SYNCS mbarrier operations, the copy engine, TMA, async-group counters, cluster barriers,
// async-proxy fences, DSMEM stores).
const std::set<std::string> kAnchorOpcodes = {
    "LD",     "LDG",    "LDS",      "LDSM",    "ST",           "STG",         "STS",          "ATOM",     "ATOMG",
    "ATOMS",  "RED",    "REDG",     "REDS",    "STAS",         "REDAS",       "LDGSTS",       "SULD",     "SUST",
    "SUATOM", "SURED",  "TLD",      "TEX",     "TLD4",         "UBLKCP",      "UBLKRED",      "UTMALDG",  "UTMASTG",
    "UTMAREDG", "BAR",  "SYNCS",    "ARRIVES", "LDGDEPBAR",    "DEPBAR",      "UTMACMDFLUSH", "UCGABAR_ARV",
    "UCGABAR_WAIT", "FENCE", "UTMACCTL"};
// Opcodes that combine the lanes of a warp: how ptxas aggregates warp-uniform atomics. ELECT is also how ptxas
// builds a waterfall loop around an instruction with uniform operands (one lane's operands per iteration),
// which is allowed there.
const std::set<std::string> kCollectiveOpcodes = {"VOTE", "VOTEU", "MATCH", "REDUX", "SHFL", "ELECT"};

bool isAnchor(const SassInstruction& i) { return kAnchorOpcodes.count(i.base) != 0; }

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

// A waterfall loop's back edge: BRA.U.ANY (the loop repeats while some lane has not been served).
bool isWaterfallBranch(const SassInstruction& i) { return i.base == "BRA" && has(i, "U") && has(i, "ANY"); }

int widthOf(const SassInstruction& i) {
  for (const char* m : {"64", "S64", "U64"})
    if (has(i, m)) return 8;
  if (has(i, "128")) return 16;
  for (const char* m : {"U8", "S8", "U16", "S16"})
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
    const bool same = a.barrierCount < 0 ? n.size() == 1 && n[0] == a.barrierId
                                         : n.size() == 2 && n[0] == a.barrierId && n[1] == a.barrierCount;
    return same ? "" : "a different barrier id or thread count";
  }
  if (!a.op.empty() && !has(i, a.op) &&
      std::none_of(a.alsoOp.begin(), a.alsoOp.end(), [&](const std::string& o) { return has(i, o); }))
    return "a different operation";
  for (const auto& m : a.required)
    if (!has(i, m)) return "no ." + m;
  for (const auto& m : a.forbidden)
    if (has(i, m)) return "." + m;
  if (a.depbar && hexNumbers(i.operands) != std::vector<long>{*a.depbar}) return "a different group count";
  if (a.width && widthOf(i) != a.width) return "a different width";
  for (const char* m : {"CONSTANT", "MMIO", "PRIVATE"})
    if (has(i, m)) return std::string("the .") + m + " qualifier";
  if (a.strong && strengthOf(i) != a.strength)
    return a.strength.empty() ? "a strong access where a weak one was written" : "a different strength or scope";
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

bool isFenceClass(const SassInstruction& i) { return i.base == "MEMBAR" || i.base == "CCTL"; }

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
  // @!PT never executes; a WARPSYNC.COLLECTIVE ... ENDCOLLECTIVE region, with the BSYNC and the branch back to
  // the join point after it, is the out-of-line copy of an instruction that only a divergent warp takes (ptxas
  // emits one beside the converged form of non-aligned barriers).
  std::vector<const SassInstruction*> code;
  enum { Main, Collective, Return } region = Main;
  for (const auto& i : function.code) {
    if (i.base == "WARPSYNC" && has(i, "COLLECTIVE")) region = Collective;
    const bool skipped = region != Main;
    if (region == Return && i.base == "BRA") region = Main;  // the branch back ends the out-of-line copy
    if (i.predicate != "@!PT" && i.base != "NOP" && !skipped) code.push_back(&i);
    if (i.base == "ENDCOLLECTIVE") region = Return;
  }

  // Waterfall loops [target, branch] and litmus-level loops (every other backward branch).
  std::vector<std::pair<unsigned, unsigned>> loops, waterfalls;
  for (const auto* i : code)
    if (i->base == "BRA")
      for (long target : hexNumbers(i->operands))
        if (static_cast<unsigned>(target) <= i->address)
          (isWaterfallBranch(*i) ? waterfalls : loops).emplace_back(static_cast<unsigned>(target), i->address);
  auto within = [](const std::vector<std::pair<unsigned, unsigned>>& spans, unsigned a) {
    return std::any_of(spans.begin(), spans.end(), [&](const auto& l) { return l.first <= a && a <= l.second; });
  };

  for (const auto* i : code)
    if (kCollectiveOpcodes.count(i->base) && !(i->base == "ELECT" && within(waterfalls, i->address)))
      v.problems.push_back(who + ": warp-collective instruction " + i->opcode + " at " + hex(i->address) +
                           " (ptxas may have aggregated atomics across lanes, which play different instances)");

  // Anchors: the SASS instructions of the litmus instructions, one to one, in order. An optional anchor counts
  // only where the next SASS instruction is it.
  std::vector<std::size_t> found;
  for (std::size_t k = 0; k < code.size(); ++k)
    if (isAnchor(*code[k])) found.push_back(k);
  std::vector<long> firstAt(expected.size(), -1), lastAt(expected.size(), -1);
  std::size_t next = 0;
  bool lost = false;
  // A run of adjacent instructions the model does not order may come in any order: match it as a set.
  using Swap = ExpectedInstruction::Swap;
  auto unordered = [](const ExpectedInstruction& a, const ExpectedInstruction& b) {
    if (a.swap == Swap::WeakAccess && b.swap == Swap::WeakAccess) return a.location != b.location;
    if (a.swap != Swap::WeakAccess && b.swap != Swap::WeakAccess) return false;
    const ExpectedInstruction& other = a.swap == Swap::WeakAccess ? b : a;
    const ExpectedInstruction& access = a.swap == Swap::WeakAccess ? a : b;
    return other.swap == Swap::Commit || (other.swap == Swap::SpaceFence && other.shared != access.shared);
  };
  auto matchRun = [&](std::size_t e) -> std::size_t {
    std::size_t end = e;
    while (end < expected.size() && expected[end].swap != Swap::None &&
           std::all_of(expected.begin() + static_cast<long>(e), expected.begin() + static_cast<long>(end),
                       [&](const ExpectedInstruction& x) { return unordered(x, expected[end]); }))
      ++end;
    if (end - e < 2 || next + (end - e) > found.size()) return e;
    std::vector<bool> taken(end - e, false);
    std::vector<std::size_t> at(end - e);
    for (std::size_t k = e; k < end; ++k) {
      bool matched = false;
      for (std::size_t j = 0; j < end - e && !matched; ++j)
        if (!taken[j] && mismatch(*code[found[next + j]], expected[k].sass.anchors[0]).empty()) taken[j] = matched = true, at[k - e] = j;
      if (!matched) return e;
    }
    bool swapped = false;
    for (std::size_t k = e; k < end; ++k) {
      firstAt[k] = lastAt[k] = static_cast<long>(found[next + at[k - e]]);
      swapped = swapped || at[k - e] != k - e;
    }
    if (swapped) v.notes.push_back(who + ": ptxas reordered `" + expected[e].text + "` .. `" + expected[end - 1].text +
                                   "`, which the model does not order");
    next += end - e;
    return end;
  };
  for (std::size_t e = 0; e < expected.size(); ++e) {
    if (const std::size_t end = matchRun(e); end != e) {
      e = end - 1;
      continue;
    }
    for (const auto& a : expected[e].sass.anchors) {
      const bool present = next < found.size() && mismatch(*code[found[next]], a).empty();
      if (a.optional && !present) continue;
      if (next >= found.size()) {
        if (!lost)
          v.problems.push_back(where(expected[e], who) + ": no SASS memory instruction left for it (expected " +
                               expected[e].sass.describe() + "): the access was lost or merged");
        lost = true;
        continue;
      }
      const SassInstruction& i = *code[found[next]];
      if (!present)
        v.problems.push_back(where(expected[e], who) + ": expected " + expected[e].sass.describe() + ", found " + i.opcode + " " +
                             i.operands + " at " + hex(i.address) + " (" + mismatch(i, a) + ")");
      if (firstAt[e] < 0) firstAt[e] = static_cast<long>(found[next]);
      lastAt[e] = static_cast<long>(found[next]);
      ++next;
    }
  }
  for (std::size_t k = next; k < found.size(); ++k)
    v.problems.push_back(who + ": extra SASS instruction " + code[found[k]]->opcode + " " + code[found[k]]->operands + " at " +
                         hex(code[found[k]]->address) + " that no litmus instruction accounts for (duplicated or added)");
  if (!v.problems.empty()) return v;
  v.anchors = static_cast<int>(next);

  // Fences: each requirement is met inside its window of SASS positions (exclusive bounds).
  std::vector<bool> used(code.size(), false);
  auto previousAnchor = [&](std::size_t e) -> long {
    for (long k = static_cast<long>(e) - 1; k >= 0; --k)
      if (lastAt[static_cast<std::size_t>(k)] >= 0) return lastAt[static_cast<std::size_t>(k)];
    return -1;
  };
  auto nextAnchor = [&](std::size_t e) -> long {
    for (std::size_t k = e + 1; k < expected.size(); ++k)
      if (firstAt[k] >= 0) return firstAt[k];
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
    const bool anchored = firstAt[e] >= 0;
    if (x.sass.membarBefore) {
      const SassMembar need = *x.sass.membarBefore;
      const bool ok = find(previousAnchor(e), anchored ? firstAt[e] : nextAnchor(e), [&](const SassInstruction& i) {
        const auto m = membarOf(i);
        return m && m->kind >= need.kind && m->level >= need.level;
      });
      if (!ok) v.problems.push_back(where(x, who) + ": no " + membarText(need) + " (or stronger) where the PTX needs it");
    }
    if (x.sass.invalidateAfter && !find(anchored ? firstAt[e] : previousAnchor(e), nextAnchor(e), isInvalidate))
      v.problems.push_back(where(x, who) + ": no CCTL.IVALL after it (the acquire half is missing)");
    if (anchored && x.inLoop != within(loops, code[static_cast<std::size_t>(firstAt[e])]->address))
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
