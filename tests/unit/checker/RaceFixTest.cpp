// The advice of race reports, word for word, in both engines: each kind names what would fix it, and a race
// between proxies names the proxy fence of every non-generic side (async and tensormap included) with the CTA it
// must run in.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "checker/EngineRegistry.hpp"
#include "checker/TestRunner.hpp"
#include "frontend/litmus/LitmusParser.hpp"
#include "unit/checker/CheckerTestSupport.hpp"

using namespace ptxmm;
using namespace ptxmm::testing;

namespace {

const std::string kProxyFix = "order the accesses by causality and put a proxy fence on that path: ";

// kind + the two instructions -> fix, for every race the engine reports in the case.
std::map<std::string, std::string> fixes(const std::string& test, const std::string& engine) {
  checker::RunOptions o;
  o.engine = engine;
  o.engineOptions.races = true;
  const auto program = frontend::parseLitmusFile(std::string(PTXMM_SOURCE_DIR) + "/cases/litmus/ptx/" + test + ".litmus");
  const checker::TestResult r = checker::checkProgram(ptxModel(), program, o);
  REQUIRE(r.racesChecked);
  std::map<std::string, std::string> out;
  for (const auto& race : r.races)
    out[race.kind + ": " + race.first.instruction + " <-> " + race.second.instruction] = race.fix;
  return out;
}

}  // namespace

TEST_CASE("a generic write read by an async-proxy TMA store: fence.proxy.async in the issuing CTA", "[checker][races]") {
  for (const auto& engine : checker::engineNames())
    CHECK(fixes("HOP+tma-store-nofence", engine) ==
          std::map<std::string, std::string>{
              {"different proxies: st.shared.u32 [s], 5 <-> cp.async.bulk.tensor.global.shared::cta.tile.bulk_group [tm, g], [s]",
               kProxyFix + "fence.proxy.async in the CTA of P1 (cp.async.bulk.tensor.global.shared::cta.tile.bulk_group [tm, g], [s])"}});
}

TEST_CASE("a tensor map rewritten before a TMA reads it: the tensormap release/acquire pair", "[checker][races]") {
  for (const auto& engine : checker::engineNames())
    CHECK(fixes("HOP+tensormap-modified-nofence", engine) ==
          std::map<std::string, std::string>{
              {"different proxies: st.global.u64 [tm], 1 <-> cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [s], [tm, g], [b]",
               kProxyFix + "fence.proxy.tensormap::generic.release, then fence.proxy.tensormap::generic.acquire on the map, in the "
                           "CTA of P0 (cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [s], [tm, g], [b])"}});
}

TEST_CASE("surface and alias races name their proxy fences", "[checker][races]") {
  for (const auto& engine : checker::engineNames()) {
    CHECK(fixes("RACE+PX-surface-nofence-spin", engine) ==
          std::map<std::string, std::string>{
              {"different proxies: st.weak x, 2 <-> suld.weak r1, s", kProxyFix + "fence.proxy.surface in the CTA of P1 (suld.weak r1, s)"}});
    CHECK(fixes("RACE+PX-alias-samethread", engine) ==
          std::map<std::string, std::string>{
              {"different proxies: st.weak x, 1 <-> ld.weak r0, y", kProxyFix + "fence.proxy.alias between the two virtual addresses"}});
  }
}

TEST_CASE("scope and synchronisation races name the scope that would do", "[checker][races]") {
  for (const auto& engine : checker::engineNames())
    CHECK(fixes("RACE+MP-rel.cta+acq.cta-diffcta-spin", engine) ==
          std::map<std::string, std::string>{
              {"no synchronisation: st.weak x, 1 <-> ld.weak r1, x",
               "make the accesses strong with scope .gpu or wider, or order them with a release/acquire pattern, a fence pair or "
               "a barrier"},
              {"scope too narrow: st.release.cta f, 1 <-> ld.acquire.cta r0, f",
               "both accesses are strong but their scopes do not include each other's thread: give both scope .gpu or wider"}});
}
