// Enumeration of barrier generations (BarrierMatching.hpp).
#include "checker/BarrierMatching.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <tuple>

namespace ptxmm::checker {
namespace {

using Generation = std::vector<const Arrival*>;
using Assignment = std::vector<Generation>;  // complete generations of one barrier

// A leftover (incomplete) generation is harmless only if nobody in it waits and no thread appears twice.
bool validTail(const std::map<int, std::vector<const Arrival*>>& perThread, const std::map<int, std::size_t>& next) {
  for (const auto& [t, list] : perThread) {
    const std::size_t left = list.size() - next.at(t);
    if (left > 1) return false;
    if (left == 1 && list.back()->wait) return false;
  }
  return true;
}

// Generations by arrival counting: each generation takes the next arrival of `size` distinct threads.
void countedGenerations(const std::map<int, std::vector<const Arrival*>>& perThread, std::map<int, std::size_t>& next,
                        std::size_t size, Assignment& current, std::vector<Assignment>& out) {
  std::vector<int> ready;
  for (const auto& [t, list] : perThread)
    if (next[t] < list.size()) ready.push_back(t);
  if (ready.size() < size) {
    if (validTail(perThread, next)) out.push_back(current);
    return;
  }
  // Every subset of `size` ready threads can complete the next generation.
  std::vector<bool> pick(ready.size(), false);
  std::fill(pick.begin(), pick.begin() + static_cast<std::ptrdiff_t>(size), true);
  do {
    Generation g;
    for (std::size_t i = 0; i < ready.size(); ++i)
      if (pick[i]) g.push_back(perThread.at(ready[i])[next[ready[i]]++]);
    current.push_back(g);
    countedGenerations(perThread, next, size, current, out);
    current.pop_back();
    for (std::size_t i = 0; i < ready.size(); ++i)
      if (pick[i]) --next[ready[i]];
  } while (std::prev_permutation(pick.begin(), pick.end()));
}

// Generations by participation: generation k is the k-th arrival of every participating thread.
std::vector<Assignment> participantGenerations(const std::map<int, std::vector<const Arrival*>>& perThread) {
  std::size_t complete = SIZE_MAX;
  for (const auto& [t, list] : perThread) complete = std::min(complete, list.size());
  Assignment a;
  for (std::size_t k = 0; k < complete; ++k) {
    Generation g;
    for (const auto& [t, list] : perThread) g.push_back(list[k]);
    a.push_back(g);
  }
  std::map<int, std::size_t> next;
  for (const auto& [t, list] : perThread) next[t] = complete;
  if (!validTail(perThread, next)) return {};
  return {a};
}

}  // namespace

bool BarrierKey::operator<(const BarrierKey& o) const {
  return std::tie(domain, id, count) < std::tie(o.domain, o.id, o.count);
}

std::map<BarrierKey, std::vector<const Arrival*>> byBarrier(const std::vector<Arrival>& arrivals) {
  std::map<BarrierKey, std::vector<const Arrival*>> out;
  for (const auto& a : arrivals) out[{a.domain, a.id, a.count}].push_back(&a);
  return out;
}

std::optional<std::size_t> countedGenerationSize(const BarrierKey& barrier, int threadsPerArrival) {
  if (barrier.count && *barrier.count > 0 && *barrier.count % threadsPerArrival == 0)
    return static_cast<std::size_t>(*barrier.count / threadsPerArrival);
  return std::nullopt;
}

std::vector<model::BitMatrix> barrierMatchings(const std::vector<Arrival>& arrivals, std::size_t n, int threadsPerArrival) {
  std::vector<model::BitMatrix> result{model::BitMatrix(n)};
  for (const auto& [key, list] : byBarrier(arrivals)) {
    std::map<int, std::vector<const Arrival*>> perThread;
    for (const Arrival* a : list) perThread[a->thread].push_back(a);
    std::vector<Assignment> options;
    if (const auto size = countedGenerationSize(key, threadsPerArrival)) {
      std::map<int, std::size_t> next;
      for (const auto& [t, arrivalsOfThread] : perThread) next[t] = 0;
      Assignment current;
      countedGenerations(perThread, next, *size, current, options);
    } else {
      options = participantGenerations(perThread);
    }
    std::vector<model::BitMatrix> combined;
    for (const auto& base : result)
      for (const auto& assignment : options) {
        model::BitMatrix m = base;
        for (const auto& g : assignment)
          for (const Arrival* from : g)
            for (const Arrival* to : g)
              if (from->thread != to->thread && to->wait) m.set(from->arrive, *to->wait);
        combined.push_back(std::move(m));
      }
    result = std::move(combined);
  }
  return result;
}

}  // namespace ptxmm::checker
