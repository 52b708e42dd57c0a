// Tests of differential fuzzing: the engines must agree on random tests (a fast run of 60 and a [slow] one of
// 1000, which CTest's differential-random runs at a size that fits CI), every reproducer written must parse and
// show the difference it claims, and the minimiser, driven by fake properties, must shrink a program to just what
// the property needs.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "app/fuzz/FuzzDiff.hpp"
#include "frontend/LitmusWriter.hpp"
#include "frontend/litmus/LitmusParser.hpp"
#include "model/CatParser.hpp"
#include "unit/checker/CheckerTestSupport.hpp"

namespace {

using namespace ptxmm;
using namespace ptxmm::testing;
using frontend::CondExpr;
using frontend::CondValue;
using frontend::Instruction;
using frontend::Opcode;
using frontend::Operand;
using frontend::Program;

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Under AddressSanitizer (CI's `make asan` job, a Debug build) a random test takes about 50 times as long as in the
// release build (60 tests: 370 s, most of it in the few that reach the 30 s limit): 15 still put both engines
// through the sanitizers, and the release build's ctest checks all 60 here and 400 more in differential-random.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
constexpr std::uint64_t kQuickRandomTests = kSanitized ? 15 : 60;

/// Fuzzes `count` tests from `seed`; every reproducer must reproduce its kind, and no difference may remain.
void requireEnginesAgree(std::uint64_t count, std::uint64_t seed) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("ptxmm-fuzzdiff-" + std::to_string(getpid()) + "-" + std::to_string(seed));
  app::FuzzOptions options;
  options.count = count;
  options.seed = seed;
  options.outDir = dir.string();
  options.run.engineOptions.timeoutSeconds = 30;
  const app::FuzzReport report = app::fuzzDiff(ptxModel(), options);
  CHECK(report.agree + report.differ + report.inconclusive == count);
  // The generator keeps tests small: nearly all are decided in the release build. Under the sanitizers the slow
  // ones reach the time limit, which says nothing about the generator.
  if (!kSanitized) CHECK(report.inconclusive * 20 <= count);
  std::string findings;
  for (const auto& f : report.findings) {
    findings += "seed " + std::to_string(f.seed) + ": " + f.difference + "\n" + f.reproducer + ":\n" + f.minimal + "\n";
    INFO(f.reproducer);
    const std::string text = readFile(f.reproducer);
    CHECK(text.rfind("// fuzz-diff seed " + std::to_string(f.seed) + ": ", 0) == 0);
    const Program minimal = frontend::parseLitmus(text, f.reproducer);
    CHECK(app::differenceKind(checker::compareEngines(ptxModel(), minimal, options.run)) == f.kind);
  }
  std::filesystem::remove_all(dir);
  INFO(findings);
  REQUIRE(report.differ == 0);
}

Program parse(const std::string& text) { return frontend::parseLitmus(text, "min.litmus"); }

bool has(const Program& p, const std::function<bool(const Instruction&)>& match) {
  for (const auto& t : p.threads)
    for (const auto& ins : t.code)
      if (match(ins)) return true;
  return false;
}

std::size_t instructionCount(const Program& p) {
  std::size_t n = 0;
  for (const auto& t : p.threads) n += t.code.size();
  return n;
}

bool conditionMentions(const frontend::CondPtr& e, const std::function<bool(const CondValue&)>& match) {
  return e && (match(e->lhs) || match(e->rhs) || conditionMentions(e->a, match) || conditionMentions(e->b, match));
}

// Three threads with branches (forward and a spin loop), labels, barriers, register initialisations, an alias
// and a compound condition: plenty for the minimiser to remove.
const std::string kBusy =
    "PTX busy\n{ x=0; y=0; z=0; a @ generic aliases y; P0:r5=7; P2:r9=1; }\n"
    " P0@cta 0,gpu 0       | P1@cta 1,gpu 0                   | P2@cta 0,gpu 0    ;\n"
    " ld.acquire.gpu r0, x | st.weak y, 1                     | L1: ld.weak r0, z ;\n"
    " bne r0, 1, L0        | atom.acq_rel.gpu.cas r1, x, 0, 2 | beq r0, 0, L1     ;\n"
    " st.relaxed.gpu y, r5 | fence.sc.gpu                     | st.weak a, r9     ;\n"
    " L0:                  | setp.eq p0, r1, 0                | bar.cta.sync 0    ;\n"
    " bar.cta.sync 0       | @p0 bra L2                       |                   ;\n"
    " red.add z, 1         | L2: ld.weak r2, y                |                   ;\n"
    "exists (P0:r0 == 1 /\\ x == 2 \\/ P2:r0 == 1 /\\ P1:r2 == 0)\n";

}  // namespace


TEST_CASE("the engines agree on random tests (60; 15 under AddressSanitizer)", "[app][diff]") {
  requireEnginesAgree(kQuickRandomTests, 1);
}

// 1000 tests by default (the full run: `build/tests/ptxmm_app_tests "[slow]"`, about a minute and a half on two
// cores); PTXMM_RANDOM_TESTS=N runs the first N of them, which is how CTest's differential-random fits CI.
TEST_CASE("the engines agree on 1000 random tests", "[app][diff][slow]") {
  const char* count = std::getenv("PTXMM_RANDOM_TESTS");
  const std::uint64_t n = count ? std::stoull(count) : 1000;
  REQUIRE(n > 0);
  requireEnginesAgree(n, 100001);
}

TEST_CASE("a test stopped by a limit is named with its seed and the run that stopped", "[app][diff]") {
  app::FuzzOptions options;
  options.count = 2;
  options.seed = 7;
  options.outDir.clear();
  options.run.engineOptions.maxCandidates = 1;  // the explicit engine stops at once on any test with a choice
  const app::FuzzReport report = app::fuzzDiff(ptxModel(), options);
  REQUIRE(report.inconclusive == report.inconclusiveTests.size());
  REQUIRE(report.inconclusive >= 1);
  const auto& [seed, limit] = report.inconclusiveTests.front();
  CHECK((seed == 7 || seed == 8));
  CHECK(limit.rfind("explicit: the explicit engine examined its limit of 1", 0) == 0);
}

TEST_CASE("the minimiser shrinks a program to the one instruction a property needs", "[app][diff]") {
  const auto isCas = [](const Instruction& ins) { return ins.op == Opcode::Atom && ins.atomOp == frontend::AtomOp::Cas; };
  int calls = 0;
  const Program minimal = app::minimizeProgram(parse(kBusy), [&](const Program& p) {
    ++calls;
    return has(p, isCas);
  });
  INFO(frontend::writeLitmus(minimal));
  CHECK(calls > 10);
  REQUIRE(instructionCount(minimal) == 1);
  CHECK(has(minimal, isCas));
  // The only initial values left state the 0 a condition register kept when its instructions went (issue 16 W4:
  // a condition may only read registers its thread names).
  for (const auto& init : minimal.regInits) {
    CHECK(init.value == 0);
    CHECK(minimal.threads.at(static_cast<std::size_t>(init.thread)).code.empty());
    CHECK(conditionMentions(minimal.condition.expr, [&](const CondValue& v) {
      return v.kind == CondValue::Kind::Register && v.thread == init.thread && v.name == init.reg;
    }));
  }
  // What remains is what the cas or the condition names, and the condition is a single comparison.
  CHECK(minimal.condition.expr->kind == CondExpr::Kind::Compare);
  for (const auto& l : minimal.locations) {
    const bool byCas = has(minimal, [&](const Instruction& ins) { return ins.operands.at(1).name == l.name; });
    const bool byCondition = conditionMentions(minimal.condition.expr, [&](const CondValue& v) {
      return v.kind == CondValue::Kind::Location && v.name == l.name;
    });
    CHECK((byCas || byCondition));
  }
  for (const auto& t : minimal.threads) {
    if (!t.code.empty()) continue;
    CHECK(conditionMentions(minimal.condition.expr, [&](const CondValue& v) {
      return v.kind == CondValue::Kind::Register && v.thread == t.index;
    }));
  }
  CHECK(frontend::writeLitmus(parse(frontend::writeLitmus(minimal))) == frontend::writeLitmus(minimal));
}

TEST_CASE("the minimiser keeps a branch with its label and drops them together", "[app][diff]") {
  const auto backward = [](const Program& p) {
    for (const auto& t : p.threads)
      for (std::size_t i = 0; i < t.code.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
          if (t.code[i].op == Opcode::Branch && t.code[j].op == Opcode::Label &&
              t.code[j].operands[0].name == t.code[i].operands.back().name)
            return true;
    return false;
  };
  const Program loop = app::minimizeProgram(parse(kBusy), backward);
  INFO(frontend::writeLitmus(loop));
  REQUIRE(instructionCount(loop) == 2);
  CHECK(backward(loop));

  // Without a property that needs them, branches go, and their labels with them.
  const Program none = app::minimizeProgram(parse(kBusy), [](const Program&) { return true; });
  INFO(frontend::writeLitmus(none));
  CHECK(instructionCount(none) == 0);
  CHECK(none.threads.size() <= 2);  // only threads the single remaining comparison names
}

TEST_CASE("differences are classified by what must persist while minimising", "[app][diff]") {
  checker::EngineComparison c;
  CHECK(app::differenceKind(c).empty());
  c.difference = "states differ: explicit {x=1} ; z3 {x=2}";
  CHECK(app::differenceKind(c) == "states differ");
  c.difference = "the condition's claim differs";
  CHECK(app::differenceKind(c) == "the condition's claim differs");
  c.solver.status = checker::Status::Unknown;
  c.difference = "status ok (explicit: ) vs unknown (z3: timeout)";
  CHECK(app::differenceKind(c) == "status ok vs unknown");
  c.solver.status = checker::Status::Internal;
  c.difference = "cross-check failed: ...";
  CHECK(app::differenceKind(c) == "z3 internal error");
}
