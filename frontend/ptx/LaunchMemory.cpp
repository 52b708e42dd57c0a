// Synthetic addresses of a launch (LaunchMemory.hpp).
#include "frontend/ptx/LaunchMemory.hpp"

#include <algorithm>

namespace ptxmm::frontend::ptx {
namespace {

std::string range(std::int64_t from, std::int64_t size) {
  return "bytes [" + std::to_string(from) + ", " + std::to_string(from + size) + ")";
}

}  // namespace

int LaunchMemory::addGlobal(Buffer buffer) {
  buffers_.push_back(std::move(buffer));
  inferred_.push_back(false);
  globals_.push_back(static_cast<int>(buffers_.size() - 1));
  return globals_.back();
}

int LaunchMemory::addSharedWindows(const std::vector<Buffer>& variables, const std::vector<std::int64_t>& align, int ctas) {
  sharedVariables_ = static_cast<int>(variables.size());
  sharedCtas_ = ctas;
  sharedFirst_ = static_cast<int>(buffers_.size());
  std::int64_t at = 0;
  for (std::size_t i = 0; i < variables.size(); ++i) {
    const std::int64_t a = std::max<std::int64_t>(1, align[i]);
    at = (at + a - 1) / a * a;
    sharedOffsets_.push_back(at);
    sharedSizes_.push_back(variables[i].bytes);
    at += variables[i].bytes;
  }
  sharedBytes_ = at;
  for (int c = 0; c < ctas; ++c)
    for (const Buffer& v : variables) {
      Buffer b = v;
      b.ownerCta = c;
      buffers_.push_back(std::move(b));
      inferred_.push_back(false);
    }
  return sharedFirst_;
}

std::uint64_t LaunchMemory::globalAddress(int buffer) const {
  const auto slot = std::find(globals_.begin(), globals_.end(), buffer) - globals_.begin();
  return kGlobalBase + static_cast<std::uint64_t>(slot) * kGlobalStride;
}

std::uint64_t LaunchMemory::sharedAddress(int variable) const {
  return kSharedStart + static_cast<std::uint64_t>(sharedOffsets_.at(static_cast<std::size_t>(variable)));
}

std::optional<LaunchMemory::SharedByte> LaunchMemory::sharedByte(std::uint64_t address, bool generic, bool clusterWindow,
                                                                 const AddressingThread& self) const {
  if (generic) {
    if (address < kGenericShared || address >= kGenericShared + static_cast<std::uint64_t>(sharedCtas_) * kWindowBytes)
      return std::nullopt;
    const std::uint64_t rel = address - kGenericShared;
    return SharedByte{static_cast<int>(rel / kWindowBytes),
                      static_cast<std::int64_t>(rel % kWindowBytes) - static_cast<std::int64_t>(kSharedStart)};
  }
  if (address < kWindowBytes) return SharedByte{self.cta, static_cast<std::int64_t>(address) - static_cast<std::int64_t>(kSharedStart)};
  if (!clusterWindow || address < kClusterWindows) return std::nullopt;
  const std::uint64_t rank = (address - kClusterWindows) / kWindowBytes;
  if (rank >= self.clusterCtas.size()) return std::nullopt;
  return SharedByte{self.clusterCtas[rank], static_cast<std::int64_t>((address - kClusterWindows) % kWindowBytes) -
                                                static_cast<std::int64_t>(kSharedStart)};
}

LaunchMemory::Resolution LaunchMemory::resolveShared(const SharedByte& byte, std::int64_t size) const {
  for (int v = 0; v < sharedVariables_; ++v) {
    const std::int64_t start = sharedOffsets_[static_cast<std::size_t>(v)];
    const std::int64_t end = start + sharedSizes_[static_cast<std::size_t>(v)];
    if (byte.offset >= start && byte.offset < end) {
      if (byte.offset + size > end)
        return Miss{range(byte.offset - start, size) + " of shared '" + buffers_[static_cast<std::size_t>(sharedBuffer(byte.cta, v))].name +
                    "' of CTA " + std::to_string(byte.cta) + " (" + std::to_string(end - start) + " bytes)"};
      return Hit{sharedBuffer(byte.cta, v), byte.offset - start};
    }
  }
  return Miss{range(byte.offset, size) + " of the shared memory of CTA " + std::to_string(byte.cta) +
              ", outside every shared variable (" + std::to_string(sharedBytes_) + " bytes in use)"};
}

LaunchMemory::Resolution LaunchMemory::resolveGlobal(std::uint64_t address, std::int64_t size, bool constOnly) const {
  if (address < kGlobalBase || address >= kGlobalBase + globals_.size() * kGlobalStride)
    return Miss{"address " + std::to_string(address) + " is in no buffer of the launch"};
  const std::uint64_t slot = (address - kGlobalBase) / kGlobalStride;
  const int buffer = globals_[slot];
  const Buffer& b = buffers_[static_cast<std::size_t>(buffer)];
  const auto offset = static_cast<std::int64_t>((address - kGlobalBase) % kGlobalStride);
  if (constOnly && b.space != Buffer::Space::Const) return Miss{"'" + b.name + "' is not in the .const space"};
  if (!inferred_[static_cast<std::size_t>(buffer)] && offset + size > b.bytes)
    return Miss{range(offset, size) + " of '" + b.name + "' (" + std::to_string(b.bytes) + " bytes)"};
  return Hit{buffer, offset};
}

LaunchMemory::Resolution LaunchMemory::resolve(std::uint64_t address, std::int64_t size, AddrSpace space,
                                               const AddressingThread& self) const {
  switch (space) {
    case AddrSpace::Global: return resolveGlobal(address, size, false);
    case AddrSpace::Const: return resolveGlobal(address, size, true);
    case AddrSpace::Shared:
    case AddrSpace::SharedCluster: {
      const auto byte = sharedByte(address, false, space == AddrSpace::SharedCluster, self);
      if (!byte) return Miss{"address " + std::to_string(address) + " is not in the shared window" +
                             std::string(space == AddrSpace::SharedCluster ? "s of the cluster" : " of the CTA")};
      return resolveShared(*byte, size);
    }
    case AddrSpace::Local:
      if (address < kLocalStart || address >= kWindowBytes) return Miss{"address " + std::to_string(address) + " is not local memory"};
      return LocalHit{static_cast<std::int64_t>(address - kLocalStart)};
    case AddrSpace::Param: return Miss{"parameter addresses are read with ld.param [name]"};
    case AddrSpace::Generic: break;
  }
  if (const auto byte = sharedByte(address, true, false, self)) {
    if (std::find(self.clusterCtas.begin(), self.clusterCtas.end(), byte->cta) == self.clusterCtas.end())
      return Miss{"generic address " + std::to_string(address) + " is shared memory of CTA " + std::to_string(byte->cta) +
                  ", outside the cluster of the thread"};
    return resolveShared(*byte, size);
  }
  if (address >= kGenericLocal && address < kGenericLocal + kWindowBytes)
    return resolve(address - kGenericLocal, size, AddrSpace::Local, self);
  return resolveGlobal(address, size, false);
}

int LaunchMemory::bufferOf(std::uint64_t address, const AddressingThread& self) const {
  for (AddrSpace s : {AddrSpace::Generic, AddrSpace::SharedCluster}) {
    const Resolution r = resolve(address, 1, s, self);
    if (const auto* hit = std::get_if<Hit>(&r)) return hit->buffer;
  }
  return -1;
}

std::optional<std::uint64_t> LaunchMemory::toGeneric(std::uint64_t address, AddrSpace space, const AddressingThread& self) const {
  switch (space) {
    case AddrSpace::Global:
    case AddrSpace::Const:
    case AddrSpace::Generic: return address;
    case AddrSpace::Shared:
    case AddrSpace::SharedCluster: {
      const auto byte = sharedByte(address, false, true, self);
      if (!byte) return std::nullopt;
      return kGenericShared + static_cast<std::uint64_t>(byte->cta) * kWindowBytes +
             static_cast<std::uint64_t>(byte->offset + static_cast<std::int64_t>(kSharedStart));
    }
    case AddrSpace::Local: return kGenericLocal + address;
    case AddrSpace::Param: return paramAt(address) ? std::optional(address) : std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> LaunchMemory::fromGeneric(std::uint64_t address, AddrSpace space, const AddressingThread& self) const {
  switch (space) {
    case AddrSpace::Global:
    case AddrSpace::Const:
    case AddrSpace::Generic: return address;
    case AddrSpace::Shared:
    case AddrSpace::SharedCluster: {
      const auto byte = sharedByte(address, true, false, self);
      if (!byte) return std::nullopt;
      const std::uint64_t inWindow = static_cast<std::uint64_t>(byte->offset + static_cast<std::int64_t>(kSharedStart));
      if (byte->cta == self.cta) return inWindow;
      const auto rank = std::find(self.clusterCtas.begin(), self.clusterCtas.end(), byte->cta) - self.clusterCtas.begin();
      // A peer CTA's byte has no .shared::cta address; its .shared::cluster one is what cvta.to.shared gives (the
      // CTA's window lies inside the cluster's), and what CCCL passes on to .shared::cluster instructions.
      if (rank >= static_cast<std::ptrdiff_t>(self.clusterCtas.size())) return std::nullopt;
      return kClusterWindows + static_cast<std::uint64_t>(rank) * kWindowBytes + inWindow;
    }
    case AddrSpace::Local:
      if (address < kGenericLocal || address >= kGenericLocal + kWindowBytes) return std::nullopt;
      return address - kGenericLocal;
    case AddrSpace::Param: return paramAt(address) ? std::optional(address) : std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> LaunchMemory::mapa(std::uint64_t address, std::uint64_t rank, bool generic,
                                                const AddressingThread& self) const {
  const auto byte = sharedByte(address, generic, true, self);
  if (!byte || rank >= self.clusterCtas.size()) return std::nullopt;
  if (std::find(self.clusterCtas.begin(), self.clusterCtas.end(), byte->cta) == self.clusterCtas.end()) return std::nullopt;
  const std::uint64_t inWindow = static_cast<std::uint64_t>(byte->offset + static_cast<std::int64_t>(kSharedStart));
  if (generic) return kGenericShared + static_cast<std::uint64_t>(self.clusterCtas[rank]) * kWindowBytes + inWindow;
  return kClusterWindows + rank * kWindowBytes + inWindow;
}

std::optional<std::uint64_t> LaunchMemory::ctaRank(std::uint64_t address, bool generic, const AddressingThread& self) const {
  const auto byte = sharedByte(address, generic, true, self);
  if (!byte) return std::nullopt;
  const auto rank = std::find(self.clusterCtas.begin(), self.clusterCtas.end(), byte->cta) - self.clusterCtas.begin();
  if (rank >= static_cast<std::ptrdiff_t>(self.clusterCtas.size())) return std::nullopt;
  return static_cast<std::uint64_t>(rank);
}

std::optional<std::pair<int, std::int64_t>> LaunchMemory::paramAt(std::uint64_t address) {
  if (address < kParamBase || address >= kParamBase + 1024 * kParamStride) return std::nullopt;
  return std::pair{static_cast<int>((address - kParamBase) / kParamStride), static_cast<std::int64_t>((address - kParamBase) % kParamStride)};
}

bool LaunchMemory::inSpace(std::uint64_t address, AddrSpace space) const {
  switch (space) {
    case AddrSpace::Shared:
    case AddrSpace::SharedCluster:
      return address >= kGenericShared && address < kGenericShared + static_cast<std::uint64_t>(sharedCtas_) * kWindowBytes;
    case AddrSpace::Local: return address >= kGenericLocal && address < kGenericLocal + kWindowBytes;
    case AddrSpace::Global:
    case AddrSpace::Const:
    case AddrSpace::Generic: return address >= kGlobalBase && address < kGlobalBase + globals_.size() * kGlobalStride;
    case AddrSpace::Param: return paramAt(address).has_value();
  }
  return false;
}

}  // namespace ptxmm::frontend::ptx
