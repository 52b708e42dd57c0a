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

// The operand an integer atom/red.add adds (its write's value with the value it read taken as 0), or nothing.
std::optional<std::int64_t> FinalValues::addOperand(int write) {
  const model::Event& w = k_.event(write);
  if (w.thread < 0) return std::nullopt;
  const frontend::Instruction& in = k_.instruction(write);
  if ((in.op != frontend::Opcode::Atom && in.op != frontend::Opcode::Red) || in.atomOp != frontend::AtomOp::Add)
    return increment_ ? increment_(write) : std::nullopt;
  const model::ValuePtr term = k_.writeTerm(write);
  if (!term || model::value::containsOpaque(term) || write == 0) return std::nullopt;
  const int own = write - 1;  // the RMW's read half, emitted just before its write
  const model::Event& r = k_.event(own);
  if (!r.is(Tag::R) || r.node != w.node || r.paddr != w.paddr) return std::nullopt;
  return model::value::evaluate(term, [&](int e) -> std::optional<std::int64_t> { return e == own ? 0 : readValue(e); });
}

std::optional<std::int64_t> FinalValues::accumulate(const std::vector<int>& before) {
  std::vector<int> plain, adds;
  for (int w : before) (addOperand(w) ? adds : plain).push_back(w);
  int base = -1;
  for (int b : plain)
    if (std::all_of(plain.begin(), plain.end(), [&](int o) { return o == b || values_.before(o, b); })) base = b;
  if (base < 0) return std::nullopt;
  std::optional<std::int64_t> sum = writeValue(base);
  if (!sum) return std::nullopt;
  for (std::size_t i = 0; i < adds.size(); ++i) {
    const int a = adds[i];
    if (!values_.before(base, a)) return std::nullopt;
    for (std::size_t j = i + 1; j < adds.size(); ++j) {
      const int b = adds[j];
      if (!(values_.before(a, b) || values_.before(b, a) || morallyStrong_(a, b) || (lockOrdered_ && lockOrdered_(a, b))))
        return std::nullopt;
    }
    sum = static_cast<std::int64_t>(static_cast<std::uint64_t>(*sum) + static_cast<std::uint64_t>(*addOperand(a)));
  }
  const int loc = k_.locationOfPhysical(k_.event(base).paddr);
  const int bytes = loc < 0 ? 8 : k_.kernel().locations[static_cast<std::size_t>(loc)].size;
  return canonical(*sum, bytes);
}

}  // namespace ptxmm::checker::kernel
