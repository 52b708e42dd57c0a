// Boost.Graph-backed implementations of GraphAlgorithms.hpp.
#include "checker/GraphAlgorithms.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/bron_kerbosch_all_cliques.hpp>
#include <boost/graph/depth_first_search.hpp>

namespace ptxmm::checker {
namespace {

using Undirected = boost::adjacency_list<boost::setS, boost::vecS, boost::undirectedS>;
using Directed = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

struct CliqueCollector {
  std::size_t n;
  std::vector<model::BitSet>* out;
  template <class Clique, class Graph>
  void clique(const Clique& c, const Graph&) const {
    model::BitSet s(n);
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

}  // namespace

std::vector<model::BitSet> maximalCliques(const model::BitMatrix& symmetric) {
  const std::size_t n = symmetric.size();
  Undirected g(n);
  for (auto [i, j] : symmetric.pairs())
    if (i < j) boost::add_edge(i, j, g);
  std::vector<model::BitSet> out;
  boost::bron_kerbosch_all_cliques(g, CliqueCollector{n, &out}, 1);
  return out;
}

std::vector<std::size_t> findCycle(const model::BitMatrix& r) {
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

}  // namespace ptxmm::checker
