// The toolkit's graph algorithms (GraphAlgorithms.hpp): cliques and cycles from Boost.Graph, a breadth-first
// shortest path, and strict partial orders built element by element.
#include "model/GraphAlgorithms.hpp"

#include <array>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/bron_kerbosch_all_cliques.hpp>
#include <boost/graph/depth_first_search.hpp>
#include <cassert>
#include <cstdint>
#include <deque>
#include <mutex>

namespace ptxmm::model {
namespace {

using Undirected = boost::adjacency_list<boost::setS, boost::vecS, boost::undirectedS>;
using Directed = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

struct CliqueCollector {
  std::size_t n;
  std::vector<BitSet>* out;
  template <class Clique, class Graph>
  void clique(const Clique& c, const Graph&) const {
    BitSet s(n);
    for (auto v : c) s.set(v);
    out->push_back(std::move(s));
  }
};

// Records the first back edge met by a depth-first search, and the tree parents to rebuild the cycle.
struct BackEdgeFinder : boost::default_dfs_visitor {
  std::vector<std::size_t>* parent;
  std::pair<std::size_t, std::size_t>* backEdge;
  bool* found;
  template <class E, class G>
  void tree_edge(E e, const G& g) const {
    (*parent)[boost::target(e, g)] = boost::source(e, g);
  }
  template <class E, class G>
  void back_edge(E e, const G& g) const {
    if (!*found) {
      *backEdge = {boost::source(e, g), boost::target(e, g)};
      *found = true;
    }
  }
};

// Strict partial orders element by element: the new element k goes above a down-closed set D and below an
// up-closed set U, with every d in D already below every u in U, which keeps the relation transitive and yields
// each partial order exactly once.
using Rows = std::array<std::uint32_t, kMaxOrderedElements>;  // rows[a] bit b: a before b

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

std::vector<BitSet> maximalCliques(const BitMatrix& symmetric) {
  const std::size_t n = symmetric.size();
  Undirected g(n);
  for (auto [i, j] : symmetric.pairs())
    if (i < j) boost::add_edge(i, j, g);
  std::vector<BitSet> out;
  boost::bron_kerbosch_all_cliques(g, CliqueCollector{n, &out}, 1);
  return out;
}

std::vector<std::size_t> findCycle(const BitMatrix& r) {
  const std::size_t n = r.size();
  for (std::size_t i = 0; i < n; ++i)
    if (r.test(i, i)) return {i};
  Directed g(n);
  for (auto [i, j] : r.pairs()) boost::add_edge(i, j, g);
  std::vector<std::size_t> parent(n, n);
  std::pair<std::size_t, std::size_t> back{0, 0};
  bool found = false;
  boost::depth_first_search(g, boost::visitor(BackEdgeFinder{{}, &parent, &back, &found}));
  if (!found) return {};
  std::vector<std::size_t> cycle;
  for (std::size_t v = back.first; v != back.second; v = parent[v]) cycle.push_back(v);
  cycle.push_back(back.second);
  return {cycle.rbegin(), cycle.rend()};
}

std::vector<std::pair<std::size_t, std::size_t>> shortestPath(const BitMatrix& r, std::size_t i, std::size_t j) {
  std::vector<std::size_t> parent(r.size(), SIZE_MAX);
  std::deque<std::size_t> queue{i};
  std::vector<bool> seen(r.size(), false);
  while (!queue.empty()) {
    const std::size_t a = queue.front();
    queue.pop_front();
    for (std::size_t b = 0; b < r.size(); ++b) {
      if (!r.test(a, b) || seen[b]) continue;
      seen[b] = true;
      parent[b] = a;
      if (b == j) {
        std::vector<std::pair<std::size_t, std::size_t>> edges;
        for (std::size_t v = j;; v = parent[v]) {
          edges.emplace(edges.begin(), parent[v], v);
          if (parent[v] == i) break;
        }
        return edges;
      }
      queue.push_back(b);
    }
  }
  return {};
}

const std::vector<Order>& strictPartialOrders(int m) {
  assert(m >= 0 && m <= kMaxOrderedElements);
  static std::array<std::vector<Order>, kMaxOrderedElements + 1> cache;
  static std::array<std::once_flag, kMaxOrderedElements + 1> once;
  std::call_once(once[static_cast<std::size_t>(m)], [m] { extend(m, 0, Rows{}, cache[static_cast<std::size_t>(m)]); });
  return cache[static_cast<std::size_t>(m)];
}

}  // namespace ptxmm::model
