// The PTX reader (PtxParser.hpp). A hand-written parser over the token vector: module directives in a loop,
// a function body as a loop over statements with an explicit stack of `{ }` scopes, operands with a fixed
// nesting depth (an address may hold a vector, nothing deeper).
#include "frontend/ptx/PtxParser.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "frontend/ReaderSupport.hpp"
#include "frontend/ptx/PtxLexer.hpp"

namespace ptxmm::frontend::ptx {
namespace {

using model::UserError;
using Kind = PtxToken::Kind;

// Function attributes that only describe linkage or performance hints.
constexpr std::string_view kIgnoredFunctionDirectives[] = {".minnctapersm", ".maxnctapersm", ".maxnreg",
                                                           ".maxclusterrank", ".noreturn", ".blocksareclusters"};

bool isDigits(std::string_view s, int base) {
  if (s.empty()) return false;
  for (char c : s) {
    const int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                  : std::isxdigit(static_cast<unsigned char>(c)) ? std::tolower(static_cast<unsigned char>(c)) - 'a' + 10
                                                                  : 99;
    if (d >= base) return false;
  }
  return true;
}

class Parser {
 public:
  Parser(std::string_view text, const std::string& file) : file_(file), tokens_(lexPtx(text, file)) {
    module_.file = file;
  }

  Module run() {
    std::vector<WrittenQual> pendingAttributes;
    while (peek().kind != Kind::End) {
      const PtxToken& t = peek();
      if (t.kind != Kind::Word) fail(t, "expected a directive, found " + describe(t));
      const std::string_view w = t.text;
      if (w == ".version") {
        next();
        module_.version = std::string(expect(Kind::Number, "a version number").text);
      } else if (w == ".target") {
        next();
        do module_.targets.emplace_back(expect(Kind::Word, "a target").text);
        while (accept(','));
      } else if (w == ".address_size") {
        next();
        module_.addressSize = static_cast<int>(integer(expect(Kind::Number, "an address size")));
      } else if (w == ".file") {
        fileDirective();
      } else if (w == ".section") {
        skipSection();
      } else if (w == ".pragma") {
        pragma();
      } else if (w == ".visible" || w == ".extern" || w == ".weak" || w == ".common") {
        pendingAttributes.push_back({std::string(w.substr(1)), pos(next())});
        continue;
      } else if (w == ".global" || w == ".const" || w == ".shared") {
        for (auto& v : variables(spaceOf(w), hasAttribute(pendingAttributes, "extern"))) module_.globals.push_back(std::move(v));
      } else if (w == ".entry" || w == ".func") {
        function();
      } else {
        fail(t, "unsupported module directive '" + std::string(w) + "'");
      }
      pendingAttributes.clear();
    }
    resolveLocFiles();
    return std::move(module_);
  }

 private:
  // ---- tokens ------------------------------------------------------------------------------------------

  const PtxToken& peek(std::size_t ahead = 0) const {
    return tokens_[std::min(at_ + ahead, tokens_.size() - 1)];
  }
  const PtxToken& next() {
    const PtxToken& t = tokens_[at_];
    if (at_ + 1 < tokens_.size()) ++at_;
    return t;
  }
  bool accept(char punct) {
    if (!peek().is(punct)) return false;
    next();
    return true;
  }
  bool acceptWord(std::string_view word) {
    if (peek().kind != Kind::Word || peek().text != word) return false;
    next();
    return true;
  }
  const PtxToken& expect(Kind kind, const std::string& what) {
    if (peek().kind != kind) fail(peek(), "expected " + what + ", found " + describe(peek()));
    return next();
  }
  void expectPunct(char punct) {
    if (!accept(punct)) fail(peek(), "expected '" + std::string(1, punct) + "', found " + describe(peek()));
  }
  SourcePos pos(const PtxToken& t) const { return {file_, t.line, t.col}; }
  static std::string describe(const PtxToken& t) {
    switch (t.kind) {
      case Kind::End: return "the end of the file";
      case Kind::String: return "a string";
      default: return "'" + std::string(t.text) + "'";
    }
  }
  [[noreturn]] void fail(const PtxToken& t, const std::string& message) const { throw UserError(pos(t), message); }

  std::int64_t integer(const PtxToken& t) const {
    const Immediate imm = parseNumber(t.text, pos(t));
    if (imm.kind != Immediate::Kind::Integer) fail(t, "expected an integer, found " + describe(t));
    return static_cast<std::int64_t>(imm.bits);
  }

  // ---- module pieces -------------------------------------------------------------------------------------

  static bool hasAttribute(const std::vector<WrittenQual>& attrs, std::string_view name) {
    return std::any_of(attrs.begin(), attrs.end(), [&](const WrittenQual& a) { return a.spelling == name; });
  }

  static Variable::Space spaceOf(std::string_view w) {
    if (w == ".global") return Variable::Space::Global;
    if (w == ".const") return Variable::Space::Const;
    if (w == ".shared") return Variable::Space::Shared;
    if (w == ".local") return Variable::Space::Local;
    return Variable::Space::Param;
  }

  void fileDirective() {
    next();
    const int index = static_cast<int>(integer(expect(Kind::Number, "a file index")));
    module_.files[index] = std::string(expect(Kind::String, "a file name").text);
    while (accept(',')) expect(Kind::Number, "a timestamp or size");
  }

  // `.pragma "nounroll";`: a hint to the compiler, nothing to model.
  void pragma() {
    next();
    expect(Kind::String, "a pragma string");
    expectPunct(';');
  }

  // `.section .debug_str { ... }`: debug data, skipped up to the matching brace.
  void skipSection() {
    next();
    expect(Kind::Word, "a section name");
    const PtxToken& open = peek();
    expectPunct('{');
    for (int depth = 1; depth > 0;) {
      const PtxToken& t = next();
      if (t.kind == Kind::End) fail(open, "unterminated .section block");
      if (t.is('{')) ++depth;
      if (t.is('}')) --depth;
    }
  }

  // `.space [.align N] [.attribute(...)] [.vN] .type name[dims] [= init] {, name...};` after the space word.
  std::vector<Variable> variables(Variable::Space space, bool isExtern) {
    Variable v;
    v.space = space;
    v.isExtern = isExtern;
    v.pos = pos(next());
    declarationAttributes(v);
    std::vector<Variable> out;
    do {
      Variable one = v;
      const PtxToken& name = expect(Kind::Word, "a variable name");
      one.name = std::string(name.text);
      one.pos = pos(name);
      arrayDimensions(one);
      if (accept('=')) initializer(one);
      out.push_back(std::move(one));
    } while (accept(','));
    expectPunct(';');
    return out;
  }

  // The attributes between a state space and a name: alignment, `.ptr` (with its space and alignment),
  // `.attribute(.managed)`, a vector width and the type.
  void declarationAttributes(Variable& v) {
    bool typed = false;
    while (peek().kind == Kind::Word && peek().text.front() == '.') {
      const PtxToken& t = next();
      const std::string_view w = t.text;
      if (w == ".align") {
        v.align = integer(expect(Kind::Number, "an alignment"));
        if (v.align <= 0 || (v.align & (v.align - 1)) != 0) fail(t, "alignment must be a power of two");
      } else if (w == ".ptr") {
        v.ptrParam = true;
      } else if (w == ".attribute") {
        expectPunct('(');
        expect(Kind::Word, "an attribute");
        expectPunct(')');
      } else if (w == ".v2" || w == ".v4" || w == ".v8") {
        v.vector = w[2] - '0';
      } else if (auto type = findType(w.substr(1)); type && !typed) {
        v.type = *type;
        typed = true;
      } else if (v.ptrParam && (w == ".global" || w == ".shared" || w == ".const" || w == ".local")) {
        continue;  // the space a .ptr parameter points into
      } else if (w == ".texref" || w == ".surfref" || w == ".samplerref") {
        fail(t, "texture, surface and sampler references are not supported (the PTX memory model does not cover them)");
      } else {
        fail(t, "unexpected '" + std::string(w) + "' in a declaration");
      }
    }
    if (!typed) fail(peek(), "expected a type, found " + describe(peek()));
  }

  void arrayDimensions(Variable& v) {
    while (accept('[')) {
      v.isArray = true;
      if (accept(']')) {
        v.count = 0;  // unsized: `extern .shared .b8 smem[]`
        continue;
      }
      const PtxToken& n = expect(Kind::Number, "an array size");
      const std::int64_t size = integer(n);
      if (size <= 0) fail(n, "array size must be positive");
      if (v.count > std::numeric_limits<std::int64_t>::max() / size / 16) fail(n, "array too large");
      v.count *= size;
      expectPunct(']');
    }
  }

  // `= value`, `= {v, v, ...}` with nested braces flattened, values being numbers or addresses of variables.
  void initializer(Variable& v) {
    int depth = 0;
    while (true) {
      while (accept('{')) ++depth;
      v.init.push_back(initValue());
      while (depth > 0 && accept('}')) --depth;
      if (depth == 0) break;
      if (!accept(',')) fail(peek(), "expected ',' or '}' in the initialiser, found " + describe(peek()));
    }
    const std::int64_t capacity = v.count == 0 ? std::int64_t{1} << 40 : v.count * v.vector;
    if (static_cast<std::int64_t>(v.init.size()) > capacity)
      throw UserError(v.pos, "initialiser of '" + v.name + "' has more elements than the variable");
  }

  Variable::Init initValue() {
    Variable::Init item;
    const bool negative = accept('-');
    const PtxToken& t = peek();
    if (t.kind == Kind::Number) {
      next();
      item.value = parseNumber(t.text, pos(t));
      if (negative) negate(item.value);
      return item;
    }
    if (t.kind != Kind::Word || negative) fail(t, "expected an initial value, found " + describe(t));
    next();
    item.isSymbol = true;
    if (t.text == "generic" && accept('(')) {  // generic(sym): the symbol's generic address
      item.symbol = std::string(expect(Kind::Word, "a variable name").text);
      expectPunct(')');
    } else {
      item.symbol = std::string(t.text);
    }
    if (accept('+')) item.offset = integer(expect(Kind::Number, "an offset"));
    return item;
  }

  static void negate(Immediate& imm) {
    switch (imm.kind) {
      case Immediate::Kind::Integer: imm.bits = ~imm.bits + 1; break;
      case Immediate::Kind::F32Bits: imm.bits ^= 0x80000000u; break;
      default: imm.bits ^= 0x8000000000000000ull; break;
    }
  }

  // ---- functions -----------------------------------------------------------------------------------------

  void function() {
    const PtxToken& kw = next();
    Function f;
    f.isEntry = kw.text == ".entry";
    f.pos = pos(kw);
    acceptWord(".noreturn");
    if (!f.isEntry && peek().is('(')) f.returns = parameters();
    const PtxToken& name = expect(Kind::Word, "a function name");
    f.name = std::string(name.text);
    f.pos = pos(name);
    if (peek().is('(')) f.params = parameters();
    functionDirectives(f);
    if (!accept(';')) {
      f.hasBody = true;
      body(f);
    }
    module_.functions.push_back(std::move(f));
  }

  // `( .param .u64 name, .param .align 8 .b8 s[16], .reg .b32 r )`
  std::vector<Variable> parameters() {
    expectPunct('(');
    std::vector<Variable> out;
    if (accept(')')) return out;
    do {
      const PtxToken& kw = expect(Kind::Word, "'.param' or '.reg'");
      if (kw.text != ".param" && kw.text != ".reg") fail(kw, "expected '.param' or '.reg', found " + describe(kw));
      Variable v;
      v.space = Variable::Space::Param;
      declarationAttributes(v);
      const PtxToken& name = expect(Kind::Word, "a parameter name");
      v.name = std::string(name.text);
      v.pos = pos(name);
      arrayDimensions(v);
      out.push_back(std::move(v));
    } while (accept(','));
    expectPunct(')');
    return out;
  }

  void functionDirectives(Function& f) {
    while (peek().kind == Kind::Word) {
      const PtxToken& t = peek();
      const std::string_view w = t.text;
      if (w == ".maxntid" || w == ".reqntid" || w == ".reqnctapercluster") {
        next();
        const Dim3 d = dims();
        (w == ".maxntid" ? f.maxntid : w == ".reqntid" ? f.reqntid : f.reqnctapercluster) = d;
      } else if (w == ".explicitcluster") {
        next();
        f.explicitCluster = true;
      } else if (std::find(std::begin(kIgnoredFunctionDirectives), std::end(kIgnoredFunctionDirectives), w) !=
                 std::end(kIgnoredFunctionDirectives)) {
        next();
        while (peek().kind == Kind::Number) {
          next();
          if (!accept(',')) break;
        }
      } else if (w == ".pragma") {
        pragma();
      } else {
        return;
      }
    }
  }

  Dim3 dims() {
    int v[3] = {1, 1, 1};
    for (int i = 0; i < 3; ++i) {
      const PtxToken& n = expect(Kind::Number, "a dimension");
      const std::int64_t value = integer(n);
      if (value <= 0 || value > std::numeric_limits<int>::max()) fail(n, "dimension out of range");
      v[i] = static_cast<int>(value);
      if (!accept(',')) break;
    }
    return {v[0], v[1], v[2]};
  }

  // ---- bodies ---------------------------------------------------------------------------------------------

  struct Scope {
    int id = 0;
    int parent = -1;
    std::unordered_map<std::string, std::string> names;   // declared register/variable -> unique name
    std::unordered_map<std::string, std::string> labels;  // declared label -> unique name
  };
  struct LabelUse {
    int instruction;
    std::size_t operand;
    int scope;
  };

  std::string uniqueName(const std::string& name, int scope) const {
    return scope == 0 ? name : name + "#" + std::to_string(scope);
  }

  // The unique name of `name` as seen from the innermost open scope (unchanged when not declared in the body).
  std::string resolve(const std::string& name) const {
    for (auto it = open_.rbegin(); it != open_.rend(); ++it) {
      const auto& names = scopes_[static_cast<std::size_t>(*it)].names;
      if (auto found = names.find(name); found != names.end()) return found->second;
    }
    return name;
  }

  void declare(const PtxToken& at, const std::string& name) {
    Scope& s = scopes_[static_cast<std::size_t>(open_.back())];
    if (!s.names.emplace(name, uniqueName(name, s.id)).second) fail(at, "'" + name + "' is declared twice in this scope");
  }

  void body(Function& f) {
    fn_ = &f;
    scopes_.clear();
    open_.clear();
    labelUses_.clear();
    const PtxToken& brace = peek();
    expectPunct('{');
    scopes_.push_back({0, -1, {}, {}});
    open_.push_back(0);
    for (const auto& p : f.params) scopes_[0].names.emplace(p.name, p.name);
    for (const auto& p : f.returns) scopes_[0].names.emplace(p.name, p.name);
    while (!open_.empty()) {
      const PtxToken& t = peek();
      if (t.kind == Kind::End) fail(brace, "unterminated function body");
      if (t.is('{')) {
        next();
        scopes_.push_back({static_cast<int>(scopes_.size()), open_.back(), {}, {}});
        open_.push_back(scopes_.back().id);
      } else if (t.is('}')) {
        f.end = pos(next());
        open_.pop_back();
      } else if (t.is(';')) {
        next();  // an empty statement
      } else if (t.is('@')) {
        instruction();
      } else if (t.kind == Kind::Word && peek(1).is(':')) {
        label();
      } else if (t.kind == Kind::Word && t.text.front() == '.') {
        bodyDirective();
      } else if (t.kind == Kind::Word) {
        instruction();
      } else {
        fail(t, "expected an instruction, found " + describe(t));
      }
    }
    resolveLabels();
    fn_ = nullptr;
  }

  void label() {
    const PtxToken& t = next();
    next();  // ':'
    Scope& s = scopes_[static_cast<std::size_t>(open_.back())];
    const std::string name(t.text);
    const std::string unique = uniqueName(name, s.id);
    if (!s.labels.emplace(name, unique).second || fn_->labels.count(unique)) fail(t, "label '" + name + "' is defined twice");
    fn_->labels[unique] = static_cast<int>(fn_->code.size());
  }

  void bodyDirective() {
    const PtxToken& t = peek();
    const std::string_view w = t.text;
    if (w == ".reg") {
      registers();
    } else if (w == ".local" || w == ".shared" || w == ".param" || w == ".global" || w == ".const") {
      for (auto& v : variables(spaceOf(w), false)) {
        declare(t, v.name);
        v.name = resolve(v.name);
        fn_->locals.push_back(std::move(v));
      }
    } else if (w == ".loc") {
      loc();
    } else if (w == ".pragma") {
      pragma();
    } else {
      fail(t, "unsupported directive '" + std::string(w) + "' in a function body");
    }
  }

  // `.reg .type name, name<N>, ...;` (a range `%r<24>` declares %r0 .. %r23).
  void registers() {
    const PtxToken& kw = next();
    Variable v;
    declarationAttributes(v);
    if (v.vector != 1) fail(kw, "vector registers are not supported");
    do {
      const PtxToken& name = expect(Kind::Word, "a register name");
      const std::string base(name.text);
      if (accept('<')) {
        const PtxToken& n = expect(Kind::Number, "a register count");
        const std::int64_t count = integer(n);
        if (count < 0 || count > 10'000'000) fail(n, "register count out of range");
        expectPunct('>');
        for (std::int64_t i = 0; i < count; ++i) declareRegister(name, base + std::to_string(i), v.type);
      } else {
        declareRegister(name, base, v.type);
      }
    } while (accept(','));
    expectPunct(';');
  }

  void declareRegister(const PtxToken& at, const std::string& name, PtxType type) {
    declare(at, name);
    fn_->registers[resolve(name)] = type;
  }

  // `.loc file line col [, function_name label[+off], inlined_at file line col]` (no terminating ';').
  void loc() {
    const PtxToken& kw = next();
    LocInfo info;
    info.file = static_cast<int>(integer(expect(Kind::Number, "a file index")));
    info.line = static_cast<int>(integer(expect(Kind::Number, "a line")));
    info.col = static_cast<int>(integer(expect(Kind::Number, "a column")));
    while (peek().is(',') && peek().line == kw.line) {
      next();
      const PtxToken& attr = expect(Kind::Word, "a .loc attribute");
      if (attr.text == "function_name") {
        expect(Kind::Word, "a function name label");
        if (accept('+')) expect(Kind::Number, "an offset");
      } else if (attr.text == "inlined_at") {
        SourcePos at;
        at.file = std::to_string(integer(expect(Kind::Number, "a file index")));
        at.line = static_cast<int>(integer(expect(Kind::Number, "a line")));
        at.col = static_cast<int>(integer(expect(Kind::Number, "a column")));
        info.inlinedAt = at;
      }
      // Other attributes (prologue_end, is_stmt ...) carry no position.
    }
    fn_->locs.push_back(info);
  }

  void instruction() {
    const std::size_t first = at_;
    PtxInstruction in;
    in.loc = fn_->locs.empty() ? -1 : static_cast<int>(fn_->locs.size() - 1);
    if (accept('@')) {
      in.guardNegated = accept('!');
      in.guard = resolve(std::string(expect(Kind::Word, "a predicate").text));
    }
    const PtxToken& op = expect(Kind::Word, "an instruction");
    in.pos = pos(op);
    splitOpcode(op, in);
    if (!peek().is(';') && !peek().is('}')) {
      do in.operands.push_back(operand());
      while (accept(','));
    }
    if (!peek().is(';')) fail(peek(), "expected ',' or ';', found " + describe(peek()));
    in.text = joinTokens(std::vector<PtxToken>(tokens_.begin() + static_cast<std::ptrdiff_t>(first),
                                               tokens_.begin() + static_cast<std::ptrdiff_t>(at_)));
    next();
    const int index = static_cast<int>(fn_->code.size());
    for (std::size_t k = 0; k < in.operands.size(); ++k)
      if (in.operands[k].kind == PtxOperand::Kind::Symbol) labelUses_.push_back({index, k, open_.back()});
    fn_->code.push_back(std::move(in));
  }

  void splitOpcode(const PtxToken& op, PtxInstruction& in) const {
    const std::string_view w = op.text;
    std::size_t dot = w.find('.');
    in.opcode = std::string(w.substr(0, dot));
    if (in.opcode.empty()) fail(op, "expected an instruction, found " + describe(op));
    while (dot != std::string_view::npos) {
      const std::size_t nextDot = w.find('.', dot + 1);
      const std::string_view q = w.substr(dot + 1, nextDot == std::string_view::npos ? nextDot : nextDot - dot - 1);
      if (q.empty()) fail(op, "empty qualifier in '" + std::string(w) + "'");
      in.qualifiers.push_back({std::string(q), {file_, op.line, op.col + static_cast<int>(dot)}});
      dot = nextDot;
    }
  }

  // One operand; an address may hold a vector (tensor coordinates), a vector holds plain operands.
  PtxOperand operand(int depth = 0) {
    PtxOperand o;
    const PtxToken& start = peek();
    o.pos = pos(start);
    if (accept('!')) {
      o = operand(depth + 1);
      o.negated = true;
      o.pos = pos(start);
      return o;
    }
    if (depth > 2) fail(start, "operand nested too deeply");
    if (accept('-')) {
      const PtxToken& n = expect(Kind::Number, "a number after '-'");
      o.imm = parseNumber(n.text, pos(n));
      negate(o.imm);
      return o;
    }
    if (start.kind == Kind::Number) {
      next();
      o.imm = parseNumber(start.text, o.pos);
      return o;
    }
    if (accept('[')) return address(o, depth);
    if (accept('{') || accept('(')) {
      const char close = start.is('{') ? '}' : ')';
      o.kind = close == '}' ? PtxOperand::Kind::Vector : PtxOperand::Kind::List;
      if (!accept(close)) {
        do o.elements.push_back(operand(depth + 1));
        while (accept(','));
        expectPunct(close);
      }
      return o;
    }
    const PtxToken& word = expect(Kind::Word, "an operand");
    if (word.text == "_") {
      o.kind = PtxOperand::Kind::Sink;
      if (accept('|')) o.second = resolve(std::string(expect(Kind::Word, "a predicate").text));
      return o;
    }
    o.name = resolve(std::string(word.text));
    if (isRegister(o.name)) {
      o.kind = PtxOperand::Kind::Register;
      if (accept('|')) o.second = resolve(std::string(expect(Kind::Word, "a predicate").text));
      return o;
    }
    o.kind = PtxOperand::Kind::Symbol;
    o.offset = offset();
    return o;
  }

  bool isRegister(const std::string& name) const {
    return fn_->registers.count(name) || name.front() == '%';  // special registers are not declared
  }

  // `+N`, `+-N`, `-N` after a base, or 0.
  std::int64_t offset() {
    bool negative = false;
    if (accept('+')) {
      negative = accept('-');
    } else if (peek().is('-') && peek(1).kind == Kind::Number) {
      next();
      negative = true;
    } else {
      return 0;
    }
    const std::int64_t value = integer(expect(Kind::Number, "an offset"));
    return negative ? -value : value;
  }

  // After '[': `[reg+off]`, `[sym+off]`, `[N]`, `[map, {c0, c1}]`.
  PtxOperand address(PtxOperand o, int depth) {
    o.kind = PtxOperand::Kind::Address;
    const PtxToken& t = peek();
    if (t.kind == Kind::Number) {
      o.offset = integer(next());
    } else {
      o.name = resolve(std::string(expect(Kind::Word, "an address").text));
      o.baseIsRegister = isRegister(o.name);
      o.offset = offset();
    }
    while (accept(',')) o.elements.push_back(operand(depth + 1));
    expectPunct(']');
    return o;
  }

  // Labels may be used before they are defined: symbols are matched with the labels of their scope chain once
  // the whole body is read.
  void resolveLabels() {
    for (const LabelUse& use : labelUses_) {
      PtxOperand& o = fn_->code[static_cast<std::size_t>(use.instruction)].operands[use.operand];
      for (int s = use.scope; s >= 0; s = scopes_[static_cast<std::size_t>(s)].parent) {
        const auto& labels = scopes_[static_cast<std::size_t>(s)].labels;
        if (auto it = labels.find(o.name); it != labels.end()) {
          o.name = it->second;
          break;
        }
      }
    }
  }

  // .loc and inlined_at name files by index; the .file table usually comes after the code.
  void resolveLocFiles() {
    for (auto& f : module_.functions)
      for (auto& l : f.locs)
        if (l.inlinedAt) {
          const int index = std::stoi(l.inlinedAt->file);
          auto it = module_.files.find(index);
          l.inlinedAt->file = it == module_.files.end() ? module_.file : it->second;
        }
  }

  std::string file_;
  std::vector<PtxToken> tokens_;
  std::size_t at_ = 0;
  Module module_;
  Function* fn_ = nullptr;
  std::vector<Scope> scopes_;
  std::vector<int> open_;
  std::vector<LabelUse> labelUses_;
};

// Digits of `text` (after a prefix) as an unsigned 64-bit value, or nullopt on overflow.
std::optional<std::uint64_t> digitsValue(std::string_view text, int base) {
  std::uint64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

Immediate parseNumber(std::string_view text, const SourcePos& at) {
  const std::string written(text);
  auto bad = [&]() -> Immediate { throw UserError(at, "malformed number '" + written + "'"); };
  Immediate imm;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'f' || text[1] == 'F' || text[1] == 'd' || text[1] == 'D')) {
    const bool single = text[1] == 'f' || text[1] == 'F';
    const std::string_view hex = text.substr(2);
    if (hex.size() != (single ? 8u : 16u) || !isDigits(hex, 16)) return bad();
    imm.kind = single ? Immediate::Kind::F32Bits : Immediate::Kind::F64Bits;
    imm.bits = *digitsValue(hex, 16);
    return imm;
  }
  const bool hexadecimal = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  if (!hexadecimal && text.find_first_of(".eE") != std::string_view::npos) {
    char* end = nullptr;
    const double value = std::strtod(written.c_str(), &end);
    if (end != written.c_str() + written.size()) return bad();
    imm.kind = Immediate::Kind::Decimal;
    std::memcpy(&imm.bits, &value, sizeof value);
    return imm;
  }
  if (!text.empty() && (text.back() == 'U' || text.back() == 'u')) text.remove_suffix(1);
  int base = 10;
  if (hexadecimal) {
    base = 16;
    text.remove_prefix(2);
  } else if (text.size() > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) {
    base = 2;
    text.remove_prefix(2);
  } else if (text.size() > 1 && text[0] == '0') {
    base = 8;
    text.remove_prefix(1);
  }
  if (!isDigits(text, base)) return bad();
  const auto value = digitsValue(text, base);
  if (!value) throw UserError(at, "number '" + written + "' does not fit in 64 bits");
  imm.bits = *value;
  return imm;
}

Module parsePtx(std::string_view text, const std::string& file) { return Parser(text, file).run(); }

const Function* Module::function(const std::string& name) const {
  for (const auto& f : functions)
    if (f.name == name) return &f;
  return nullptr;
}

const Variable* Module::global(const std::string& name) const {
  for (const auto& v : globals)
    if (v.name == name) return &v;
  return nullptr;
}

}  // namespace ptxmm::frontend::ptx
