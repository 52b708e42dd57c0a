// Checked fixes for kernel races (RaceFixes.hpp).
#include "checker/kernel/RaceFixes.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <tuple>

#include "checker/RaceFinder.hpp"
#include "frontend/litmus/LitmusParser.hpp"

namespace ptxmm::checker::kernel {
namespace {

using frontend::Instruction;
using frontend::KernelProgram;
using frontend::Opcode;
using frontend::Sem;
using model::Scope;

constexpr const char* kPartialOverlap = "partial overlap";

// The PTX instruction a residual instruction comes from: its origin, or in a launch built by hand without origins
// (unit tests), its source line (one litmus row is one instruction of every thread).
struct Site {
  int origin = -1;
  int line = 0;
};

Site siteOf(const Instruction& in) { return in.origin >= 0 ? Site{in.origin, 0} : Site{-1, in.pos.line}; }

bool at(const Instruction& in, const Site& s) {
  return s.origin >= 0 ? in.origin == s.origin : in.origin < 0 && in.pos.line == s.line;
}

bool writes(const Instruction& in) { return in.op == Opcode::St || in.op == Opcode::Atom || in.op == Opcode::Red; }
bool reads(const Instruction& in) { return in.op == Opcode::Ld || in.op == Opcode::Atom; }
bool plainAccess(const Instruction& in) { return writes(in) || reads(in); }
// The ordering an access has: an atom or red without a .sem qualifier is .relaxed (PTX ISA, atom: "the default
// .sem is .relaxed"), so nvcc's atomicCAS is already a strong access and only its plain partner needs changing.
Sem semOf(const Instruction& in) {
  return in.sem == Sem::Default && (in.op == Opcode::Atom || in.op == Opcode::Red) ? Sem::Relaxed : in.sem;
}
bool strong(const Instruction& in) { return semOf(in) != Sem::Default && semOf(in) != Sem::Weak; }

// The location an ld/st/atom/red addresses (its address operand), "" when it is not a named location.
std::string locationOf(const Instruction& in) {
  const std::size_t i = in.op == Opcode::Ld || in.op == Opcode::Atom ? 1 : 0;
  if (!plainAccess(in) || in.operands.size() <= i || in.operands[i].kind != frontend::Operand::Kind::Location) return "";
  return in.operands[i].name;
}

// Whether the access goes through a proxy other than the generic one (bulk and tensor copies, async proxy ops).
bool asyncProxy(const Instruction& in) {
  return in.proxy != model::Proxy::Generic || in.op == Opcode::BulkCopy || in.op == Opcode::TcMma ||
         in.op == Opcode::TcCp || in.op == Opcode::WgmmaMma;
}

// One instruction as the litmus dialect reads it: the fences and the barrier a fix inserts mean exactly what
// they mean in a litmus test.
Instruction parsedInstruction(const std::string& text) {
  const frontend::Program p = frontend::parseLitmus("PTX fix\n{ }\n P0@cta 0,gpu 0 ;\n " + text + " ;\nexists (true)\n", "fix");
  return p.threads.at(0).code.at(0);
}

std::string scopeText(Scope s) { return "." + std::string(model::scopeName(s)); }

std::string semText(Sem s) {
  switch (s) {
    case Sem::Relaxed: return ".relaxed";
    case Sem::Acquire: return ".acquire";
    case Sem::Release: return ".release";
    case Sem::AcqRel: return ".acq_rel";
    default: return "";
  }
}

std::string opName(const Instruction& in) {
  switch (in.op) {
    case Opcode::Ld: return "ld";
    case Opcode::St: return "st";
    case Opcode::Atom: return "atom";
    case Opcode::Red: return "red";
    default: return "instruction";
  }
}

std::string accessNoun(const Instruction& in) {
  switch (in.op) {
    case Opcode::Ld: return "load";
    case Opcode::St: return "store";
    case Opcode::Atom: return "atomic";
    case Opcode::Red: return "reduction";
    default: return "access";
  }
}

// "FILE:LINE (PTX line N)" of a position.
std::string where(const KernelPosition& p) {
  std::string s = p.file + ":" + std::to_string(p.line);
  if (p.ptxLine > 0 && p.ptxLine != p.line) s += " (PTX line " + std::to_string(p.ptxLine) + ")";
  return s;
}

// The smallest scope holding both threads (kernel threads are on one GPU).
Scope commonScope(const KernelProgram& k, int a, int b) {
  const auto& ta = k.threads[static_cast<std::size_t>(a)];
  const auto& tb = k.threads[static_cast<std::size_t>(b)];
  if (ta.cta == tb.cta) return Scope::Cta;
  if (ta.cluster == tb.cluster) return Scope::Cluster;
  return Scope::Gpu;
}

// The smallest scope holding every thread that executes one of the sites: a fix changes the instruction in every
// thread, so a scope that holds only the witness pair (two threads of one CTA) leaves the same race between the
// CTAs that run the same lines.
Scope siteScope(const KernelProgram& k, const Site& a, const Site& b) {
  std::optional<std::size_t> first;
  Scope scope = Scope::Cta;
  for (std::size_t t = 0; t < k.threads.size(); ++t) {
    const auto& code = k.program.threads[t].code;
    if (std::none_of(code.begin(), code.end(), [&](const Instruction& in) { return at(in, a) || at(in, b); })) continue;
    if (!first) first = t;
    scope = std::max(scope, commonScope(k, static_cast<int>(*first), static_cast<int>(t)));
  }
  return scope;
}

// A witness end of a race in the residual code: its thread and the first instruction at its position.
struct End {
  int thread = -1;
  int index = -1;
  const KernelPosition* pos = nullptr;
  const Instruction* in = nullptr;
};

std::optional<End> find(const KernelProgram& k, const KernelPosition& p) {
  for (std::size_t t = 0; t < k.threads.size(); ++t) {
    const auto& kt = k.threads[t];
    if (std::tie(kt.ctaid.x, kt.ctaid.y, kt.ctaid.z, kt.tid.x, kt.tid.y, kt.tid.z) !=
        std::tie(p.block.x, p.block.y, p.block.z, p.thread.x, p.thread.y, p.thread.z))
      continue;
    const auto& code = k.program.threads[t].code;
    for (std::size_t i = 0; i < code.size(); ++i) {
      const Instruction& in = code[i];
      const bool same = in.origin >= 0 ? in.origin < static_cast<int>(k.origins.size()) &&
                                             k.origins[static_cast<std::size_t>(in.origin)].ptx.line == p.ptxLine &&
                                             k.origins[static_cast<std::size_t>(in.origin)].source.line == p.line
                                       : in.pos.line == p.line && in.pos.col == p.column;
      if (same && in.op != Opcode::Label && in.op != Opcode::Local && in.op != Opcode::Setp)
        return End{static_cast<int>(t), static_cast<int>(i), &p, &in};
    }
  }
  return std::nullopt;
}

// ---- changes of the residual code, applied at a site in every thread -------------------------------------------

void strengthen(KernelProgram& k, const Site& s, std::optional<Sem> sem, Scope scope) {
  for (auto& thread : k.program.threads)
    for (auto& in : thread.code) {
      if (!at(in, s) || !plainAccess(in)) continue;
      if (sem) in.sem = *sem;
      else if (!strong(in) || in.sem == Sem::Volatile) in.sem = Sem::Relaxed;
      in.scope = scope;
    }
}

// Inserts `proto` right before or after every instruction at `s`; the copies get an origin of their own (the
// site's, renamed) so reports of the re-check still point at the kernel's lines.
void insert(KernelProgram& k, const Site& s, bool after, Instruction proto) {
  if (s.origin >= 0) {
    frontend::KernelOrigin o = k.origins[static_cast<std::size_t>(s.origin)];
    o.ptxText = proto.text + " (inserted by a fix candidate)";
    k.origins.push_back(o);
    proto.origin = static_cast<int>(k.origins.size() - 1);
  }
  proto.pos.line = 0;  // never the site of a hand-built launch's row
  for (auto& thread : k.program.threads) {
    std::vector<Instruction> code;
    code.reserve(thread.code.size() + 2);
    for (auto& in : thread.code) {
      const bool here = at(in, s);
      if (here && !after) code.push_back(proto), code.back().pos.file = in.pos.file;
      code.push_back(std::move(in));
      if (here && after) code.push_back(proto), code.back().pos.file = code[code.size() - 2].pos.file;
    }
    thread.code = std::move(code);
  }
}

// The sem that makes an access the releasing (write) or acquiring (read) end of a synchronisation.
Sem releaseOf(const Instruction& in) { return in.op == Opcode::Atom ? Sem::AcqRel : Sem::Release; }
Sem acquireOf(const Instruction& in) { return in.op == Opcode::Atom ? Sem::AcqRel : Sem::Acquire; }
Sem orderingOf(const Instruction& in) { return writes(in) ? releaseOf(in) : acquireOf(in); }

std::string spelled(const Instruction& in, Sem sem, Scope scope) { return opName(in) + semText(sem) + scopeText(scope); }

// Writes after `from` in its thread and reads before `to` in its thread on one location (other than the racing
// one): flags whose release/acquire would order the pair. Nearest first, at most `limit`.
std::vector<std::pair<const Instruction*, const Instruction*>> flagPairs(const KernelProgram& k, const End& from,
                                                                         const End& to, std::size_t limit) {
  std::vector<std::pair<const Instruction*, const Instruction*>> out;
  const auto& a = k.program.threads[static_cast<std::size_t>(from.thread)].code;
  const auto& b = k.program.threads[static_cast<std::size_t>(to.thread)].code;
  const std::string racing = locationOf(*from.in);
  for (std::size_t i = static_cast<std::size_t>(from.index) + 1; i < a.size() && out.size() < limit; ++i) {
    const std::string flag = locationOf(a[i]);
    if (!writes(a[i]) || flag.empty() || flag == racing) continue;
    for (int j = to.index - 1; j >= 0 && out.size() < limit; --j) {
      const Instruction& r = b[static_cast<std::size_t>(j)];
      if (!reads(r) || locationOf(r) != flag) continue;
      const bool seen = std::any_of(out.begin(), out.end(), [&](const auto& p) {
        return p.first->origin == a[i].origin && siteOf(*p.first).line == siteOf(a[i]).line && p.second->origin == r.origin &&
               siteOf(*p.second).line == siteOf(r).line;
      });
      if (!seen) out.emplace_back(&a[i], &r);
      break;
    }
  }
  return out;
}

// ---- a read-modify-write made one atomic ---------------------------------------------------------------------

// A load of a location and a later store to it of the loaded value plus a constant, with nothing but register
// arithmetic between them (nvcc's `*p += c`, `hist[b]++`): two accesses that lose an update when another thread's
// increment falls between them, whatever ordering they are given.
struct Increment {
  std::size_t load = 0, store = 0;  // indices in the thread's code
  std::int64_t delta = 0;
};

// The constant the stored value exceeds the loaded one by, modulo 2^bits, when the code between `load` and
// `store` proves it: each register is tracked as "(the loaded value + c) << s" through mov, add/sub of an
// immediate, and-masks that keep the low `bits`, and the shl/shr pair of a sign extension (s <= 64 - bits keeps
// the low `bits`, all the store keeps); anything else (control flow, a tracked register overwritten from memory, a
// product) gives no answer.
std::optional<std::int64_t> incrementDelta(const std::vector<Instruction>& code, std::size_t load, std::size_t store, int bits) {
  struct Shifted {
    std::int64_t plus = 0;
    std::int64_t shift = 0;
  };
  const std::int64_t width = bits > 0 && bits < 64 ? bits : 64;
  std::map<std::string, Shifted> tracked{{code[load].operands[0].name, {}}};
  auto get = [&](const frontend::Operand& o) -> std::optional<Shifted> {
    if (o.kind != frontend::Operand::Kind::Register) return std::nullopt;
    const auto it = tracked.find(o.name);
    return it == tracked.end() ? std::nullopt : std::optional{it->second};
  };
  const std::uint64_t low = width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
  for (std::size_t i = load + 1; i < store; ++i) {
    const Instruction& in = code[i];
    if (in.op == Opcode::Label || in.op == Opcode::Branch || in.op == Opcode::Goto) return std::nullopt;
    if (!frontend::writesFirstOperand(in) || in.operands.empty()) continue;
    std::optional<Shifted> value;
    if (in.op == Opcode::Local && in.operands.size() >= 2) {
      const auto a = get(in.operands[1]);
      const frontend::Operand* b = in.operands.size() > 2 ? &in.operands[2] : nullptr;
      const bool immB = b && b->kind == frontend::Operand::Kind::Immediate;
      const bool plain = a && a->shift == 0;
      switch (in.localOp) {
        case frontend::LocalOp::Mov: value = a; break;
        case frontend::LocalOp::Add:
          if (plain && immB) value = Shifted{a->plus + b->value, 0};
          else if (b && get(*b) && get(*b)->shift == 0 && in.operands[1].kind == frontend::Operand::Kind::Immediate)
            value = Shifted{get(*b)->plus + in.operands[1].value, 0};
          break;
        case frontend::LocalOp::Sub:
          if (plain && immB) value = Shifted{a->plus - b->value, 0};
          break;
        case frontend::LocalOp::And:
          if (plain && immB && (static_cast<std::uint64_t>(b->value) & low) == low) value = a;
          break;
        case frontend::LocalOp::Shl:
          if (plain && immB && b->value > 0 && b->value <= 64 - width) value = Shifted{a->plus, b->value};
          break;
        case frontend::LocalOp::Shr:
          if (a && immB && a->shift == b->value) value = Shifted{a->plus, 0};
          break;
        default: break;
      }
    }
    if (value) tracked[in.operands[0].name] = *value;
    else tracked.erase(in.operands[0].name);
  }
  if (code[store].operands.size() < 2) return std::nullopt;
  const auto stored = get(code[store].operands[1]);
  if (!stored || stored->shift != 0) return std::nullopt;
  return stored->plus;
}

// The width in bits of a named location (0 when it is not declared: untyped, as litmus values are).
int locationBits(const KernelProgram& k, const std::string& name) {
  const auto& locations = k.program.locations;
  const auto loc = std::find_if(locations.begin(), locations.end(), [&](const auto& l) { return l.name == name; });
  return loc == locations.end() ? 0 : 8 * loc->size;
}

// The increments of a thread whose load and store are at the sites `load` and `store`.
std::vector<Increment> incrementsAt(const KernelProgram& k, std::size_t thread, const Site& load, const Site& store) {
  std::vector<Increment> out;
  const auto& code = k.program.threads[thread].code;
  for (std::size_t i = 0; i < code.size(); ++i) {
    if (code[i].op != Opcode::Ld || !at(code[i], load) || strong(code[i])) continue;
    const std::string x = locationOf(code[i]);
    for (std::size_t j = i + 1; j < code.size() && !x.empty(); ++j) {
      if (!plainAccess(code[j]) || locationOf(code[j]) != x) continue;
      if (code[j].op != Opcode::St || !at(code[j], store) || strong(code[j])) break;
      if (const auto delta = incrementDelta(code, i, j, locationBits(k, x))) out.push_back({i, j, *delta});
      break;
    }
  }
  return out;
}

// The load and store sites of the increment a racing access belongs to, when it belongs to one.
std::optional<std::pair<Site, Site>> incrementOf(const KernelProgram& k, const End& e) {
  const auto& code = k.program.threads[static_cast<std::size_t>(e.thread)].code;
  const std::string x = locationOf(*e.in);
  for (std::size_t i = 0; i < code.size() && !x.empty(); ++i) {
    if (code[i].op != Opcode::Ld || locationOf(code[i]) != x) continue;
    for (std::size_t j = i + 1; j < code.size(); ++j) {
      if (!plainAccess(code[j]) || locationOf(code[j]) != x) continue;
      if (code[j].op == Opcode::St && (static_cast<int>(i) == e.index || static_cast<int>(j) == e.index)) {
        const Site load = siteOf(code[i]), store = siteOf(code[j]);
        const auto found = incrementsAt(k, static_cast<std::size_t>(e.thread), load, store);
        if (std::any_of(found.begin(), found.end(), [&](const Increment& inc) { return inc.load == i && inc.store == j; }))
          return std::pair{load, store};
      }
      break;
    }
  }
  return std::nullopt;
}

// Replaces every increment at (load, store) by one atom.add of `scope` at the load's place; false when some thread
// runs one of the two sites outside such an increment (the change would not be what editing the line does).
bool makeAtomic(KernelProgram& k, const Site& load, const Site& store, Scope scope) {
  for (std::size_t t = 0; t < k.program.threads.size(); ++t) {
    auto& code = k.program.threads[t].code;
    const auto found = incrementsAt(k, t, load, store);
    const auto sites = std::count_if(code.begin(), code.end(), [&](const Instruction& in) {
      return (in.op == Opcode::Ld && at(in, load)) || (in.op == Opcode::St && at(in, store));
    });
    if (static_cast<std::size_t>(sites) != 2 * found.size()) return false;
    for (auto inc = found.rbegin(); inc != found.rend(); ++inc) {  // from the back: erasing keeps earlier indices
      Instruction& in = code[inc->load];
      const int bits = locationBits(k, locationOf(in));
      in.op = Opcode::Atom;
      in.atomOp = frontend::AtomOp::Add;
      in.sem = Sem::Relaxed;
      in.scope = scope;
      in.valueBits = bits;
      in.operands.push_back({frontend::Operand::Kind::Immediate, "", inc->delta, in.pos});
      code.erase(code.begin() + static_cast<std::ptrdiff_t>(inc->store));
    }
  }
  return true;
}

// ---- an access moved after the wait that completes an asynchronous copy ------------------------------------

bool asyncCopy(const Instruction& in) {
  return in.op == Opcode::BulkCopy || in.op == Opcode::CpAsync || in.op == Opcode::StAsync || in.op == Opcode::RedAsync;
}

// Whether `in` waits for `copy` to complete: cp.async.wait_group / wait_all for a cp.async, a wait on the
// mbarrier the copy completes (its last operand) for the others.
bool completes(const Instruction& in, const Instruction& copy) {
  if (copy.op == Opcode::CpAsync) return in.op == Opcode::CpAsyncWait && !in.bulkGroup;
  const auto& m = copy.operands.back();
  return in.op == Opcode::MbarWait && m.kind == frontend::Operand::Kind::Location && in.operands.size() > 1 &&
         in.operands[1].name == m.name;
}

// The last index of the wait starting at `w`: the poll and the loop nvcc builds around it (predicate arithmetic,
// branches, labels), up to the last label that closes every branch seen so far (the loop's exit).
std::size_t waitEnd(const std::vector<Instruction>& code, std::size_t w, const Instruction& copy) {
  std::vector<std::string> pending, seen;
  std::size_t end = w;
  for (std::size_t i = w + 1; i < code.size(); ++i) {
    const Instruction& in = code[i];
    if (in.op == Opcode::Branch || in.op == Opcode::Goto) {
      const std::string& target = in.operands.back().name;
      if (std::find(seen.begin(), seen.end(), target) == seen.end()) pending.push_back(target);
    } else if (in.op == Opcode::Label) {
      const std::string& name = in.operands.front().name;
      seen.push_back(name);
      pending.erase(std::remove(pending.begin(), pending.end(), name), pending.end());
      if (pending.empty()) end = i;
    } else if (in.op != Opcode::Local && in.op != Opcode::Setp && !completes(in, copy)) {
      break;
    }
  }
  return end;
}

bool mentions(const Instruction& in, const std::vector<std::string>& registers) {
  return std::any_of(in.operands.begin(), in.operands.end(), [&](const frontend::Operand& o) {
    return o.kind == frontend::Operand::Kind::Register &&
           std::find(registers.begin(), registers.end(), o.name) != registers.end();
  });
}

// Moves every instruction at `site` (in every thread) to just after the first later wait completing `copy`; the
// wait's instruction for the report, or nullptr when some thread has no such wait or the move would change what
// the moved instruction computes (a register it uses or defines is touched on the way).
const Instruction* moveAfterWait(KernelProgram& k, const Site& site, const Instruction& copy) {
  const Instruction* shown = nullptr;
  for (auto& thread : k.program.threads) {
    auto& code = thread.code;
    for (std::size_t i = 0; i < code.size(); ++i) {
      if (!at(code[i], site) || !plainAccess(code[i])) continue;
      std::size_t w = i + 1;
      while (w < code.size() && !completes(code[w], copy)) ++w;
      if (w == code.size()) return nullptr;
      const std::size_t end = waitEnd(code, w, copy);
      std::vector<std::string> registers;
      for (const auto& o : code[i].operands)
        if (o.kind == frontend::Operand::Kind::Register) registers.push_back(o.name);
      for (std::size_t j = i + 1; j <= end; ++j)
        if (mentions(code[j], registers) || at(code[j], site)) return nullptr;
      if (!shown) shown = &code[w];
      std::rotate(code.begin() + static_cast<std::ptrdiff_t>(i), code.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                  code.begin() + static_cast<std::ptrdiff_t>(end) + 1);
      i = end;  // the moved instruction is now at `end`
    }
  }
  return shown;
}

KernelPosition positionOf(const KernelProgram& k, const Instruction& in, const KernelPosition& like) {
  KernelPosition p = like;
  if (in.origin >= 0) {
    const auto& o = k.origins[static_cast<std::size_t>(in.origin)];
    p.file = o.source.file;
    p.line = o.source.line;
    p.ptxLine = o.ptx.line;
  } else {
    p.file = in.pos.file;
    p.line = p.ptxLine = in.pos.line;
  }
  return p;
}

using PairKey = std::tuple<std::string, int, std::string, int>;
PairKey pairKey(const KernelRace& r) {
  auto a = std::tie(r.first.file, r.first.line), b = std::tie(r.second.file, r.second.line);
  return b < a ? PairKey{r.second.file, r.second.line, r.first.file, r.first.line}
               : PairKey{r.first.file, r.first.line, r.second.file, r.second.line};
}

std::string lineOf(const KernelPosition& p) { return p.file + ":" + std::to_string(p.line); }

}  // namespace

std::vector<FixCandidate> fixCandidates(const KernelProgram& k, const KernelRace& race) {
  std::vector<FixCandidate> out;
  const auto a = find(k, race.first), b = find(k, race.second);
  if (!a || !b || race.kind == kPartialOverlap) return out;
  const Site sa = siteOf(*a->in), sb = siteOf(*b->in);
  const Scope scope = std::max(commonScope(k, a->thread, b->thread), siteScope(k, sa, sb));
  const std::string wa = where(*a->pos), wb = where(*b->pos);
  auto add = [&](std::string text, auto&& change) {
    FixCandidate c{std::move(text), k};
    change(c.kernel);
    out.push_back(std::move(c));
  };
  const bool accesses = plainAccess(*a->in) && plainAccess(*b->in);

  // An access of the copy's destination (or source) before the copy completed: after the wait, in its thread.
  if (asyncCopy(*a->in) != asyncCopy(*b->in)) {
    const End& copy = asyncCopy(*a->in) ? *a : *b;
    const End& early = asyncCopy(*a->in) ? *b : *a;
    FixCandidate c{"", k};
    if (const Instruction* wait = moveAfterWait(c.kernel, siteOf(*early.in), *copy.in)) {
      const KernelPosition pw = positionOf(k, *wait, *early.pos);
      c.text = "move the " + accessNoun(*early.in) + " at " + where(*early.pos) + " after the wait at " + where(pw) +
               " that completes the copy at " + where(*copy.pos) + ", in every thread";
      out.push_back(std::move(c));
    }
  }

  // A lost update first: when both ends belong to load/add/store increments of one location, the relaxed atomic
  // add is the weakest change that removes the race (release/acquire would order the accesses but still lose
  // updates).
  if (race.kind == "no synchronisation") {
    const auto ia = incrementOf(k, *a), ib = incrementOf(k, *b);
    if (ia && ib) {
      const auto sites = {*ia, *ib};
      FixCandidate c{"", k};
      bool applied = true;
      for (const auto& [load, store] : sites) applied = applied && makeAtomic(c.kernel, load, store, scope);
      if (applied) {
        c.text = "make the increment at " + wa + (lineOf(*a->pos) == lineOf(*b->pos) ? "" : " and at " + wb) +
                 " one atomic read-modify-write, atom.add.relaxed" + scopeText(scope) +
                 " (atomicAdd), instead of a load and a store that lose concurrent updates";
        out.push_back(std::move(c));
      }
    }
  }

  if (race.kind == "different proxies") {
    const bool aAsync = asyncProxy(*a->in), bAsync = asyncProxy(*b->in);
    const Instruction fence = parsedInstruction("fence.proxy.async");
    if (aAsync != bAsync) {
      const End& async = aAsync ? *a : *b;
      const End& generic = aAsync ? *b : *a;
      const Site sAsync = siteOf(*async.in), sGeneric = siteOf(*generic.in);
      add("add fence.proxy.async right before the async-proxy access at " + where(*async.pos),
          [&](KernelProgram& c) { insert(c, sAsync, false, fence); });
      add("add fence.proxy.async right after the generic-proxy access at " + where(*generic.pos) + ", in every thread",
          [&](KernelProgram& c) { insert(c, sGeneric, true, fence); });
    }
  } else if (accesses && (race.kind == "scope too narrow" || strong(*a->in) != strong(*b->in))) {
    // Widen: both accesses strong at the scope holding both threads (the plain one of a mixed pair made atomic).
    std::string text = "give both accesses scope " + scopeText(scope) + ": ";
    if (race.kind != "scope too narrow") {
      const End& plain = strong(*a->in) ? *b : *a;
      text = "make the plain " + accessNoun(*plain.in) + " at " + where(*plain.pos) + " a relaxed atomic of scope " +
             scopeText(scope) + " (" + opName(*plain.in) + ".relaxed" + scopeText(scope) + "), as the other access is: ";
    }
    text += opName(*a->in) + semText(strong(*a->in) && a->in->sem != Sem::Volatile ? semOf(*a->in) : Sem::Relaxed) +
            scopeText(scope) + " at " + wa + ", " + opName(*b->in) +
            semText(strong(*b->in) && b->in->sem != Sem::Volatile ? semOf(*b->in) : Sem::Relaxed) + scopeText(scope) + " at " + wb;
    add(text, [&](KernelProgram& c) { strengthen(c, sa, std::nullopt, scope), strengthen(c, sb, std::nullopt, scope); });
  }

  if (race.kind != "different proxies" && a->thread != b->thread) {
    // Order the pair through a flag: release a later write of the first thread, acquire the read of it before the
    // second access (both directions: either end may be the earlier one).
    for (const auto& [from, to] : {std::pair{*a, *b}, std::pair{*b, *a}})
      for (const auto& flag : flagPairs(k, from, to, 2)) {
        const Instruction* w = flag.first;  // named, not bound: clang 14 (the fuzz build) cannot capture bindings
        const Instruction* r = flag.second;
        const Site sw = siteOf(*w), sr = siteOf(*r);
        const KernelPosition pw = positionOf(k, *w, *from.pos), pr = positionOf(k, *r, *to.pos);
        const bool one = w->origin == r->origin && (w->origin >= 0 || w->pos.line == r->pos.line);
        add(one ? "make the " + accessNoun(*w) + " at " + where(pw) + " " + spelled(*w, releaseOf(*w), scope) +
                      " (the first thread releases through it, the second acquires)"
                : "make the " + accessNoun(*w) + " at " + where(pw) + " " + spelled(*w, releaseOf(*w), scope) + " and the " +
                      accessNoun(*r) + " at " + where(pr) + " that reads it " + spelled(*r, acquireOf(*r), scope),
            [&](KernelProgram& c) { strengthen(c, sw, releaseOf(*w), scope), strengthen(c, sr, acquireOf(*r), scope); });
      }
    const std::string fence = "fence.acq_rel" + scopeText(scope);
    const Instruction proto = parsedInstruction(fence);
    add("add " + fence + " right after " + wa + " and right before " + wb + ", in every thread",
        [&](KernelProgram& c) { insert(c, sa, true, proto), insert(c, sb, false, proto); });
  }

  if (k.threads[static_cast<std::size_t>(a->thread)].cta == k.threads[static_cast<std::size_t>(b->thread)].cta) {
    const Instruction bar = parsedInstruction("bar.sync 0");
    add("add bar.sync 0 (__syncthreads()) right after " + wa + ", reached by every thread of the block",
        [&](KernelProgram& c) { insert(c, sa, true, bar); });
    add("add bar.sync 0 (__syncthreads()) right before " + wb + ", reached by every thread of the block",
        [&](KernelProgram& c) { insert(c, sb, false, bar); });
  }

  if (accesses && race.kind == "no synchronisation" && !strong(*a->in) && !strong(*b->in)) {
    const Sem semA = orderingOf(*a->in), semB = orderingOf(*b->in);
    add("make the " + accessNoun(*a->in) + " at " + wa + " " + spelled(*a->in, semA, scope) + " and the " +
            accessNoun(*b->in) + " at " + wb + " " + spelled(*b->in, semB, scope),
        [&](KernelProgram& c) { strengthen(c, sa, semA, scope), strengthen(c, sb, semB, scope); });
  }
  return out;
}

bool fixRemovesRace(const KernelResult& original, const KernelRace& race, const KernelResult& fixed) {
  if (fixed.status == KernelStatus::Error) return false;
  const PairKey target = pairKey(race);
  for (const auto& r : fixed.races) {
    if (pairKey(r) == target) return false;
    const bool before = std::any_of(original.races.begin(), original.races.end(),
                                    [&](const KernelRace& o) { return pairKey(o) == pairKey(r) && o.kind == r.kind; });
    if (!before) return false;
  }
  for (const auto& h : fixed.hangs)
    if (std::none_of(original.hangs.begin(), original.hangs.end(), [&](const KernelHang& o) {
          return o.kind == h.kind && lineOf(o.at) == lineOf(h.at);
        }))
      return false;
  for (const auto& x : fixed.outOfBounds)
    if (std::none_of(original.outOfBounds.begin(), original.outOfBounds.end(),
                     [&](const OutOfBoundsAccess& o) { return lineOf(o.at) == lineOf(x.at) && o.detail == x.detail; }))
      return false;
  const std::string one = lineOf(race.first) + " and " + lineOf(race.second);
  const std::string other = lineOf(race.second) + " and " + lineOf(race.first);
  for (const auto& u : fixed.unknowns) {
    if (u.find(one) != std::string::npos || u.find(other) != std::string::npos) return false;
    if (std::find(original.unknowns.begin(), original.unknowns.end(), u) == original.unknowns.end()) return false;
  }
  return true;
}

double checkRaceFixes(const model::CatModel& model, const KernelProgram& kernel, const KernelOptions& options,
                      KernelResult& result) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto spent = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  const double budget = options.timeoutSeconds > 0 ? options.timeoutSeconds - result.checkSeconds
                                                   : std::max(5.0, 4 * result.checkSeconds);
  KernelOptions recheck = options;
  recheck.asserts.clear();
  recheck.observes.clear();
  for (auto& race : result.races) {
    if (race.kind == kPartialOverlap) {
      race.fix = "no candidate change is checked for a partial overlap; " + race.fix;
      continue;
    }
    const std::vector<FixCandidate> candidates = fixCandidates(kernel, race);
    std::size_t tried = 0;
    bool outOfTime = false;
    for (const auto& c : candidates) {
      const double left = budget - spent();
      if (left <= 0) {
        outOfTime = true;
        break;
      }
      recheck.timeoutSeconds = left;
      ++tried;
      if (fixRemovesRace(result, race, checkKernel(model, c.kernel, recheck))) {
        race.fix = c.text;
        race.fixChecked = true;
        break;
      }
    }
    if (race.fixChecked) continue;
    if (outOfTime)
      race.fix = "the time for checking fixes ran out after " + std::to_string(tried) + " of " +
                 std::to_string(candidates.size()) + " candidates; unchecked advice: " + race.fix;
    else if (candidates.empty())
      race.fix = "no candidate change applies to these instructions; unchecked advice: " + race.fix;
    else
      race.fix = "none of the " + std::to_string(candidates.size()) +
                 " candidate changes (after the wait, an atomic add, a wider scope, release/acquire, a fence pair, a "
                 "proxy fence, a barrier) removes this race without another finding; unchecked advice: " + race.fix;
  }
  result.fixSeconds = spent();
  return result.fixSeconds;
}

}  // namespace ptxmm::checker::kernel
