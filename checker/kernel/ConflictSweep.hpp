// Conflicting accesses of a launch (spec §2.4): pairs of memory events whose byte ranges overlap, at least one
// a write, from different threads — or from one thread when one of them is asynchronous (an async access is
// not in program order with its own thread: a generic write then a bulk copy reading it races without
// fence.proxy.async). Found by sorting each buffer's accesses by offset and sweeping, with the writes and the
// reads that are still open kept apart, so a location read by every thread and written by one costs a pair per
// read, not a pair per two reads: the work is linear in the accesses plus the conflicting pairs.
#pragma once

#include <functional>

#include "checker/kernel/KernelGraph.hpp"

namespace ptxmm::checker::kernel {

/// Calls `visit(a, b)` for every conflicting pair of accesses (a's event id smaller than b's).
void forEachConflict(const KernelGraph& kernel, const std::function<void(const KernelAccess&, const KernelAccess&)>& visit);

}  // namespace ptxmm::checker::kernel
