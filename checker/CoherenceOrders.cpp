// Strict partial orders built element by element (CoherenceOrders.hpp): the new element k goes above a
// down-closed set D and below an up-closed set U, with every d in D already below every u in U, which keeps
// the relation transitive and yields each partial order exactly once.
#include "checker/CoherenceOrders.hpp"

#include <array>
#include <cassert>
#include <cstdint>
#include <mutex>

namespace ptxmm::checker {
namespace {

using Rows = std::array<std::uint32_t, kMaxCoherenceWrites>;  // rows[a] bit b: a before b

bool downClosed(const Rows& rows, int k, std::uint32_t d) {
  for (int x = 0; x < k; ++x)
    for (int y = 0; y < k; ++y)
      if ((rows[static_cast<std::size_t>(x)] >> y & 1u) && (d >> y & 1u) && !(d >> x & 1u)) return false;
  return true;
}

bool upClosed(const Rows& rows, int k, std::uint32_t u) {
  for (int x = 0; x < k; ++x)
    if ((u >> x & 1u) && (rows[static_cast<std::size_t>(x)] & ~u & ((1u << k) - 1))) return false;
  return true;
}

void extend(int m, int k, Rows rows, std::vector<Order>& out) {
  if (k == m) {
    Order o;
    for (int a = 0; a < m; ++a)
      for (int b = 0; b < m; ++b)
        if (rows[static_cast<std::size_t>(a)] >> b & 1u) o.emplace_back(a, b);
    out.push_back(std::move(o));
    return;
  }
  const std::uint32_t all = (1u << k) - 1;
  for (std::uint32_t d = 0; d <= all; ++d) {
    if (!downClosed(rows, k, d)) continue;
    for (std::uint32_t u = 0; u <= all; ++u) {
      if ((u & d) || !upClosed(rows, k, u)) continue;
      bool ordered = true;
      for (int x = 0; x < k && ordered; ++x)
        if (d >> x & 1u) ordered = (rows[static_cast<std::size_t>(x)] & u) == u;
      if (!ordered) continue;
      Rows next = rows;
      for (int x = 0; x < k; ++x)
        if (d >> x & 1u) next[static_cast<std::size_t>(x)] |= 1u << k;
      next[static_cast<std::size_t>(k)] = u;
      extend(m, k + 1, next, out);
    }
  }
}

}  // namespace

const std::vector<Order>& strictPartialOrders(int m) {
  assert(m >= 0 && m <= kMaxCoherenceWrites);
  static std::array<std::vector<Order>, kMaxCoherenceWrites + 1> cache;
  static std::array<std::once_flag, kMaxCoherenceWrites + 1> once;
  std::call_once(once[static_cast<std::size_t>(m)], [m] { extend(m, 0, Rows{}, cache[static_cast<std::size_t>(m)]); });
  return cache[static_cast<std::size_t>(m)];
}

}  // namespace ptxmm::checker
