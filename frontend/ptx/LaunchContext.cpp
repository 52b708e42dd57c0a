// The shared state of a launch's instantiation (LaunchContext.hpp): write sets, location naming, origins.
#include "frontend/ptx/LaunchContext.hpp"

#include <algorithm>

#include "frontend/ptx/LaunchArgs.hpp"

namespace ptxmm::frontend::ptx {

void WriteSet::addRange(int buffer, std::int64_t offset, std::int64_t size) {
  auto& ranges = ranges_[buffer];
  std::int64_t start = offset, end = offset + size;
  auto it = ranges.upper_bound(start);
  if (it != ranges.begin() && std::prev(it)->second >= start) --it;
  while (it != ranges.end() && it->first <= end) {
    start = std::min(start, it->first);
    end = std::max(end, it->second);
    it = ranges.erase(it);
  }
  ranges.emplace(start, end);
}

void WriteSet::addBuffer(int buffer) { whole_[buffer] = true; }

bool WriteSet::mayWrite(int buffer, std::int64_t offset, std::int64_t size) const {
  if (everything_ || whole_.count(buffer)) return true;
  const auto found = ranges_.find(buffer);
  if (found == ranges_.end()) return false;
  const auto& ranges = found->second;
  auto it = ranges.upper_bound(offset + size - 1);
  if (it == ranges.begin()) return false;
  --it;
  return it->second > offset;
}

int LaunchContext::function(const std::string& name) {
  if (auto it = functionIndex.find(name); it != functionIndex.end()) return it->second;
  const Function* fn = module.function(name);
  if (!fn || !fn->hasBody) return -1;
  functions.push_back(decodeFunction(*fn, decodeContext));
  const int index = static_cast<int>(functions.size() - 1);
  functionIndex.emplace(name, index);
  return index;
}

int LaunchContext::location(int buffer, std::int64_t offset, int size, LocationKind kind) {
  const auto key = std::tuple{buffer, offset, size};
  if (auto it = locationIndex.find(key); it != locationIndex.end()) {
    if (kind == LocationKind::MBarrier) locations[static_cast<std::size_t>(it->second)].kind = kind;
    return it->second;
  }
  const Buffer& b = memory.buffers()[static_cast<std::size_t>(buffer)];
  const int elem = elemBytes(b.elem);
  // Named after the buffer: `out[3]` for a whole element, `out+13:1` (byte offset, size) otherwise; shared
  // memory names its CTA: `s@cta1[5]`.
  std::string name = b.name + (b.space == Buffer::Space::Shared ? "@cta" + std::to_string(b.ownerCta) : "");
  if (size == elem && offset % elem == 0) name += "[" + std::to_string(offset / elem) + "]";
  else name += "+" + std::to_string(offset) + ":" + std::to_string(size);
  Location loc;
  loc.name = std::move(name);
  loc.pos = b.pos;
  loc.kind = kind;
  loc.size = size;
  if (b.space == Buffer::Space::Shared) {
    loc.space = StateSpace::Shared;
    loc.ownerCta = b.ownerCta;
  } else {
    loc.space = StateSpace::Global;
  }
  std::uint64_t bits = 0;
  for (int i = std::min(size, 8) - 1; i >= 0; --i) {
    const auto at = static_cast<std::size_t>(offset + i);
    bits = bits << 8 | (at < b.init.size() ? b.init[at] : 0);
  }
  loc.init = size >= 8 ? static_cast<std::int64_t>(bits) : signExtend(bits, size * 8);
  locations.push_back(std::move(loc));
  kernelLocations.push_back({buffer, offset, size});
  const int index = static_cast<int>(locations.size() - 1);
  locationIndex.emplace(key, index);
  return index;
}

int LaunchContext::origin(int function, int pc) {
  const auto key = std::pair{function, pc};
  if (auto it = originIndex.find(key); it != originIndex.end()) return it->second;
  const DecodedFunction& fn = functions[static_cast<std::size_t>(function)];
  const PtxInstruction& in = fn.source->code[static_cast<std::size_t>(pc)];
  KernelOrigin o;
  o.ptx = in.pos;
  o.ptxText = in.text;
  o.source = o.inner = in.pos;
  if (in.loc >= 0) {
    const auto& locs = fn.source->locs;
    auto fileName = [&](int index) {
      auto it = module.files.find(index);
      return it == module.files.end() ? "<file " + std::to_string(index) + ">" : it->second;
    };
    const LocInfo& l = locs[static_cast<std::size_t>(in.loc)];
    o.inner = {fileName(l.file), l.line, l.col};
    o.source = o.inner;
    // The kernel's own line: follow inlined_at to the outermost call site. A call site inlined itself is the
    // position of an earlier .loc that carries its own inlined_at.
    std::optional<SourcePos> at = l.inlinedAt;
    for (int hops = 0; at && hops < 64; ++hops) {
      o.source = *at;
      std::optional<SourcePos> outer;
      for (int k = in.loc; k >= 0; --k) {
        const LocInfo& c = locs[static_cast<std::size_t>(k)];
        if (c.inlinedAt && fileName(c.file) == at->file && c.line == at->line && c.col == at->col) {
          outer = c.inlinedAt;
          break;
        }
      }
      at = outer;
    }
  }
  origins.push_back(std::move(o));
  const int index = static_cast<int>(origins.size() - 1);
  originIndex.emplace(key, index);
  return index;
}

void LaunchContext::addIncomplete(int thread, int origin, const std::string& reason) {
  for (const auto& i : incomplete)
    if (i.thread == thread && i.origin == origin && i.reason == reason) return;
  incomplete.push_back({thread, origin, reason});
}

}  // namespace ptxmm::frontend::ptx
