// Thread and location maps: the generated layouts pass their checks, and the checks refuse every broken layout
// (overlapping locations, a role played twice, roles placed against the test's scope tree).
#include <catch2/catch.hpp>

#include "validate/harness/Layout.h"

using namespace ptxmm_harness;

namespace {

// MP across two CTAs: role 0 in CTA 0, role 1 in CTA 1, two 8-byte locations.
Shape twoCtas() {
  Shape s;
  s.roles = 2;
  s.roleCta = {0, 1};
  s.ctaCluster = {0, 1};
  s.locWidth = {8, 8};
  s.blocks = 16;
  s.warpsPerBlock = 4;
  s.stressWarpsPerBlock = 1;
  s.locationStride = 8;
  return s;
}

}  // namespace

TEST_CASE("generated layouts pass their checks", "[validate][layout]") {
  const Shape s = twoCtas();
  const Plan p = plan(s);
  REQUIRE(p.groups == 24);  // 16 blocks of 3 role warps, each group needs one warp in each of two blocks
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const ThreadMap tm = makeThreadMap(s, p, seed);
    const LocationMap lm = makeLocationMap(s, p, seed);
    REQUIRE(checkThreadMap(s, p, tm).empty());
    REQUIRE(checkLocationMap(s, p, lm).empty());
  }
}

TEST_CASE("same-CTA roles share a block and clusters are respected", "[validate][layout]") {
  Shape s = twoCtas();
  s.roles = 3;
  s.roleCta = {0, 0, 1};  // roles 0 and 1 in one CTA
  s.ctaCluster = {0, 0};  // both CTAs in one cluster
  s.clusterSize = 2;
  const Plan p = plan(s);
  REQUIRE(p.groups > 0);
  REQUIRE(checkThreadMap(s, p, makeThreadMap(s, p, 7)).empty());
}

TEST_CASE("a test with barriers gets one group per block", "[validate][layout]") {
  Shape s = twoCtas();
  s.oneGroupPerBlock = true;
  const Plan p = plan(s);
  REQUIRE(p.groups == 8);
  REQUIRE(checkThreadMap(s, p, makeThreadMap(s, p, 3)).empty());
}

TEST_CASE("overlapping instance locations are refused", "[validate][layout]") {
  const Shape s = twoCtas();
  const Plan p = plan(s);
  LocationMap lm = makeLocationMap(s, p, 1);
  lm.slot[5] = lm.slot[8];  // location 1 of instance 2 on top of location 0 of instance 4
  const std::string why = checkLocationMap(s, p, lm);
  REQUIRE_FALSE(why.empty());
  REQUIRE(why.find("overlaps") != std::string::npos);
}

TEST_CASE("a stride narrower than a location is refused", "[validate][layout]") {
  Shape s = twoCtas();
  s.locationStride = 4;  // 8-byte locations 4 bytes apart overlap (and are misaligned)
  const Plan p = plan(s);
  REQUIRE_FALSE(checkLocationMap(s, p, makeLocationMap(s, p, 1)).empty());
}

TEST_CASE("a role played twice or placed wrongly is refused", "[validate][layout]") {
  const Shape s = twoCtas();
  const Plan p = plan(s);
  const ThreadMap good = makeThreadMap(s, p, 2);
  std::size_t w = 0;
  while (good.warpRole[w] < 0) ++w;

  ThreadMap twice = good;
  twice.laneInstance[w * 32 + 1] = twice.laneInstance[w * 32];
  REQUIRE(checkThreadMap(s, p, twice).find("played twice") != std::string::npos);

}

TEST_CASE("roles of different CTAs in one block are refused", "[validate][layout]") {
  Shape s = twoCtas();
  s.blocks = 2;
  s.warpsPerBlock = 2;
  s.stressWarpsPerBlock = 0;
  const Plan p = plan(s);
  REQUIRE(p.groups == 2);
  // Both roles of group 0 in block 0 and both of group 1 in block 1: a CTA-local placement of a cross-CTA test.
  ThreadMap m;
  m.warpRole = {0, 1, 0, 1};
  m.warpGroup = {0, 0, 1, 1};
  for (std::uint32_t w = 0; w < 4; ++w)
    for (std::uint32_t l = 0; l < 32; ++l) m.laneInstance.push_back((w / 2) * 32 + l);
  auto laneRoles = [&] {
    m.laneRole.clear();
    for (std::int16_t r : m.warpRole) m.laneRole.insert(m.laneRole.end(), 32, r);
  };
  laneRoles();
  REQUIRE(checkThreadMap(s, p, m).find("must be in different blocks") != std::string::npos);
  // The same warps spread over the two blocks are right.
  m.warpRole = {0, 0, 1, 1};
  m.warpGroup = {0, 1, 0, 1};
  laneRoles();
  m.laneInstance.clear();
  for (std::uint32_t w = 0; w < 4; ++w)
    for (std::uint32_t l = 0; l < 32; ++l) m.laneInstance.push_back((w % 2) * 32 + l);
  m.groupCtaBlock = {0, 1, 0, 1};  // per group and CTA
  m.groupCtaSlot = {0, 0, 1, 1};   // two groups in each block, each in a slot of its own
  REQUIRE(checkThreadMap(s, p, m).empty());
  m.groupCtaSlot = {0, 0, 0, 0};
  REQUIRE(checkThreadMap(s, p, m).find("share slot 0") != std::string::npos);
  m.groupCtaSlot = {0, 0, 1, 1};
  m.groupCtaBlock = {0, 1, 1, 0};
  REQUIRE(checkThreadMap(s, p, m).find("not in the block its table names") != std::string::npos);
}

TEST_CASE("a grid too small for one group has no plan", "[validate][layout]") {
  Shape s = twoCtas();
  s.blocks = 1;  // two CTAs need two blocks
  REQUIRE(plan(s).groups == 0);
  s.blocks = 16;
  s.warpsPerBlock = 1;  // all stress, no room for a role
  REQUIRE(plan(s).groups == 0);
}

TEST_CASE("shared maps give every instance slot disjoint aligned shared locations", "[validate][layout]") {
  Shape s = twoCtas();
  s.sharedWidth = {4, 8, 16};
  s.sharedCta = {0, 0, 1};
  s.sharedStride = 16;
  const SharedMap m = makeSharedMap(s, 9);
  REQUIRE(m.slot.size() == static_cast<std::size_t>(blockInstances(s)) * 3);
  REQUIRE(checkSharedMap(s, m, 16).empty());
  SharedMap overlap = m;
  overlap.slot[1] = overlap.slot[0];
  REQUIRE(checkSharedMap(s, overlap, 16).find("overlaps") != std::string::npos);
  s.sharedStride = 8;  // 16-byte copies do not fit, and slots are not 16-byte aligned
  REQUIRE_FALSE(checkSharedMap(s, makeSharedMap(s, 9), 16).empty());
}

TEST_CASE("threads sharing a test warp are lanes of the same hardware warps", "[validate][layout]") {
  // Roles 0 and 1 share a warp of CTA 0, role 2 has one of its own: each group's two warps of the shared test
  // warp play both roles, 16 instances each.
  Shape s = twoCtas();
  s.roles = 3;
  s.roleCta = {0, 0, 0};
  s.ctaCluster = {0};
  s.roleWarp = {0, 0, 1};
  const Plan p = plan(s);
  REQUIRE(p.groups > 0);
  const ThreadMap m = makeThreadMap(s, p, 5);
  REQUIRE(checkThreadMap(s, p, m).empty());
  int mixed = 0;
  for (std::size_t w = 0; w < m.warpRole.size(); ++w)
    if (m.warpRole[w] == 0 || m.warpRole[w] == 1)
      mixed += std::count(m.laneRole.begin() + static_cast<long>(w * 32), m.laneRole.begin() + static_cast<long>(w * 32 + 32), 1) == 16;
  REQUIRE(mixed == 2 * p.groups);
  // The same placement with role 1 moved to role 2's warps breaks the shared warp.
  s.roleWarp = {0, 1, 1};
  REQUIRE(checkThreadMap(s, p, m).find("does not share the test warp") != std::string::npos);
}
