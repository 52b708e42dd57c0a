// Where things are: the scope tree of the threads (warp, CTA, cluster, GPU instances, numbered densely) and the
// memory of a test (physical locations, virtual addresses, owners of shared memory, the initial writes), plus the
// virtual location of each cluster's barrier. Part of the unroller.
#pragma once

#include <map>
#include <string>

#include "frontend/Program.hpp"
#include "model/EventGraph.hpp"

namespace ptxmm::frontend {

struct Address {
  int vaddr = -1;
  int paddr = -1;
  LocationKind kind = LocationKind::Memory;
  int ownerCta = -1;  // CTA instance whose shared/tensor memory holds it; -1 for global memory
  int size = 4;
  std::string name;   // the name the address was declared with
  model::SourcePos pos;
};

struct Layout {
  std::map<std::string, Address> addresses;
  std::map<int, Address> clusterBarriers;  // cluster instance -> its barrier's virtual location [§2.8, A9]
};

/// The value of `&name` (Dat3M's `P0:r1 = &x`, `y = &x`): a distinct non-zero constant per virtual address, so
/// addresses compare as their locations do. Addresses are not dereferenced (litmus accesses name locations).
std::int64_t addressValue(const Address& a);

/// Numbers the scope tree (warp, CTA, cluster, GPU instances) into graph.threads. Throws model::UserError
/// for a CTA placed in two clusters.
void placeThreads(const Program& program, model::EventGraph& graph);

/// Lays out memory (after placeThreads): physical locations, virtual addresses (aliases and synonyms, §1.2),
/// owners, one barrier location per cluster that uses barrier.cluster, and the initial writes.
Layout layOutMemory(const Program& program, model::EventGraph& graph);

}  // namespace ptxmm::frontend
