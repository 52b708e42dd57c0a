// Bulk copies split into the elements other accesses use (CopyElements.hpp).
#include "frontend/ptx/CopyElements.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "frontend/ptx/LaunchArgs.hpp"

namespace ptxmm::frontend::ptx {
namespace {

using Interval = std::pair<std::int64_t, std::int64_t>;  // [lo, hi) bytes of a buffer

// The [dst], [src] pairs a bulk copy of a kernel lists before its size (a tensor copy has several), or 0 for any
// other instruction.
std::size_t bulkPairs(const Instruction& in) {
  if (in.op != Opcode::BulkCopy) return 0;
  std::size_t k = 0;
  while (k + 1 < in.operands.size() && in.operands[k].kind == Operand::Kind::Location &&
         in.operands[k + 1].kind == Operand::Kind::Location)
    k += 2;
  return k < in.operands.size() && in.operands[k].kind == Operand::Kind::Immediate ? k / 2 : 0;
}

bool isBulkData(const Instruction& in, std::size_t operand) { return operand < 2 * bulkPairs(in); }

// The kernel's own element accesses: per buffer, the byte ranges of every location an instruction names, except
// the data of bulk copies (which are what gets cut) and mbarrier objects.
class ElementAccesses {
 public:
  ElementAccesses(const LaunchContext& context, const Program& program, const std::unordered_map<std::string, int>& byName) {
    std::set<std::pair<int, Interval>> seen;
    for (const auto& t : program.threads)
      for (const auto& in : t.code)
        for (std::size_t k = 0; k < in.operands.size(); ++k) {
          const Operand& o = in.operands[k];
          if (o.kind != Operand::Kind::Location || isBulkData(in, k)) continue;
          const int loc = byName.at(o.name);
          if (context.locations[static_cast<std::size_t>(loc)].kind != LocationKind::Memory) continue;
          const KernelLocation& kl = context.kernelLocations[static_cast<std::size_t>(loc)];
          seen.insert({kl.buffer, {kl.offset, kl.offset + kl.size}});
        }
    for (const auto& [buffer, range] : seen) ranges_[buffer].push_back(range);
  }

  /// The offsets inside [lo, hi) of `buffer` (relative to lo) where an element access starts or ends, and, where
  /// `grid` > 0, the multiples of `grid` that no access spans.
  void cuts(int buffer, std::int64_t lo, std::int64_t hi, std::int64_t grid, std::set<std::int64_t>& out) const {
    std::vector<Interval> inside;
    if (const auto it = ranges_.find(buffer); it != ranges_.end())
      for (const auto& [a, b] : it->second)
        if (a < hi && b > lo) {
          if (a > lo) out.insert(a - lo);
          if (b < hi) out.insert(b - lo);
          inside.emplace_back(a, b);
        }
    if (grid <= 0) return;
    std::sort(inside.begin(), inside.end());
    std::size_t next = 0;
    std::int64_t reach = lo;  // the furthest end of the accesses starting before p
    for (std::int64_t p = (lo / grid + 1) * grid; p < hi; p += grid) {
      for (; next < inside.size() && inside[next].first < p; ++next) reach = std::max(reach, inside[next].second);
      if (reach <= p) out.insert(p - lo);
    }
  }

 private:
  std::unordered_map<int, std::vector<Interval>> ranges_;
};

// Drops the locations no instruction names, keeping the context's tables parallel.
void dropUnused(LaunchContext& context, const Program& program) {
  std::set<std::string> used;
  for (const auto& t : program.threads)
    for (const auto& in : t.code)
      for (const auto& o : in.operands)
        if (o.kind == Operand::Kind::Location) used.insert(o.name);
  std::vector<Location> locations;
  std::vector<KernelLocation> kernelLocations;
  context.locationIndex.clear();
  for (std::size_t l = 0; l < context.locations.size(); ++l) {
    if (!used.count(context.locations[l].name)) continue;
    const KernelLocation& kl = context.kernelLocations[l];
    context.locationIndex.emplace(std::tuple{kl.buffer, kl.offset, kl.size}, static_cast<int>(locations.size()));
    locations.push_back(std::move(context.locations[l]));
    kernelLocations.push_back(kl);
  }
  context.locations = std::move(locations);
  context.kernelLocations = std::move(kernelLocations);
}

}  // namespace

void splitBulkCopies(LaunchContext& context, Program& program) {
  std::unordered_map<std::string, int> byName;
  for (std::size_t l = 0; l < context.locations.size(); ++l) byName.emplace(context.locations[l].name, static_cast<int>(l));
  const ElementAccesses accesses(context, program, byName);
  const auto& buffers = context.memory.buffers();
  bool split = false;
  for (auto& t : program.threads) {
    std::vector<Instruction> code;
    code.reserve(t.code.size());
    for (auto& in : t.code) {
      const std::size_t pairs = bulkPairs(in);
      if (!pairs) {
        code.push_back(std::move(in));
        continue;
      }
      // Each [dst], [src] pair cut where the elements of either side are.
      std::vector<Operand> pieces;
      std::vector<std::int64_t> sizes;
      for (std::size_t k = 0; k < 2 * pairs; k += 2) {
        const KernelLocation dst = context.kernelLocations[static_cast<std::size_t>(byName.at(in.operands[k].name))];
        const KernelLocation src = context.kernelLocations[static_cast<std::size_t>(byName.at(in.operands[k + 1].name))];
        std::set<std::int64_t> cuts{0, dst.size};
        for (const KernelLocation& side : {dst, src}) {
          const Buffer& b = buffers[static_cast<std::size_t>(side.buffer)];
          // A pointer parameter's elements are what --assert and --observe name.
          const std::int64_t grid = b.pointerParam && b.space != Buffer::Space::Shared ? elemBytes(b.elem) : 0;
          accesses.cuts(side.buffer, side.offset, side.offset + side.size, grid, cuts);
        }
        split = split || cuts.size() > 2;
        auto piece = [&](const KernelLocation& side, std::int64_t at, std::int64_t size, const SourcePos& pos) {
          const int loc = context.location(side.buffer, side.offset + at, static_cast<int>(size), LocationKind::Memory);
          return Operand{Operand::Kind::Location, context.locations[static_cast<std::size_t>(loc)].name, 0, pos};
        };
        for (auto it = cuts.begin(); std::next(it) != cuts.end(); ++it) {
          const std::int64_t at = *it, size = *std::next(it) - at;
          sizes.push_back(size);
          pieces.push_back(piece(dst, at, size, in.operands[k].pos));
          pieces.push_back(piece(src, at, size, in.operands[k + 1].pos));
        }
      }
      if (in.bulk == BulkKind::SharedToGlobal) {
        // A bulk group completes when all of its copies have: one copy per piece, committed together.
        for (std::size_t p = 0; p < pieces.size(); p += 2) {
          Instruction part = in;
          part.operands = {pieces[p], pieces[p + 1], in.operands[2 * pairs]};
          part.operands[2].value = sizes[p / 2];
          code.push_back(std::move(part));
        }
        continue;
      }
      // One complete_tx for the whole copy: the pieces, then the total size and the mbarrier.
      pieces.insert(pieces.end(), in.operands.begin() + static_cast<std::ptrdiff_t>(2 * pairs), in.operands.end());
      in.operands = std::move(pieces);
      code.push_back(std::move(in));
    }
    t.code = std::move(code);
  }
  if (split) dropUnused(context, program);
}

}  // namespace ptxmm::frontend::ptx
