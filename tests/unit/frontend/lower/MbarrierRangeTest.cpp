// mbarrier counts outside PTX's ranges are located errors: expected arrival counts 1..2^20-1 (0 included as an
// error), arrival counts 1..2^20-1, transaction counts up to 2^20-1 bytes per operation, bulk copies included.
#include <catch2/catch.hpp>

#include <string>

#include "frontend/litmus/LitmusParser.hpp"
#include "frontend/lower/Unroller.hpp"

using namespace ptxmm;

namespace {

// The diagnostic of unrolling a one-thread test whose instructions are `line` (at line 4) and, unless `line`
// initialises the mbarrier, an mbarrier.init (empty when it unrolls).
std::string error(const std::string& line, const std::string& declarations = "b @ mbarrier cta 0;") {
  const std::string init = line.find("mbarrier.init") == std::string::npos ? " ;\n mbarrier.init.shared::cta.b64 [b], 1" : "";
  const std::string text =
      "PTX R\n{ " + declarations + " }\n P0@cta 0,gpu 0 ;\n" + line + init + " ;\nexists (0 == 0)\n";
  try {
    frontend::unroll(frontend::parseLitmus(text, "r.litmus"), {2});
  } catch (const model::UserError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("mbarrier counts in range unroll, out of range are located errors", "[frontend][mbarrier]") {
  CHECK(error(" mbarrier.init.shared::cta.b64 [b], 1048575").empty());
  CHECK(error(" mbarrier.init.shared::cta.b64 [b], 1048576").find("r.litmus:4:") == 0);
  CHECK(error(" mbarrier.init.shared::cta.b64 [b], 1048576").find("1..1048575") != std::string::npos);
  CHECK(error(" mbarrier.init.shared::cta.b64 [b], 0").find("expected arrival count of mbarrier.init must be in 1..") !=
        std::string::npos);
  CHECK(error(" mbarrier.arrive.shared::cta.b64 st, [b], 0").find("arrival count must be in 1..") != std::string::npos);
  CHECK(error(" mbarrier.arrive.expect_tx.shared::cta.b64 _, [b], 1048576").find("transaction count") !=
        std::string::npos);
  CHECK(error(" mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [b], 2000000").find("transaction count") !=
        std::string::npos);
  CHECK(error(" mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [b], 1048576").find("transaction count") !=
        std::string::npos);
  CHECK(error(" mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [b], 0").empty());
  const std::string big = "g @ global size 1048576 = 1; s @ shared cta 0 size 1048576 = 0; b @ mbarrier cta 0;";
  CHECK(error(" cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [s], [g], 1048576, [b]", big)
            .find("tx-count range") != std::string::npos);
}
