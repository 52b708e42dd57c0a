// Enumeration of barrier generations (BarrierMatching.hpp) under the rules of BarrierRules.hpp.
#include "checker/BarrierMatching.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace ptxmm::checker {
namespace {

using Key = std::tuple<BarrierClass, std::int64_t, std::optional<std::int64_t>>;
using PerThread = std::map<int, std::vector<std::size_t>>;  // thread -> its arrivals at the key, in order

// One arrangement of one key's arrivals: syncbar edges as (arrival, arrival whose wait half it reaches).
struct Option {
  std::set<std::pair<std::size_t, std::size_t>> edges;
  std::vector<DivergentRelease> divergent;
};

class KeyArrangements {
 public:
  KeyArrangements(const Key& key, const PerThread& perThread, const std::vector<Arrival>& arrivals,
                  const BarrierContext& context)
      : key_(key), perThread_(perThread), arrivals_(arrivals), context_(context) {}

  std::vector<Option> options() {
    switch (std::get<0>(key_).kind) {
      case BarrierKind::All: return byArrivalIndex(false);
      case BarrierKind::Quorum: return byArrivalIndex(true);
      case BarrierKind::Counted: return counted();
    }
    return {};
  }

 private:
  // A generation is consistent with its threads when every running wait is in a complete generation and every
  // blocked thread in an incomplete one.
  bool consistent(const std::vector<std::size_t>& members, bool complete) const {
    return std::all_of(members.begin(), members.end(), [&](std::size_t m) {
      const Arrival& a = arrivals_[m];
      return complete ? !a.blocked : (a.blocked || !a.wait);
    });
  }

  void connect(const std::vector<std::size_t>& members, Option& o) const {
    for (std::size_t from : members)
      for (std::size_t to : members)
        if (arrivals_[from].thread != arrivals_[to].thread && arrivals_[to].wait) o.edges.emplace(from, to);
  }

  std::set<int> users() const {
    std::set<int> out;
    for (const auto& [t, list] : perThread_) out.insert(t);
    for (const StaticUse& u : *context_.uses)
      if (u.cls == std::get<0>(key_) && u.id == std::get<1>(key_) && u.size == std::get<2>(key_)) out.insert(u.thread);
    return out;
  }

  // All and Quorum: generation k holds the k-th arrival of every thread that arrives k times.
  std::vector<Option> byArrivalIndex(bool quorum) const {
    std::size_t generations = 0;
    for (const auto& [t, list] : perThread_) generations = std::max(generations, list.size());
    const std::set<int> userSet = users();
    std::vector<Option> options{Option{}};
    for (std::size_t k = 0; k < generations; ++k) {
      std::vector<std::size_t> members;
      std::vector<int> released;
      bool complete = true;
      for (int u : userSet) {
        const auto it = perThread_.find(u);
        if (it != perThread_.end() && it->second.size() > k) members.push_back(it->second[k]);
        else if (context_.exited[static_cast<std::size_t>(u)]) released.push_back(u);
        else complete = false;
      }
      if (quorum) complete = static_cast<std::int64_t>(members.size()) >= *std::get<2>(key_);
      if (!consistent(members, complete)) return {};
      if (!complete) continue;
      std::vector<Option> next;
      for (const auto& synchronising : quorum ? quorumSubsets(members) : std::vector<std::vector<std::size_t>>{members})
        for (const Option& base : options) {
          Option o = base;
          connect(synchronising, o);
          const bool aligned = std::any_of(members.begin(), members.end(), [&](std::size_t m) { return arrivals_[m].aligned; });
          if (!quorum && aligned)
            for (int u : released) o.divergent.push_back({members.front(), u});
          next.push_back(std::move(o));
        }
      options = std::move(next);
    }
    return options;
  }

  // Dat3M's quorum barrier lets any Q or more of a generation's arrivals synchronise.
  std::vector<std::vector<std::size_t>> quorumSubsets(const std::vector<std::size_t>& members) const {
    const std::int64_t q = *std::get<2>(key_);
    std::vector<std::vector<std::size_t>> out;
    for (std::size_t mask = 1; mask < (std::size_t{1} << members.size()); ++mask) {
      std::vector<std::size_t> subset;
      for (std::size_t i = 0; i < members.size(); ++i)
        if (mask & (std::size_t{1} << i)) subset.push_back(members[i]);
      if (static_cast<std::int64_t>(subset.size()) >= q) out.push_back(std::move(subset));
    }
    return out;
  }

  // Counted: each generation takes the next arrival of `size` distinct threads; what is left is one incomplete
  // generation, at most one arrival per thread (arriving twice before completion is undefined).
  std::vector<Option> counted() {
    const auto size = countedSize(*context_.graph, *std::get<2>(key_));
    for (const auto& [t, list] : perThread_) next_[t] = 0;
    std::vector<Option> out;
    Option current;
    countedGenerations(size ? static_cast<std::size_t>(*size) : SIZE_MAX, current, out);
    return out;
  }

  void countedGenerations(std::size_t size, Option& current, std::vector<Option>& out) {
    std::vector<int> ready;
    for (const auto& [t, list] : perThread_)
      if (next_[t] < list.size()) ready.push_back(t);
    if (ready.size() < size) {
      std::vector<std::size_t> tail;
      for (const auto& [t, list] : perThread_) {
        if (list.size() - next_[t] > 1) return;
        if (next_[t] < list.size()) tail.push_back(list[next_[t]]);
      }
      if (consistent(tail, false)) out.push_back(current);
      return;
    }
    std::vector<bool> pick(ready.size(), false);
    std::fill(pick.begin(), pick.begin() + static_cast<std::ptrdiff_t>(size), true);
    do {
      std::vector<std::size_t> members;
      for (std::size_t i = 0; i < ready.size(); ++i)
        if (pick[i]) members.push_back(perThread_.at(ready[i])[next_[ready[i]]++]);
      if (consistent(members, true)) {
        Option saved = current;
        connect(members, current);
        countedGenerations(size, current, out);
        current = std::move(saved);
      }
      for (std::size_t i = 0; i < ready.size(); ++i)
        if (pick[i]) --next_[ready[i]];
    } while (std::prev_permutation(pick.begin(), pick.end()));
  }

  const Key& key_;
  const PerThread& perThread_;
  const std::vector<Arrival>& arrivals_;
  const BarrierContext& context_;
  std::map<int, std::size_t> next_;
};

}  // namespace

std::vector<BarrierMatching> barrierMatchings(const std::vector<Arrival>& arrivals, const BarrierContext& context,
                                              std::size_t n) {
  std::map<Key, PerThread> barriers;
  for (std::size_t i = 0; i < arrivals.size(); ++i) {
    const Arrival& a = arrivals[i];
    barriers[{a.cls, a.id, a.size}][a.thread].push_back(i);
  }
  std::vector<BarrierMatching> result{BarrierMatching{model::BitMatrix(n), {}}};
  for (const auto& [key, perThread] : barriers) {
    const std::vector<Option> options = KeyArrangements(key, perThread, arrivals, context).options();
    std::vector<BarrierMatching> combined;
    for (const auto& base : result)
      for (const auto& option : options) {
        BarrierMatching m = base;
        for (auto [from, to] : option.edges) m.syncbar.set(arrivals[from].arrive, *arrivals[to].wait);
        m.divergent.insert(m.divergent.end(), option.divergent.begin(), option.divergent.end());
        combined.push_back(std::move(m));
      }
    result = std::move(combined);
  }
  // Quorum subsets can give one syncbar several ways; an execution is counted once.
  std::vector<BarrierMatching> distinct;
  for (auto& m : result)
    if (std::none_of(distinct.begin(), distinct.end(), [&](const BarrierMatching& d) { return d.syncbar == m.syncbar; }))
      distinct.push_back(std::move(m));
  return distinct;
}

}  // namespace ptxmm::checker
