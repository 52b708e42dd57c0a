// Sums of atomic adds and forced execution in complete executions (FinalValues.hpp).
#include "checker/kernel/FinalValues.hpp"

#include <algorithm>

namespace ptxmm::checker::kernel {
namespace {

using model::Tag;

// Beyond this many writers of one location the pairwise tests are not worth it: nothing is decided.
constexpr std::size_t kMaxWriters = 1024;

// A value as the engines keep a location of `bytes` bytes: its low bits, sign-extended.
std::int64_t canonical(std::int64_t v, int bytes) {
  if (bytes <= 0 || bytes >= 8) return v;
  const int shift = 64 - 8 * bytes;
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(v) << shift) >> shift;
}

}  // namespace

FinalValues::FinalValues(const KernelGraph& kernel, KernelValues& values, std::function<bool(int, int)> morallyStrong)
    : k_(kernel), values_(values), morallyStrong_(std::move(morallyStrong)) {}

void FinalValues::addLockedIncrements(std::function<std::optional<std::int64_t>(int)> increment,
                                      std::function<bool(int, int)> lockOrdered) {
  increment_ = std::move(increment);
  lockOrdered_ = std::move(lockOrdered);
}

std::optional<bool> FinalValues::executes(int e) {
  const model::Event& ev = k_.event(e);
  if (ev.thread < 0) return true;  // an initial write
  if (k_.unconditional(e) && !k_.inLoop(e) && !ev.existsIf) return true;
  if (const auto it = executes_.find(e); it != executes_.end()) return it->second;
  // The thread's paths that forced values do not refute: e happens when all of them hold it, never when none does
  // (a compare-and-swap's write half is on the paths whose assumption says its compare succeeds).
  // A path into the unrolling bound stands for executions the paths do not list: nothing is decided then.
  bool some = false, all = true;
  std::optional<bool> out;
  for (const ThreadPath& p : k_.paths(ev.thread)) {
    const bool refuted = std::any_of(p.assumptions.begin(), p.assumptions.end(), [&](const PathAssumption& a) {
      const auto v = model::value::evaluate(a.term, [&](int r) { return values_.readValue(r); });
      return v && (*v != 0) != a.holds;
    });
    if (refuted) continue;
    if (p.boundLoop >= 0) return executes_[e] = std::nullopt;
    const bool has = std::find(p.events.begin(), p.events.end(), e) != p.events.end();
    some = some || has;
    all = all && has;
  }
  if (all && some) out = true;
  if (!some) out = false;
  return executes_[e] = out;
}

std::optional<std::int64_t> FinalValues::finalValue(int paddr) {
  if (values_.mixed(paddr)) return std::nullopt;
  const auto& writes = values_.writesOf(paddr);
  if (writes.size() > kMaxWriters) return std::nullopt;
  std::vector<int> executed;
  for (int w : writes) {
    const auto ex = executes(w);
    if (!ex) return std::nullopt;
    if (*ex) executed.push_back(w);
  }
  return accumulate(executed);
}

std::optional<std::int64_t> FinalValues::readValue(int read) {
  if (const auto v = values_.readValue(read)) return v;
  if (const auto it = reads_.find(read); it != reads_.end()) return it->second;
  if (inProgress_.count(read)) return std::nullopt;
  inProgress_.insert(read);
  std::optional<std::int64_t> out;
  const model::Event& r = k_.event(read);
  const auto& writes = values_.writesOf(r.paddr);
  if (!values_.mixed(r.paddr) && !r.is(Tag::AS) && writes.size() <= kMaxWriters) {
    std::vector<int> before;
    bool ordered = true;
    for (int w : writes) {
      if (w == read) continue;
      const auto ex = executes(w);
      if (!ex) {
        ordered = false;
        break;
      }
      if (!*ex || values_.before(read, w)) continue;
      if (!values_.before(w, read)) {
        ordered = false;
        break;
      }
      before.push_back(w);
    }
    if (ordered) out = accumulate(before);
  }
  inProgress_.erase(read);
  return reads_[read] = out;
}

std::optional<std::int64_t> FinalValues::writeValue(int write) {
  const model::Event& w = k_.event(write);
  if (w.is(Tag::I)) return k_.graph().initValues[static_cast<std::size_t>(w.paddr)];
  if (const auto v = values_.writeValue(write)) return v;
  const model::ValuePtr term = k_.writeTerm(write);
  if (!term || model::value::containsOpaque(term)) return std::nullopt;
  return model::value::evaluate(term, [&](int r) { return readValue(r); });
}

std::optional<RmwUpdate> FinalValues::update(int write) {
  const model::Event& w = k_.event(write);
  if (w.thread < 0) return std::nullopt;
  RmwUpdate u;
  u.write = write;
  const frontend::Instruction& in = k_.instruction(write);
  const bool atomic = in.op == frontend::Opcode::Atom || in.op == frontend::Opcode::Red;
  // A compare-and-swap's write may not happen (its count is not static): it is no update.
  if (!atomic || w.existsIf) {
    const auto inc = increment_ ? increment_(write) : std::nullopt;
    if (!inc) return std::nullopt;
    u.apply = [v = static_cast<std::uint64_t>(*inc)](std::int64_t old) {
      return static_cast<std::int64_t>(static_cast<std::uint64_t>(old) + v);
    };
    u.shape = "old + " + std::to_string(*inc);
    return u;
  }
  const model::ValuePtr term = k_.writeTerm(write);
  if (!term || write == 0) return std::nullopt;
  const int own = write - 1;  // the RMW's read half, emitted just before its write
  const model::Event& r = k_.event(own);
  if (!r.is(Tag::R) || r.node != w.node || r.paddr != w.paddr) return std::nullopt;
  u.op = in.atomOp;
  u.bits = in.valueBits;
  u.isUnsigned = in.valueUnsigned;
  if (in.opaqueValue) return floatUpdate(u, term, own);
  if (model::value::containsOpaque(term)) return std::nullopt;
  // Its shape: the term over the value read, every other read replaced by its forced value.
  bool known = true;
  u.shape = model::value::print(term, [](int reg) { return "r" + std::to_string(reg); }, [&](int e) -> std::string {
    if (e == own) return "old";
    const auto v = readValue(e);
    known = known && v.has_value();
    return v ? std::to_string(*v) : "?";
  });
  if (!known) return std::nullopt;
  u.apply = [this, term, own](std::int64_t old) {
    return model::value::evaluate(term, [&](int e) { return e == own ? std::optional<std::int64_t>(old) : readValue(e); });
  };
  return u;
}

// The evaluator does not compute floats: a float atom.add writes opaque(old + a) (InstructionSemantics), so its
// addend a is evaluated here and the add done in IEEE arithmetic.
std::optional<RmwUpdate> FinalValues::floatUpdate(RmwUpdate u, const model::ValuePtr& term, int own) {
  using model::ValueOp;
  if (u.op != frontend::AtomOp::Add || term->op != ValueOp::Opaque || term->args[0]->op != ValueOp::Add)
    return std::nullopt;
  const model::ValuePtr& old = term->args[0]->args[0];
  const model::ValuePtr& addend = term->args[0]->args[1];
  if (old->op != ValueOp::Read || old->index != own || model::value::containsOpaque(addend)) return std::nullopt;
  const auto a = model::value::evaluate(addend, [&](int e) { return readValue(e); });
  if (!a || !floatAdd(0, *a, u.bits)) return std::nullopt;
  u.isFloat = true;
  u.shape = "float add " + std::to_string(*a);
  u.apply = [a = *a, bits = u.bits](std::int64_t x) { return floatAdd(x, a, bits); };
  return u;
}

std::optional<std::int64_t> FinalValues::accumulate(const std::vector<int>& before) {
  // The base: the latest write every plain write is before, with every update ordered before or after it; the
  // updates after it are what combineUpdates combines (those before it are in its value).
  std::vector<std::optional<RmwUpdate>> updates;
  for (int w : before) updates.push_back(update(w));
  int base = -1, baseRank = -1;
  for (std::size_t b = 0; b < before.size(); ++b) {
    int rank = 0;
    bool ok = true;
    for (std::size_t o = 0; o < before.size() && ok; ++o) {
      if (o == b) continue;
      const bool prior = values_.before(before[o], before[b]);
      rank += prior;
      ok = prior || (updates[o] && values_.before(before[b], before[o]));
    }
    if (ok && rank > baseRank) base = static_cast<int>(b), baseRank = rank;
  }
  if (base < 0) return std::nullopt;
  const int b = before[static_cast<std::size_t>(base)];
  const std::optional<std::int64_t> from = writeValue(b);
  if (!from) return std::nullopt;
  std::vector<RmwUpdate> after;
  for (std::size_t i = 0; i < before.size(); ++i)
    if (static_cast<int>(i) != base && !values_.before(before[i], b)) after.push_back(std::move(*updates[i]));
  // The updates are totally ordered in coherence, each reading its predecessor: pairwise morally strong (or
  // ordered, or under one lock).
  for (std::size_t i = 0; i < after.size(); ++i)
    for (std::size_t j = i + 1; j < after.size(); ++j) {
      const int x = after[i].write, y = after[j].write;
      const bool ordered = values_.before(x, y) || values_.before(y, x);
      if (!(ordered || morallyStrong_(x, y) || (lockOrdered_ && lockOrdered_(x, y)))) return std::nullopt;
    }
  const auto value = combineUpdates(*from, after, [this](int x, int y) { return values_.before(x, y); });
  if (!value) return std::nullopt;
  const int loc = k_.locationOfPhysical(k_.event(b).paddr);
  const int bytes = loc < 0 ? 8 : k_.kernel().locations[static_cast<std::size_t>(loc)].size;
  return canonical(*value, bytes);
}

}  // namespace ptxmm::checker::kernel
