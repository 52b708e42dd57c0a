// Tests of the nvlitmus reader (NvLitmusParser): template expansion and row tests, declarations, placement,
// permit/assert conditions, the `== v` load form, the exact position and wording of the diagnostics,
// robustness against truncated and mutated input, and NVIDIA's own test files when ../shared/peers is present.
// (That `== v` keeps only the executions reading v is checked with an engine: tests/unit/checker.)
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <random>
#include <string>

#include "frontend/nvlitmus/NvLitmusParser.hpp"

namespace {

using namespace ptxmm::frontend;
using ptxmm::model::Proxy;
using ptxmm::model::Scope;
using ptxmm::model::UserError;

const std::string kPeerTests = PTXMM_PEERS_DIR "/mixedproxy/tests";

std::vector<NvLitmusTest> parse(const std::string& text) { return parseNvLitmus(text, "dir/t.test"); }

// A message-passing template in the style of MP_gpu_synonym.test, with two rows (lines 22 and 24).
const std::string kRow1 = "st [x] | fence.proxy.surface; fence.proxy.alias; | suld | [s] | permit | !=";
const std::string kRow2 = "sust [s] |  | ld | [y] | assert | ==";
const std::string kSample =
    ".global x;\n"                          // 1
    ".global y physically aliases x;\n"     // 2
    ".surfref s virtually aliases x;\n"     // 3
    ".texref t virtually aliases y;\n"      // 4
    ".const c virtually aliases x;\n"       // 5
    ".global flag;\n"                       // 6
    "\n"                                    // 7
    "d0.b0.t0 {\n"                          // 8
    "  $0, 2;\n"                            // 9
    "  $1\n"                                // 10
    "  st.release.gpu [flag], 1;\n"         // 11
    "}\n"                                   // 12
    "\n"                                    // 13
    "d0.b1.t0 {\n"                          // 14
    "  ld.acquire.gpu r0, [flag] == 1;\n"   // 15
    "  $2 r1, $3;\n"                        // 16
    "}\n"                                   // 17
    "\n"                                    // 18
    "$4 (r1 $5 2) as r1;\n"                 // 19
    "\n"                                    // 20
    "$$\n"                                  // 21
    + kRow1 + "\n"                          // 22
    "\n"                                    // 23
    + kRow2 + "\n";                         // 24

// A test without table (SB_cta.test's shape).
const std::string kSingle =
    ".global x;\n"
    ".global y;\n"
    "d0.b0.t0 {\n"
    "  st [x], 1;\n"
    "  fence.sc.cta;\n"
    "  ld r0, [y];\n"
    "}\n"
    "d0.b0.t1 {\n"
    "  st [y], 2;\n"
    "  fence.sc.cta;\n"
    "  ld r1, [x];\n"
    "}\n"
    "assert (r0 == 2 || r1 == 1) as my_test;";

int col(const std::string& line, const std::string& what) { return static_cast<int>(line.find(what)) + 1; }

void requireError(const std::string& text, int line, int column, const std::string& fragment) {
  try {
    parse(text);
    FAIL("parsed without error; expected: " << fragment);
  } catch (const UserError& error) {
    INFO(error.what());
    CHECK(error.pos().file == "dir/t.test");
    CHECK(error.pos().line == line);
    CHECK(error.pos().col == column);
    CHECK_THAT(error.message(), Catch::Matchers::Contains(fragment));
  }
}

const Location& location(const Program& program, const std::string& name) {
  for (const Location& l : program.locations)
    if (l.name == name) return l;
  FAIL("no location " << name);
  throw;
}

void checkPos(const ptxmm::model::SourcePos& pos, int line, int column) {
  CHECK(pos.file == "dir/t.test");
  CHECK(pos.line == line);
  CHECK(pos.col == column);
}

}  // namespace

// ------------------------------------------------------------------------------------------- templates

TEST_CASE("a table row is a test: cells replace $N, with several or no instructions", "[frontend][nvlitmus]") {
  const auto tests = parse(kSample);
  REQUIRE(tests.size() == 2);
  CHECK(tests[0].program.name == "t.test#1");
  CHECK(tests[1].program.name == "t.test#2");
  CHECK(tests[0].row == 1);
  CHECK(tests[1].row == 2);
  CHECK(tests[0].program.file == "dir/t.test");
  CHECK(tests[0].program.descriptions.front() == "row 1: " + kRow1);

  const auto& producer = tests[0].program.threads[0].code;
  REQUIRE(producer.size() == 4);
  CHECK(producer[0].op == Opcode::St);
  CHECK(producer[0].text == "st [x], 2");
  CHECK(producer[0].operands[0].name == "x");
  CHECK(producer[0].operands[1].value == 2);
  checkPos(producer[0].pos, 22, 1);               // the mnemonic comes from the row's cell
  checkPos(producer[0].operands[1].pos, 9, 7);    // the value from the template
  CHECK(producer[1].op == Opcode::FenceProxy);    // two instructions in one cell
  CHECK(producer[1].proxy == Proxy::Surface);
  checkPos(producer[1].pos, 22, col(kRow1, "fence.proxy.surface"));
  CHECK(producer[2].op == Opcode::FenceProxy);
  CHECK(producer[2].aliasFence);
  CHECK(producer[3].sem == Sem::Release);
  CHECK(producer[3].scope == Scope::Gpu);

  const auto& consumer = tests[0].program.threads[1].code;
  REQUIRE(consumer.size() == 4);
  CHECK(consumer[3].op == Opcode::Ld);
  CHECK(consumer[3].proxy == Proxy::Surface);
  CHECK(consumer[3].text == "suld r1, [s]");

  // Row 2: an empty cell leaves nothing; the verdict word and comparison come from the row.
  const auto& producer2 = tests[1].program.threads[0].code;
  REQUIRE(producer2.size() == 2);
  CHECK(producer2[0].op == Opcode::St);
  CHECK(producer2[0].proxy == Proxy::Surface);
  checkPos(tests[1].program.condition.pos, 24, col(kRow2, "assert"));
  CHECK(tests[1].program.threads[1].code[3].proxy == Proxy::Generic);
}

TEST_CASE("a file without a table is one test named after the file", "[frontend][nvlitmus]") {
  const auto tests = parse(kSingle);
  REQUIRE(tests.size() == 1);
  CHECK(tests[0].program.name == "t.test");
  CHECK(tests[0].row == 0);
  CHECK(tests[0].program.threads.size() == 2);
  CHECK(tests[0].program.threads[0].code[1].op == Opcode::Fence);
  CHECK(tests[0].program.threads[0].code[1].sem == Sem::Sc);
  CHECK(tests[0].expectation == "assert my_test: (r0 == 2 || r1 == 1) always holds");
}

// -------------------------------------------------------------------------------- declarations, threads

TEST_CASE("declarations: locations, physical aliases and other proxies' names", "[frontend][nvlitmus]") {
  const Program program = parse(kSample)[0].program;
  REQUIRE(program.locations.size() == 6);
  const Location& x = location(program, "x");
  CHECK_FALSE(x.aliasProxy);
  CHECK(x.space == StateSpace::Global);
  checkPos(x.pos, 1, 9);
  const Location& y = location(program, "y");
  CHECK(y.aliasProxy == Proxy::Generic);
  CHECK(y.aliasOf == "x");
  CHECK(location(program, "s").aliasProxy == Proxy::Surface);
  CHECK(location(program, "s").aliasOf == "x");
  CHECK(location(program, "t").aliasProxy == Proxy::Texture);
  CHECK(location(program, "t").aliasOf == "y");
  CHECK(location(program, "c").aliasProxy == Proxy::Constant);
  CHECK(location(program, "flag").declared);
}

TEST_CASE("placement: device, block and thread", "[frontend][nvlitmus]") {
  const auto tests = parse(
      ".global x;\n"
      "d1.b2.t3 { st.relaxed.cta [x], 1; }\n"
      "d1.b2.t4 { ld.relaxed.cta r0, [x]; }\n"
      "d0.b7.t0 { }\n"
      "permit (r0 == 1);\n");
  const Program& program = tests[0].program;
  REQUIRE(program.threads.size() == 3);
  CHECK(program.threads[0].name == "d1.b2.t3");
  CHECK(program.threads[0].gpu == 1);
  CHECK(program.threads[0].cta == 2);
  CHECK_FALSE(program.threads[0].cluster);
  CHECK(program.threads[1].cta == 2);  // threads of one block share the CTA
  CHECK(program.threads[1].index == 1);
  CHECK(program.threads[2].gpu == 0);
  CHECK(program.threads[2].cta == 7);
  CHECK(program.threads[2].code.empty());
  checkPos(program.threads[1].pos, 3, 1);
}

// ------------------------------------------------------------------------------------ verdicts, == v

TEST_CASE("permit is exists, assert is forall; registers name their thread", "[frontend][nvlitmus]") {
  const auto tests = parse(kSample);
  const Condition& permit = tests[0].program.condition;
  CHECK(permit.quantifier == Condition::Quantifier::Exists);
  CHECK(permit.text == "(r1 != 2)");
  REQUIRE(permit.expr->kind == CondExpr::Kind::Compare);
  CHECK(permit.expr->cmp == CmpOp::Ne);
  CHECK(permit.expr->lhs.kind == CondValue::Kind::Register);
  CHECK(permit.expr->lhs.thread == 1);
  CHECK(permit.expr->lhs.name == "r1");
  CHECK(permit.expr->rhs.value == 2);
  CHECK(tests[0].expectHolds);
  CHECK(tests[0].expectation == "permit r1: (r1 != 2) is reachable");

  const Condition& assertion = tests[1].program.condition;
  CHECK(assertion.quantifier == Condition::Quantifier::Forall);
  CHECK(assertion.expr->cmp == CmpOp::Eq);
  CHECK(tests[1].expectHolds);
  CHECK(tests[1].expectation == "assert r1: (r1 == 2) always holds");

  const auto logic = parse(
      ".global x;\nd0.b0.t0 { ld r0, [x]; ld r1, [x]; }\n"
      "permit (!(r0 == 1) && (r1 >= -3 || x < 0x10)) as p\n");
  const CondPtr& e = logic[0].program.condition.expr;
  REQUIRE(e->kind == CondExpr::Kind::And);
  CHECK(e->a->kind == CondExpr::Kind::Not);
  REQUIRE(e->b->kind == CondExpr::Kind::Or);
  CHECK(e->b->a->rhs.value == -3);
  CHECK(e->b->b->lhs.kind == CondValue::Kind::Location);  // a declared address: its final value
  CHECK(e->b->b->rhs.value == 16);
}

TEST_CASE("ld ... == v becomes an await loop on the value", "[frontend][nvlitmus]") {
  const auto tests = parse(kSample);
  const auto& code = tests[0].program.threads[1].code;
  REQUIRE(code.size() == 4);
  CHECK(code[0].op == Opcode::Label);
  CHECK(code[0].operands[0].name == "await0");
  CHECK(code[1].op == Opcode::Ld);
  CHECK(code[1].text == "ld.acquire.gpu r0, [flag]");
  CHECK(code[1].sem == Sem::Acquire);
  CHECK(code[2].op == Opcode::Branch);
  CHECK(code[2].cmp == CmpOp::Ne);
  REQUIRE(code[2].operands.size() == 3);
  CHECK(code[2].operands[0].name == "r0");
  CHECK(code[2].operands[1].value == 1);
  CHECK(code[2].operands[2].name == "await0");
  checkPos(code[2].pos, 15, 29);  // the `==`
}

// ----------------------------------------------------------------------------------------------- errors

TEST_CASE("errors name the exact position", "[frontend][nvlitmus]") {
  const std::string body = "d0.b0.t0 { st [x], 1; }\npermit (true);\n";
  requireError(".shared x;\n" + body, 1, 1, "unknown directive '.shared' (expected .global, .surfref, .texref or .const)");
  requireError(".global x;\nd0.bx.t0 { }\npermit (true);", 2, 4, "expected the block as b<number>");
  requireError(".global x;\nd0.b0 { }\npermit (true);", 2, 7, "expected a thread written d<device>.b<block>.t<thread>");
  requireError(".global x;\ndd.b0.t0 { }\npermit (true);", 2, 1, "expected the device as d<number>");
  requireError(".global x;\nd0.b0.t99999999999 { }\npermit (true);", 2, 7, "thread number 99999999999 is too large");
  requireError(".global x;\ncheck (true);", 2, 1, "expected a declaration (.global x;), a thread");
  requireError(".global x;\nd0.b0.t0 {\n  st [x], 1;\npermit (true);\n", 2, 10,
               "the '{' of thread d0.b0.t0 is never closed (reached 'permit' at line 4)");
  requireError(".global x;\nd0.b0.t0 {\n  st [x], 1;\n", 2, 10, "never closed (the test ends)");
  requireError(".global x;\nd0.b0.t0 {\nd0.b1.t0 { }\npermit (true);", 2, 10, "never closed (reached 'd0'");
  requireError(".global x;\nd0.b0.t0 { st [z], 1; }\npermit (true);", 2, 16, "unknown address 'z'");
  requireError(".global x;\nd0.b0.t0 { st x, 1; }\npermit (true);", 2, 15, "expected an address in brackets ([x])");
  requireError(".global x;\nd0.b0.t0 { st [x], 1 }\npermit (true);", 2, 22, "expected ';' after the instruction");
  requireError(".global x;\nd0.b0.t0 { st [x], 1 == 1; }\npermit (true);", 2, 22, "may only follow a load, not st");
  requireError(".global x;\nd0.b0.t0 { ld r0, [x] == r1; }\npermit (true);", 2, 26, "expected the integer");
  requireError(".global x;\nd0.b0.t0 { stt [x], 1; }\npermit (true);", 2, 12, "unknown instruction 'stt'");
  requireError(".global x;\nd0.b0.t0 { st.relaxed [x], 1; }\npermit (true);", 2, 14, "st.relaxed needs a scope");
  requireError(".global x;\nd0.b0.t0 { bra L; }\npermit (true);", 2, 12, "no labels, so no bra");
  requireError(".global x;\nd0.b0.t0 { ld x, [x]; }\npermit (true);", 2, 15, "'x' is an address");
  requireError(".global x;\n.global x;\n", 2, 9, "'x' is declared twice (first at line 1)");
  requireError(".global x;\n.surfref s;\n", 2, 11, ".surfref names an existing address");
  requireError(".global x;\n.surfref s physically aliases x;\n", 2, 12, "write 'virtually aliases'");
  requireError(".global x;\n.global y virtually aliases x;\n", 2, 11, "write 'physically aliases'");
  requireError(".global y physically aliases x;\n", 1, 30, "unknown address 'x'");
  requireError(".global x;\nd0.b0.t0 { }\nd0.b0.t0 { }\n", 3, 1, "thread d0.b0.t0 is declared twice");
  requireError(".global x;\n" + body.substr(0, 24), 3, 1, "missing the final permit (...) or assert (...)");
  requireError(".global x;\n" + body + "x", 4, 1, "unexpected 'x' after the final permit");
  requireError(".global x;\nd0.b0.t0 { ld r0, [x]; }\nd0.b1.t0 { ld r0, [x]; }\npermit (r0 == 1);", 4, 9,
               "register 'r0' is used by threads d0.b0.t0 and d0.b1.t0");
  requireError(".global x;\n" + body.substr(0, 24) + "permit (r5 == 1);", 3, 9, "unknown register 'r5'");
  requireError(".global x;\n" + body.substr(0, 24) + "permit (1 = 1);", 3, 11, "unexpected '='");
  requireError(".global x;\n" + body.substr(0, 24) + "permit (1 == 99999999999999999999);", 3, 14,
               "does not fit in 64 bits");
}

TEST_CASE("template and table errors point into the template or the row", "[frontend][nvlitmus]") {
  const std::string head = ".global x;\nd0.b0.t0 {\n  $0 [x], $1;\n}\npermit (true);\n$$\n";
  requireError(head + "st | 1 | 2\n", 7, 10, "row 1 has 3 cells, but the template uses only $0 to $1: cell 3 ($2)");
  requireError(".global x;\nd0.b0.t0 {\n  $0 [x], $3;\n}\npermit (true);\n$$\nst | 1\n", 7, 1,
               "row 1 has 2 cells, but the template uses '$3' (line 3, column 11)");
  requireError(head + "st | 1\n\n  sust\n", 9, 3, "row 2 has 1 cell, but the template uses '$1' (line 3, column 11)");
  requireError(head + "stt | 1\n", 7, 1, "unknown instruction 'stt'");               // in the row
  requireError(head + "st | [x]\n", 7, 6, "expected a register or an integer");
  requireError(".global x;\nd0.b0.t0 { ld r0, [z]; }\npermit (r0 == $0);\n$$\n1\n", 2, 20,
               "unknown address 'z' (declare it first: .global z;) (in the test of row 1, line 5)");
  requireError(".global x;\nd0.b0.t0 { st [x], $0; }\npermit (true);\n", 2, 20, "placeholder '$0' in a file without a table");
  requireError(".global x;\nd0.b0.t0 { st [x], $; }\npermit (true);\n$$\n1\n", 2, 20, "'$' must be followed by a cell number");
  requireError(head, 6, 1, "the table has no rows");
  requireError(head + "st | 1\n  $$\n", 8, 3, "a second '$$' line (the table started at line 6)");
  requireError(".global x;\nd0.b0.t0 { st [x], 1; }\npermit (true);\n$$\nst | 1\n", 5, 1, "template uses no placeholder");
}

TEST_CASE("nvlitmus files that cannot be read are reported at 0:0", "[frontend][nvlitmus]") {
  for (const std::string& path : {std::string("/nonexistent/t.test"), std::string(PTXMM_SOURCE_DIR)}) {
    try {
      parseNvLitmusFile(path);
      FAIL("read " << path);
    } catch (const UserError& error) {
      CHECK(error.pos().file == path);
      CHECK(error.pos().line == 0);
      CHECK(error.message() == "cannot read the file");
    }
  }
}

// -------------------------------------------------------------------------------------------- robustness

TEST_CASE("truncated and mutated nvlitmus tests parse or fail with a UserError", "[frontend][nvlitmus]") {
  auto survives = [](const std::string& text) {
    try {
      parse(text);
    } catch (const UserError&) {
    } catch (const std::exception& other) {
      FAIL("not a UserError: " << other.what() << "\non input:\n" << text);
    }
  };
  const std::vector<std::string> samples = {kSample, kSingle};
  for (const std::string& sample : samples) {
    REQUIRE_NOTHROW(parse(sample));
    for (std::size_t length = 0; length <= sample.size(); ++length) survives(sample.substr(0, length));
  }
  const std::string interesting = "$|()[]{};,.=!&<>-0123456789xrdbt \n\t";
  std::mt19937 random(20251122);
  for (const std::string& sample : samples) {
    for (int round = 0; round < 1500; ++round) {
      std::string text = sample;
      const int edits = 1 + static_cast<int>(random() % 3);
      for (int edit = 0; edit < edits && !text.empty(); ++edit) {
        const std::size_t at = random() % text.size();
        const char byte =
            random() % 4 == 0 ? static_cast<char>(random() % 256) : interesting[random() % interesting.size()];
        switch (random() % 4) {
          case 0: text[at] = byte; break;
          case 1: text.erase(at, 1); break;
          case 2: text.insert(at, 1, byte); break;
          default: text.insert(at, text.substr(random() % text.size(), random() % 16)); break;
        }
      }
      survives(text);
    }
  }
  survives(kSingle.substr(0, kSingle.rfind("assert")) + "assert " + std::string(100000, '('));
  survives(".global x;\nd0.b0.t0 { st [x], $99999999999999999999999; }\npermit (true);\n$$\n1\n");
}

// --------------------------------------------------------------------------------------------- peer files

TEST_CASE("every nvlitmus test of NVIDIA's mixedproxy suite parses", "[frontend][nvlitmus]") {
  if (!std::filesystem::is_directory(kPeerTests)) {
    WARN("skipped: NVIDIA's nvlitmus tests are not at " << kPeerTests);
    return;
  }
  const std::map<std::string, std::size_t> rows = {
      {"CoMP_volatile.test", 1}, {"CoWR.test", 10},          {"ISA2.test", 1},
      {"MP_cta.test", 18},       {"MP_cta_synonym.test", 46}, {"MP_gpu.test", 18},
      {"MP_gpu_synonym.test", 30}, {"Release_acquire_pattern.test", 1}, {"SB_cta.test", 1},
      {"SB_rmw.test", 1},        {"SB_rmw_2.test", 1},
  };
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kPeerTests)) {
    if (entry.path().extension() != ".test") continue;
    const std::string name = entry.path().filename().string();
    INFO(name);
    ++files;
    const auto tests = parseNvLitmusFile(entry.path().string());
    REQUIRE(rows.contains(name));
    CHECK(tests.size() == rows.at(name));
    for (const auto& test : tests) {
      CHECK(test.expectHolds);
      CHECK_FALSE(test.program.threads.empty());
      CHECK(test.program.condition.expr);
    }
  }
  CHECK(files == rows.size());

  const auto isa2 = parseNvLitmusFile(kPeerTests + "/ISA2.test")[0].program;
  CHECK(isa2.threads[1].cta == isa2.threads[0].cta);
  CHECK(isa2.threads[2].cta == 1);
  CHECK(isa2.condition.quantifier == Condition::Quantifier::Forall);
  CHECK(isa2.condition.expr->lhs.thread == 2);
  const auto cowr = parseNvLitmusFile(kPeerTests + "/CoWR.test");
  CHECK(cowr[8].program.name == "CoWR.test#9");
  CHECK(cowr[8].program.threads[0].code.size() == 4);  // sust; fence.proxy.texture; fence.proxy.surface; tld
  CHECK(cowr[8].program.condition.quantifier == Condition::Quantifier::Exists);
}
