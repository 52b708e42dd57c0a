// The nvlitmus reader in three steps: split the file into the template and the table rows, expand the template
// once per row into a text whose every character remembers where it was written (so diagnostics point into the
// template or into the row's cell), then lex and parse that text by recursive descent. Instruction spellings
// come from InstructionTable and qualifier rules from QualifierRules, as in the litmus parser, so an instruction
// means the same in both readers.
#include "frontend/nvlitmus/NvLitmusParser.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <map>
#include <optional>
#include <unordered_map>
#include <utility>

#include "frontend/InstructionTable.hpp"
#include "frontend/QualifierRules.hpp"
#include "frontend/ReaderSupport.hpp"

namespace ptxmm::frontend {
namespace {

using model::UserError;

// Format keywords; instruction spellings live in InstructionTable.
constexpr std::string_view kTableMarker = "$$";
constexpr std::string_view kPermit = "permit";
constexpr std::string_view kAssert = "assert";
constexpr std::string_view kAs = "as";
constexpr std::string_view kAliases = "aliases";
constexpr std::string_view kPhysically = "physically";
constexpr std::string_view kVirtually = "virtually";
constexpr std::string_view kTrue = "true";
constexpr std::string_view kFalse = "false";
constexpr std::string_view kAwaitLabel = "await";  // labels of the await loops that `== v` loads become
constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

// Placeholders and placement numbers above this name no cell, device, block or thread of any test.
constexpr std::uint64_t kMaxNumber = 1'000'000;

/// What an address declaration declares: `.global` a location or a physical alias; the others another
/// proxy's name for an existing virtual address.
struct Directive {
  std::string_view name;
  model::Proxy proxy;
};
constexpr std::array kDirectives = {
    Directive{"global", model::Proxy::Generic},
    Directive{"surfref", model::Proxy::Surface},
    Directive{"texref", model::Proxy::Texture},
    Directive{"const", model::Proxy::Constant},
};

std::string directiveList() {
  std::vector<std::string> names;
  for (const Directive& d : kDirectives) names.push_back("." + std::string(d.name));
  return joinAlternatives(names);
}

// ------------------------------------------------------------------------------------ template and table

/// Where a character was written (1-based; a column counts bytes, a tab is one).
struct Origin {
  int line = 0;
  int col = 0;
};

/// A test's text after expansion, each character with its origin, plus the origin of the end of the text.
struct MappedText {
  std::string text;
  std::vector<Origin> origin;
  Origin end;

  void append(std::string_view chars, Origin first) {
    for (std::size_t i = 0; i < chars.size(); ++i) {
      text += chars[i];
      origin.push_back({first.line, first.col + static_cast<int>(i)});
    }
  }
};

struct Line {
  std::string_view text;
  int number = 0;
};

struct Cell {
  std::string_view text;  // trimmed
  Origin at;              // where the trimmed text starts (where it would start when empty)
};

/// A data row of the table.
struct Row {
  int index = 0;          // 1-based over the non-empty rows
  Line line;
  Origin at;              // the row's first non-blank character
  std::vector<Cell> cells;
};

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isIdentStart(char c) { return isLetter(c) || c == '_' || c == '%'; }
bool isIdentChar(char c) { return isLetter(c) || isDigit(c) || c == '_'; }

std::size_t firstNonBlank(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && isBlank(s[i])) ++i;
  return i;
}

std::string_view trimmed(std::string_view s) {
  s.remove_prefix(firstNonBlank(s));
  while (!s.empty() && isBlank(s.back())) s.remove_suffix(1);
  return s;
}

std::vector<Line> splitLines(std::string_view text) {
  if (text.substr(0, kByteOrderMark.size()) == kByteOrderMark) text.remove_prefix(kByteOrderMark.size());
  std::vector<Line> lines;
  for (int number = 1;; ++number) {
    const std::size_t newline = text.find('\n');
    lines.push_back({text.substr(0, newline), number});
    if (newline == std::string_view::npos) return lines;
    text.remove_prefix(newline + 1);
  }
}

std::vector<Cell> splitCells(const Line& line) {
  std::vector<Cell> cells;
  std::size_t start = 0;
  for (;;) {
    const std::size_t bar = line.text.find('|', start);
    const std::string_view raw = line.text.substr(start, bar == std::string_view::npos ? bar : bar - start);
    const std::size_t lead = firstNonBlank(raw);
    cells.push_back({trimmed(raw), {line.number, static_cast<int>(start + lead) + 1}});
    if (bar == std::string_view::npos) return cells;
    start = bar + 1;
  }
}

/// "cell 3 ($2)": how a cell is named in messages.
std::string cellName(std::size_t index) { return "cell " + std::to_string(index + 1) + " ($" + std::to_string(index) + ")"; }

/// The template with `$N` replaced by the row's cells (no row: a template without table, where `$` is an error).
MappedText expand(const std::vector<Line>& lines, const Row* row, const std::string& file) {
  MappedText out;
  out.end = {1, 1};
  std::size_t highest = 0;
  bool usesCells = false;
  for (std::size_t l = 0; l < lines.size(); ++l) {
    const Line& line = lines[l];
    if (l > 0) out.append("\n", out.end);
    for (std::size_t i = 0; i < line.text.size(); ++i) {
      const Origin at{line.number, static_cast<int>(i) + 1};
      if (line.text[i] != '$') {
        out.append(line.text.substr(i, 1), at);
        continue;
      }
      std::size_t digits = i + 1;
      while (digits < line.text.size() && isDigit(line.text[digits])) ++digits;
      if (digits == i + 1)
        throw UserError({file, at.line, at.col}, "'$' must be followed by a cell number ($0, $1, ...)");
      if (!row)
        throw UserError({file, at.line, at.col},
                        "placeholder '" + std::string(line.text.substr(i, digits - i)) +
                            "' in a file without a table (a '$$' line followed by rows of cells)");
      std::uint64_t index = 0;
      auto [end, error] = std::from_chars(line.text.data() + i + 1, line.text.data() + digits, index);
      if (error != std::errc() || index >= row->cells.size())
        throw UserError({file, row->at.line, row->at.col},
                        "row " + std::to_string(row->index) + " has " + std::to_string(row->cells.size()) +
                            (row->cells.size() == 1 ? " cell" : " cells") + ", but the template uses '" +
                            std::string(line.text.substr(i, digits - i)) + "' (line " + std::to_string(at.line) +
                            ", column " + std::to_string(at.col) + ")");
      const Cell& cell = row->cells[index];
      out.append(cell.text, cell.at);
      highest = std::max(highest, static_cast<std::size_t>(index));
      usesCells = true;
      i = digits - 1;
    }
    out.end = {line.number, static_cast<int>(line.text.size()) + 1};
  }
  if (row && (!usesCells || highest + 1 < row->cells.size())) {
    const std::size_t unused = usesCells ? highest + 1 : 0;
    const Cell& cell = row->cells[unused];
    throw UserError({file, cell.at.line, cell.at.col},
                    "row " + std::to_string(row->index) + " has " + std::to_string(row->cells.size()) +
                        " cells, but the template uses " +
                        (usesCells ? "only $0 to $" + std::to_string(highest) : std::string("no placeholder")) +
                        ": " + cellName(unused) + " is never used");
  }
  return out;
}

// -------------------------------------------------------------------------------------------------- lexer

enum class Tok : std::uint8_t {
  End, Ident, Number,
  LBrace, RBrace, LParen, RParen, LBracket, RBracket, Semi, Comma, Dot, ColonColon, Minus,
  EqEq, NotEq, Less, LessEq, Greater, GreaterEq, AndAnd, OrOr, Bang,
};

struct Token {
  Tok kind = Tok::End;
  std::string_view text;
  Origin at;
  bool spaceBefore = true;
};

struct Punctuation {
  std::string_view spelling;
  Tok kind;
};

// Longest spellings first, so `<=` wins over `<` and `!=` over `!`.
constexpr std::array<Punctuation, 20> kPunctuation = {{
    {"::", Tok::ColonColon}, {"==", Tok::EqEq},   {"!=", Tok::NotEq},  {"<=", Tok::LessEq},
    {">=", Tok::GreaterEq},  {"&&", Tok::AndAnd}, {"||", Tok::OrOr},   {"{", Tok::LBrace},
    {"}", Tok::RBrace},      {"(", Tok::LParen},  {")", Tok::RParen},  {"[", Tok::LBracket},
    {"]", Tok::RBracket},    {";", Tok::Semi},    {",", Tok::Comma},   {".", Tok::Dot},
    {"-", Tok::Minus},       {"<", Tok::Less},    {">", Tok::Greater}, {"!", Tok::Bang},
}};

std::string describe(const Token& token) {
  return token.kind == Tok::End ? "end of the test" : "'" + std::string(token.text) + "'";
}

std::string printable(char c) {
  if (c >= 0x20 && c < 0x7f) return std::string("'") + c + "'";
  static constexpr char kHex[] = "0123456789ABCDEF";
  const auto byte = static_cast<unsigned char>(c);
  return std::string("byte 0x") + kHex[byte >> 4] + kHex[byte & 15];
}

/// Lazy, so the error reported is the first one in the text whether it is lexical or syntactic.
class Lexer {
 public:
  Lexer(const MappedText& source, const std::string& file) : source_(source), file_(file) {}

  const Token& peek(std::size_t ahead = 0) {
    while (ahead_.size() <= ahead) ahead_.push_back(lex());
    return ahead_[ahead];
  }

  Token next() {
    peek();
    Token token = ahead_.front();
    ahead_.pop_front();
    return token;
  }

 private:
  Token lex() {
    const std::string_view text = source_.text;
    const std::size_t start = at_;
    while (at_ < text.size() && (isBlank(text[at_]) || text[at_] == '\n')) ++at_;
    Token token;
    token.spaceBefore = at_ > start || at_ == 0;
    if (at_ == text.size()) {
      token.at = source_.end;
      return token;
    }
    token.at = source_.origin[at_];
    const char c = text[at_];
    std::size_t length = 1;
    if (isIdentStart(c)) {
      token.kind = Tok::Ident;
      while (at_ + length < text.size() && isIdentChar(text[at_ + length])) ++length;
    } else if (isDigit(c)) {
      token.kind = Tok::Number;  // digits and letters (0x1F); the parser checks the spelling
      while (at_ + length < text.size() && isIdentChar(text[at_ + length])) ++length;
    } else {
      const Punctuation* found = nullptr;
      for (const Punctuation& p : kPunctuation)
        if (text.substr(at_, p.spelling.size()) == p.spelling) {
          found = &p;
          break;
        }
      if (!found) throw UserError({file_, token.at.line, token.at.col}, "unexpected " + printable(c));
      token.kind = found->kind;
      length = found->spelling.size();
    }
    token.text = text.substr(at_, length);
    at_ += length;
    return token;
  }

  const MappedText& source_;
  const std::string& file_;
  std::size_t at_ = 0;
  std::deque<Token> ahead_;
};

// ------------------------------------------------------------------------------------------------- parser

bool isWord(const Token& token, std::string_view word) { return token.kind == Tok::Ident && token.text == word; }
bool isVerdict(const Token& token) { return isWord(token, kPermit) || isWord(token, kAssert); }
bool startsValue(const Token& token) {
  return token.kind == Tok::Ident || token.kind == Tok::Number || token.kind == Tok::Minus;
}

std::optional<CmpOp> comparison(Tok kind) {
  switch (kind) {
    case Tok::EqEq: return CmpOp::Eq;
    case Tok::NotEq: return CmpOp::Ne;
    case Tok::Less: return CmpOp::Lt;
    case Tok::LessEq: return CmpOp::Le;
    case Tok::Greater: return CmpOp::Gt;
    case Tok::GreaterEq: return CmpOp::Ge;
    default: return std::nullopt;
  }
}

/// What one test's text says.
struct ParsedTest {
  Program program;
  bool permit = true;  // permit (exists) or assert (forall)
  std::string label;   // the name after `as`, empty when none
};

/// One test's text to a ParsedTest.
class TestParser {
 public:
  TestParser(const MappedText& source, const std::string& file) : lexer_(source, file), file_(file) {
    out_.program.arch = "PTX";
    out_.program.file = file;
  }

  /// Parses the whole test.
  ParsedTest parse();

 private:
  void parseDeclaration();
  void parseThread();
  bool looksLikeThread();
  int placementNumber(const Token& token, char prefix, const std::string& what) const;
  void parseStatement(Thread& thread, const Token& open);
  std::vector<WrittenQual> parseQualifiers();
  void parseOperands(Instruction& ins, const OperandSignature& sig, const std::string& written, const Thread& thread);
  Operand parseAddress();
  Operand parseRegister(const std::string& what, const Thread& thread);
  Operand parseValue(const Thread& thread);
  void addAwait(Thread& thread, Instruction load, const Token& equals);
  // Verdict and condition.
  void parseVerdict();
  CondPtr parseDisjunction(int depth);
  CondPtr parseConjunction(int depth);
  CondPtr parseNegation(int depth);
  CondPtr parseAtom(int depth);
  CondValue parseCondValue();
  // Tokens and numbers.
  const Token& peek(std::size_t ahead = 0) { return lexer_.peek(ahead); }
  Token take();
  bool accept(Tok kind);
  Token expect(Tok kind, const std::string& what);
  std::int64_t parseInteger();
  const Location* findLocation(std::string_view name) const;
  model::SourcePos pos(const Token& token) const { return {file_, token.at.line, token.at.col}; }
  [[noreturn]] void fail(const Token& token, const std::string& message) const { fail(pos(token), message); }
  [[noreturn]] void fail(const model::SourcePos& at, const std::string& message) const { throw UserError(at, message); }

  ParsedTest out_;
  Program& program_ = out_.program;
  Lexer lexer_;
  const std::string& file_;
  std::unordered_map<std::string, std::size_t> locationIndex_;
  std::map<std::string, std::vector<int>> registerThreads_;  // register name -> threads using it
  std::vector<Token>* recording_ = nullptr;  // where take() copies tokens while a TokenRecording is alive
};

ParsedTest TestParser::parse() {
  while (!isVerdict(peek())) {
    const Token& first = peek();
    if (first.kind == Tok::Dot) {
      parseDeclaration();
    } else if (first.kind == Tok::Ident && peek(1).kind == Tok::Dot && !peek(1).spaceBefore) {
      parseThread();
    } else {
      fail(first, first.kind == Tok::End
                      ? "missing the final " + std::string(kPermit) + " (...) or " + std::string(kAssert) + " (...)"
                      : "expected a declaration (.global x;), a thread (d0.b0.t0 { ... }) or the final " +
                            std::string(kPermit) + "/" + std::string(kAssert) + ", got " + describe(first));
    }
  }
  parseVerdict();
  return std::move(out_);
}

// ------------------------------------------------------------------------------------------- declarations

void TestParser::parseDeclaration() {
  const Token dot = take();
  const Token word = take();
  if (word.kind != Tok::Ident || word.spaceBefore)
    fail(word, "expected a directive (" + directiveList() + ") right after '.', got " + describe(word));
  const Directive* directive = nullptr;
  for (const Directive& d : kDirectives)
    if (d.name == word.text) directive = &d;
  if (!directive) fail(dot, "unknown directive '." + std::string(word.text) + "' (expected " + directiveList() + ")");
  const Token name = expect(Tok::Ident, "the name being declared");
  if (auto found = locationIndex_.find(std::string(name.text)); found != locationIndex_.end())
    fail(name, "'" + std::string(name.text) + "' is declared twice (first at line " +
                   std::to_string(program_.locations[found->second].pos.line) + ")");
  const bool global = directive->proxy == model::Proxy::Generic;
  const std::string_view aliasWord = global ? kPhysically : kVirtually;
  Location location;
  location.name = name.text;
  location.pos = pos(name);
  location.space = StateSpace::Global;
  if (peek().kind == Tok::Ident) {
    const Token how = take();
    if (!isWord(how, kPhysically) && !isWord(how, kVirtually))
      fail(how, "expected ';' or '" + std::string(aliasWord) + " " + std::string(kAliases) + "', got " + describe(how));
    if (how.text != aliasWord)
      fail(how, global ? "a .global alias is a new virtual address of the target's location: write '" +
                             std::string(kPhysically) + " " + std::string(kAliases) + "'"
                       : "." + std::string(directive->name) + " names the target's virtual address in another proxy: "
                             "write '" + std::string(kVirtually) + " " + std::string(kAliases) + "'");
    const Token keyword = take();
    if (!isWord(keyword, kAliases)) fail(keyword, "expected '" + std::string(kAliases) + "', got " + describe(keyword));
    const Token target = expect(Tok::Ident, "the aliased address");
    const Location* aliased = findLocation(target.text);
    if (!aliased) fail(target, "unknown address '" + std::string(target.text) + "' (declare it before its aliases)");
    location.init = aliased->init;
    location.aliasProxy = directive->proxy;
    location.aliasOf = target.text;
  } else if (!global) {
    fail(peek(), "." + std::string(directive->name) + " names an existing address: write ." +
                     std::string(directive->name) + " " + std::string(name.text) + " " + std::string(kVirtually) +
                     " " + std::string(kAliases) + " x;");
  }
  expect(Tok::Semi, "';' after the declaration");
  locationIndex_.emplace(location.name, program_.locations.size());
  program_.locations.push_back(std::move(location));
}

// ------------------------------------------------------------------------------------------------ threads

void TestParser::parseThread() {
  const Token device = take();
  Token parts[3] = {device, {}, {}};
  for (int k = 1; k < 3; ++k) {
    const Token dot = take();
    if (dot.kind != Tok::Dot || dot.spaceBefore)
      fail(dot, "expected a thread written d<device>.b<block>.t<thread>, like d0.b1.t0, got " + describe(dot) +
                    " after " + describe(parts[k - 1]));
    parts[k] = take();
    if (parts[k].kind != Tok::Ident || parts[k].spaceBefore)
      fail(parts[k], "expected a thread written d<device>.b<block>.t<thread>, like d0.b1.t0");
  }
  Thread thread;
  thread.gpu = placementNumber(parts[0], 'd', "device");
  thread.cta = placementNumber(parts[1], 'b', "block");
  placementNumber(parts[2], 't', "thread");
  thread.name = std::string(parts[0].text) + "." + std::string(parts[1].text) + "." + std::string(parts[2].text);
  thread.index = static_cast<int>(program_.threads.size());
  thread.pos = pos(device);
  for (const Thread& other : program_.threads)
    if (other.name == thread.name)
      fail(device, "thread " + thread.name + " is declared twice (first at line " + std::to_string(other.pos.line) + ")");
  const Token open = expect(Tok::LBrace, "'{' after thread " + thread.name);
  while (!accept(Tok::RBrace)) parseStatement(thread, open);
  program_.threads.push_back(std::move(thread));
}

// `d<digits>.`: the start of a thread, which no mnemonic spells.
bool TestParser::looksLikeThread() {
  const Token& first = peek();
  if (first.kind != Tok::Ident || first.text.size() < 2 || first.text[0] != 'd') return false;
  for (char c : first.text.substr(1))
    if (!isDigit(c)) return false;
  return peek(1).kind == Tok::Dot && !peek(1).spaceBefore;
}

int TestParser::placementNumber(const Token& token, char prefix, const std::string& what) const {
  std::string_view digits = token.text;
  if (!digits.empty() && digits[0] == prefix) digits.remove_prefix(1);
  else digits = {};
  std::uint64_t value = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || end != digits.data() + digits.size())
    fail(token, "expected the " + what + " as " + std::string(1, prefix) + "<number> in d<device>.b<block>.t<thread>, got " +
                    describe(token));
  if (error != std::errc() || value > kMaxNumber) fail(token, what + " number " + std::string(digits) + " is too large");
  return static_cast<int>(value);
}

void TestParser::parseStatement(Thread& thread, const Token& open) {
  if (accept(Tok::Semi)) return;
  const Token& first = peek();
  if (first.kind == Tok::End || isVerdict(first) || looksLikeThread())
    fail(open, "the '{' of thread " + thread.name + " is never closed (" +
                   (first.kind == Tok::End ? std::string("the test ends")
                                           : "reached " + describe(first) + " at line " + std::to_string(first.at.line)) +
                   ")");
  std::vector<Token> tokens;
  Instruction ins;
  std::optional<Token> equals;
  {
    TokenRecording recording(recording_, tokens);
    const Token mnemonic = take();
    ins.pos = pos(mnemonic);
    if (mnemonic.kind != Tok::Ident) fail(mnemonic, "expected an instruction or '}', got " + describe(mnemonic));
    const MnemonicInfo* info = findMnemonic(mnemonic.text);
    if (!info) fail(mnemonic, "unknown instruction '" + std::string(mnemonic.text) + "'");
    ins.op = info->op;
    ins.proxy = info->proxy;
    ins.localOp = info->localOp;
    ins.cmp = info->cmp;
    applyQualifiers(ins, *info, mnemonic.text, pos(mnemonic), parseQualifiers());
    const OperandSignature sig = operandSignature(*info, ins);
    if (std::ranges::count(sig.roles, OperandRole::Label))
      fail(mnemonic, "nvlitmus tests have no labels, so no " + std::string(mnemonic.text));
    parseOperands(ins, sig, joinTokens(tokens), thread);
    if (peek().kind == Tok::EqEq) {
      if (info->form != InstrForm::Load)
        fail(peek(), "'== value' (the value the load must read) may only follow a load, not " +
                         std::string(mnemonic.text));
      equals = peek();
    }
  }
  ins.text = joinTokens(tokens);
  if (equals) {
    addAwait(thread, std::move(ins), *equals);
  } else {
    thread.code.push_back(std::move(ins));
  }
  if (peek().kind != Tok::Semi) fail(peek(), "expected ';' after the instruction, got " + describe(peek()));
  take();
}

// `ld r, [a] == v` as `awaitK: ld r, [a]; bne r, v, awaitK` (see the file comment of NvLitmusParser.hpp).
void TestParser::addAwait(Thread& thread, Instruction load, const Token& equals) {
  take();  // ==
  const model::SourcePos valuePos = pos(peek());
  if (!startsValue(peek()) || peek().kind == Tok::Ident)
    fail(peek(), "expected the integer the load must read after '==', got " + describe(peek()));
  const std::int64_t value = parseInteger();
  int awaits = 0;
  for (const Instruction& in : thread.code) awaits += in.op == Opcode::Label;
  const std::string label = std::string(kAwaitLabel) + std::to_string(awaits);
  Instruction head;
  head.op = Opcode::Label;
  head.text = label + ":";
  head.pos = load.pos;
  head.operands.push_back({Operand::Kind::Label, label, 0, load.pos});
  Instruction retry;
  retry.op = Opcode::Branch;
  retry.cmp = CmpOp::Ne;
  retry.pos = pos(equals);
  retry.text = "bne " + load.operands[0].name + ", " + std::to_string(value) + ", " + label;
  retry.operands = {load.operands[0], {Operand::Kind::Immediate, {}, value, valuePos},
                    {Operand::Kind::Label, label, 0, pos(equals)}};
  thread.code.push_back(std::move(head));
  thread.code.push_back(std::move(load));
  thread.code.push_back(std::move(retry));
}

std::vector<WrittenQual> TestParser::parseQualifiers() {
  std::vector<WrittenQual> quals;
  while (peek().kind == Tok::Dot && !peek().spaceBefore) {
    const Token dot = take();
    const Token word = take();
    if (word.kind != Tok::Ident || word.spaceBefore)
      fail(word, "expected a qualifier right after '.', got " + describe(word));
    std::string spelling(word.text);
    // Qualifiers like shared::cluster are one spelling.
    while (peek().kind == Tok::ColonColon && !peek().spaceBefore && peek(1).kind == Tok::Ident &&
           !peek(1).spaceBefore) {
      take();
      spelling += "::" + std::string(take().text);
    }
    quals.push_back({std::move(spelling), pos(dot)});
  }
  return quals;
}

void TestParser::parseOperands(Instruction& ins, const OperandSignature& sig, const std::string& written,
                               const Thread& thread) {
  auto atEnd = [&] { return peek().kind == Tok::Semi || peek().kind == Tok::EqEq || peek().kind == Tok::RBrace; };
  for (std::size_t i = 0; i < sig.roles.size(); ++i) {
    if (i > 0) {
      if (i >= sig.required && atEnd()) break;
      if (!accept(Tok::Comma) && !atEnd()) fail(peek(), "expected ',' between operands, got " + describe(peek()));
    }
    if (atEnd()) fail(peek(), "missing operand: " + arityText(written, sig));
    switch (sig.roles[i]) {
      case OperandRole::Dst: ins.operands.push_back(parseRegister("a destination register", thread)); break;
      case OperandRole::Addr: ins.operands.push_back(parseAddress()); break;
      case OperandRole::Value: ins.operands.push_back(parseValue(thread)); break;
      case OperandRole::Label: break;  // refused in parseStatement: nvlitmus tests have no labels
    }
  }
  if (peek().kind == Tok::Comma || (sig.roles.empty() && !atEnd()))
    fail(peek(), "too many operands: " + arityText(written, sig));
}

Operand TestParser::parseAddress() {
  const Token open = take();
  if (open.kind != Tok::LBracket) fail(open, "expected an address in brackets ([x]), got " + describe(open));
  const Token name = expect(Tok::Ident, "an address");
  expect(Tok::RBracket, "']' after the address");
  if (!findLocation(name.text))
    fail(name, "unknown address '" + std::string(name.text) + "' (declare it first: .global " + std::string(name.text) +
                   ";)");
  return {Operand::Kind::Location, std::string(name.text), 0, pos(name)};
}

Operand TestParser::parseRegister(const std::string& what, const Thread& thread) {
  const Token name = take();
  if (name.kind != Tok::Ident) fail(name, "expected " + what + ", got " + describe(name));
  if (findLocation(name.text))
    fail(name, "'" + std::string(name.text) + "' is an address; write it in brackets, and name registers differently");
  auto& users = registerThreads_[std::string(name.text)];
  if (users.empty() || users.back() != thread.index) users.push_back(thread.index);
  return {Operand::Kind::Register, std::string(name.text), 0, pos(name)};
}

Operand TestParser::parseValue(const Thread& thread) {
  if (peek().kind == Tok::Ident) return parseRegister("a value", thread);
  if (!startsValue(peek())) fail(peek(), "expected a register or an integer, got " + describe(peek()));
  model::SourcePos at = pos(peek());
  return {Operand::Kind::Immediate, {}, parseInteger(), std::move(at)};
}

// --------------------------------------------------------------------------------------- verdict, condition

void TestParser::parseVerdict() {
  const Token word = take();
  out_.permit = word.text == kPermit;
  Condition& condition = program_.condition;
  condition.quantifier = out_.permit ? Condition::Quantifier::Exists : Condition::Quantifier::Forall;
  condition.pos = pos(word);
  std::vector<Token> tokens;
  {
    TokenRecording recording(recording_, tokens);
    condition.expr = parseDisjunction(0);
  }
  condition.text = joinTokens(tokens);
  if (isWord(peek(), kAs)) {
    take();
    out_.label = expect(Tok::Ident, "the name of the " + std::string(word.text) + " after '" + std::string(kAs) + "'").text;
  }
  accept(Tok::Semi);
  if (peek().kind != Tok::End)
    fail(peek(), "unexpected " + describe(peek()) + " after the final " + std::string(word.text));
}

CondPtr TestParser::parseDisjunction(int depth) {
  CondPtr left = parseConjunction(depth);
  while (accept(Tok::OrOr)) left = condNode(CondExpr::Kind::Or, left->pos, left, parseConjunction(depth));
  return left;
}

CondPtr TestParser::parseConjunction(int depth) {
  CondPtr left = parseNegation(depth);
  while (accept(Tok::AndAnd)) left = condNode(CondExpr::Kind::And, left->pos, left, parseNegation(depth));
  return left;
}

CondPtr TestParser::parseNegation(int depth) {
  if (peek().kind != Tok::Bang) return parseAtom(depth);
  const Token bang = take();
  checkConditionDepth(depth + 1, pos(bang));
  return condNode(CondExpr::Kind::Not, pos(bang), parseNegation(depth + 1));
}

CondPtr TestParser::parseAtom(int depth) {
  const Token first = peek();
  if (first.kind == Tok::LParen) {
    take();
    checkConditionDepth(depth + 1, pos(first));
    CondPtr inner = parseDisjunction(depth + 1);
    expect(Tok::RParen, "')'");
    return inner;
  }
  if (isWord(first, kTrue) || isWord(first, kFalse)) {
    take();
    return condNode(isWord(first, kTrue) ? CondExpr::Kind::True : CondExpr::Kind::False, pos(first));
  }
  if (!startsValue(first)) fail(first, "expected a proposition, got " + describe(first));
  auto node = std::make_shared<CondExpr>();
  node->kind = CondExpr::Kind::Compare;
  node->lhs = parseCondValue();
  node->pos = node->lhs.pos;
  const Token op = take();
  auto cmp = comparison(op.kind);
  if (!cmp) fail(op, "expected a comparison (==, !=, <, <=, > or >=), got " + describe(op));
  node->cmp = *cmp;
  node->rhs = parseCondValue();
  return node;
}

CondValue TestParser::parseCondValue() {
  const Token first = peek();
  CondValue value;
  value.pos = pos(first);
  if (first.kind != Tok::Ident) {
    if (!startsValue(first)) fail(first, "expected a register, an address or an integer, got " + describe(first));
    value.kind = CondValue::Kind::Constant;
    value.value = parseInteger();
    return value;
  }
  take();
  value.name = first.text;
  if (findLocation(first.text)) {
    value.kind = CondValue::Kind::Location;
    return value;
  }
  const auto users = registerThreads_.find(value.name);
  if (users == registerThreads_.end())
    fail(first, "unknown register '" + value.name + "': no thread uses it");
  if (users->second.size() > 1)
    fail(first, "register '" + value.name + "' is used by threads " +
                    program_.threads[static_cast<std::size_t>(users->second[0])].name + " and " +
                    program_.threads[static_cast<std::size_t>(users->second[1])].name +
                    ", so the condition cannot tell which one it means");
  value.kind = CondValue::Kind::Register;
  value.thread = users->second.front();
  return value;
}

// ------------------------------------------------------------------------------------------ tokens, numbers

Token TestParser::take() {
  Token token = lexer_.next();
  if (recording_) recording_->push_back(token);
  return token;
}

bool TestParser::accept(Tok kind) {
  if (peek().kind != kind) return false;
  take();
  return true;
}

Token TestParser::expect(Tok kind, const std::string& what) {
  const Token token = take();
  if (token.kind != kind) fail(token, "expected " + what + ", got " + describe(token));
  return token;
}

std::int64_t TestParser::parseInteger() {
  const Token first = take();
  const bool negative = first.kind == Tok::Minus;
  const Token number = negative ? take() : first;
  if (number.kind != Tok::Number) fail(number, "expected an integer, got " + describe(number));
  return integerValue(number.text, negative, pos(number), pos(first));
}

const Location* TestParser::findLocation(std::string_view name) const {
  auto found = locationIndex_.find(std::string(name));
  return found == locationIndex_.end() ? nullptr : &program_.locations[found->second];
}

// --------------------------------------------------------------------------------------------- whole file

NvLitmusTest parseTest(const MappedText& source, const std::string& file, const std::string& name, const Row* row) {
  ParsedTest parsed = TestParser(source, file).parse();
  NvLitmusTest test;
  test.program = std::move(parsed.program);
  test.program.name = name;
  test.row = row ? row->index : 0;
  const Condition& condition = test.program.condition;
  const std::string text = condition.text.starts_with('(') && condition.text.ends_with(')')
                               ? condition.text
                               : "(" + condition.text + ")";
  test.expectation = std::string(parsed.permit ? kPermit : kAssert) + (parsed.label.empty() ? "" : " " + parsed.label) +
                     ": " + text + (parsed.permit ? " is reachable" : " always holds");
  if (row) test.program.descriptions.push_back("row " + std::to_string(row->index) + ": " + std::string(trimmed(row->line.text)));
  test.program.descriptions.push_back(test.expectation);
  return test;
}

}  // namespace

std::vector<NvLitmusTest> parseNvLitmus(std::string_view text, const std::string& file) {
  const std::vector<Line> lines = splitLines(text);
  const std::string stem = std::filesystem::path(file).filename().string();
  std::optional<std::size_t> marker;
  for (std::size_t l = 0; l < lines.size(); ++l) {
    if (trimmed(lines[l].text) != kTableMarker) continue;
    if (marker) {
      const std::size_t col = firstNonBlank(lines[l].text) + 1;
      throw UserError({file, lines[l].number, static_cast<int>(col)},
                      "a second '$$' line (the table started at line " + std::to_string(lines[*marker].number) + ")");
    }
    marker = l;
  }
  if (!marker) return {parseTest(expand(lines, nullptr, file), file, stem, nullptr)};

  const std::vector<Line> templateLines(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(*marker));
  std::vector<NvLitmusTest> tests;
  int index = 0;
  for (std::size_t l = *marker + 1; l < lines.size(); ++l) {
    if (trimmed(lines[l].text).empty()) continue;
    Row row{++index, lines[l], {lines[l].number, static_cast<int>(firstNonBlank(lines[l].text)) + 1}, splitCells(lines[l])};
    try {
      tests.push_back(parseTest(expand(templateLines, &row, file), file, stem + "#" + std::to_string(index), &row));
    } catch (const UserError& error) {
      // An error in the template's text shows up in one row's test: say which.
      if (error.pos().line >= row.line.number) throw;
      throw UserError(error.pos(), error.message() + " (in the test of row " + std::to_string(row.index) + ", line " +
                                       std::to_string(row.line.number) + ")");
    }
  }
  if (tests.empty())
    throw UserError({file, lines[*marker].number, static_cast<int>(firstNonBlank(lines[*marker].text)) + 1},
                    "the table has no rows");
  return tests;
}

std::vector<NvLitmusTest> parseNvLitmusFile(const std::string& path) {
  return parseNvLitmus(readSourceFile(path), path);
}

}  // namespace ptxmm::frontend
