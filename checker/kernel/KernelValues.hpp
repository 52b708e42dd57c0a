// Static values (design step 6): a read whose writer is forced by the barrier phases and program order — its
// "must-rf" write w, unconditional (on every path, outside loops, not the write half of a compare-and-swap, which
// happens only when the compare succeeds), ordered before the read, with every other write to its bytes ordered before
// w or after the read — returns w's value in every execution (Coherence and Causality, spec §3.1 and §3.6: a
// write causally between w and the read would be co-after w, one causally after the read cannot be read), and w's
// value is its term evaluated over such reads. Concrete inputs make most values of barrier-synchronised kernels
// concrete this way; what stays unknown is left to the engines on a slice. A read of bytes that accesses of other
// sizes overlap (a byte of a 16-bit store) is forced byte by byte: each byte by its own forced writer.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "checker/kernel/BarrierPhases.hpp"
#include "checker/kernel/KernelGraph.hpp"

namespace ptxmm::checker::kernel {

class KernelValues {
 public:
  KernelValues(const KernelGraph& kernel, const BarrierPhases& phases);

  /// The write (or initial write) every execution reads `read` from, or -1 when the order does not force one.
  int mustReadFrom(int read);
  /// The value `read` returns in every execution, when forced (byte by byte where other sizes overlap it).
  std::optional<std::int64_t> readValue(int read);
  /// The value write `write` stores in every execution, when forced (never for a write that may not happen, the
  /// write half of a compare-and-swap).
  std::optional<std::int64_t> writeValue(int write);
  /// The writes of each physical location (initial write first).
  const std::vector<int>& writesOf(int paddr) const { return writes_[static_cast<std::size_t>(paddr)]; }
  /// Whether some write to other bytes overlaps the location (mixed sizes): no value is forced there.
  bool mixed(int paddr) const { return mixed_[static_cast<std::size_t>(paddr)]; }
  /// Whether the barrier phases, program order, issue order (b an asynchronous access) or the extra order put a
  /// before b whenever both happen: in causality order for two memory accesses (an async-proxy b needs a proxy
  /// fence between them), in base causality otherwise.
  bool before(int a, int b) const;
  /// Adds an order that holds in every execution (static mbarriers, cluster barriers); before the first query.
  void addOrder(std::function<bool(int, int)> ordered) { extra_.push_back(std::move(ordered)); }

 private:
  const KernelGraph& k_;
  const BarrierPhases& phases_;
  std::vector<std::function<bool(int, int)>> extra_;
  std::vector<std::vector<int>> writes_;
  std::vector<bool> mixed_;
  std::map<int, std::vector<const KernelAccess*>> writeAccesses_;  // per buffer: the reachable writes
  // Base causality between a and b as the orders give it, whatever the proxies of the two events.
  bool ordered(int a, int b) const;
  // The value of a read of a location other sizes overlap, byte by byte: each byte's forced writer (as for a
  // whole location, among the writes of that byte: Coherence and Causality are bytewise, spec §2.13, §3.6).
  std::optional<std::int64_t> bytewiseReadValue(int read);

  std::vector<int> proxyFences_;    // explicit proxy fences, by id
  std::vector<bool> issueOrdered_;  // per event: an asynchronous event after all its thread did before its instruction
  std::vector<std::vector<int>> retiredBy_;  // per asynchronous access: the waits in its thread's po that retire it
  std::map<int, int> mustRf_;
  std::map<int, std::optional<std::int64_t>> writeValues_;
  std::vector<int> inProgress_;
};

}  // namespace ptxmm::checker::kernel
