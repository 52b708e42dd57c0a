// Where every instance of a litmus test lives on the GPU: which warp plays which role of which instances
// (the thread map), where each instance's global locations are (the location map) and where its shared-memory
// locations are inside the blocks that play the owning CTAs (the shared map), plus the checks that make the
// results trustworthy: every (instance, role) is played exactly once, by threads placed as the test's scope
// tree says, every group has its own slot in each of its blocks, and the locations of different instances are
// disjoint byte ranges, in global and in shared memory. This header is plain C++17
// with no dependencies because it has two users: ptxmm's unit tests, and every generated CUDA program, whose
// host code includes a copy of it (embedded by validate/CMakeLists.txt) and runs the checks before any launch.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ptxmm_harness {

/// A reproducible random stream (splitmix64): the same seed gives the same layouts on every platform, which
/// std::shuffle does not promise.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n), n > 0.
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  template <class T>
  void shuffle(std::vector<T>& v) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[static_cast<std::size_t>(below(i))]);
  }

 private:
  std::uint64_t state_;
};

/// A seed for one purpose of one launch, derived from the run's seed (so layouts of launch k replay).
inline std::uint64_t deriveSeed(std::uint64_t seed, std::uint64_t a, std::uint64_t b) {
  Rng r(seed ^ (a * 0xD6E8FEB86659FD93ull) ^ (b * 0xA0761D6478BD642Full));
  r.next();
  return r.next();
}

/// The test's placement classes and the launch geometry the maps are built for.
struct Shape {
  int roles = 0;                    // litmus threads; each is played by whole warps
  std::vector<int> roleCta;         // the test CTA of each role, dense 0..ctas-1
  std::vector<int> roleWarp;        // the test warp of each role: roles with the same one share hardware warps
                                    // (empty: every role a warp of its own)
  std::vector<int> ctaCluster;      // the test cluster of each test CTA, dense 0..clusters-1
  std::vector<int> locWidth;        // bytes of each global location's slot contents (4, 8, or a copy's size)
  std::vector<int> sharedWidth;     // bytes of each shared-memory location's slot contents
  std::vector<int> sharedCta;       // the test CTA whose shared memory holds each shared location
  bool oneGroupPerBlock = false;    // the test uses CTA barriers: a block may host one group's warps only
  int blocks = 0;                   // grid size (a multiple of clusterSize)
  int warpsPerBlock = 0;
  int clusterSize = 1;              // hardware cluster size; 1: no cluster launch, every block is its own cluster
  int stressWarpsPerBlock = 0;      // warps per block that hammer the scratch buffer instead of playing roles
  int locationStride = 8;           // bytes between location slots
  int sharedStride = 8;             // bytes between shared-memory slots

  int ctas() const { return roleCta.empty() ? 0 : *std::max_element(roleCta.begin(), roleCta.end()) + 1; }
  int clusters() const { return ctaCluster.empty() ? 0 : *std::max_element(ctaCluster.begin(), ctaCluster.end()) + 1; }
  int locations() const { return static_cast<int>(locWidth.size()); }
  int sharedLocations() const { return static_cast<int>(sharedWidth.size()); }
  int totalWarps() const { return blocks * warpsPerBlock; }
  /// The roles sharing role r's test warp, in role order (r alone when it has a warp of its own).
  std::vector<int> warpMates(int r) const {
    if (roleWarp.empty()) return {r};
    std::vector<int> mates;
    for (int q = 0; q < roles; ++q)
      if (roleWarp[static_cast<std::size_t>(q)] == roleWarp[static_cast<std::size_t>(r)]) mates.push_back(q);
    return mates;
  }
};

/// How many groups of 32 instances one launch holds; groups == 0 means the geometry cannot host the test
/// and `problem` says why.
struct Plan {
  int groups = 0;
  std::string problem;
  int instances() const { return groups * 32; }
};

inline constexpr std::int16_t kStressWarp = -1;
inline constexpr std::int16_t kIdleWarp = -2;

/// Who plays what in one launch.
struct ThreadMap {
  std::vector<std::int16_t> warpRole;        // per global warp: role, kStressWarp or kIdleWarp
  std::vector<std::int32_t> warpGroup;       // per global warp: its group (role warps), -1 otherwise
  std::vector<std::uint32_t> laneInstance;   // per global thread: the instance it plays (role warps), 0 otherwise
  std::vector<std::int16_t> laneRole;        // per global thread: the role it plays (role warps), else the warp's mark
  std::vector<std::int32_t> groupCtaSlot;    // per group and test CTA: the group's slot in the block playing that CTA
                                             // (the same in all blocks of one cluster copy)
  std::vector<std::int32_t> groupCtaBlock;   // per group and test CTA: the block playing that CTA
};

/// Where each (instance, location) lives, as a slot index; its bytes are [slot * stride, slot * stride + width).
struct LocationMap {
  std::vector<std::uint32_t> slot;  // per instance * locations + location
};

/// Where each shared location of the instance in slot `i` of a block lives in that block's shared memory: slot
/// `slot[i * sharedLocations + l]`, bytes [slot * sharedStride, + width). An instance's slot in a block is its
/// group's slot there (ThreadMap::groupCtaSlot) times 32 plus its index in the group.
struct SharedMap {
  std::vector<std::uint32_t> slot;
};

namespace detail {

// The test CTAs of each test cluster, in CTA order.
inline std::vector<std::vector<int>> clusterMembers(const Shape& s) {
  std::vector<std::vector<int>> members(static_cast<std::size_t>(s.clusters()));
  for (int c = 0; c < s.ctas(); ++c) members[static_cast<std::size_t>(s.ctaCluster[static_cast<std::size_t>(c)])].push_back(c);
  return members;
}

// Roles of each test CTA, in role order.
inline std::vector<std::vector<int>> ctaRoles(const Shape& s) {
  std::vector<std::vector<int>> roles(static_cast<std::size_t>(s.ctas()));
  for (int r = 0; r < s.roles; ++r) roles[static_cast<std::size_t>(s.roleCta[static_cast<std::size_t>(r)])].push_back(r);
  return roles;
}

// Groups one block of test CTA `c` can host.
inline int groupsPerBlock(const Shape& s, const std::vector<std::vector<int>>& roles, int c) {
  const int need = static_cast<int>(roles[static_cast<std::size_t>(c)].size());
  const int room = s.warpsPerBlock - s.stressWarpsPerBlock;
  if (need == 0 || room < need) return 0;
  return s.oneGroupPerBlock ? 1 : room / need;
}

// Positions (group slots) one hardware cluster dedicated to test cluster j offers.
inline int positionsPerCluster(const Shape& s, const std::vector<std::vector<int>>& members,
                               const std::vector<std::vector<int>>& roles, int j) {
  const auto& m = members[static_cast<std::size_t>(j)];
  const int copies = s.clusterSize / static_cast<int>(m.size());
  int perBlock = 1 << 30;
  for (int c : m) perBlock = std::min(perBlock, groupsPerBlock(s, roles, c));
  return copies * perBlock;
}

}  // namespace detail

/// The most groups one block hosts (of any test CTA): the instance slots a block's shared memory needs.
inline int maxGroupsPerBlock(const Shape& s) {
  const auto roles = detail::ctaRoles(s);
  int most = 0;
  for (int c = 0; c < s.ctas(); ++c) most = std::max(most, detail::groupsPerBlock(s, roles, c));
  return most;
}

/// Instance slots of one block's shared memory.
inline int blockInstances(const Shape& s) { return maxGroupsPerBlock(s) * 32; }

/// Bytes of one block's shared memory the instances' shared locations take.
inline std::uint64_t sharedBytes(const Shape& s) {
  return static_cast<std::uint64_t>(blockInstances(s)) * static_cast<std::uint64_t>(s.sharedLocations()) *
         static_cast<std::uint64_t>(s.sharedStride);
}

/// The largest number of groups the geometry hosts, every group with one hardware cluster per test cluster.
inline Plan plan(const Shape& s) {
  Plan p;
  if (s.roles <= 0) return p.problem = "the test has no threads", p;
  if (s.clusterSize < 1 || s.blocks < s.clusterSize || s.blocks % s.clusterSize != 0)
    return p.problem = "the grid of " + std::to_string(s.blocks) + " blocks is not a whole number of clusters of " +
                       std::to_string(s.clusterSize), p;
  const auto members = detail::clusterMembers(s);
  const auto roles = detail::ctaRoles(s);
  const int hwClusters = s.blocks / s.clusterSize;
  std::vector<int> per(members.size());
  for (std::size_t j = 0; j < members.size(); ++j) {
    if (static_cast<int>(members[j].size()) > s.clusterSize)
      return p.problem = "a test cluster has " + std::to_string(members[j].size()) + " CTAs, more than the cluster size " +
                         std::to_string(s.clusterSize), p;
    per[j] = detail::positionsPerCluster(s, members, roles, static_cast<int>(j));
    if (per[j] == 0)
      return p.problem = "a block of " + std::to_string(s.warpsPerBlock) + " warps (" + std::to_string(s.stressWarpsPerBlock) +
                         " of them stress warps) cannot host the warps of one test CTA", p;
  }
  // Each test cluster needs ceil(G / per[j]) hardware clusters; find the largest G that fits.
  auto fits = [&](long long g) {
    long long used = 0;
    for (int q : per) used += (g + q - 1) / q;
    return used <= hwClusters;
  };
  long long lo = 0, hi = static_cast<long long>(hwClusters) * *std::max_element(per.begin(), per.end());
  while (lo < hi) {
    const long long mid = (lo + hi + 1) / 2;
    if (fits(mid)) lo = mid; else hi = mid - 1;
  }
  p.groups = static_cast<int>(lo);
  if (p.groups == 0) p.problem = "the grid of " + std::to_string(s.blocks) + " blocks is too small for one group of instances";
  return p;
}

/// A random thread map for the plan: which hardware clusters serve which test cluster, which blocks of them
/// which test CTA, which warps of a block which role of which group, and which lane which instance (a random
/// permutation per warp, so one lane index pairs different partners in every role). Roles that share a test
/// warp (k of them) share hardware warps: the group's k warps of that test warp are its parts, and the lanes of
/// part p play every one of the k roles for instances p * 32/k .. (p + 1) * 32/k - 1, in a random lane order.
inline ThreadMap makeThreadMap(const Shape& s, const Plan& p, std::uint64_t seed) {
  Rng rng(seed);
  const auto members = detail::clusterMembers(s);
  const auto roles = detail::ctaRoles(s);
  const int hwClusters = s.blocks / s.clusterSize;
  ThreadMap m;
  m.warpRole.assign(static_cast<std::size_t>(s.totalWarps()), kIdleWarp);
  m.warpGroup.assign(static_cast<std::size_t>(s.totalWarps()), -1);
  m.laneInstance.assign(static_cast<std::size_t>(s.totalWarps()) * 32, 0);
  m.laneRole.assign(static_cast<std::size_t>(s.totalWarps()) * 32, kIdleWarp);
  m.groupCtaSlot.assign(static_cast<std::size_t>(p.groups) * static_cast<std::size_t>(s.ctas()), -1);
  m.groupCtaBlock.assign(static_cast<std::size_t>(p.groups) * static_cast<std::size_t>(s.ctas()), -1);

  // Hardware clusters per test cluster, in a random order over the grid; the rest only stress.
  std::vector<int> kindOf;
  for (std::size_t j = 0; j < members.size(); ++j) {
    const int per = detail::positionsPerCluster(s, members, roles, static_cast<int>(j));
    for (int k = 0; k < (p.groups + per - 1) / per; ++k) kindOf.push_back(static_cast<int>(j));
  }
  while (static_cast<int>(kindOf.size()) < hwClusters) kindOf.push_back(-1);
  rng.shuffle(kindOf);

  // Every block's warp slots in a random order: role warps take them first, stress warps next.
  std::vector<std::vector<int>> freeWarps(static_cast<std::size_t>(s.blocks));
  for (int b = 0; b < s.blocks; ++b) {
    auto& w = freeWarps[static_cast<std::size_t>(b)];
    for (int i = 0; i < s.warpsPerBlock; ++i) w.push_back(b * s.warpsPerBlock + i);
    rng.shuffle(w);
  }

  // Positions of each test cluster: (blocks of one cluster copy, one per member CTA, and the group slot in
  // them), shuffled.
  struct Position {
    std::vector<int> blockOfMember;
    int slot = 0;
  };
  for (std::size_t j = 0; j < members.size(); ++j) {
    const auto& mem = members[j];
    const int size = static_cast<int>(mem.size());
    std::vector<Position> positions;
    for (int h = 0; h < hwClusters; ++h) {
      if (kindOf[static_cast<std::size_t>(h)] != static_cast<int>(j)) continue;
      std::vector<int> ranks(static_cast<std::size_t>(s.clusterSize));
      for (int r = 0; r < s.clusterSize; ++r) ranks[static_cast<std::size_t>(r)] = r;
      rng.shuffle(ranks);
      for (int copy = 0; copy < s.clusterSize / size; ++copy) {
        int perBlock = 1 << 30;
        for (int c : mem) perBlock = std::min(perBlock, detail::groupsPerBlock(s, roles, c));
        for (int g = 0; g < perBlock; ++g) {
          Position pos;
          pos.slot = g;
          for (int k = 0; k < size; ++k)
            pos.blockOfMember.push_back(h * s.clusterSize + ranks[static_cast<std::size_t>(copy * size + k)]);
          positions.push_back(std::move(pos));
        }
      }
    }
    rng.shuffle(positions);
    for (int g = 0; g < p.groups; ++g) {
      const Position& pos = positions[static_cast<std::size_t>(g)];
      for (int k = 0; k < size; ++k) {
        const int block = pos.blockOfMember[static_cast<std::size_t>(k)];
        const std::size_t gc = static_cast<std::size_t>(g) * static_cast<std::size_t>(s.ctas()) + static_cast<std::size_t>(mem[static_cast<std::size_t>(k)]);
        m.groupCtaBlock[gc] = block;
        m.groupCtaSlot[gc] = pos.slot;
        for (int role : roles[static_cast<std::size_t>(mem[static_cast<std::size_t>(k)])]) {
          auto& fw = freeWarps[static_cast<std::size_t>(block)];
          const int warp = fw.back();
          fw.pop_back();
          m.warpRole[static_cast<std::size_t>(warp)] = static_cast<std::int16_t>(role);
          m.warpGroup[static_cast<std::size_t>(warp)] = g;
          // (role, instance) of each lane: the warp's part of its test warp.
          const std::vector<int> mates = s.warpMates(role);
          const int k = static_cast<int>(mates.size()), part = static_cast<int>(std::find(mates.begin(), mates.end(), role) - mates.begin());
          const int per = 32 / k;
          std::vector<std::pair<int, std::uint32_t>> lanes;
          for (int j = 0; j < k; ++j)
            for (int i = 0; i < per; ++i)
              lanes.emplace_back(mates[static_cast<std::size_t>(j)], static_cast<std::uint32_t>(g * 32 + part * per + i));
          rng.shuffle(lanes);
          for (std::size_t l = 0; l < lanes.size(); ++l) {
            m.laneRole[static_cast<std::size_t>(warp) * 32 + l] = static_cast<std::int16_t>(lanes[l].first);
            m.laneInstance[static_cast<std::size_t>(warp) * 32 + l] = lanes[l].second;
          }
        }
      }
    }
  }
  for (int b = 0; b < s.blocks; ++b) {
    auto& fw = freeWarps[static_cast<std::size_t>(b)];
    for (int k = 0; k < s.stressWarpsPerBlock && !fw.empty(); ++k) {
      m.warpRole[static_cast<std::size_t>(fw.back())] = kStressWarp;
      for (int l = 0; l < 32; ++l) m.laneRole[static_cast<std::size_t>(fw.back()) * 32 + static_cast<std::size_t>(l)] = kStressWarp;
      fw.pop_back();
    }
  }
  return m;
}

/// A random location map: every (instance, location) gets its own slot, in a random order over the buffer.
inline LocationMap makeLocationMap(const Shape& s, const Plan& p, std::uint64_t seed) {
  Rng rng(seed);
  LocationMap m;
  m.slot.resize(static_cast<std::size_t>(p.instances()) * static_cast<std::size_t>(s.locations()));
  for (std::size_t i = 0; i < m.slot.size(); ++i) m.slot[i] = static_cast<std::uint32_t>(i);
  rng.shuffle(m.slot);
  return m;
}

/// A random shared map: the slots of a block's shared memory in a random order (the same map in every block).
inline SharedMap makeSharedMap(const Shape& s, std::uint64_t seed) {
  Rng rng(seed);
  SharedMap m;
  m.slot.resize(static_cast<std::size_t>(blockInstances(s)) * static_cast<std::size_t>(s.sharedLocations()));
  for (std::size_t i = 0; i < m.slot.size(); ++i) m.slot[i] = static_cast<std::uint32_t>(i);
  rng.shuffle(m.slot);
  return m;
}

/// Bytes of the location buffer the maps address.
inline std::uint64_t locationBufferBytes(const Shape& s, const Plan& p) {
  return static_cast<std::uint64_t>(p.instances()) * static_cast<std::uint64_t>(s.locations()) *
         static_cast<std::uint64_t>(s.locationStride);
}

/// Empty when every (instance, role) of the plan is played by exactly one lane of a warp of that role, and the
/// roles of every instance sit in blocks and clusters exactly as the test's CTAs and clusters; else the first
/// violation. A wrong map would pair threads of different instances and invent outcomes.
inline std::string checkThreadMap(const Shape& s, const Plan& p, const ThreadMap& m) {
  const std::size_t warps = static_cast<std::size_t>(s.totalWarps());
  if (m.warpRole.size() != warps || m.warpGroup.size() != warps || m.laneInstance.size() != warps * 32 || m.laneRole.size() != warps * 32)
    return "the thread map does not cover the grid";
  const std::size_t slots = static_cast<std::size_t>(p.instances()) * static_cast<std::size_t>(s.roles);
  std::vector<int> playedBy(slots, -1);  // global thread playing (instance, role)
  std::vector<int> groupOfBlock(static_cast<std::size_t>(s.blocks), -1);
  for (std::size_t w = 0; w < warps; ++w) {
    const int role = m.warpRole[w];
    if (role == kStressWarp || role == kIdleWarp) continue;
    if (role < 0 || role >= s.roles) return "warp " + std::to_string(w) + " has an unknown role " + std::to_string(role);
    const int group = m.warpGroup[w];
    if (group < 0 || group >= p.groups) return "warp " + std::to_string(w) + " has no valid group";
    const std::size_t block = w / static_cast<std::size_t>(s.warpsPerBlock);
    if (s.oneGroupPerBlock) {
      if (groupOfBlock[block] != -1 && groupOfBlock[block] != group)
        return "block " + std::to_string(block) + " hosts two groups of a test with CTA barriers";
      groupOfBlock[block] = group;
    }
    const std::vector<int> mates = s.warpMates(role);
    for (std::size_t l = 0; l < 32; ++l) {
      const std::uint32_t inst = m.laneInstance[w * 32 + l];
      const int laneRole = m.laneRole[w * 32 + l];
      if (inst / 32 != static_cast<std::uint32_t>(group))
        return "lane " + std::to_string(l) + " of warp " + std::to_string(w) + " plays instance " + std::to_string(inst) +
               " outside its group " + std::to_string(group);
      if (std::find(mates.begin(), mates.end(), laneRole) == mates.end())
        return "lane " + std::to_string(l) + " of warp " + std::to_string(w) + " plays role " + std::to_string(laneRole) +
               ", which does not share the test warp of role " + std::to_string(role);
      const std::size_t k = static_cast<std::size_t>(inst) * static_cast<std::size_t>(s.roles) + static_cast<std::size_t>(laneRole);
      if (playedBy[k] != -1)
        return "role " + std::to_string(laneRole) + " of instance " + std::to_string(inst) + " is played twice (threads " +
               std::to_string(playedBy[k]) + " and " + std::to_string(w * 32 + l) + ")";
      playedBy[k] = static_cast<int>(w * 32 + l);
    }
  }
  const int threadsPerBlock = s.warpsPerBlock * 32;
  const int threadsPerCluster = threadsPerBlock * s.clusterSize;
  for (int inst = 0; inst < p.instances(); ++inst) {
    for (int a = 0; a < s.roles; ++a) {
      const int ta = playedBy[static_cast<std::size_t>(inst) * static_cast<std::size_t>(s.roles) + static_cast<std::size_t>(a)];
      if (ta < 0) return "role " + std::to_string(a) + " of instance " + std::to_string(inst) + " is played by no thread";
      for (int b = 0; b < a; ++b) {
        const int tb = playedBy[static_cast<std::size_t>(inst) * static_cast<std::size_t>(s.roles) + static_cast<std::size_t>(b)];
        const int ca = s.roleCta[static_cast<std::size_t>(a)], cb = s.roleCta[static_cast<std::size_t>(b)];
        const bool sameCta = ca == cb;
        const bool sameCluster = s.ctaCluster[static_cast<std::size_t>(ca)] == s.ctaCluster[static_cast<std::size_t>(cb)];
        const bool sameWarp = !s.roleWarp.empty() && s.roleWarp[static_cast<std::size_t>(a)] == s.roleWarp[static_cast<std::size_t>(b)];
        if ((ta / 32 == tb / 32) != sameWarp)
          return "roles " + std::to_string(b) + " and " + std::to_string(a) + " of instance " + std::to_string(inst) +
                 (sameWarp ? " must share a warp and do not" : " must be in different warps and are not");
        if ((ta / threadsPerBlock == tb / threadsPerBlock) != sameCta)
          return "roles " + std::to_string(b) + " and " + std::to_string(a) + " of instance " + std::to_string(inst) +
                 (sameCta ? " must share a block and do not" : " must be in different blocks and are not");
        if ((ta / threadsPerCluster == tb / threadsPerCluster) != sameCluster)
          return "roles " + std::to_string(b) + " and " + std::to_string(a) + " of instance " + std::to_string(inst) +
                 (sameCluster ? " must share a cluster and do not" : " must be in different clusters and are not");
      }
    }
  }
  if (m.groupCtaSlot.size() != static_cast<std::size_t>(p.groups) * static_cast<std::size_t>(s.ctas()) ||
      m.groupCtaBlock.size() != static_cast<std::size_t>(p.groups) * static_cast<std::size_t>(s.ctas()))
    return "the thread map has no group slots";
  // Every group has its own slot in each of its blocks, and the tables name the blocks the warps are in.
  const int blockSlots = maxGroupsPerBlock(s);
  std::vector<std::vector<int>> slotUser(static_cast<std::size_t>(s.blocks), std::vector<int>(static_cast<std::size_t>(blockSlots), -1));
  for (std::size_t w = 0; w < warps; ++w) {
    const int role = m.warpRole[w];
    if (role == kStressWarp || role == kIdleWarp) continue;
    const int group = m.warpGroup[w];
    const int block = static_cast<int>(w / static_cast<std::size_t>(s.warpsPerBlock));
    const int cta = s.roleCta[static_cast<std::size_t>(role)];
    const int slot = m.groupCtaSlot[static_cast<std::size_t>(group) * static_cast<std::size_t>(s.ctas()) + static_cast<std::size_t>(cta)];
    if (slot < 0 || slot >= blockSlots) return "group " + std::to_string(group) + " has no valid slot";
    int& user = slotUser[static_cast<std::size_t>(block)][static_cast<std::size_t>(slot)];
    if (user != -1 && user != group)
      return "groups " + std::to_string(user) + " and " + std::to_string(group) + " share slot " + std::to_string(slot) + " of block " +
             std::to_string(block);
    user = group;
    if (m.groupCtaBlock[static_cast<std::size_t>(group) * static_cast<std::size_t>(s.ctas()) + static_cast<std::size_t>(cta)] != block)
      return "group " + std::to_string(group) + " plays CTA " + std::to_string(cta) + " in block " + std::to_string(block) +
             ", not in the block its table names";
  }
  return {};
}

/// Empty when the byte ranges of all (instance, location) pairs are pairwise disjoint, aligned to their width
/// and inside the buffer; else the first overlap found. Checked on the actual addresses, not on the formula
/// that made them: an overlap would let one instance read another's writes.
inline std::string checkLocationMap(const Shape& s, const Plan& p, const LocationMap& m) {
  const std::size_t locs = static_cast<std::size_t>(s.locations());
  if (m.slot.size() != static_cast<std::size_t>(p.instances()) * locs) return "the location map does not cover every instance";
  const std::uint64_t bytes = locationBufferBytes(s, p);
  struct Range { std::uint64_t begin, end; std::size_t who; };
  std::vector<Range> ranges;
  ranges.reserve(m.slot.size());
  for (std::size_t k = 0; k < m.slot.size(); ++k) {
    const std::uint64_t width = static_cast<std::uint64_t>(s.locWidth[k % locs]);
    const std::uint64_t begin = static_cast<std::uint64_t>(m.slot[k]) * static_cast<std::uint64_t>(s.locationStride);
    if (begin % width != 0) return "location " + std::to_string(k % locs) + " of instance " + std::to_string(k / locs) + " is misaligned";
    if (begin + width > bytes) return "location " + std::to_string(k % locs) + " of instance " + std::to_string(k / locs) + " is outside the buffer";
    ranges.push_back({begin, begin + width, k});
  }
  std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return a.begin < b.begin; });
  for (std::size_t i = 1; i < ranges.size(); ++i)
    if (ranges[i].begin < ranges[i - 1].end) {
      const std::size_t a = ranges[i - 1].who, b = ranges[i].who;
      return "location " + std::to_string(a % locs) + " of instance " + std::to_string(a / locs) + " overlaps location " +
             std::to_string(b % locs) + " of instance " + std::to_string(b / locs) + " (bytes " + std::to_string(ranges[i].begin) + ")";
    }
  return {};
}

/// Empty when the shared slots of all (instance slot, shared location) pairs of a block are disjoint byte
/// ranges, aligned to `align` and inside the block's instance area; else the first problem.
inline std::string checkSharedMap(const Shape& s, const SharedMap& m, int align) {
  const std::size_t locs = static_cast<std::size_t>(s.sharedLocations());
  if (m.slot.size() != static_cast<std::size_t>(blockInstances(s)) * locs) return "the shared map does not cover every instance slot";
  const std::uint64_t bytes = sharedBytes(s);
  struct Range { std::uint64_t begin, end; std::size_t who; };
  std::vector<Range> ranges;
  for (std::size_t k = 0; k < m.slot.size(); ++k) {
    const std::uint64_t width = static_cast<std::uint64_t>(s.sharedWidth[k % locs]);
    const std::uint64_t begin = static_cast<std::uint64_t>(m.slot[k]) * static_cast<std::uint64_t>(s.sharedStride);
    if (begin % static_cast<std::uint64_t>(align) != 0)
      return "shared location " + std::to_string(k % locs) + " of instance slot " + std::to_string(k / locs) + " is misaligned";
    if (begin + width > bytes)
      return "shared location " + std::to_string(k % locs) + " of instance slot " + std::to_string(k / locs) + " is outside the block's area";
    ranges.push_back({begin, begin + width, k});
  }
  std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return a.begin < b.begin; });
  for (std::size_t i = 1; i < ranges.size(); ++i)
    if (ranges[i].begin < ranges[i - 1].end)
      return "shared location " + std::to_string(ranges[i - 1].who % locs) + " of instance slot " + std::to_string(ranges[i - 1].who / locs) +
             " overlaps shared location " + std::to_string(ranges[i].who % locs) + " of instance slot " + std::to_string(ranges[i].who / locs);
  return {};
}

}  // namespace ptxmm_harness
