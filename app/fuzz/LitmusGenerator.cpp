// The random litmus generator (LitmusGenerator.hpp). A test is built thread by thread as top-level blocks
// (one instruction, or an if-then), then barriers and a spin loop are placed between blocks, so that no barrier
// or loop lands inside a conditional body (where it could deadlock or overlap a branch). Every write takes a
// fresh constant for its location, so the values a condition compares against are the ones that can occur.
#include "app/fuzz/LitmusGenerator.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "frontend/InstructionTable.hpp"
#include "frontend/LitmusWriter.hpp"

namespace ptxmm::app {
namespace {

using namespace frontend;

using model::Proxy;
using model::Scope;

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and the same stream on every platform.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  /// Uniform in [0, n) for n > 0; rejecting the low 2^64 mod n draws removes the modulo bias.
  std::uint64_t below(std::uint64_t n) {
    const std::uint64_t threshold = (0 - n) % n;
    for (;;)
      if (std::uint64_t r = next(); r >= threshold) return r % n;
  }

  /// Uniform in [lo, hi].
  int between(int lo, int hi) { return lo + static_cast<int>(below(static_cast<std::uint64_t>(hi - lo) + 1)); }

  bool percent(int p) { return static_cast<int>(below(100)) < p; }

  /// An index drawn in proportion to `weights` (non-positive weights are never drawn; one must be positive).
  std::size_t weighted(const std::vector<int>& weights) {
    std::uint64_t total = 0;
    for (int w : weights) total += static_cast<std::uint64_t>(std::max(w, 0));
    std::uint64_t r = below(total);
    for (std::size_t i = 0;; ++i) {
      const auto w = static_cast<std::uint64_t>(std::max(weights[i], 0));
      if (r < w) return i;
      r -= w;
    }
  }

  template <class T>
  const T& pick(const std::vector<T>& items) {
    return items[below(items.size())];
  }

 private:
  std::uint64_t state_;
};

/// A physical location and what has been written to it so far.
struct PhysicalLocation {
  std::string name;
  int reads = 0;   // loads and read-modify-writes
  int writes = 0;  // stores and read-modify-writes
  std::vector<std::int64_t> values{0};  // the initial value and every constant written: what reads may see
  std::vector<int> writers;             // threads with a write to it
};

/// A name code can access: a location, one of its aliases, or a synonym for another proxy.
struct Address {
  std::string name;
  std::size_t location = 0;
  Proxy proxy = Proxy::Generic;
};

/// A register that holds a value read from `location`: a candidate for conditions and branches.
struct LoadedRegister {
  std::string name;
  std::size_t location = 0;
};

/// A register a later store of the thread may write: the result of arithmetic, or an initialised register.
struct PendingValue {
  std::string name;
  std::optional<std::int64_t> value;  // known for initialised registers
};

struct ThreadCode {
  int cta = 0;
  int gpu = 0;
  std::optional<int> cluster;
  std::vector<std::vector<std::string>> blocks;  // top-level units of cells
  std::vector<LoadedRegister> loaded;
  std::optional<PendingValue> pending;
  std::size_t afterBarriers = 0;  // blocks before this index precede the thread's last barrier
  int registers = 0;
  int predicates = 0;
  int labels = 0;
};

// In the order of InstructionWeights and PlacementWeights.
enum class Kind : std::uint8_t { Load, Store, Atom, Red, Fence, ProxyFence, Local, IfThen };
enum class Placement : std::uint8_t { SameCta, DifferentCtas, MixedCtas, Clusters, Gpus };

std::string scopeSuffix(Scope scope) { return "." + std::string(model::scopeName(scope)); }

std::string semSuffix(Sem sem) { return sem == Sem::Default ? "" : "." + std::string(semName(sem)); }

class Generator {
 public:
  Generator(std::uint64_t seed, const GeneratorOptions& options) : seed_(seed), rng_(seed), o_(options) {}

  std::string run();

 private:
  void declareLocations();
  void declareAliases();
  void place(int threads);
  void fillThread(std::size_t index);
  std::vector<std::string> drawBlock(std::size_t thread, bool nested);
  Kind drawKind(const ThreadCode& t, bool nested);
  std::optional<std::string> load(std::size_t thread);
  std::optional<std::string> store(std::size_t thread);
  std::optional<std::string> atom(std::size_t thread);
  std::optional<std::string> red(std::size_t thread);
  std::string fence();
  std::string proxyFence();
  std::string local(ThreadCode& t);
  std::vector<std::string> ifThen(std::size_t thread);
  double candidates(const std::optional<std::size_t>& location, int reads, int writes, int sc, int paths) const;
  bool affordable(const std::optional<std::size_t>& location, int reads, int writes, int sc = 0, int paths = 1) const {
    return candidates(location, reads, writes, sc, paths) <= o_.maxCandidateEstimate;
  }
  void accessed(std::size_t location, std::size_t thread, int reads, int writes,
                std::optional<std::int64_t> value = std::nullopt);
  void initialiseRegister();
  void addBarriers();
  void insertBarrierRound(const std::vector<std::size_t>& participants, int id);
  std::vector<std::size_t> barrierParticipants();
  void addSpinLoop();
  std::string condition();
  std::string conditionAtom();
  Scope drawScope();
  std::string freshRegister(ThreadCode& t) { return "r" + std::to_string(t.registers++); }
  std::vector<const Address*> writable(bool surfaceToo) const;
  std::int64_t nextValue(std::size_t location) const {
    return *std::max_element(locations_[location].values.begin(), locations_[location].values.end()) + 1;
  }
  LitmusText text() const;

  std::uint64_t seed_;
  SplitMix64 rng_;
  const GeneratorOptions& o_;
  std::vector<PhysicalLocation> locations_;
  std::vector<Address> addresses_;
  std::vector<std::string> aliasDeclarations_;
  std::vector<std::string> proxyFences_;  // the fence.proxy forms that fence something declared
  std::vector<std::string> registerInits_;
  std::vector<ThreadCode> threads_;
  int fenceSc_ = 0;
  double paths_ = 1;  // control-flow paths and cas outcomes the explicit engine tries, all threads together
};

std::string Generator::run() {
  declareLocations();
  if (rng_.percent(o_.proxyPercent)) declareAliases();
  place(rng_.between(o_.minThreads, o_.maxThreads));
  if (rng_.percent(o_.regInitPercent)) initialiseRegister();
  for (std::size_t t = 0; t < threads_.size(); ++t) fillThread(t);
  if (rng_.percent(o_.barrierPercent)) addBarriers();
  if (rng_.percent(o_.spinPercent)) addSpinLoop();
  LitmusText out = text();
  out.condition = condition();
  return renderLitmus(out);
}

void Generator::declareLocations() {
  static const std::vector<std::string> kNames = {"x", "y", "z", "u", "v", "w"};
  const int count = rng_.between(1, o_.maxLocations);
  for (int i = 0; i < count; ++i) {
    const auto index = static_cast<std::size_t>(i);
    const std::string name = index < kNames.size() ? kNames[index] : "m" + std::to_string(i);
    PhysicalLocation location;
    location.name = name;
    locations_.push_back(std::move(location));
    addresses_.push_back({name, index, Proxy::Generic});
  }
}

void Generator::declareAliases() {
  // One or two of: a generic alias (another virtual address), a surface, texture or constant synonym.
  struct AliasKind {
    std::string name;
    Proxy proxy;
    std::string fence;
  };
  std::vector<AliasKind> kinds = {{"a", Proxy::Generic, "fence.proxy.alias"},
                                  {"s", Proxy::Surface, "fence.proxy.surface"},
                                  {"t", Proxy::Texture, "fence.proxy.texture"},
                                  {"c", Proxy::Constant, "fence.proxy.constant"}};
  const int count = rng_.between(1, 2);
  for (int i = 0; i < count; ++i) {
    const std::size_t k = rng_.below(kinds.size());
    const std::size_t target = rng_.below(locations_.size());
    addresses_.push_back({kinds[k].name, target, kinds[k].proxy});
    aliasDeclarations_.push_back(kinds[k].name + " @ " + std::string(model::proxyName(kinds[k].proxy)) +
                                 " aliases " + locations_[target].name);
    proxyFences_.push_back(kinds[k].fence);
    kinds.erase(kinds.begin() + static_cast<std::ptrdiff_t>(k));
  }
}

void Generator::place(int threads) {
  const auto& w = o_.placement;
  const auto placement =
      static_cast<Placement>(rng_.weighted({w.sameCta, w.differentCtas, w.mixedCtas, w.clusters, w.gpus}));
  std::map<int, int> clusterOfCta;
  for (int i = 0; i < threads; ++i) {
    ThreadCode t;
    switch (placement) {
      case Placement::SameCta: break;
      case Placement::DifferentCtas: t.cta = i; break;
      case Placement::MixedCtas: t.cta = rng_.between(0, 1); break;
      case Placement::Clusters:
        t.cta = rng_.between(0, threads - 1);
        // Every thread of a CTA must name the same cluster.
        t.cluster = clusterOfCta.try_emplace(t.cta, rng_.between(0, 1)).first->second;
        break;
      case Placement::Gpus:
        t.gpu = rng_.between(0, 1);
        t.cta = rng_.between(0, 1);
        break;
    }
    threads_.push_back(std::move(t));
  }
}

void Generator::initialiseRegister() {
  const std::size_t thread = rng_.below(threads_.size());
  ThreadCode& t = threads_[thread];
  const std::string reg = freshRegister(t);
  const std::int64_t value = rng_.between(1, 3);
  registerInits_.push_back("P" + std::to_string(thread) + ":" + reg + "=" + std::to_string(value));
  t.pending = PendingValue{reg, value};
}

void Generator::fillThread(std::size_t index) {
  ThreadCode& t = threads_[index];
  const int count = rng_.between(o_.minInstructions, o_.maxInstructions);
  // A draw the cost estimate refuses leaves the thread shorter, but never empty: fences cost nothing there.
  for (int i = 0; i < count; ++i)
    if (auto block = drawBlock(index, false); !block.empty()) t.blocks.push_back(std::move(block));
  if (t.blocks.empty()) t.blocks.push_back({"fence.acq_rel" + scopeSuffix(drawScope())});
}

Kind Generator::drawKind(const ThreadCode& t, bool nested) {
  const auto& w = o_.weights;
  const bool branchable = !nested && !t.loaded.empty();
  return static_cast<Kind>(rng_.weighted({w.load, w.store, w.atom, w.red, w.fence,
                                          proxyFences_.empty() ? 0 : w.proxyFence, w.local,
                                          branchable ? w.ifThen : 0}));
}

std::vector<std::string> Generator::drawBlock(std::size_t thread, bool nested) {
  auto cells = [](const std::optional<std::string>& cell) {
    return cell ? std::vector<std::string>{*cell} : std::vector<std::string>{};
  };
  switch (drawKind(threads_[thread], nested)) {
    case Kind::Load: return cells(load(thread));
    case Kind::Store: return cells(store(thread));
    case Kind::Atom: return cells(atom(thread));
    case Kind::Red: return cells(red(thread));
    case Kind::Fence: return {fence()};
    case Kind::ProxyFence: return {proxyFence()};
    case Kind::Local: return {local(threads_[thread])};
    case Kind::IfThen: return ifThen(thread);
  }
  return {};
}

Scope Generator::drawScope() {
  static const std::vector<Scope> kScopes = {Scope::Cta, Scope::Cluster, Scope::Gpu, Scope::Sys};
  return kScopes[rng_.weighted({3, 1, 4, 1})];
}

std::optional<std::string> Generator::load(std::size_t thread) {
  const Address& address = rng_.pick(addresses_);
  if (!affordable(address.location, 1, 0)) return std::nullopt;
  std::string mnemonic;
  switch (address.proxy) {
    case Proxy::Surface: mnemonic = "suld.weak"; break;
    case Proxy::Texture: mnemonic = "tld.weak"; break;
    case Proxy::Constant: mnemonic = "cold.weak"; break;
    case Proxy::Async:
    case Proxy::Tensormap: return std::nullopt;  // only asynchronous instructions access these proxies
    case Proxy::Generic: {
      static const std::vector<Sem> kSems = {Sem::Default, Sem::Weak, Sem::Relaxed, Sem::Acquire, Sem::Volatile};
      const Sem sem = kSems[rng_.weighted({1, 3, 3, 3, 1})];
      mnemonic = "ld" + semSuffix(sem);
      if (sem == Sem::Relaxed || sem == Sem::Acquire) mnemonic += scopeSuffix(drawScope());
      break;
    }
  }
  accessed(address.location, thread, 1, 0);
  ThreadCode& t = threads_[thread];
  const std::string dst = freshRegister(t);
  t.loaded.push_back({dst, address.location});
  return mnemonic + " " + dst + ", " + address.name;
}

std::vector<const Address*> Generator::writable(bool surfaceToo) const {
  // Texture and constant memory are read-only; the write bound keeps coherence orders enumerable.
  std::vector<const Address*> out;
  for (const Address& a : addresses_)
    if ((a.proxy == Proxy::Generic || (surfaceToo && a.proxy == Proxy::Surface)) &&
        locations_[a.location].writes < o_.maxWritesPerLocation)
      out.push_back(&a);
  return out;
}

void Generator::accessed(std::size_t location, std::size_t thread, int reads, int writes,
                         std::optional<std::int64_t> value) {
  PhysicalLocation& l = locations_[location];
  l.reads += reads;
  l.writes += writes;
  if (writes) l.writers.push_back(static_cast<int>(thread));
  if (value && std::find(l.values.begin(), l.values.end(), *value) == l.values.end()) l.values.push_back(*value);
}

double Generator::candidates(const std::optional<std::size_t>& location, int reads, int writes, int sc,
                             int paths) const {
  // Non-initial writes -> strict partial coherence orders with the initial write first (README).
  static const std::vector<double> kCoherenceOrders = {1, 1, 3, 19, 219, 4231, 130023};
  double estimate = paths_ * paths;
  for (int i = 2; i <= fenceSc_ + sc; ++i) estimate *= i;  // Fence-SC total orders
  for (std::size_t l = 0; l < locations_.size(); ++l) {
    const bool here = location == l;
    const int r = locations_[l].reads + (here ? reads : 0);
    const auto w = static_cast<std::size_t>(locations_[l].writes + (here ? writes : 0));
    // Each read may take any write of its location or the initial value.
    estimate *= std::pow(static_cast<double>(w + 1), r);
    estimate *= w < kCoherenceOrders.size() ? kCoherenceOrders[w] : HUGE_VAL;
  }
  return estimate;
}

std::optional<std::string> Generator::store(std::size_t thread) {
  const auto targets = writable(true);
  if (targets.empty()) return load(thread);
  const Address& address = *rng_.pick(targets);
  if (!affordable(address.location, 0, 1)) return std::nullopt;
  ThreadCode& t = threads_[thread];
  std::string value;
  std::optional<std::int64_t> known;
  if (t.pending && rng_.percent(60)) {
    value = t.pending->name;
    known = t.pending->value;
    t.pending.reset();
  } else {
    known = nextValue(address.location);
    value = std::to_string(*known);
  }
  accessed(address.location, thread, 0, 1, known);
  if (address.proxy == Proxy::Surface) return "sust.weak " + address.name + ", " + value;
  static const std::vector<Sem> kSems = {Sem::Weak, Sem::Relaxed, Sem::Release, Sem::Volatile};
  const Sem sem = kSems[rng_.weighted({3, 3, 3, 1})];
  std::string mnemonic = "st" + semSuffix(sem);
  if (sem == Sem::Relaxed || sem == Sem::Release) mnemonic += scopeSuffix(drawScope());
  return mnemonic + " " + address.name + ", " + value;
}

std::optional<std::string> Generator::atom(std::size_t thread) {
  const auto targets = writable(false);
  if (targets.empty()) return load(thread);
  const Address& address = *rng_.pick(targets);
  const std::size_t op = rng_.weighted({3, 2, 3, 1, 1});  // add, exch, cas, inc, max
  const bool cas = op == 2;
  // A cas may fail or succeed: two outcomes for the explicit engine to try.
  if (!affordable(address.location, 1, 1, 0, cas ? 2 : 1)) return std::nullopt;
  if (cas) paths_ *= 2;
  ThreadCode& t = threads_[thread];
  static const std::vector<Sem> kSems = {Sem::Default, Sem::Relaxed, Sem::Acquire, Sem::Release, Sem::AcqRel};
  const Sem sem = kSems[rng_.weighted({2, 2, 2, 2, 2})];
  const std::string head = "atom" + semSuffix(sem) + (sem == Sem::Default ? "" : scopeSuffix(drawScope()));
  const std::string dst = freshRegister(t);
  const std::string operands = " " + dst + ", " + address.name + ", ";
  const std::int64_t fresh = nextValue(address.location);
  const std::int64_t expected = rng_.pick(locations_[address.location].values);
  t.loaded.push_back({dst, address.location});
  accessed(address.location, thread, 1, 1, fresh);
  switch (op) {
    case 0: return head + ".add" + operands + "1";
    case 1: return head + ".exch" + operands + std::to_string(fresh);
    case 2: return head + ".cas" + operands + std::to_string(expected) + ", " + std::to_string(fresh);
    case 3: return head + ".inc" + operands + "2";
    default: return head + ".max" + operands + std::to_string(fresh);
  }
}

std::optional<std::string> Generator::red(std::size_t thread) {
  const auto targets = writable(false);
  if (targets.empty()) return load(thread);
  const Address& address = *rng_.pick(targets);
  if (!affordable(address.location, 1, 1)) return std::nullopt;
  accessed(address.location, thread, 1, 1, nextValue(address.location));
  static const std::vector<Sem> kSems = {Sem::Default, Sem::Relaxed, Sem::Release};
  const Sem sem = kSems[rng_.weighted({1, 2, 2})];
  return "red" + semSuffix(sem) + (sem == Sem::Default ? "" : scopeSuffix(drawScope())) + ".add " + address.name +
         ", 1";
}

std::string Generator::fence() {
  // fence.sc orders multiply the explicit engine's work, so they are capped; membar.gl is fence.sc.gpu.
  const bool scAllowed = fenceSc_ < o_.maxFenceSc && affordable(std::nullopt, 0, 0, 1);
  const int sc = scAllowed ? 3 : 0;
  const int membar = scAllowed ? 1 : 0;
  static const std::vector<Sem> kSems = {Sem::Sc, Sem::AcqRel, Sem::Acquire, Sem::Release};
  const std::size_t choice = rng_.weighted({sc, 3, 1, 1, membar});
  if (choice == 0 || choice == 4) ++fenceSc_;
  if (choice == 4) return "membar.gl";
  return "fence" + semSuffix(kSems[choice]) + scopeSuffix(drawScope());
}

std::string Generator::proxyFence() { return rng_.pick(proxyFences_); }

std::string Generator::local(ThreadCode& t) {
  const std::string dst = freshRegister(t);
  std::string text;
  if (t.loaded.empty()) {
    // Dat3M spells a move of a constant `ld r, V`.
    text = (rng_.percent(50) ? "mov " : "ld ") + dst + ", " + std::to_string(rng_.between(1, 3));
  } else {
    // xor r, r gives 0 but still carries a data dependency on the load.
    const std::string src = rng_.pick(t.loaded).name;
    switch (rng_.below(3)) {
      case 0: text = "add " + dst + ", " + src + ", 1"; break;
      case 1: text = "xor " + dst + ", " + src + ", " + src; break;
      default: text = "mov " + dst + ", " + src; break;
    }
  }
  t.pending = PendingValue{dst, std::nullopt};
  return text;
}

std::vector<std::string> Generator::ifThen(std::size_t thread) {
  if (!affordable(std::nullopt, 0, 0, 0, 2)) return drawBlock(thread, true);
  paths_ *= 2;
  ThreadCode& t = threads_[thread];
  const LoadedRegister reg = rng_.pick(t.loaded);
  const std::string value = std::to_string(rng_.pick(locations_[reg.location].values));
  const std::string label = "L" + std::to_string(t.labels++);
  std::vector<std::string> cells;
  // The body runs when the register holds `value`: skip it otherwise.
  if (rng_.percent(50)) {
    cells.push_back("bne " + reg.name + ", " + value + ", " + label);
  } else {
    const std::string p = "p" + std::to_string(t.predicates++);
    cells.push_back("setp.eq.b32 " + p + ", " + reg.name + ", " + value);
    cells.push_back("@!" + p + " bra " + label);
  }
  std::vector<std::string> body = drawBlock(thread, true);
  if (body.empty()) body.push_back(local(t));  // the estimate refused the drawn body; arithmetic costs nothing
  cells.insert(cells.end(), body.begin(), body.end());
  cells.push_back(label + ":");
  return cells;
}

std::vector<std::size_t> Generator::barrierParticipants() {
  // A CTA with at least two threads; make one by moving P1 into P0's CTA when there is none.
  std::map<std::pair<int, int>, std::vector<std::size_t>> ctas;
  for (std::size_t i = 0; i < threads_.size(); ++i) ctas[{threads_[i].gpu, threads_[i].cta}].push_back(i);
  std::vector<std::vector<std::size_t>> shared;
  for (auto& [key, members] : ctas)
    if (members.size() >= 2) shared.push_back(members);
  if (shared.empty()) {
    threads_[1].gpu = threads_[0].gpu;
    threads_[1].cta = threads_[0].cta;
    threads_[1].cluster = threads_[0].cluster;
    return {0, 1};
  }
  return rng_.pick(shared);
}

void Generator::addBarriers() {
  const std::vector<std::size_t> participants = barrierParticipants();
  const int rounds = rng_.percent(20) ? 2 : 1;
  const int firstId = rng_.between(0, 2);
  for (int round = 0; round < rounds; ++round) insertBarrierRound(participants, firstId + round);
}

void Generator::insertBarrierRound(const std::vector<std::size_t>& participants, int id) {
  // PTX's forms (without a count, with one, arrive + sync) and Dat3M's named form `bar.cta.sync LABEL, ID{, Q}`
  // whose id may sit in a register (initialised, or moved there with Dat3M's `ld r, V`).
  enum Style : std::size_t { All, Counted, ArriveSync, Named };
  const auto style = static_cast<Style>(rng_.weighted({2, 1, 1, 2}));
  int arrivals = static_cast<int>(participants.size());
  if (style != All && rng_.percent(o_.deadlockPercent)) ++arrivals;  // one warp too many: never completes
  const std::string count = ", " + std::to_string(32 * arrivals);
  const std::size_t arriver = rng_.below(participants.size());
  const bool quorum = style == Named && rng_.percent(50);
  const std::string label = std::to_string(rng_.between(0, 1));
  for (std::size_t i = 0; i < participants.size(); ++i) {
    ThreadCode& t = threads_[participants[i]];
    std::vector<std::string> cells;
    switch (style) {
      case All: cells.push_back("bar.cta.sync " + std::to_string(id)); break;
      case Counted: cells.push_back("bar.sync " + std::to_string(id) + count); break;
      case ArriveSync: cells.push_back((i == arriver ? "bar.arrive " : "bar.sync ") + std::to_string(id) + count); break;
      case Named: {
        std::string resource = std::to_string(id);
        if (rng_.percent(50)) {
          resource = freshRegister(t);
          if (rng_.percent(50)) registerInits_.push_back("P" + std::to_string(participants[i]) + ":" + resource + "=" + std::to_string(id));
          else cells.push_back("ld " + resource + ", " + std::to_string(id));
        }
        // A quorum below the arrivals lets a subset pass alone, above them it never completes.
        const std::string q = quorum ? ", " + std::to_string(rng_.between(1, arrivals)) : "";
        cells.push_back("bar.cta.sync " + label + ", " + resource + q);
        break;
      }
    }
    // Each round goes after the thread's earlier rounds, so no two threads wait for each other crosswise.
    const std::size_t at = t.afterBarriers + rng_.below(t.blocks.size() - t.afterBarriers + 1);
    t.blocks.insert(t.blocks.begin() + static_cast<std::ptrdiff_t>(at), cells);
    t.afterBarriers = at + 1;
  }
}

void Generator::addSpinLoop() {
  // Spin on a location some other thread writes, so that the loop can exit.
  std::vector<std::pair<std::size_t, std::size_t>> choices;  // (thread, location)
  for (std::size_t t = 0; t < threads_.size(); ++t)
    for (std::size_t l = 0; l < locations_.size(); ++l)
      for (int writer : locations_[l].writers)
        if (writer != static_cast<int>(t)) {
          choices.emplace_back(t, l);
          break;
        }
  if (choices.empty()) return;
  const auto [thread, location] = rng_.pick(choices);
  if (!affordable(location, 1, 0)) return;
  accessed(location, thread, 1, 0);
  ThreadCode& t = threads_[thread];
  const std::string reg = freshRegister(t);
  const std::string label = "LC" + std::to_string(t.labels++);
  static const std::vector<std::string> kLoads = {"ld.acquire.gpu", "ld.relaxed.gpu", "ld.volatile", "ld.weak"};
  const std::string load = kLoads[rng_.weighted({3, 2, 1, 1})];
  t.loaded.push_back({reg, location});
  const auto at = static_cast<std::ptrdiff_t>(rng_.below(t.blocks.size() + 1));
  t.blocks.insert(t.blocks.begin() + at, {label + ": " + load + " " + reg + ", " + locations_[location].name,
                                          "beq " + reg + ", 0, " + label});
}

std::string Generator::conditionAtom() {
  std::vector<std::pair<std::string, std::size_t>> registers;  // ("P1:r0", location)
  for (std::size_t t = 0; t < threads_.size(); ++t)
    for (const LoadedRegister& r : threads_[t].loaded) registers.emplace_back("P" + std::to_string(t) + ":" + r.name, r.location);
  std::string lhs;
  std::size_t location = 0;
  if (!registers.empty() && rng_.percent(75)) {
    std::tie(lhs, location) = rng_.pick(registers);
  } else {
    location = rng_.below(locations_.size());
    lhs = locations_[location].name;
  }
  const std::string op = rng_.percent(85) ? " == " : " != ";
  return lhs + op + std::to_string(rng_.pick(locations_[location].values));
}

std::string Generator::condition() {
  const auto& w = o_.quantifier;
  static const std::vector<std::string> kQuantifiers = {"exists", "~exists", "forall"};
  std::string text = kQuantifiers[rng_.weighted({w.exists, w.notExists, w.forall})] + " (" + conditionAtom();
  const int atoms = rng_.between(1, 3);
  for (int i = 1; i < atoms; ++i) text += (rng_.percent(80) ? " /\\ " : " \\/ ") + conditionAtom();
  return text + ")";
}

LitmusText Generator::text() const {
  LitmusText out;
  out.name = "fuzz-" + std::to_string(seed_);
  out.descriptions.push_back("Random test from ptxmm's litmus generator, seed " + std::to_string(seed_));
  for (const auto& l : locations_) out.initEntries.push_back(l.name + "=0");
  out.initEntries.insert(out.initEntries.end(), aliasDeclarations_.begin(), aliasDeclarations_.end());
  out.initEntries.insert(out.initEntries.end(), registerInits_.begin(), registerInits_.end());
  for (std::size_t i = 0; i < threads_.size(); ++i) {
    const ThreadCode& t = threads_[i];
    std::string header = "P" + std::to_string(i) + "@cta " + std::to_string(t.cta);
    if (t.cluster) header += ",cluster " + std::to_string(*t.cluster);
    out.threadHeaders.push_back(header + ",gpu " + std::to_string(t.gpu));
    std::vector<std::string> cells;
    for (const auto& block : t.blocks) cells.insert(cells.end(), block.begin(), block.end());
    out.cells.push_back(std::move(cells));
  }
  return out;
}

void validate(const GeneratorOptions& o) {
  const auto& w = o.weights;
  if (o.minThreads < 2 || o.maxThreads < o.minThreads || o.maxLocations < 1 || o.minInstructions < 1 ||
      o.maxInstructions < o.minInstructions || o.maxWritesPerLocation < 1 || o.maxFenceSc < 0)
    throw std::invalid_argument("generateLitmus: inconsistent bounds in GeneratorOptions");
  if (w.load <= 0)
    throw std::invalid_argument("generateLitmus: the load weight must be positive (other kinds fall back to it)");
  const auto& p = o.placement;
  const auto& q = o.quantifier;
  if (std::max({p.sameCta, p.differentCtas, p.mixedCtas, p.clusters, p.gpus}) <= 0 ||
      std::max({q.exists, q.notExists, q.forall}) <= 0)
    throw std::invalid_argument("generateLitmus: every weight table needs a positive weight");
}

}  // namespace

std::string generateLitmus(std::uint64_t seed, const GeneratorOptions& options) {
  validate(options);
  return Generator(seed, options).run();
}

}  // namespace ptxmm::app
