// The cat reader (CatParser.hpp): a recursive-descent parser over CatLexer's tokens that builds the relation IR,
// resolving names and checking types as it goes. Included files are parsed by a nested Parser writing into the
// same CatModel, so they see the definitions made before the `include` and the including file sees theirs.
#include "model/CatParser.hpp"

#include <algorithm>
#include <cassert>
#include <deque>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "model/CatLexer.hpp"
#include "model/Overloaded.hpp"
#include "model/TextFile.hpp"

namespace ptxmm::model {
namespace {

namespace fs = std::filesystem;

// The deepest expression accepted, both in parentheses (the parser's recursion) and in tree height (the
// recursion of every consumer: evaluator, encoder, printer). Real models stay below 20.
constexpr int kMaxDepth = 500;

const std::string kTooDeep = "expression nested too deeply (more than " + std::to_string(kMaxDepth) + " levels)";

// An expression under construction, with the height of its tree.
struct Term {
  RelExprPtr expr;
  int depth = 0;
};

// The deepest chain of includes accepted: each level is a nested parser on the stack. Real models use two or three.
constexpr std::size_t kMaxIncludeDepth = 100;

// A file being parsed: the include chain, used to detect cycles.
struct IncludeFrame {
  fs::path identity;  // canonical where possible, so two spellings of one file are recognised
  std::string file;   // as shown in messages
};

// What the parsers of one model and its included files share.
struct ParseState {
  std::vector<IncludeFrame> includes;
  // The latest definition of each name: looking a name up must not scan every definition, which made a model of
  // 100,000 lets take half a minute to read (issue 16 H4).
  std::unordered_map<std::string, std::size_t> latest;
};

fs::path identity(const fs::path& path) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(path, ec);
  return ec ? path.lexically_normal() : canonical;
}

std::string typeName(ExprType type) { return type == ExprType::Set ? "a set" : "a relation"; }

bool isLiteralEmpty(const RelExpr& e) { return std::holds_alternative<ir::Empty>(e.node); }

bool isCheckKeyword(TokKind kind) {
  return kind == TokKind::Acyclic || kind == TokKind::Irreflexive || kind == TokKind::Empty;
}

// Tokens that cannot occur inside a `let rec` statement, so its bindings end before them.
bool endsLetRec(TokKind kind) {
  switch (kind) {
    case TokKind::End:
    case TokKind::Let:
    case TokKind::Rec:
    case TokKind::As:
    case TokKind::Acyclic:
    case TokKind::Irreflexive:
    case TokKind::Empty:
    case TokKind::Flag:
    case TokKind::Include:
    case TokKind::Pairwise:
    case TokKind::Unsupported: return true;
    default: return false;
  }
}

std::string where(const SourcePos& pos) {
  return "line " + std::to_string(pos.line) + ", column " + std::to_string(pos.col);
}

class Parser {
 public:
  Parser(std::string_view text, std::string file, CatModel& model, ParseState& state)
      : lexer_(text, file), file_(std::move(file)), model_(model), state_(state), includes_(state.includes) {}

  /// Parses the whole text into the model; only the top-level file's title is kept.
  void parseFile(bool topLevel) {
    // herd7 models open with their name, as a string or a bare name.
    if (peek().kind == TokKind::String || peek().kind == TokKind::Ident) {
      Token title = take();
      if (topLevel) model_.title = title.text;
    }
    while (peek().kind != TokKind::End) parseStatement();
  }

 private:
  // ---- tokens ----

  const Token& peek(std::size_t k = 0) {
    while (ahead_.size() <= k) ahead_.push_back(lexer_.next());
    return ahead_[k];
  }

  Token take() {
    peek();
    Token token = std::move(ahead_.front());
    ahead_.pop_front();
    return token;
  }

  bool accept(TokKind kind) {
    if (peek().kind != kind) return false;
    take();
    return true;
  }

  Token expect(TokKind kind, const std::string& expected) {
    if (peek().kind != kind) unexpected(peek(), expected);
    return take();
  }

  [[noreturn]] static void fail(const SourcePos& pos, const std::string& message) { throw UserError(pos, message); }

  [[noreturn]] static void unexpected(const Token& token, const std::string& expected) {
    if (token.kind == TokKind::Unsupported)
      fail(token.pos, "'" + token.text + "' is not supported by ptxmm's cat subset");
    fail(token.pos, "expected " + expected + ", found " + describe(token));
  }

  // ---- statements ----

  void parseStatement() {
    switch (peek().kind) {
      case TokKind::Let: return parseLet();
      case TokKind::Include: return parseInclude();
      case TokKind::Flag:
      case TokKind::Tilde:
      case TokKind::Acyclic:
      case TokKind::Irreflexive:
      case TokKind::Empty: return parseCheck();
      default: unexpected(peek(), "a statement ('let', 'include', or a check such as 'acyclic r as name')");
    }
  }

  void define(Definition d) {
    state_.latest[d.name] = model_.defs.size();
    model_.defs.push_back(std::move(d));
  }

  // `NAME =`, the head of a binding.
  Token parseBindingHead(std::string_view after) {
    Token name = expect(TokKind::Ident, "a name after '" + std::string(after) + "'");
    if (peek().kind == TokKind::LParen)
      fail(name.pos, "'" + name.text + "(...)': functions are not supported by ptxmm's cat subset");
    expect(TokKind::Equal, "'=' after '" + name.text + "'");
    return name;
  }

  void parseLet() {
    take();
    if (accept(TokKind::Rec)) return parseLetRec();
    // Simultaneous bindings: all right-hand sides are parsed before any name becomes visible.
    std::vector<Definition> bindings;
    std::string_view after = "let";
    do {
      Token name = parseBindingHead(after);
      for (const auto& d : bindings)
        if (d.name == name.text) fail(name.pos, "'" + name.text + "' is bound twice in this 'let'");
      Term rhs = parseExpr();
      bindings.push_back({name.text, rhs.expr, rhs.expr->type, name.pos});
      after = "and";
    } while (accept(TokKind::And));
    for (auto& d : bindings) define(std::move(d));
  }

  void parseLetRec() {
    // Every member is visible in every right-hand side, forward references included, and shadows older
    // definitions and base names. So the members' names are collected before any right-hand side is parsed,
    // and each gets a placeholder definition, of relation type, filled in below.
    const std::vector<Token> names = scanLetRecNames();
    const std::size_t first = model_.defs.size();
    const int group = static_cast<int>(model_.recGroups.size());
    RecGroup members;
    for (const auto& name : names) {
      members.defs.push_back(model_.defs.size());
      define({name.text, nullptr, ExprType::Relation, name.pos, group});
    }
    std::size_t k = 0;
    std::string_view after = "let rec";
    do {
      Token name = parseBindingHead(after);
      assert(k < names.size() && names[k].text == name.text && "the scan sees the bindings the parse reaches");
      for (std::size_t j = 0; j < k; ++j)
        if (names[j].text == name.text) fail(name.pos, "'" + name.text + "' is bound twice in this 'let rec'");
      Term rhs = parseExpr();
      requireType(rhs, ExprType::Relation, name.pos, "'" + name.text + "', bound by 'let rec',");
      model_.defs[first + k].expr = rhs.expr;
      ++k;
      after = "and";
    } while (accept(TokKind::And));
    for (std::size_t d = first; d < first + k; ++d) requireMonotone(*model_.defs[d].expr, first, true);
    model_.recGroups.push_back(std::move(members));
  }

  // A `let rec` is a least fixpoint from the empty relation, which exists (and the engines' iteration reaches it)
  // only when the right-hand sides grow with the members: a member may occur only under an even number of
  // complements and right operands of '\'. `r = po \ r` has no fixpoint: the explicit engine would loop and Z3
  // would pick some solution (issue 16 W2). Members are the definitions from index `first` on; the walk's depth
  // is the expression's height, which make() bounds.
  void requireMonotone(const RelExpr& e, std::size_t first, bool positive) const {
    std::visit(Overloaded{
                   [&](const ir::DefRef& d) {
                     if (d.index >= first && !positive)
                       fail(e.pos, "'" + model_.defs[d.index].name +
                                       "' occurs negated (under '~' or right of '\\') in its own 'let rec': the "
                                       "definition is not monotone, so its least fixpoint need not exist");
                   },
                   [&](const ir::Unary& u) {
                     requireMonotone(*u.arg, first, u.op == ir::UnaryOp::Complement ? !positive : positive);
                   },
                   [&](const ir::Binary& b) {
                     requireMonotone(*b.lhs, first, positive);
                     requireMonotone(*b.rhs, first, b.op == ir::BinaryOp::Diff ? !positive : positive);
                   },
                   [](const auto&) {},
               },
               e.node);
  }

  // The names bound by the `let rec` whose first binding starts at the next token: the first token and every
  // name after `and`, up to a token that cannot occur in the statement. Looks ahead on a copy of the lexer.
  std::vector<Token> scanLetRecNames() {
    std::vector<Token> names;
    CatLexer scanner = lexer_;
    std::size_t buffered = 0;
    auto next = [&] { return buffered < ahead_.size() ? ahead_[buffered++] : scanner.next(); };
    try {
      Token token = next();
      if (token.kind == TokKind::Ident) names.push_back(token);
      for (bool afterAnd = false; !endsLetRec(token.kind); afterAnd = token.kind == TokKind::And) {
        token = next();
        if (afterAnd && token.kind == TokKind::Ident) names.push_back(token);
      }
    } catch (const UserError&) {
      // A lexical error ends the scan; the parse proper reports it where it reaches it.
    }
    return names;
  }

  void parseCheck() {
    Check check;
    check.pos = peek().pos;
    check.flag = accept(TokKind::Flag);
    check.negated = accept(TokKind::Tilde);
    const Token keyword = take();
    switch (keyword.kind) {
      case TokKind::Acyclic: check.kind = CheckKind::Acyclic; break;
      case TokKind::Irreflexive: check.kind = CheckKind::Irreflexive; break;
      case TokKind::Empty: check.kind = CheckKind::Empty; break;
      default: unexpected(keyword, "'acyclic', 'irreflexive' or 'empty'");
    }
    SourcePos at = peek().pos;
    Term tested = parseExpr();
    if (check.kind != CheckKind::Empty)
      requireType(tested, ExprType::Relation, at, "the argument of '" + keyword.text + "'");
    check.expr = tested.expr;
    if (accept(TokKind::Pairwise)) {
      at = peek().pos;
      Term pairwise = parseExpr();
      requireType(pairwise, ExprType::Relation, at, "the argument of 'pairwise'");
      check.pairwise = pairwise.expr;
    }
    expect(TokKind::As, "'as NAME' to end the check (ptxmm names every check in its reports)");
    const Token name = expect(TokKind::Ident, "the check's name after 'as'");
    for (const auto& other : model_.checks)
      if (other.name == name.text)
        fail(name.pos,
             "a check named '" + name.text + "' already exists (" + other.pos.file + ", " + where(other.pos) + ")");
    check.name = name.text;
    model_.checks.push_back(std::move(check));
  }

  void parseInclude() {
    const Token keyword = take();
    const Token path = expect(TokKind::String, "a file name in quotes after 'include'");
    const fs::path found = findInclude(keyword, path.text);
    const fs::path id = identity(found);
    const auto cycle =
        std::find_if(includes_.begin(), includes_.end(), [&](const auto& f) { return f.identity == id; });
    if (cycle != includes_.end()) {
      std::string chain;
      for (auto it = cycle; it != includes_.end(); ++it) chain += it->file + " -> ";
      fail(keyword.pos, "include cycle: " + chain + found.string());
    }
    if (includes_.size() >= kMaxIncludeDepth)
      fail(keyword.pos, "includes nested too deeply (more than " + std::to_string(kMaxIncludeDepth) + " files)");
    const std::optional<std::string> text = readTextFile(found);
    if (!text) fail(keyword.pos, "cannot read included file '" + found.string() + "'");
    includes_.push_back({id, found.string()});
    Parser(*text, found.string(), model_, state_).parseFile(false);
    includes_.pop_back();
  }

  // Where `include "name"` points: beside the including file, else in the bundled model directory.
  fs::path findInclude(const Token& keyword, const std::string& name) const {
    std::vector<fs::path> candidates{fs::path(file_).parent_path() / name};
#ifdef PTXMM_MODEL_DIR
    candidates.push_back(fs::path(PTXMM_MODEL_DIR) / name);
#endif
    std::string tried;
    for (const auto& candidate : candidates) {
      std::error_code ec;
      if (fs::is_regular_file(candidate, ec)) return candidate.lexically_normal();
      tried += (tried.empty() ? "" : ", ") + candidate.string();
    }
    fail(keyword.pos, "included file '" + name + "' not found (tried " + tried + ")");
  }

  // ---- expressions ----

  Term parseExpr() { return parseBinary(0); }

  // Precedence climbing: parses an expression whose binary operators are at `minLevel` of kBinaryOperators
  // or tighter. Operands of one level are gathered by the loop, so only parentheses deepen the recursion.
  Term parseBinary(std::size_t minLevel) {
    Term lhs = parsePrefix();
    for (auto level = binaryAhead(); level && *level >= minLevel; level = binaryAhead()) {
      const Token op = take();
      Term rhs = parseBinary(*level + 1);  // + 1: left-associative
      lhs = combine(kBinaryOperators[*level].op, std::move(lhs), std::move(rhs), op);
    }
    return lhs;
  }

  // The level in kBinaryOperators of the operator at the next token, if it is one.
  std::optional<std::size_t> binaryAhead() {
    for (std::size_t level = 0; level < kBinaryOperators.size(); ++level)
      if (kBinaryOperators[level].token == peek().kind) {
        const bool isProductStar = kBinaryOperators[level].op == ir::BinaryOp::Product;
        return !isProductStar || startsOperand(1) ? std::optional(level) : std::nullopt;
      }
    return std::nullopt;
  }

  Term parsePrefix() {
    // Every level of parentheses and every `~` passes here. No decrement on the error path: the parser is
    // abandoned after its first error.
    if (++nesting_ > kMaxDepth) fail(peek().pos, kTooDeep);
    Term result;
    if (peek().kind == TokKind::Tilde) {
      const Token op = take();
      Term arg = parsePrefix();
      result = make(ir::Unary{ir::UnaryOp::Complement, arg.expr}, arg.expr->type, op.pos, arg.depth + 1);
    } else {
      result = parsePostfix();
    }
    --nesting_;
    return result;
  }

  Term parsePostfix() {
    Term arg = parsePrimary();
    while (auto op = postfixAhead()) {
      const Token token = take();
      requireType(arg, ExprType::Relation, token.pos, "the operand of '" + token.text + "'");
      arg = make(ir::Unary{*op, arg.expr}, ExprType::Relation, token.pos, arg.depth + 1);
    }
    return arg;
  }

  // The postfix operation the next token denotes, if any. A `*` followed by an operand is a product instead.
  std::optional<ir::UnaryOp> postfixAhead() {
    if (peek().kind == TokKind::Star && startsOperand(1)) return std::nullopt;
    for (const auto& row : kPostfixOperators)
      if (row.token == peek().kind) return row.op;
    return std::nullopt;
  }

  // Whether the k-th token ahead can start an operand. `~` followed by a check keyword starts the next
  // statement (`let r = po*` then `~empty ...`), not an operand.
  bool startsOperand(std::size_t k) {
    switch (peek(k).kind) {
      case TokKind::Ident:
      case TokKind::Zero:
      case TokKind::Universe:
      case TokKind::LParen:
      case TokKind::LBracket:
      case TokKind::Domain:
      case TokKind::Range: return true;
      case TokKind::Tilde: return !isCheckKeyword(peek(k + 1).kind);
      default: return false;
    }
  }

  Term parsePrimary() {
    const Token token = take();
    switch (token.kind) {
      case TokKind::Ident: return resolve(token);
      case TokKind::Zero: return make(ir::Empty{}, ExprType::Relation, token.pos, 1);
      case TokKind::Universe: return make(ir::Universe{}, ExprType::Set, token.pos, 1);
      case TokKind::LParen: {
        Term inner = parseExpr();
        expect(TokKind::RParen, "')' to close the '(' at " + where(token.pos));
        return inner;
      }
      case TokKind::LBracket: {
        const SourcePos at = peek().pos;
        Term arg = parseExpr();
        expect(TokKind::RBracket, "']' to close the '[' at " + where(token.pos));
        requireType(arg, ExprType::Set, at, "the argument of '[...]'");
        return make(ir::Unary{ir::UnaryOp::Identity, arg.expr}, ExprType::Relation, token.pos, arg.depth + 1);
      }
      case TokKind::Domain:
      case TokKind::Range: {
        expect(TokKind::LParen, "'(' after '" + token.text + "'");
        const SourcePos at = peek().pos;
        Term arg = parseExpr();
        expect(TokKind::RParen, "')' to close '" + token.text + "('");
        requireType(arg, ExprType::Relation, at, "the argument of '" + token.text + "'");
        const auto op = token.kind == TokKind::Domain ? ir::UnaryOp::Domain : ir::UnaryOp::Range;
        return make(ir::Unary{op, arg.expr}, ExprType::Set, token.pos, arg.depth + 1);
      }
      default: unexpected(token, "an expression");
    }
  }

  Term resolve(const Token& name) {
    if (peek().kind == TokKind::LParen)
      fail(name.pos, "'" + name.text + "(...)': function calls are not supported by ptxmm's cat subset");
    if (const auto def = state_.latest.find(name.text); def != state_.latest.end())
      return make(ir::DefRef{def->second}, model_.defs[def->second].type, name.pos, 1);
    if (const auto rel = findBaseRel(name.text)) return make(ir::BaseRelation{*rel}, ExprType::Relation, name.pos, 1);
    if (const auto tag = findTag(name.text)) return make(ir::BaseSet{*tag}, ExprType::Set, name.pos, 1);
    fail(name.pos, "unknown name '" + name.text + "'");
  }

  // ---- types ----

  Term combine(ir::BinaryOp op, Term lhs, Term rhs, const Token& token) {
    const std::string name = "'" + token.text + "'";
    ExprType type = ExprType::Relation;
    switch (op) {
      case ir::BinaryOp::Union:
      case ir::BinaryOp::Inter:
      case ir::BinaryOp::Diff:
        if (lhs.expr->type != rhs.expr->type && !adaptEmpty(lhs, rhs.expr->type) && !adaptEmpty(rhs, lhs.expr->type))
          fail(token.pos, name + " needs operands of one type, but the left one is " + typeName(lhs.expr->type) +
                              " and the right one is " + typeName(rhs.expr->type));
        type = lhs.expr->type;
        break;
      case ir::BinaryOp::Seq:
        requireType(lhs, ExprType::Relation, token.pos, "the left operand of " + name);
        requireType(rhs, ExprType::Relation, token.pos, "the right operand of " + name);
        break;
      case ir::BinaryOp::Product:
        requireType(lhs, ExprType::Set, token.pos, "the left operand of " + name + " (cartesian product)");
        requireType(rhs, ExprType::Set, token.pos, "the right operand of " + name + " (cartesian product)");
        break;
    }
    return make(ir::Binary{op, lhs.expr, rhs.expr}, type, token.pos, std::max(lhs.depth, rhs.depth) + 1);
  }

  // Gives a literal 0 the type its context needs; false for any other expression.
  static bool adaptEmpty(Term& term, ExprType type) {
    if (!isLiteralEmpty(*term.expr)) return false;
    term.expr = std::make_shared<const RelExpr>(RelExpr{ir::Empty{}, type, term.expr->pos});
    return true;
  }

  // `what` is the role of the term in the message ("the left operand of ';'").
  static void requireType(Term& term, ExprType want, const SourcePos& at, const std::string& what) {
    if (term.expr->type == want || adaptEmpty(term, want)) return;
    const std::string hint = want == ExprType::Relation ? " (use [S] to turn a set S into a relation)"
                                                        : " (use domain(r) or range(r) to turn a relation into a set)";
    fail(at, what + " must be " + typeName(want) + ", but it is " + typeName(term.expr->type) + hint);
  }

  static Term make(RelNode node, ExprType type, const SourcePos& pos, int depth) {
    if (depth > kMaxDepth) fail(pos, kTooDeep);
    return {std::make_shared<const RelExpr>(RelExpr{std::move(node), type, pos}), depth};
  }

  CatLexer lexer_;
  std::deque<Token> ahead_;  // tokens peeked at but not taken; a deque keeps references from peek() valid
  std::string file_;
  CatModel& model_;
  ParseState& state_;
  std::vector<IncludeFrame>& includes_;
  int nesting_ = 0;
};

}  // namespace

CatModel parseCat(std::string_view text, const std::string& file) {
  CatModel model;
  model.file = file;
  ParseState state;
  state.includes.push_back({identity(file), file});
  Parser(text, file, model, state).parseFile(true);
  return model;
}

CatModel parseCatFile(const std::string& path) {
  const std::optional<std::string> text = readTextFile(path);
  if (!text) throw UserError({path, 0, 0}, "cannot open model file '" + path + "'");
  return parseCat(*text, path);
}

}  // namespace ptxmm::model
