// The vocabularies shared by every layer: event tags (the base sets a cat model can name), base relations,
// scope levels and proxies. Each vocabulary is one X-macro table; the enums, the name lookups and the
// documentation printed by `ptxmm vocabulary` are generated from it, so they cannot drift apart.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ptxmm::model {

// X(name, meaning). Tag sets of events; spec section in brackets.
#define PTXMM_TAGS(X)                                                                                          \
  X(R, "read events: ld, the read half of atom/red, surface/texture/constant loads [§2.1]")                   \
  X(W, "write events: st, the write half of atom/red, initial writes [§2.1]")                                 \
  X(F, "memory fences: fence.sc, fence.acq_rel, fence.acquire, fence.release, membar [§1.5]")                 \
  X(PF, "proxy fences: fence.proxy.* (their proxy is in the proxy tags) [§1.4, §2.10]")                       \
  X(I, "initial writes W0, one per physical location [§1.2]")                                                 \
  X(BA, "arrive half of a CTA barrier (bar.sync, bar.arrive, bar.red) [§2.8]")                                \
  X(BW, "wait half of a CTA barrier (bar.sync, bar.red) [§2.8]")                                              \
  X(RED, "read half of a reduction (red): never starts an acquire pattern [§2.5]")                            \
  X(WEAK, "qualified .weak (or no semantics on ld/st) [§1.5]")                                                \
  X(RLX, "qualified .relaxed, or .volatile/.mmio (relaxed.sys) [§1.5]")                                       \
  X(ACQ, "qualified .acquire [§1.5]")                                                                         \
  X(REL, "qualified .release [§1.5]")                                                                         \
  X(ACQ_REL, "qualified .acq_rel (atom, fence) [§1.5]")                                                       \
  X(SC, "fence.sc / membar [§1.5]")                                                                           \
  X(VOL, "qualified .volatile (also tagged RLX and SYS) [§1.5]")                                              \
  X(MMIO, "qualified .mmio (also tagged RLX and SYS) [§1.5]")                                                 \
  X(CTA, "scope .cta [§1.1]")                                                                                 \
  X(CLUSTER, "scope .cluster [§1.1]")                                                                         \
  X(GPU, "scope .gpu [§1.1]")                                                                                 \
  X(SYS, "scope .sys [§1.1]")                                                                                 \
  X(GEN, "generic proxy (every ld/st/atom/red, fences and barriers) [§1.4]")                                  \
  X(SUR, "surface proxy (suld, sust, suatom, sured; fence.proxy.surface) [§1.4]")                             \
  X(TEX, "texture proxy (tld; fence.proxy.texture) [§1.4]")                                                   \
  X(CON, "constant proxy (cold; fence.proxy.constant) [§1.4]")                                                \
  X(ALIAS, "the alias proxy fence fence.proxy.alias [§2.10]")                                                 \
  X(ASYNC, "async proxy: bulk copies, TMA, wgmma/tcgen05 shared-memory operands; fence.proxy.async [§1.4]")      \
  X(TMAP, "tensormap proxy: the tensor-map read of a TMA copy; fence.proxy.tensormap [§1.4]")                  \
  X(GLOBAL, "access to global memory [§1.3]")                                                                 \
  X(SHARED, "access to shared memory (.shared, .shared::cta, .shared::cluster) [§1.3]")                       \
  X(SHCTA, "access to shared memory of the issuing thread's own CTA (a .shared::cta object) [§4.10]")         \
  X(TMEM, "access to tensor memory (tcgen05) [§1.3, §4.12]")                                                  \
  X(AS, "performed asynchronously: not in po, ordered by iss, aint, adone and its completion [§2.1, §2.9]")   \
  X(MB, "access to an mbarrier object (init, arrive, expect_tx, complete_tx, test_wait/try_wait) [§4.2]")    \
  X(MBINIT, "mbarrier.init: a weak write of the object's initial state [§4.2]")                               \
  X(MBOK, "the acquire of a successful mbarrier wait: happens iff the wait returns true [§2.1, §4.2]")        \
  X(CB, "cluster barrier: arrive (an RMW) or wait (a read) on the cluster's barrier location [§2.8, A9]")     \
  X(WBAR, "half of a warp barrier (bar.warp.sync) [§4.5]")                                                    \
  X(RSTR, "restricted fence (sync_restrict, mbarrier_init): orders only the operations of its filter [§4.10]") \
  X(RMBINIT, "restricted release fence covering the thread's prior mbarrier.init [§4.10]")                   \
  X(RSHCTA, "restricted release fence covering prior .shared::cta operations [§4.10]")                       \
  X(RSHCLU, "restricted acquire fence ordering later .shared::cluster operations [§4.10]")                   \
  X(PFUNI, "uni-directional proxy fence: generic -> its proxy only (tensormap, async::generic) [§4.9]")       \
  X(PFRANGE, "proxy fence limited to one address (fence.proxy.tensormap::generic.acquire [a], 128) [§4.9]")  \
  X(AWAIT, "completion wait: cp.async.wait_group, cp.async.bulk.wait_group, tcgen05.wait, wgmma.wait_group [§4]") \
  X(GD, "completion point of an async operation tracked by a bulk/async group [§4.7]")                        \
  X(TCF, "tcgen05.fence::before_thread_sync / after_thread_sync [§4.12]")                                     \
  X(WGF, "wgmma.fence [§4.13]")

enum class Tag : std::uint8_t {
#define PTXMM_ENUM(name, meaning) name,
  PTXMM_TAGS(PTXMM_ENUM)
#undef PTXMM_ENUM
};
inline constexpr std::size_t kTagCount = 0
#define PTXMM_COUNT(name, meaning) +1
    PTXMM_TAGS(PTXMM_COUNT)
#undef PTXMM_COUNT
    ;

using TagSet = std::bitset<kTagCount>;

// When a base relation becomes known while an execution is enumerated: static relations come with the
// control-flow paths, rf with the reads-from choice, syncbar once values fix barrier ids, sync_fence with the
// Fence-SC order, co last. The explicit evaluator caches every definition at the latest stage it uses.
enum class Stage : std::uint8_t { Static, ReadsFrom, Barrier, FenceOrder, Coherence };
inline constexpr std::size_t kStageCount = 5;

// X(cat name, enum name, stage, meaning). Relations the engines provide to the cat model.
#define PTXMM_BASE_RELATIONS(X)                                                                                \
  X("id", Id, Static, "identity on events")                                                                   \
  X("po", Po, Static, "program order: per-thread order of executed events [§2.2]")                            \
  X("rmw", Rmw, Static, "read half to write half of one atomic instruction [§2.2]")                           \
  X("addr", Addr, Static, "address dependency from a read (always empty: litmus addresses are names) [§2.2]") \
  X("data", Data, Static, "a read's value flows into a write's value (registers, RMW arithmetic) [§2.2]")     \
  X("ctrl", Ctrl, Static, "a read decides a branch (or CAS) that precedes the event in po [§2.2]")            \
  X("loc", Loc, Static, "memory events on the same physical location, including id [§1.2, A4]")             \
  X("vloc", Vloc, Static, "memory events on the same virtual address, including id [§1.2, A4]")              \
  X("int", Int, Static, "events of the same thread, including id")                                            \
  X("scta", Scta, Static, "events of threads in the same CTA [§1.1]")                                         \
  X("scluster", Scluster, Static, "events of threads in the same cluster [§1.1]")                             \
  X("sgpu", Sgpu, Static, "events of threads on the same GPU [§1.1]")                                         \
  X("instr", Instr, Static, "events of the same instruction instance, including id")                          \
  X("owner", Owner, Static, "an access to shared memory -> the events of the threads of the CTA owning it [§4.1]") \
  X("iss", Iss, Static, "issue order: an event po-before an async instruction -> that instruction's accesses [§2.2]") \
  X("aint", Aint, Static, "an async operation's read -> the write it feeds [§2.2]")                             \
  X("adone", Adone, Static, "an async operation's accesses -> its completion events; completions -> the waits that retire them [§2.2, §4]") \
  X("rf", Rf, ReadsFrom, "reads-from: write to the read it supplies [§2.2]")                                  \
  X("syncbar", Syncbar, Barrier, "CTA barrier arrive half to wait half of another thread, same generation [§2.8]") \
  X("sync_fence", SyncFence, FenceOrder, "a strict total order on F & SC; ptx.cat keeps its ms pairs [§2.7]") \
  X("co", Co, Coherence, "coherence: a strict partial order on writes per location, W0 first [§2.12]")

enum class BaseRel : std::uint8_t {
#define PTXMM_ENUM(cat, name, stage, meaning) name,
  PTXMM_BASE_RELATIONS(PTXMM_ENUM)
#undef PTXMM_ENUM
};
inline constexpr std::size_t kBaseRelCount = 0
#define PTXMM_COUNT(cat, name, stage, meaning) +1
    PTXMM_BASE_RELATIONS(PTXMM_COUNT)
#undef PTXMM_COUNT
    ;

// Scope levels, innermost first. X(enum name, PTX qualifier, tag, same-instance relation).
// The thread level has no qualifier: a weak operation's scope is its own thread [§2.1].
enum class Scope : std::uint8_t { Thread, Cta, Cluster, Gpu, Sys };

// Proxies. X(enum name, tag, spelling in fence.proxy.<spelling> and in `@ <spelling> aliases`).
#define PTXMM_PROXIES(X)                                                                                       \
  X(Generic, GEN, "generic")                                                                                  \
  X(Surface, SUR, "surface")                                                                                  \
  X(Texture, TEX, "texture")                                                                                  \
  X(Constant, CON, "constant")                                                                                \
  X(Async, ASYNC, "async")                                                                                    \
  X(Tensormap, TMAP, "tensormap")

enum class Proxy : std::uint8_t {
#define PTXMM_ENUM(name, tag, spelling) name,
  PTXMM_PROXIES(PTXMM_ENUM)
#undef PTXMM_ENUM
};
inline constexpr std::size_t kProxyCount = 0
#define PTXMM_COUNT(name, tag, spelling) +1
    PTXMM_PROXIES(PTXMM_COUNT)
#undef PTXMM_COUNT
    ;

struct TagInfo {
  std::string_view name;
  std::string_view meaning;
};
struct BaseRelInfo {
  std::string_view name;
  Stage stage;
  std::string_view meaning;
};

/// The documentation row of a tag.
const TagInfo& tagInfo(Tag tag);
/// The documentation row of a base relation.
const BaseRelInfo& baseRelInfo(BaseRel rel);
/// Looks a tag up by its cat name.
std::optional<Tag> findTag(std::string_view name);
/// Looks a base relation up by its cat name.
std::optional<BaseRel> findBaseRel(std::string_view name);

/// PTX spelling of a scope qualifier without the dot ("cta"), empty for Thread.
std::string_view scopeName(Scope scope);
/// The scope named by a PTX qualifier without the dot ("cta", "cluster", "gpu", "sys").
std::optional<Scope> findScope(std::string_view name);
/// The tag carried by events with this scope qualifier (none for Thread).
std::optional<Tag> scopeTag(Scope scope);

/// The tag of a proxy.
Tag proxyTag(Proxy proxy);
/// Spelling of a proxy in fence.proxy.<x> and alias declarations.
std::string_view proxyName(Proxy proxy);
/// The proxy spelled this way.
std::optional<Proxy> findProxy(std::string_view name);

inline TagSet tagBit(Tag tag) { return TagSet().set(static_cast<std::size_t>(tag)); }
inline bool hasTag(const TagSet& set, Tag tag) { return set.test(static_cast<std::size_t>(tag)); }

}  // namespace ptxmm::model
