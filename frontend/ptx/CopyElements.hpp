// Bulk copies as the elements the kernel's other accesses use. A bulk copy (cp.async.bulk) has no access size of
// its own: PTX compares the bytes it moves element by element with the generic accesses of a kernel (the race
// between a generic store of tile[3] and the copy's read of tile[3] is one of different proxies, not a partial
// overlap). Once every thread's residual code is written, each copy's byte range is cut where another access of
// its source or destination starts or ends (and, in a pointer parameter's buffer, at its element boundaries
// where no access lies, so `--assert out[i]` names one location), so that every access either is one piece or
// does not overlap it. A copy completing on an mbarrier becomes one instruction listing its pieces (one
// complete_tx for all of them); a copy of a bulk group becomes one instruction per piece, all in the same group.
// A tensor copy arrives as several [dst], [src] pairs (the rows of its box): each pair is cut the same way.
// Accesses that still overlap with different sizes (a 4-byte store inside an 8-byte load) are true partial
// overlaps and stay so.
#pragma once

#include "frontend/ptx/LaunchContext.hpp"

namespace ptxmm::frontend::ptx {

/// Splits the bulk copies of `program` (the launch's residual code, its locations in `context`) into pieces as
/// above, and drops the locations no instruction names any more.
void splitBulkCopies(LaunchContext& context, Program& program);

}  // namespace ptxmm::frontend::ptx
