// Destroying a tree of shared_ptr nodes without recursion. A node's implicit destructor destroys its children,
// whose destructors destroy theirs: one stack frame per level, and a condition of 200,000 conjuncts or a register
// updated by 100,000 instructions is that deep, so the default destructor overflows the stack. A node type calls
// releaseChildren from its destructor; nodes still shared with other owners are only released, never entered.
#pragma once

#include <array>
#include <cstddef>
#include <memory>

namespace ptxmm::model {

/// The child slots of one node: up to three pointers to the node's own shared_ptr members (null slots allowed).
template <class Node>
struct ChildSlots {
  std::array<std::shared_ptr<const Node>*, 3> slot{};
  std::size_t count = 0;
};

/// Empties the child slots of `node` (being destroyed) without recursion and without allocating: sole-owned
/// descendants are rotated onto one chain (a child's last slot takes its parent), which is then destroyed from its
/// top, every node by then holding no sole-owned grandchild. `slotsOf(Node&)` returns a node's ChildSlots.
template <class Node, class SlotsOf>
void releaseChildren(Node& node, SlotsOf slotsOf) {
  auto hasChildren = [&](const std::shared_ptr<const Node>& p) {
    const ChildSlots<Node> s = slotsOf(const_cast<Node&>(*p));
    for (std::size_t i = 0; i < s.count; ++i)
      if (*s.slot[i]) return true;
    return false;
  };
  const ChildSlots<Node> top = slotsOf(node);
  for (std::size_t t = 0; t < top.count; ++t) {
    std::shared_ptr<const Node> cur = std::move(*top.slot[t]);
    while (cur) {
      // Others own it (or it is a leaf): dropping this reference destroys nothing deep.
      if (cur.use_count() > 1 || !hasChildren(cur)) break;
      // The node is ours alone, so it may be taken apart (it was created mutable; only the pointer is const).
      const ChildSlots<Node> s = slotsOf(const_cast<Node&>(*cur));
      std::size_t deep = s.count - 1;
      for (std::size_t i = 0; i + 1 < s.count; ++i)
        if (*s.slot[i] && s.slot[i]->use_count() == 1 && hasChildren(*s.slot[i])) {
          deep = i;
          break;
        }
      if (deep + 1 < s.count) {
        // Rotation: the deep child becomes the top, its last child moves into its place, and the old top
        // becomes the new top's last child.
        std::shared_ptr<const Node> child = std::move(*s.slot[deep]);
        const ChildSlots<Node> cs = slotsOf(const_cast<Node&>(*child));
        *s.slot[deep] = std::move(*cs.slot[cs.count - 1]);
        *cs.slot[cs.count - 1] = std::move(cur);
        cur = std::move(child);
      } else {
        // Only the last slot may still be deep: continue there, destroying the top (now shallow).
        std::shared_ptr<const Node> next = std::move(*s.slot[s.count - 1]);
        cur = std::move(next);
      }
    }
  }
}

}  // namespace ptxmm::model
