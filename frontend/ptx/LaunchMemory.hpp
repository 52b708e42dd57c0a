// The memory of a launch with synthetic byte addresses, so that pointer arithmetic, cvta, mapa, generic
// addressing and `mov %r, sharedVar` work on plain integers. Every buffer gets a range far from the others:
//   global and const buffers    generic = global = kGlobalBase + k * kGlobalStride + offset
//   shared window of a CTA      .shared::cta address = kSharedStart + offset (the same in every CTA);
//                               .shared::cluster address of rank r = kClusterWindows + r * kWindowBytes + kSharedStart + offset;
//                               generic = kGenericShared + cta * kWindowBytes + kSharedStart + offset
//   local memory of a thread    .local address = kLocalStart + offset; generic = kGenericLocal + that
//   a tensor-map parameter      .param address = generic = kParamBase + index * kParamStride (its address is taken
//                               with mov/cvta.param only to name the map of a cp.async.bulk.tensor)
// A concrete access [address, address + size) in a state space resolves to (buffer, byte offset), to a
// thread-private local byte, or to a reason it reaches no buffer (an out-of-bounds finding).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "frontend/ptx/KernelProgram.hpp"

namespace ptxmm::frontend::ptx {

inline constexpr std::uint64_t kGlobalBase = std::uint64_t{1} << 40;
inline constexpr std::uint64_t kGlobalStride = std::uint64_t{1} << 36;
inline constexpr std::uint64_t kWindowBytes = std::uint64_t{1} << 24;
inline constexpr std::uint64_t kSharedStart = 0x400;  // sm_90 reserves the first KiB of the window
inline constexpr std::uint64_t kClusterWindows = std::uint64_t{1} << 28;
inline constexpr std::uint64_t kGenericShared = std::uint64_t{1} << 48;
inline constexpr std::uint64_t kLocalStart = 0x400;
inline constexpr std::uint64_t kGenericLocal = std::uint64_t{1} << 47;
inline constexpr std::uint64_t kParamBase = std::uint64_t{1} << 46;
inline constexpr std::uint64_t kParamStride = 4096;

/// The state space an instruction names for its address (Generic when it names none).
enum class AddrSpace : std::uint8_t { Generic, Global, Shared, SharedCluster, Local, Const, Param };

/// Where a thread sits, as far as addressing is concerned.
struct AddressingThread {
  int cta = 0;
  int cluster = 0;
  int ctaRank = 0;
  std::vector<int> clusterCtas;  // linear CTA id of each rank of the thread's cluster
};

class LaunchMemory {
 public:
  struct Hit {
    int buffer = -1;
    std::int64_t offset = 0;
  };
  struct LocalHit {
    std::int64_t offset = 0;  // from kLocalStart
  };
  struct Miss {
    std::string detail;
  };
  using Resolution = std::variant<Hit, LocalHit, Miss>;

  /// Adds a global or const buffer; returns its index in buffers().
  int addGlobal(Buffer buffer);
  /// Lays out one CTA's shared variables (in order, each aligned to `align[i]`), creating a buffer per variable
  /// per CTA for `ctas` CTAs. Returns the index of CTA 0's first buffer; CTA c's variable i is that + c * n + i.
  int addSharedWindows(const std::vector<Buffer>& variables, const std::vector<std::int64_t>& align, int ctas);

  const std::vector<Buffer>& buffers() const { return buffers_; }
  std::vector<Buffer>& buffers() { return buffers_; }
  /// Marks a buffer's length as not given by the user: accesses may extend it (up to the stride).
  void setInferredLength(int buffer) { inferred_.at(static_cast<std::size_t>(buffer)) = true; }
  bool inferredLength(int buffer) const { return inferred_.at(static_cast<std::size_t>(buffer)); }

  /// The generic (= global) address of byte 0 of a global or const buffer.
  std::uint64_t globalAddress(int buffer) const;
  /// The .shared::cta address of byte 0 of shared variable `variable` (same in every CTA).
  std::uint64_t sharedAddress(int variable) const;
  /// The shared buffer of variable `variable` in CTA `cta`.
  int sharedBuffer(int cta, int variable) const { return sharedFirst_ + cta * sharedVariables_ + variable; }
  /// Bytes of static shared memory per CTA (including the dynamic area's offset).
  std::int64_t sharedBytes() const { return sharedBytes_; }

  /// Resolves a concrete access. `size` bytes at `address` named in `space` by thread `self`.
  Resolution resolve(std::uint64_t address, std::int64_t size, AddrSpace space, const AddressingThread& self) const;
  /// The buffer a concrete address points into (any space, generic view of `self`), or -1.
  int bufferOf(std::uint64_t address, const AddressingThread& self) const;

  /// cvta.<space>: the generic address of `address` in `space`; nullopt when it is not an address there.
  std::optional<std::uint64_t> toGeneric(std::uint64_t address, AddrSpace space, const AddressingThread& self) const;
  /// cvta.to.<space>: the `space` address of a generic address; nullopt when it is not in that space.
  std::optional<std::uint64_t> fromGeneric(std::uint64_t address, AddrSpace space, const AddressingThread& self) const;
  /// mapa: the address of the same shared byte in the CTA of rank `rank` of the thread's cluster, as a
  /// .shared::cluster address (`generic` false) or a generic one; nullopt when `address` is not shared memory
  /// of the cluster or the rank does not exist.
  std::optional<std::uint64_t> mapa(std::uint64_t address, std::uint64_t rank, bool generic, const AddressingThread& self) const;
  /// getctarank: the rank of the CTA owning a shared (`generic` false) or generic address, or nullopt.
  std::optional<std::uint64_t> ctaRank(std::uint64_t address, bool generic, const AddressingThread& self) const;
  /// The kernel parameter whose bytes `address` (.param or generic) points at, with the offset into it; or nullopt.
  static std::optional<std::pair<int, std::int64_t>> paramAt(std::uint64_t address);
  /// isspacep: whether generic `address` lies in `space`.
  bool inSpace(std::uint64_t address, AddrSpace space) const;

 private:
  // A byte of shared memory: the linear CTA owning it and the offset in its window (from kSharedStart).
  struct SharedByte {
    int cta = -1;
    std::int64_t offset = 0;
  };
  std::optional<SharedByte> sharedByte(std::uint64_t address, bool generic, bool clusterWindow,
                                       const AddressingThread& self) const;
  Resolution resolveShared(const SharedByte& byte, std::int64_t size) const;
  Resolution resolveGlobal(std::uint64_t address, std::int64_t size, bool constOnly) const;

  std::vector<Buffer> buffers_;
  std::vector<bool> inferred_;
  std::vector<int> globals_;                 // buffer indices of global/const buffers, by slot
  std::vector<std::int64_t> sharedOffsets_;  // per shared variable: offset in the window (from kSharedStart)
  std::vector<std::int64_t> sharedSizes_;
  int sharedFirst_ = 0;
  int sharedVariables_ = 0;
  int sharedCtas_ = 0;
  std::int64_t sharedBytes_ = 0;
};

}  // namespace ptxmm::frontend::ptx
