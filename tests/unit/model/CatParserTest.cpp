// Tests of the cat reader (CatLexer, CatParser) and the cat printer: precedence, the product/closure `*`,
// types, scoping of `let`, `let rec` and includes, checks, exact error positions, print/parse round trips,
// and robustness against truncated, mutated and deeply nested input.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <variant>

#include "model/CatParser.hpp"
#include "model/CatPrinter.hpp"

using namespace ptxmm::model;

namespace {

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};

const char* unaryName(ir::UnaryOp op) {
  switch (op) {
    case ir::UnaryOp::Inverse: return "inv";
    case ir::UnaryOp::Plus: return "plus";
    case ir::UnaryOp::Star: return "star";
    case ir::UnaryOp::Optional: return "opt";
    case ir::UnaryOp::Complement: return "not";
    case ir::UnaryOp::Identity: return "id";
    case ir::UnaryOp::Domain: return "dom";
    case ir::UnaryOp::Range: return "rng";
  }
  return "?";
}

const char* binaryName(ir::BinaryOp op) {
  switch (op) {
    case ir::BinaryOp::Union: return "|";
    case ir::BinaryOp::Inter: return "&";
    case ir::BinaryOp::Diff: return "\\";
    case ir::BinaryOp::Seq: return ";";
    case ir::BinaryOp::Product: return "x";
  }
  return "?";
}

// The tree as an S-expression, independent of the printer under test: "(| po (; rf co))". Definitions show
// their index ("a#0"); with `typed`, every node is suffixed with ":s" (set) or ":r" (relation).
std::string shape(const CatModel& m, const RelExpr& e, bool typed = false) {
  std::string s = std::visit(
      Overloaded{
          [](const ir::Empty&) { return std::string("0"); },
          [](const ir::Universe&) { return std::string("_"); },
          [](const ir::BaseSet& b) { return std::string(tagInfo(b.tag).name); },
          [](const ir::BaseRelation& b) { return std::string(baseRelInfo(b.rel).name); },
          [&](const ir::DefRef& d) { return m.defs.at(d.index).name + "#" + std::to_string(d.index); },
          [&](const ir::Unary& u) { return "(" + std::string(unaryName(u.op)) + " " + shape(m, *u.arg, typed) + ")"; },
          [&](const ir::Binary& b) {
            return "(" + std::string(binaryName(b.op)) + " " + shape(m, *b.lhs, typed) + " " +
                   shape(m, *b.rhs, typed) + ")";
          },
      },
      e.node);
  if (typed) s += e.type == ExprType::Set ? ":s" : ":r";
  return s;
}

CatModel parse(const std::string& text) { return parseCat(text, "test.cat"); }

// The shape of the last definition of a model.
std::string lastShape(const std::string& text, bool typed = false) {
  const CatModel m = parse(text);
  REQUIRE(!m.defs.empty());
  return shape(m, *m.defs.back().expr, typed);
}

// The shape of `let x = <expr>`.
std::string exprShape(const std::string& expr) { return lastShape("let x = " + expr); }

ExprType exprType(const std::string& expr) { return parse("let x = " + expr).defs.back().type; }

// Parsing `text` (as `file`) must fail at line:col with a message containing `fragment`.
void requireError(const std::string& text, int line, int col, const std::string& fragment,
                  const std::string& file = "test.cat") {
  INFO("input: " << text);
  try {
    parseCat(text, file);
    FAIL("parsed without error");
  } catch (const UserError& e) {
    INFO("error: " << e.what());
    CHECK(e.pos().file == file);
    CHECK(e.pos().line == line);
    CHECK(e.pos().col == col);
    CHECK_THAT(e.message(), Catch::Matchers::Contains(fragment));
    const std::string prefix = file + ":" + std::to_string(line) + ":" + std::to_string(col) + ": error: ";
    CHECK_THAT(std::string(e.what()), Catch::Matchers::StartsWith(prefix));
  }
}

// A fresh directory under the system's temporary directory, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::random_device seed;
    path_ = std::filesystem::temp_directory_path() / ("ptxmm-cat-" + std::to_string(seed()) + std::to_string(seed()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // Writes `text` to `name` (relative to the directory, parents created) and returns the full path.
  std::string write(const std::string& name, const std::string& text) const {
    const auto file = path_ / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << text;
    return file.string();
  }

 private:
  std::filesystem::path path_;
};

// A model that uses every node kind, both check flags, pairwise, `and`, and `let rec` with forward references.
const std::string kSample = R"((* A sample model (* with a nested comment *). *)
"Sample model"
let po-loc = po & loc
let com = rf | co | rf^-1 ; co
let fr = (rf^-1 ; co) \ id and ext = ~int
let strong = [(R | W) & ~WEAK] ; (_ * _) ; [domain(rf) | range(co) | 0]
let rec hb = po | rf ; hb^+ | sync and sync = [F] ; hb? ; [F]
let cause = (po ; hb)* ; com^* ; (hb^? | hb+) & (R * W)
acyclic po-loc | com as coherence
irreflexive fr ; cause pairwise loc as sc-per-loc
flag ~empty (ext & strong) \ cause as race
~acyclic 0 as never
empty W \ (R | W) as sets
)";

}  // namespace

TEST_CASE("binary operators bind as in herd7 and associate to the left", "[model][cat]") {
  CHECK(exprShape("po | rf ; co") == "(| po (; rf co))");
  CHECK(exprShape("po ; rf \\ co") == "(; po (\\ rf co))");
  CHECK(exprShape("po \\ rf & co") == "(\\ po (& rf co))");
  CHECK(exprShape("po ; rf | co") == "(| (; po rf) co)");
  CHECK(exprShape("R * W & F * W") == "(& (x R W) (x F W))");
  CHECK(exprShape("po | rf | co") == "(| (| po rf) co)");
  CHECK(exprShape("po ; rf ; co") == "(; (; po rf) co)");
  CHECK(exprShape("po \\ rf \\ co") == "(\\ (\\ po rf) co)");
  CHECK(exprShape("(po | rf) ; co") == "(; (| po rf) co)");
  CHECK(exprShape("[R] ; po ; [W]") == "(; (; (id R) po) (id W))");
}

TEST_CASE("prefix ~ binds tighter than binary operators and looser than postfix ones", "[model][cat]") {
  CHECK(exprShape("~po & rf") == "(& (not po) rf)");
  CHECK(exprShape("~R * W") == "(x (not R) W)");
  CHECK(exprShape("~po+") == "(not (plus po))");
  CHECK(exprShape("~~po") == "(not (not po))");
  CHECK(exprShape("(~po)^-1") == "(inv (not po))");
  CHECK(exprShape("po^-1 ; rf^+ ; co^* ; id^?") == "(; (; (; (inv po) (plus rf)) (star co)) (opt id))");
  CHECK(exprShape("po+? ; rf") == "(; (opt (plus po)) rf)");
  CHECK(exprShape("[domain(rf) | range(co)]") == "(id (| (dom rf) (rng co)))");
}

TEST_CASE("a * followed by an operand is a product, otherwise a closure", "[model][cat]") {
  CHECK(exprShape("po*") == "(star po)");
  CHECK(exprShape("po* ; rf") == "(; (star po) rf)");
  CHECK(exprShape("(po)* ; rf") == "(; (star po) rf)");
  CHECK(exprShape("R*W") == "(x R W)");
  CHECK(exprShape("R * (W | F)") == "(x R (| W F))");
  CHECK(exprShape("R * ~W") == "(x R (not W))");
  CHECK(exprShape("[R]^* ; po") == "(; (star (id R)) po)");
  CHECK(exprShape("po** | rf") == "(| (star (star po)) rf)");
  // A statement starting with `~` after a closure is not an operand.
  const CatModel m = parse("let x = po*\n~empty x as nothing");
  REQUIRE(m.defs.size() == 1);
  CHECK(shape(m, *m.defs[0].expr) == "(star po)");
  REQUIRE(m.checks.size() == 1);
  CHECK(m.checks[0].negated);
  // But `R * ~W` is a product, also at the end of a statement.
  CHECK(lastShape("let y = R * ~W\nacyclic po as a") == "(x R (not W))");
}

TEST_CASE("expressions get the type of their operators", "[model][cat]") {
  CHECK(exprType("R | W") == ExprType::Set);
  CHECK(exprType("po | rf") == ExprType::Relation);
  CHECK(exprType("~W") == ExprType::Set);
  CHECK(exprType("~po") == ExprType::Relation);
  CHECK(exprType("_") == ExprType::Set);
  CHECK(exprType("[W] ; po") == ExprType::Relation);
  CHECK(exprType("R * W") == ExprType::Relation);
  CHECK(exprType("domain(rf) & range(co)") == ExprType::Set);
  CHECK(exprType("0") == ExprType::Relation);
  // A literal 0 takes the type its context needs.
  CHECK(lastShape("let x = 0 | W", true) == "(| 0:s W:s):s");
  CHECK(lastShape("let x = W \\ 0", true) == "(\\ W:s 0:s):s");
  CHECK(lastShape("let x = [0] ; 0", true) == "(; (id 0:s):r 0:r):r");
  CHECK(lastShape("let x = 0 * R", true) == "(x 0:s R:s):r");
  // Definitions carry their type to their uses.
  const CatModel m = parse("let s = R | W\nlet r = [s] ; po");
  CHECK(m.defs[0].type == ExprType::Set);
  CHECK(m.defs[1].type == ExprType::Relation);
  CHECK(shape(m, *m.defs[1].expr, true) == "(; (id s#0:s):r po:r):r");
}

TEST_CASE("names are resolved with let scoping", "[model][cat]") {
  SECTION("identifiers may contain - and .") {
    const CatModel m = parse("let po-loc = po & loc\nlet x.y_1 = po-loc");
    CHECK(m.defs[0].name == "po-loc");
    CHECK(shape(m, *m.defs[1].expr) == "po-loc#0");
  }
  SECTION("a definition may shadow a base name; its right-hand side still sees the base name") {
    const CatModel m = parse("let po = po | rf\nlet x = po");
    CHECK(shape(m, *m.defs[0].expr) == "(| po rf)");
    CHECK(shape(m, *m.defs[1].expr) == "po#0");
  }
  SECTION("the right-hand sides of let ... and ... see only earlier definitions") {
    const CatModel m = parse("let a = po\nlet a = rf and b = a\nlet c = a");
    REQUIRE(m.defs.size() == 4);
    CHECK(shape(m, *m.defs[2].expr) == "a#0");
    CHECK(shape(m, *m.defs[3].expr) == "a#1");
    CHECK(m.defs[2].recGroup == -1);
    CHECK(m.recGroups.empty());
  }
  SECTION("base relations come before base sets") { CHECK(exprShape("po ; [R]") == "(; po (id R))"); }
  SECTION("definitions record where their name is") {
    const CatModel m = parse("\"t\"\n  let  abc = po");
    CHECK(m.defs[0].pos.line == 2);
    CHECK(m.defs[0].pos.col == 8);
    CHECK(m.defs[0].pos.file == "test.cat");
  }
}

TEST_CASE("let rec makes a group whose members see each other", "[model][cat]") {
  const CatModel m = parse("let b = W\nlet rec a = po | b ; rf and b = a ; co | b\nlet rec c = c ; c | po\nlet d = a");
  REQUIRE(m.defs.size() == 5);
  REQUIRE(m.recGroups.size() == 2);
  CHECK(m.recGroups[0].defs == std::vector<std::size_t>{1, 2});
  CHECK(m.recGroups[1].defs == std::vector<std::size_t>{3});
  CHECK(m.defs[0].recGroup == -1);
  CHECK(m.defs[1].recGroup == 0);
  CHECK(m.defs[2].recGroup == 0);
  CHECK(m.defs[3].recGroup == 1);
  CHECK(m.defs[4].recGroup == -1);
  // The forward reference to b is to the group's b, which shadows the earlier set b.
  CHECK(shape(m, *m.defs[1].expr, true) == "(| po:r (; b#2:r rf:r):r):r");
  CHECK(shape(m, *m.defs[2].expr) == "(| (; a#1 co) b#2)");
  CHECK(shape(m, *m.defs[3].expr) == "(| (; c#3 c#3) po)");
  CHECK(shape(m, *m.defs[4].expr) == "a#1");
  for (const auto& d : m.defs) CHECK(d.expr != nullptr);
}

TEST_CASE("checks carry their kind, flags, pairwise relation and name", "[model][cat]") {
  const CatModel m = parse(
      "acyclic po as a1\n"
      "flag ~empty rf \\ co as race-x\n"
      "irreflexive po ; rf pairwise loc as sc\n"
      "~acyclic po as a2\n"
      "empty R & W as sets");
  REQUIRE(m.checks.size() == 5);
  CHECK(m.checks[0].kind == CheckKind::Acyclic);
  CHECK_FALSE(m.checks[0].flag);
  CHECK_FALSE(m.checks[0].negated);
  CHECK(m.checks[0].name == "a1");
  CHECK(m.checks[0].pairwise == nullptr);
  CHECK(m.checks[1].kind == CheckKind::Empty);
  CHECK(m.checks[1].flag);
  CHECK(m.checks[1].negated);
  CHECK(m.checks[1].name == "race-x");
  CHECK(m.checks[1].pos.line == 2);
  CHECK(m.checks[1].pos.col == 1);
  CHECK(shape(m, *m.checks[1].expr) == "(\\ rf co)");
  CHECK(m.checks[2].kind == CheckKind::Irreflexive);
  REQUIRE(m.checks[2].pairwise != nullptr);
  CHECK(shape(m, *m.checks[2].pairwise) == "loc");
  CHECK(shape(m, *m.checks[2].expr) == "(; po rf)");
  CHECK(m.checks[3].negated);
  CHECK_FALSE(m.checks[3].flag);
  CHECK(m.checks[4].expr->type == ExprType::Set);
}

TEST_CASE("titles and comments", "[model][cat]") {
  CHECK(parse("\"PTX memory model\"\nlet x = po").title == "PTX memory model");
  CHECK(parse("PTX-v7.5\nlet x = po").title == "PTX-v7.5");
  CHECK(parse("let x = po").title.empty());
  CHECK(parse("").defs.empty());
  const CatModel m = parse("(* a (* nested *) comment *) let (* here *) x = po (*) also a comment *)");
  CHECK(m.defs.size() == 1);
  CHECK(m.file == "test.cat");
}

TEST_CASE("include splices a file's definitions and checks in place", "[model][cat]") {
  const TempDir dir;
  SECTION("definitions flow both ways; paths are relative to the including file") {
    dir.write("lib/base.cat", "\"base\"\nlet b = a | rf\ninclude \"more.cat\"\nacyclic b as base-ax\n");
    dir.write("lib/more.cat", "let m = b ; co\n");
    const std::string main = dir.write("main.cat", "\"main\"\nlet a = po\ninclude \"lib/base.cat\"\nlet c = b | m\n");
    const CatModel m = parseCatFile(main);
    CHECK(m.title == "main");
    CHECK(m.file == main);
    REQUIRE(m.defs.size() == 4);
    CHECK(shape(m, *m.defs[1].expr) == "(| a#0 rf)");
    CHECK(shape(m, *m.defs[2].expr) == "(; b#1 co)");
    CHECK(shape(m, *m.defs[3].expr) == "(| b#1 m#2)");
    CHECK_THAT(m.defs[1].pos.file, Catch::Matchers::EndsWith("base.cat"));
    CHECK(m.defs[1].pos.line == 2);
    REQUIRE(m.checks.size() == 1);
    CHECK(m.checks[0].name == "base-ax");
  }
  SECTION("errors inside an included file point into it") {
    const std::string sub = dir.write("sub.cat", "let x =\n  nope\n");
    const std::string main = dir.write("main.cat", "include \"sub.cat\"\n");
    try {
      parseCatFile(main);
      FAIL("parsed");
    } catch (const UserError& e) {
      CHECK(std::filesystem::equivalent(e.pos().file, sub));
      CHECK(e.pos().line == 2);
      CHECK(e.pos().col == 3);
      CHECK_THAT(e.message(), Catch::Matchers::Contains("unknown name 'nope'"));
    }
  }
  SECTION("an include cycle is reported at the include that closes it") {
    dir.write("a.cat", "let a = po\ninclude \"b.cat\"\n");
    const std::string b = dir.write("b.cat", "let b = po\n  include \"a.cat\"\n");
    try {
      parseCatFile(dir.write("top.cat", "include \"a.cat\""));
      FAIL("parsed");
    } catch (const UserError& e) {
      CHECK(std::filesystem::equivalent(e.pos().file, b));
      CHECK(e.pos().line == 2);
      CHECK(e.pos().col == 3);
      CHECK_THAT(e.message(), Catch::Matchers::Contains("include cycle"));
    }
  }
  SECTION("a file including itself is a cycle") {
    const std::string self = dir.write("self.cat", "let a = po include \"self.cat\"");
    try {
      parseCatFile(self);
      FAIL("parsed");
    } catch (const UserError& e) {
      CHECK(e.pos().line == 1);
      CHECK(e.pos().col == 12);
      CHECK_THAT(e.message(), Catch::Matchers::Contains("include cycle"));
    }
  }
  SECTION("a missing include is reported at the include") {
    const std::string main = dir.write("main.cat", "let a = po\n\n    include \"nowhere.cat\"\n");
    try {
      parseCatFile(main);
      FAIL("parsed");
    } catch (const UserError& e) {
      CHECK(e.pos().file == main);
      CHECK(e.pos().line == 3);
      CHECK(e.pos().col == 5);
      CHECK_THAT(e.message(), Catch::Matchers::Contains("'nowhere.cat' not found"));
    }
  }
  SECTION("a directory is not an included file") {
    dir.write("sub/x.cat", "");
    const std::string main = dir.write("main.cat", "include \"sub\"");
    CHECK_THROWS_AS(parseCatFile(main), UserError);
  }
}

TEST_CASE("a model file that cannot be opened is an error at 0:0", "[model][cat]") {
  try {
    parseCatFile("/nonexistent/ptxmm/model.cat");
    FAIL("parsed");
  } catch (const UserError& e) {
    CHECK(e.pos().file == "/nonexistent/ptxmm/model.cat");
    CHECK(e.pos().line == 0);
    CHECK(e.pos().col == 0);
    CHECK_THAT(e.message(), Catch::Matchers::Contains("cannot open"));
  }
}

TEST_CASE("name errors point at the name", "[model][cat]") {
  requireError("let x = po\nlet y = x | nope", 2, 13, "unknown name 'nope'");
  requireError("let a = po and b = a", 1, 20, "unknown name 'a'");
  requireError("let a = po and a = rf", 1, 16, "'a' is bound twice");
  requireError("let rec a = po and a = rf", 1, 20, "'a' is bound twice");
  requireError("acyclic po as x\nacyclic rf as x", 2, 15, "a check named 'x' already exists");
}

TEST_CASE("type errors name both types and point at the operator or operand", "[model][cat]") {
  requireError("let x = R | po", 1, 11,
               "'|' needs operands of one type, but the left one is a set and the right one is a relation");
  requireError("let x = po & W", 1, 12, "the right one is a set");
  requireError("let x = W ; po", 1, 11, "the left operand of ';' must be a relation, but it is a set (use [S]");
  requireError("let x = po ; R", 1, 12, "the right operand of ';' must be a relation, but it is a set");
  requireError("let x = po * W", 1, 12,
               "the left operand of '*' (cartesian product) must be a set, but it is a relation");
  requireError("let x = R*rf", 1, 10, "the right operand of '*' (cartesian product) must be a set");
  requireError("let x = W+", 1, 10, "the operand of '+' must be a relation, but it is a set");
  requireError("let x = W^-1", 1, 10, "the operand of '^-1' must be a relation");
  requireError("let x = [R] ; [po]", 1, 16, "the argument of '[...]' must be a set, but it is a relation");
  requireError("let x = domain(  W)", 1, 18, "the argument of 'domain' must be a relation, but it is a set");
  requireError("let x = W\nacyclic x as a", 2, 9, "the argument of 'acyclic' must be a relation, but it is a set");
  requireError("irreflexive po pairwise W as a", 1, 25, "the argument of 'pairwise' must be a relation");
  requireError("let rec s = R | W", 1, 9, "'s', bound by 'let rec', must be a relation, but it is a set");
  requireError("let s = 0\nlet x = s | W", 2, 11, "needs operands of one type");
}

TEST_CASE("syntax errors name what was expected", "[model][cat]") {
  requireError("acyclic po", 1, 11, "expected 'as NAME'");
  requireError("acyclic po\nlet x = po", 2, 1, "expected 'as NAME'");
  requireError("acyclic po as", 1, 14, "the check's name");
  requireError("let x = (po | rf", 1, 17, "expected ')' to close the '(' at line 1, column 9, found end of file");
  requireError("let x = po |", 1, 13, "expected an expression");
  requireError("let = po", 1, 5, "expected a name after 'let'");
  requireError("let x po", 1, 7, "expected '=' after 'x'");
  requireError("\"t\" po", 1, 5, "expected a statement");
  requireError("let x = po\n\tlet y = 12", 2, 10, "the only number in cat is 0");
  requireError("let x = po {", 1, 12, "unexpected character '{'");
  requireError(std::string("let x = po\x01"), 1, 11, "unexpected byte 0x01");
  requireError("flag po as x", 1, 6, "expected 'acyclic', 'irreflexive' or 'empty'");
}

TEST_CASE("herd7 constructs outside the subset are named in the error", "[model][cat]") {
  requireError("let x = po\nshow x", 2, 1, "'show' is not supported by ptxmm's cat subset");
  requireError("procedure p() = acyclic po as x end", 1, 1, "'procedure' is not supported");
  requireError("let x = po\n  call p()", 2, 3, "'call' is not supported");
  requireError("enum Scopes = 'a || 'b", 1, 1, "'enum' is not supported");
  requireError("let f = fun x -> x", 1, 9, "'fun' is not supported");
  requireError("let f(x) = x", 1, 5, "functions are not supported");
  requireError("let x = fencerel(F)", 1, 9, "function calls are not supported");
  requireError("let x = po in x", 1, 12, "'in' is not supported");
}

TEST_CASE("unterminated comments and strings are reported where they start", "[model][cat]") {
  requireError("let x = po\n  (* open (* nested *) still open", 2, 3, "unterminated comment");
  requireError("let x = po (*", 1, 12, "unterminated comment");
  requireError("\"title", 1, 1, "unterminated string");
  requireError("include \"a.cat\nlet x = po", 1, 9, "unterminated string");
}

TEST_CASE("printing gives text that parses back to the same tree", "[model][cat]") {
  const CatModel m = parse(kSample);
  CHECK(m.title == "Sample model");
  REQUIRE(m.recGroups.size() == 1);

  // Rebuild the model from printed expressions; every tree, with its types, must come back unchanged.
  std::string text;
  for (std::size_t i = 0; i < m.defs.size(); ++i) {
    const Definition& d = m.defs[i];
    const bool laterInGroup = d.recGroup >= 0 && m.recGroups[d.recGroup].defs.front() != i;
    text += laterInGroup ? " and " : (d.recGroup >= 0 ? "\nlet rec " : "\nlet ");
    text += d.name + " = " + printExpr(m, *d.expr);
  }
  for (const Check& c : m.checks) {
    text += std::string("\n") + (c.flag ? "flag " : "") + (c.negated ? "~" : "");
    text += c.kind == CheckKind::Acyclic ? "acyclic " : c.kind == CheckKind::Irreflexive ? "irreflexive " : "empty ";
    text += printExpr(m, *c.expr);
    if (c.pairwise) text += " pairwise " + printExpr(m, *c.pairwise);
    text += " as " + c.name;
  }
  INFO("printed model:" << text);
  const CatModel again = parse(text);
  REQUIRE(again.defs.size() == m.defs.size());
  for (std::size_t i = 0; i < m.defs.size(); ++i) {
    CHECK(again.defs[i].name == m.defs[i].name);
    CHECK(again.defs[i].recGroup == m.defs[i].recGroup);
    CHECK(shape(again, *again.defs[i].expr, true) == shape(m, *m.defs[i].expr, true));
  }
  REQUIRE(again.checks.size() == m.checks.size());
  for (std::size_t i = 0; i < m.checks.size(); ++i) {
    CHECK(shape(again, *again.checks[i].expr, true) == shape(m, *m.checks[i].expr, true));
    CHECK((again.checks[i].pairwise == nullptr) == (m.checks[i].pairwise == nullptr));
  }
}

TEST_CASE("the printer uses minimal parentheses", "[model][cat]") {
  auto reprint = [](const std::string& expr) {
    const CatModel m = parse("let x = " + expr);
    return printExpr(m, *m.defs.back().expr);
  };
  CHECK(reprint("(po | (rf ; co))") == "po | rf ; co");
  CHECK(reprint("(po | rf) ; co") == "(po | rf) ; co");
  CHECK(reprint("po ; (rf ; co)") == "po ; (rf ; co)");
  CHECK(reprint("(po ; rf) ; co") == "po ; rf ; co");
  CHECK(reprint("(~po)^-1 & ~(po+)") == "(~po)^-1 & ~po+");
  CHECK(reprint("R*W") == "R * W");
  CHECK(reprint("(po)^*") == "po*");
  CHECK(reprint("[R] ; (_ * (W)) ; [domain(rf)]") == "[R] ; _ * W ; [domain(rf)]");
}

TEST_CASE("truncated and mutated models either parse or raise a UserError", "[model][cat]") {
  // Every prefix of a valid model.
  for (std::size_t n = 0; n <= kSample.size(); ++n) {
    INFO("prefix of length " << n);
    try {
      parse(kSample.substr(0, n));
    } catch (const UserError&) {
    }
  }
  // Seeded random mutations: replaced, inserted and deleted bytes, biased towards the language's own symbols.
  std::mt19937 rng(20240611);
  const std::string alphabet = "()[]*+?~^-1|&\\;=_0\"aW po rec and as let (* *)\n\x01\xff";
  std::size_t parsed = 0;
  for (int round = 0; round < 4000; ++round) {
    std::string text = kSample;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = rng() % (text.size() + 1);
      const char c = rng() % 4 == 0 ? static_cast<char>(rng() % 256) : alphabet[rng() % alphabet.size()];
      switch (rng() % 3) {
        case 0:
          if (at < text.size()) text[at] = c;
          break;
        case 1: text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), c); break;
        default:
          if (at < text.size()) text.erase(at, 1);
      }
    }
    INFO("mutated model: " << text);
    try {
      parse(text);
      ++parsed;
    } catch (const UserError&) {
    }
  }
  CHECK(parsed > 0);  // some mutations keep the model valid (e.g. inside comments)
}

TEST_CASE("deep nesting is an error, not a stack overflow", "[model][cat]") {
  const int n = 100000;
  requireError("let x = " + std::string(n, '(') + "po" + std::string(n, ')'), 1, 509, "nested too deeply");
  requireError("let x = " + std::string(n, '~') + "po", 1, 509, "nested too deeply");
  std::string chain = "let x = po";
  for (int i = 0; i < n; ++i) chain += "|po";
  requireError(chain, 1, 11 + 3 * 499, "nested too deeply");  // at the 500th '|'

  requireError("let x = po" + std::string(n, '+'), 1, 510, "nested too deeply");
  // Deep comments and long flat models are fine.
  CHECK(parse(std::string(n, ' ') + "(*" + [&] {
          std::string s;
          for (int i = 0; i < n; ++i) s += "(*";
          for (int i = 0; i < n; ++i) s += "*)";
          return s;
        }() + "*) let x = po").defs.size() == 1);
  std::string flat;
  for (int i = 0; i < 10000; ++i) flat += "let x = po | x\n";
  CHECK(parse("let x = po\n" + flat).defs.size() == 10001);
  // Nesting just under the limit parses.
  CHECK(parse("let x = " + std::string(400, '(') + "po" + std::string(400, ')')).defs.size() == 1);
}

TEST_CASE("a let rec must be monotone in its members (issue 16 W2)", "[model][cat]") {
  // r = po \ r has no fixpoint: the explicit engine iterated for ever and Z3 answered with some other solution.
  CHECK_THROWS_WITH(parse("let rec r = po \\ r"),
                    Catch::Contains("test.cat:1:18: error: 'r' occurs negated") && Catch::Contains("not monotone"));
  CHECK_THROWS_WITH(parse("let rec a = po | b and b = ~a & rf"), Catch::Contains("1:29: error: 'a' occurs negated"));
  CHECK_THROWS_WITH(parse("let rec a = po | [~domain(a)] ; rf"), Catch::Contains("'a' occurs negated"));
  // Twice negated is monotone again; a negated earlier definition is not a member.
  CHECK_NOTHROW(parse("let rec a = po | (rf \\ (co \\ a))"));
  CHECK_NOTHROW(parse("let rec a = po | (rf \\ ~a)"));
  CHECK_THROWS(parse("let rec a = po | ~a^-1 \\ ~a"));
  CHECK_NOTHROW(parse("let b = rf\nlet rec a = po \\ b | a ; a"));
}

TEST_CASE("includes nested past the bound are an error, not a stack overflow (issue 16 C3b)", "[model][cat]") {
  const TempDir dir;
  const int n = 2000;
  for (int i = 0; i < n; ++i)
    dir.write("c" + std::to_string(i) + ".cat",
              (i + 1 < n ? "include \"c" + std::to_string(i + 1) + ".cat\"\n" : std::string()) + "let d" +
                  std::to_string(i) + " = po\n");
  CHECK_THROWS_WITH(parseCatFile(dir.write("top.cat", "include \"c0.cat\"\n")),
                    Catch::Contains("c98.cat:1:1: error: includes nested too deeply (more than 100 files)"));
  const CatModel ok = parseCatFile(dir.write("short.cat", "include \"c1910.cat\"\nacyclic d1999 as a\n"));
  CHECK(ok.defs.size() == 90);
}

TEST_CASE("100,000 lets parse, and names resolve to the latest definition", "[model][cat]") {
  // Every base name was looked up through all definitions so far: quadratic (100,000 lets: 26 s). No timing here
  // (unit tests are not timed); the bench and the repro checks watch the time.
  std::string text;
  for (int i = 0; i < 100000; ++i) text += "let r" + std::to_string(i % 1000) + " = po | rf\n";
  text += "let last = r7\n";
  const CatModel m = parse(text);
  REQUIRE(m.defs.size() == 100001);
  CHECK(std::get<ir::DefRef>(m.defs.back().expr->node).index == 99007);
}
