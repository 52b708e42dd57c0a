// Decoding PTX instructions for the partial evaluator (DecodedKernel.hpp). One table maps each PTX mnemonic to
// its evaluator operation and how its qualifiers are read; memory and synchronisation instructions get their
// residual templates from the litmus tables. Liveness of registers is a backward data-flow over the function.
#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>

#include "frontend/InstructionTable.hpp"
#include "frontend/ptx/DecodedKernel.hpp"

namespace ptxmm::frontend::ptx {
namespace {

using model::UserError;

struct SpecialRow {
  std::string_view name;
  Special special;
  bool components;
};

constexpr std::array kSpecials = {
    SpecialRow{"%tid", Special::Tid, true},
    SpecialRow{"%ntid", Special::Ntid, true},
    SpecialRow{"%ctaid", Special::Ctaid, true},
    SpecialRow{"%nctaid", Special::Nctaid, true},
    SpecialRow{"%laneid", Special::Laneid, false},
    SpecialRow{"%cluster_ctaid", Special::ClusterCtaid, true},
    SpecialRow{"%cluster_nctaid", Special::ClusterNctaid, true},
    SpecialRow{"%cluster_ctarank", Special::ClusterCtarank, false},
    SpecialRow{"%cluster_nctarank", Special::ClusterNctarank, false},
    SpecialRow{"%clusterid", Special::Clusterid, true},
    SpecialRow{"%nclusterid", Special::Nclusterid, true},
    SpecialRow{"%is_explicit_cluster", Special::IsExplicitCluster, false},
    SpecialRow{"%dynamic_smem_size", Special::DynamicSmemSize, false},
    SpecialRow{"%total_smem_size", Special::TotalSmemSize, false},
    SpecialRow{"%lanemask_eq", Special::LanemaskEq, false},
    SpecialRow{"%lanemask_le", Special::LanemaskLe, false},
    SpecialRow{"%lanemask_lt", Special::LanemaskLt, false},
    SpecialRow{"%lanemask_ge", Special::LanemaskGe, false},
    SpecialRow{"%lanemask_gt", Special::LanemaskGt, false},
    // cooperative_groups::this_grid().sync() finds its barrier through %envreg1:%envreg2.
    SpecialRow{"%envreg1", Special::GridWorkspaceHigh, false},
    SpecialRow{"%envreg2", Special::GridWorkspaceLow, false},
    // Values no launch coordinate fixes: the hardware warp and SM ids, clocks and timers, performance counters.
    SpecialRow{"%warpid", Special::Unknown, false},
    SpecialRow{"%nwarpid", Special::Unknown, false},
    SpecialRow{"%smid", Special::Unknown, false},
    SpecialRow{"%nsmid", Special::Unknown, false},
    SpecialRow{"%gridid", Special::Unknown, false},
    SpecialRow{"%clock", Special::Unknown, false},
    SpecialRow{"%clock_hi", Special::Unknown, false},
    SpecialRow{"%clock64", Special::Unknown, false},
    SpecialRow{"%globaltimer", Special::Unknown, false},
    SpecialRow{"%globaltimer_lo", Special::Unknown, false},
    SpecialRow{"%globaltimer_hi", Special::Unknown, false},
    SpecialRow{"%aggr_smem_size", Special::Unknown, false},
    SpecialRow{"%current_graph_exec", Special::Unknown, false},
};

// Prefixes of special registers read as unknown values: %envreg0..31, %pm0..7, %pm0_64..., reserved offsets.
constexpr std::string_view kUnknownPrefixes[] = {"%envreg", "%pm", "%reserved_smem_offset"};

// Qualifiers of ld/st/atom/red that only steer caches, or that the evaluator reads itself (types, vectors,
// .nc, the .param/.local/.const spaces): not passed to the litmus qualifier rules.
bool evaluatorQualifier(std::string_view q) {
  static constexpr std::string_view kWords[] = {"nc", "ca", "cg", "cs", "lu", "cv", "wb", "wt", "v2", "v4", "v8",
                                                "unified", "noftz", "param", "local", "const", "relu"};
  if (std::find(std::begin(kWords), std::end(kWords), q) != std::end(kWords)) return true;
  for (std::string_view prefix : {"L1::", "L2::", "level::"})
    if (q.rfind(prefix, 0) == 0) return true;
  return findType(q).has_value();
}

struct Quals {
  const std::vector<WrittenQual>& list;
  bool has(std::string_view q) const {
    return std::any_of(list.begin(), list.end(), [&](const WrittenQual& w) { return w.spelling == q; });
  }
  std::vector<PtxType> types() const {
    std::vector<PtxType> out;
    for (const auto& w : list)
      if (auto t = findType(w.spelling)) out.push_back(*t);
    return out;
  }
  bool opaqueType() const {
    return std::any_of(list.begin(), list.end(), [](const WrittenQual& w) { return hasOpaqueArithmetic(w.spelling); });
  }
};

class Decoder {
 public:
  Decoder(const Function& fn, const DecodeContext& context) : fn_(fn), ctx_(context) {}

  DecodedFunction run() {
    out_.source = &fn_;
    for (const auto& [name, type] : fn_.registers) {
      regIds_.emplace(name, static_cast<int>(out_.registerNames.size()));
      out_.registerNames.push_back(name);
      out_.registerBits.push_back(type.bits);
    }
    std::int64_t at = 0;
    for (const auto& v : fn_.locals) {
      const std::int64_t align = std::max<std::int64_t>(1, v.alignment());
      at = (at + align - 1) / align * align;
      out_.localOffsets.push_back(at);
      if (v.space == Variable::Space::Local || v.space == Variable::Space::Param) at += v.bytes();
    }
    out_.frameBytes = at;
    for (const auto& in : fn_.code) out_.code.push_back(decode(in));
    out_.isLabel.assign(fn_.code.size() + 1, false);
    for (const auto& [name, index] : fn_.labels) out_.isLabel[static_cast<std::size_t>(index)] = true;
    computeLiveness();
    return std::move(out_);
  }

 private:
  // ---- operands -------------------------------------------------------------------------------------------

  [[noreturn]] void fail(const SourcePos& pos, const std::string& message) const { throw UserError(pos, message); }

  DOperand special(const PtxOperand& o) const {
    DOperand d;
    d.kind = DOperand::Kind::Special;
    d.pos = o.pos;
    std::string_view name = o.name;
    int component = -1;
    if (name.size() > 2 && name[name.size() - 2] == '.') {
      const char c = name.back();
      component = c == 'x' ? 0 : c == 'y' ? 1 : c == 'z' ? 2 : -1;
      if (component >= 0) name.remove_suffix(2);
    }
    for (const auto& row : kSpecials)
      if (row.name == name && row.components == (component >= 0)) {
        d.special = row.special;
        d.component = std::max(component, 0);
        return d;
      }
    for (std::string_view prefix : kUnknownPrefixes)
      if (o.name.rfind(prefix, 0) == 0) {
        d.special = Special::Unknown;
        return d;
      }
    fail(o.pos, "unknown register '" + o.name + "' (not declared, and not a special register ptxmm knows)");
  }

  SymbolRef symbol(const std::string& name) const {
    for (std::size_t i = 0; i < fn_.locals.size(); ++i)
      if (fn_.locals[i].name == name) {
        if (fn_.locals[i].space == Variable::Space::Shared) return {SymbolRef::Kind::Shared, ctx_.sharedVariables.at(name)};
        return {SymbolRef::Kind::Local, static_cast<int>(i)};
      }
    for (std::size_t i = 0; i < fn_.params.size(); ++i)
      if (fn_.params[i].name == name)
        return {fn_.isEntry ? SymbolRef::Kind::KernelParam : SymbolRef::Kind::FuncParam, static_cast<int>(i)};
    for (std::size_t i = 0; i < fn_.returns.size(); ++i)
      if (fn_.returns[i].name == name) return {SymbolRef::Kind::FuncParam, static_cast<int>(fn_.params.size() + i)};
    if (auto it = ctx_.sharedVariables.find(name); it != ctx_.sharedVariables.end()) return {SymbolRef::Kind::Shared, it->second};
    if (auto it = ctx_.globals.find(name); it != ctx_.globals.end()) return {SymbolRef::Kind::Global, it->second};
    if (ctx_.module.function(name)) return {SymbolRef::Kind::Function, -1};
    return {};
  }

  DOperand operand(const PtxOperand& o) const {
    DOperand d;
    d.pos = o.pos;
    d.negated = o.negated;
    switch (o.kind) {
      case PtxOperand::Kind::Register: {
        if (auto it = regIds_.find(o.name); it != regIds_.end()) {
          d.kind = DOperand::Kind::Reg;
          d.reg = it->second;
        } else {
          d = special(o);
          d.negated = o.negated;
        }
        if (!o.second.empty()) d.second = registerId(o.second, o.pos);
        return d;
      }
      case PtxOperand::Kind::Immediate:
        d.kind = DOperand::Kind::Imm;
        d.imm = o.imm;
        return d;
      case PtxOperand::Kind::Sink:
        d.kind = DOperand::Kind::Sink;
        if (!o.second.empty()) d.second = registerId(o.second, o.pos);
        return d;
      case PtxOperand::Kind::Symbol: {
        if (o.name == "WARP_SZ") {
          d.kind = DOperand::Kind::Special;
          d.special = Special::WarpSize;
          return d;
        }
        if (auto it = fn_.labels.find(o.name); it != fn_.labels.end()) {
          d.kind = DOperand::Kind::Label;
          d.target = it->second;
          return d;
        }
        d.kind = DOperand::Kind::Symbol;
        d.symbol = symbol(o.name);
        d.offset = o.offset;
        if (d.symbol.kind == SymbolRef::Kind::None) fail(o.pos, "unknown name '" + o.name + "'");
        return d;
      }
      case PtxOperand::Kind::Address: {
        d.kind = DOperand::Kind::Address;
        d.offset = o.offset;
        if (o.baseIsRegister) {
          d.reg = registerId(o.name, o.pos);
        } else if (!o.name.empty()) {
          d.symbol = symbol(o.name);
          if (d.symbol.kind == SymbolRef::Kind::None) fail(o.pos, "unknown name '" + o.name + "'");
        }
        for (const auto& e : o.elements) d.elements.push_back(operand(e));
        return d;
      }
      case PtxOperand::Kind::Vector:
        // `{ %r1 }` is the register itself (Triton wraps every scalar ld/st operand in braces).
        if (o.elements.size() == 1) return operand(o.elements.front());
        [[fallthrough]];
      case PtxOperand::Kind::List:
        d.kind = o.kind == PtxOperand::Kind::Vector ? DOperand::Kind::Vector : DOperand::Kind::List;
        for (const auto& e : o.elements) d.elements.push_back(operand(e));
        return d;
    }
    return d;
  }

  int registerId(const std::string& name, const SourcePos& pos) const {
    auto it = regIds_.find(name);
    if (it == regIds_.end()) fail(pos, "'" + name + "' is not a declared register");
    return it->second;
  }

  // ---- instructions ---------------------------------------------------------------------------------------

  DecodedInstruction decode(const PtxInstruction& in) const {
    DecodedInstruction d;
    d.source = &in;
    if (!in.guard.empty()) {
      d.guard = registerId(in.guard, in.pos);
      d.guardNegated = in.guardNegated;
    }
    try {
      if (!handlers().count(in.opcode)) unsupported(in);
      for (const auto& o : in.operands) d.ops.push_back(operand(o));
      classify(in, d);
    } catch (const UserError& e) {
      d.op = PeOp::Unsupported;
      d.error = e.what();
    }
    return d;
  }

  [[noreturn]] static void unsupported(const PtxInstruction& in, const std::string& why = "") {
    throw UserError(in.pos, "unsupported PTX instruction '" + fullName(in) + "'" + (why.empty() ? "" : " (" + why + ")"));
  }

  static std::string fullName(const PtxInstruction& in) {
    std::string s = in.opcode;
    for (const auto& q : in.qualifiers) s += "." + q.spelling;
    return s;
  }

  void classify(const PtxInstruction& in, DecodedInstruction& d) const {
    const Quals q{in.qualifiers};
    const auto types = q.types();
    if (!types.empty()) d.type = types.front();
    if (types.size() > 1) d.type2 = types[1];
    d.opaqueType = q.opaqueType();
    d.sat = q.has("sat");
    d.ftz = q.has("ftz");
    d.nearest = !(q.has("rz") || q.has("rm") || q.has("rp") || q.has("approx") || q.has("full"));
    const std::string& op = in.opcode;
    handlers().at(op)(*this, in, d, q);
  }

  using Handler = std::function<void(const Decoder&, const PtxInstruction&, DecodedInstruction&, const Quals&)>;

  // How each PTX mnemonic is read.
  static const std::unordered_map<std::string, Handler>& handlers() {
    static const std::unordered_map<std::string, Handler> kHandlers = {
            {"mov", [](auto&, auto&, auto& d, auto&) { d.op = PeOp::Mov; }},
            {"add", &Decoder::arith},      {"sub", &Decoder::arith},      {"mul", &Decoder::arith},
            {"mad", &Decoder::arith},      {"div", &Decoder::arith},      {"rem", &Decoder::arith},
            {"abs", &Decoder::arith},      {"neg", &Decoder::arith},      {"min", &Decoder::arith},
            {"max", &Decoder::arith},      {"sad", &Decoder::arith},      {"fma", &Decoder::arith},
            {"and", &Decoder::bits},       {"or", &Decoder::bits},        {"xor", &Decoder::bits},
            {"not", &Decoder::bits},       {"cnot", &Decoder::bits},      {"shl", &Decoder::bits},
            {"shr", &Decoder::bits},       {"shf", &Decoder::bits},       {"bfe", &Decoder::bits},
            {"bfi", &Decoder::bits},       {"bfind", &Decoder::bits},     {"prmt", &Decoder::bits},
            {"popc", &Decoder::bits},      {"clz", &Decoder::bits},       {"brev", &Decoder::bits},
            {"selp", [](auto&, auto&, auto& d, auto&) { d.op = PeOp::Selp; }},
            {"setp", &Decoder::setp},      {"cvt", &Decoder::cvt},        {"cvta", &Decoder::cvta},
            {"sqrt", &Decoder::floatMath}, {"rcp", &Decoder::floatMath},  {"rsqrt", &Decoder::floatMath},
            {"sin", &Decoder::floatMath},  {"cos", &Decoder::floatMath},  {"lg2", &Decoder::floatMath},
            {"ex2", &Decoder::floatMath},  {"tanh", &Decoder::floatMath}, {"copysign", &Decoder::floatMath},
            {"testp", &Decoder::floatMath},
            {"mapa", &Decoder::addressing}, {"getctarank", &Decoder::addressing}, {"isspacep", &Decoder::addressing},
            {"ld", &Decoder::memory},      {"ldu", &Decoder::memory},     {"st", &Decoder::memory},
            {"atom", &Decoder::memory},    {"red", &Decoder::memory},
            {"fence", &Decoder::sync},     {"membar", &Decoder::sync},    {"bar", &Decoder::sync},
            {"barrier", &Decoder::sync},   {"mbarrier", &Decoder::sync},  {"cp", &Decoder::sync},
            {"bra", &Decoder::control},    {"ret", &Decoder::control},    {"exit", &Decoder::control},
            {"call", &Decoder::control},   {"trap", &Decoder::control},
            {"shfl", &Decoder::collective}, {"vote", &Decoder::collective}, {"match", &Decoder::collective},
            {"redux", &Decoder::collective}, {"activemask", &Decoder::collective}, {"elect", &Decoder::collective},
            {"nanosleep", &Decoder::noEffect}, {"prefetch", &Decoder::noEffect}, {"prefetchu", &Decoder::noEffect},
            {"pmevent", &Decoder::noEffect}, {"griddepcontrol", &Decoder::noEffect}, {"setmaxnreg", &Decoder::noEffect},
            {"applypriority", &Decoder::noEffect},
            {"createpolicy", [](auto&, auto&, auto& d, auto&) { d.op = PeOp::OpaqueResult; }},
            {"mma", [](auto&, auto&, auto& d, auto&) { d.op = PeOp::OpaqueResult; }},
            {"ldmatrix", &Decoder::matrix}, {"stmatrix", &Decoder::matrix},
            {"wgmma", &Decoder::wgmma},
            // Registers only (no memory, no ordering, as shfl.sync): the transposed fragment is not computed.
            {"movmatrix", [](auto&, auto&, auto& d, auto&) { d.op = PeOp::OpaqueResult; }},
        };
    return kHandlers;
  }

  void arith(const PtxInstruction& in, DecodedInstruction& d, const Quals& q) const {
    static const std::unordered_map<std::string, PeOp> kOps = {
        {"add", PeOp::Add}, {"sub", PeOp::Sub}, {"mul", PeOp::Mul}, {"mad", PeOp::Mad}, {"div", PeOp::Div},
        {"rem", PeOp::Rem}, {"abs", PeOp::Abs}, {"neg", PeOp::Neg}, {"min", PeOp::Min}, {"max", PeOp::Max},
        {"sad", PeOp::Sad}, {"fma", PeOp::Fma}};
    d.op = kOps.at(in.opcode);
    if (q.has("cc")) unsupported(in, "carry chains are not supported yet");
    d.hi = q.has("hi");
    d.wide = q.has("wide");
    if (d.wide) d.type2 = PtxType{d.type.kind, d.type.bits * 2};
    if (d.type.isFloat() && d.op == PeOp::Mad) d.op = PeOp::Fma;  // mad.rn.f32 is fma.rn.f32
    if (d.type.isFloat()) {
      static const std::unordered_map<std::string, FloatOp> kFloat = {
          {"add", FloatOp::Add}, {"sub", FloatOp::Sub}, {"mul", FloatOp::Mul}, {"div", FloatOp::Div},
          {"abs", FloatOp::Abs}, {"neg", FloatOp::Neg}, {"min", FloatOp::Min}, {"max", FloatOp::Max},
          {"fma", FloatOp::Fma}, {"mad", FloatOp::Fma}};
      auto f = kFloat.find(in.opcode);
      if (f == kFloat.end()) unsupported(in);
      d.floatOp = f->second;
      d.op = PeOp::FloatArith;  // every float arithmetic goes through floatArith
    }
  }

  void bits(const PtxInstruction& in, DecodedInstruction& d, const Quals& q) const {
    static const std::unordered_map<std::string, PeOp> kOps = {
        {"and", PeOp::And}, {"or", PeOp::Or},     {"xor", PeOp::Xor},     {"not", PeOp::Not},   {"cnot", PeOp::Cnot},
        {"shl", PeOp::Shl}, {"shr", PeOp::Shr},   {"shf", PeOp::Shf},     {"bfe", PeOp::Bfe},   {"bfi", PeOp::Bfi},
        {"bfind", PeOp::Bfind}, {"prmt", PeOp::Prmt}, {"popc", PeOp::Popc}, {"clz", PeOp::Clz}, {"brev", PeOp::Brev}};
    d.op = kOps.at(in.opcode);
    if (d.op == PeOp::Shf) {
      d.shfLeft = q.has("l");
      d.shiftClamp = q.has("clamp");
      if (!d.shfLeft && !q.has("r")) unsupported(in, "shf needs .l or .r");
    }
    if (d.op == PeOp::Bfind) d.hi = q.has("shiftamt");
    if (d.op == PeOp::Prmt) {
      static constexpr std::string_view kModes[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
      for (int m = 0; m < 6; ++m)
        if (q.has(kModes[m])) d.mode = m + 1;
    }
  }

  void setp(const PtxInstruction& in, DecodedInstruction& d, const Quals& q) const {
    d.op = PeOp::Setp;
    d.floatCmp = d.type.isFloat();
    if (q.has("and")) d.combine = LocalOp::And;
    if (q.has("or")) d.combine = LocalOp::Or;
    if (q.has("xor")) d.combine = LocalOp::Xor;
    if (d.floatCmp) {
      static const std::unordered_map<std::string, FloatCmp> kCmp = {
          {"eq", FloatCmp::Eq},   {"ne", FloatCmp::Ne},   {"lt", FloatCmp::Lt},   {"le", FloatCmp::Le},
          {"gt", FloatCmp::Gt},   {"ge", FloatCmp::Ge},   {"equ", FloatCmp::Equ}, {"neu", FloatCmp::Neu},
          {"ltu", FloatCmp::Ltu}, {"leu", FloatCmp::Leu}, {"gtu", FloatCmp::Gtu}, {"geu", FloatCmp::Geu},
          {"num", FloatCmp::Num}, {"nan", FloatCmp::Nan}};
      for (const auto& w : in.qualifiers)
        if (auto c = kCmp.find(w.spelling); c != kCmp.end()) return void(d.fcmp = c->second);
      unsupported(in, "no comparison");
    }
    // The unsigned comparisons lo, ls, hi, hs are lt, le, gt, ge of unsigned values; the others come from the
    // litmus table.
    static const std::unordered_map<std::string, std::string> kUnsigned = {{"lo", "lt"}, {"ls", "le"}, {"hi", "gt"}, {"hs", "ge"}};
    for (const auto& w : in.qualifiers) {
      std::string name = w.spelling;
      bool forceUnsigned = false;
      if (auto u = kUnsigned.find(name); u != kUnsigned.end()) {
        name = u->second;
        forceUnsigned = true;
      }
      const QualifierInfo* info = findQualifier(name);
      if (info && info->kind == QualKind::Cmp) {
        d.icmp = static_cast<IntCmp>(static_cast<int>(info->cmp));
        d.unsignedCmp = forceUnsigned || d.type.kind == PtxType::Kind::Unsigned;
        return;
      }
    }
    unsupported(in, "no comparison");
  }

  void cvt(const PtxInstruction& in, DecodedInstruction& d, const Quals& q) const {
    d.op = PeOp::Cvt;
    if (q.types().size() != 2) unsupported(in, "cvt needs a destination and a source type");
    static const std::unordered_map<std::string, std::pair<Rounding, bool>> kRound = {
        {"rn", {Rounding::Nearest, false}}, {"rz", {Rounding::Zero, false}},  {"rm", {Rounding::Down, false}},
        {"rp", {Rounding::Up, false}},      {"rni", {Rounding::Nearest, true}}, {"rzi", {Rounding::Zero, true}},
        {"rmi", {Rounding::Down, true}},    {"rpi", {Rounding::Up, true}}};
    for (const auto& w : in.qualifiers)
      if (auto r = kRound.find(w.spelling); r != kRound.end()) {
        d.rounding = r->second.first;
        if (r->second.second) d.integralRounding = r->second.first;
      }
    if (q.has("relu") || q.has("satfinite")) d.opaqueType = true;
  }

  void cvta(const PtxInstruction& in, DecodedInstruction& d, const Quals& q) const {
    d.op = PeOp::Cvta;
    d.mode = q.has("to") ? 1 : 0;
    d.space = q.has("global") ? AddrSpace::Global
              : q.has("shared") || q.has("shared::cta") ? AddrSpace::Shared
              : q.has("shared::cluster") ? AddrSpace::SharedCluster
              : q.has("local") ? AddrSpace::Local
              : q.has("const") ? AddrSpace::Const
              : q.has("param") ? AddrSpace::Param
                               : AddrSpace::Generic;
    if (d.space == AddrSpace::Generic) unsupported(in, "cvta needs .global, .shared, .local, .const or .param");
  }

  void floatMath(const PtxInstruction& in, DecodedInstruction& d, const Quals& q) const {
    if (in.opcode == "copysign") return void(d.op = PeOp::Copysign);
    if (in.opcode == "testp") {
      d.op = PeOp::Testp;
      static constexpr std::string_view kModes[] = {"finite", "infinite", "number", "notanumber", "normal", "subnormal"};
      for (int m = 0; m < 6; ++m)
        if (q.has(kModes[m])) d.mode = m;
      return;
    }
    const bool exact = (in.opcode == "sqrt" || in.opcode == "rcp") && q.has("rn");
    d.op = exact ? PeOp::FloatArith : PeOp::OpaqueResult;  // approximate math is implementation-defined
    d.floatOp = in.opcode == "sqrt" ? FloatOp::Sqrt : FloatOp::Rcp;
  }

  void addressing(const PtxInstruction& in, DecodedInstruction& d, const Quals& q) const {
    d.op = in.opcode == "mapa" ? PeOp::Mapa : in.opcode == "getctarank" ? PeOp::Getctarank : PeOp::Isspacep;
    d.space = q.has("shared::cluster") || q.has("shared") ? AddrSpace::SharedCluster
              : q.has("global") ? AddrSpace::Global
              : q.has("local") ? AddrSpace::Local
              : q.has("const") ? AddrSpace::Const
              : q.has("param") ? AddrSpace::Param
                               : AddrSpace::Generic;
    if (d.op == PeOp::Isspacep && d.space == AddrSpace::Generic) unsupported(in, "isspacep needs a state space");
  }

  // ld, ldu, st, atom, red: the evaluator's own qualifiers, then the litmus rules for the rest.
  void memory(const PtxInstruction& in, DecodedInstruction& d, const Quals& q) const {
    if ((in.opcode == "st" || in.opcode == "red") && q.has("async")) return sync(in, d, q);
    if (q.has("bulk") || q.has("multimem") || q.has("tile") || q.has("im2col")) unsupported(in);
    d.op = in.opcode == "ld" || in.opcode == "ldu" ? PeOp::Ld : in.opcode == "st" ? PeOp::St
           : in.opcode == "atom" ? PeOp::Atom : PeOp::Red;
    d.nc = q.has("nc") || in.opcode == "ldu";
    d.vector = q.has("v2") ? 2 : q.has("v4") ? 4 : q.has("v8") ? 8 : 1;
    d.space = q.has("param") ? AddrSpace::Param : q.has("local") ? AddrSpace::Local : q.has("const") ? AddrSpace::Const
              : q.has("global") ? AddrSpace::Global
              : q.has("shared::cluster") ? AddrSpace::SharedCluster
              : q.has("shared") || q.has("shared::cta") ? AddrSpace::Shared
                                                        : AddrSpace::Generic;
    if (q.types().empty()) unsupported(in, "no type");
    d.type = q.types().back();
    if (d.type.bits > 64) unsupported(in, "scalar accesses wider than 64 bits are not supported");
    if ((d.op == PeOp::Atom || d.op == PeOp::Red) && d.vector > 1) unsupported(in, "vector atomics are not supported yet");
    std::vector<WrittenQual> litmus;
    for (const auto& w : in.qualifiers) {
      if (evaluatorQualifier(w.spelling)) continue;
      const QualifierInfo* info = findQualifier(w.spelling);
      if (!info) throw UserError(w.pos, "unknown qualifier '." + w.spelling + "' on " + in.opcode);
      litmus.push_back(w);
    }
    frontend::Instruction t;
    const MnemonicInfo* info = findMnemonic(in.opcode == "ldu" ? "ld" : in.opcode);
    t.op = info->op;
    t.proxy = info->proxy;
    applyQualifiers(t, *info, in.opcode, in.pos, litmus);
    d.atomOp = t.atomOp;
    d.residual = std::move(t);
  }

  void sync(const PtxInstruction& in, DecodedInstruction& d, const Quals& q) const {
    if (in.opcode == "tcgen05") unsupported(in, "tcgen05 instructions are not supported in kernels yet");
    if ((in.opcode == "bar" || in.opcode == "barrier") && q.has("red")) return barRed(in, d, q);
    if (in.opcode == "cp" && q.has("prefetch")) return void(d.op = PeOp::Nop);
    if (q.has("multicast::cluster")) unsupported(in, "multicast copies are not supported in kernels yet");
    if (q.has("tensor") && q.has("im2col")) unsupported(in, "im2col tensor copies are not supported in kernels yet");
    if (q.has("tensor") && q.has("reduce")) unsupported(in, "tensor reductions are not supported in kernels yet");
    if (in.opcode == "mbarrier" && (q.has("inval") || q.has("pending_count"))) unsupported(in);
    d.op = PeOp::Sync;
    if (isHopperInstruction(in.opcode, in.qualifiers)) {
      HopperForm form = interpretHopper(in.opcode, in.pos, in.qualifiers);
      d.residual = std::move(form.ins);
      d.roles = std::move(form.roles);
      const std::size_t maxOperands = d.residual->op == Opcode::CpAsync ? 4 : d.roles.size();
      if (in.operands.size() < form.required || in.operands.size() > maxOperands)
        throw UserError(in.pos, "'" + fullName(in) + "' takes " + std::to_string(form.required) +
                                    (form.required == d.roles.size() ? "" : " to " + std::to_string(d.roles.size())) + " operands");
      return;
    }
    const MnemonicInfo* info = findMnemonic(in.opcode);
    frontend::Instruction t;
    t.op = info->op;
    applyQualifiers(t, *info, in.opcode, in.pos, in.qualifiers);
    d.residual = std::move(t);
    if (info->form == InstrForm::Barrier) {
      d.roles = {HopperRole::Value, HopperRole::Value};
      if (in.operands.empty() || in.operands.size() > 2) throw UserError(in.pos, "'" + fullName(in) + "' takes 1 or 2 operands");
      if (d.residual->op == Opcode::BarArrive && in.operands.size() != 2)
        throw UserError(in.pos, "'" + fullName(in) + "' needs a thread count");
    } else if (!in.operands.empty()) {
      throw UserError(in.operands.front().pos, "'" + fullName(in) + "' takes no operands");
    }
  }

  // bar.red.popc.u32 d, a{, b}, {!}c / bar.red.and|or.pred p, a{, b}, {!}c
  void barRed(const PtxInstruction& in, DecodedInstruction& d, const Quals& q) const {
    d.op = PeOp::BarRed;
    d.combine = q.has("popc") ? LocalOp::Add : q.has("and") ? LocalOp::And : q.has("or") ? LocalOp::Or : LocalOp::Mov;
    if (d.combine == LocalOp::Mov) unsupported(in, "bar.red needs .popc, .and or .or");
    if (in.operands.size() != 3 && in.operands.size() != 4) throw UserError(in.pos, "'" + fullName(in) + "' takes 3 or 4 operands");
    frontend::Instruction t;
    t.op = Opcode::BarSync;
    t.aligned = in.opcode == "bar" || q.has("aligned");  // bar.red is barrier.red.aligned [§4.4]
    d.residual = std::move(t);
  }

  void control(const PtxInstruction& in, DecodedInstruction& d, const Quals& q) const {
    if (in.opcode == "bra") {
      d.op = PeOp::Bra;
      d.uni = q.has("uni");
      if (d.ops.size() != 1 || d.ops[0].kind != DOperand::Kind::Label) throw UserError(in.pos, "bra needs a label of this function");
    } else if (in.opcode == "ret") {
      d.op = PeOp::Ret;
    } else if (in.opcode == "exit") {
      d.op = PeOp::Exit;
    } else if (in.opcode == "trap") {
      d.op = PeOp::Trap;
    } else {
      d.op = PeOp::Call;
    }
  }

  void collective(const PtxInstruction& in, DecodedInstruction& d, const Quals& q) const {
    static const std::unordered_map<std::string, PeOp> kOps = {
        {"shfl", PeOp::Shfl}, {"vote", PeOp::Vote}, {"match", PeOp::Match},
        {"redux", PeOp::Redux}, {"activemask", PeOp::Activemask}, {"elect", PeOp::Elect}};
    d.op = kOps.at(in.opcode);
    if (d.op != PeOp::Activemask && !q.has("sync"))
      unsupported(in, "the non-.sync form is deprecated and not supported; use ." + in.opcode + ".sync");
    if (d.op == PeOp::Shfl) d.mode = q.has("up") ? 0 : q.has("down") ? 1 : q.has("bfly") ? 2 : 3;
    if (d.op == PeOp::Vote) d.mode = q.has("all") ? 0 : q.has("any") ? 1 : q.has("uni") ? 2 : 3;
    if (d.op == PeOp::Match) d.mode = q.has("any") ? 0 : 1;
    if (d.op == PeOp::Redux) {
      if (d.type.isFloat()) unsupported(in, "redux.sync on floats is not supported yet");
      d.combine = q.has("add") ? LocalOp::Add : q.has("min") ? LocalOp::Min : q.has("max") ? LocalOp::Max
                  : q.has("and") ? LocalOp::And : q.has("or") ? LocalOp::Or : LocalOp::Xor;
    }
  }

  // ldmatrix / stmatrix .sync.aligned.m8n8.x1|x2|x4{.trans}{.shared{::cta}}.b16 (MatrixFragments.hpp); the .b8
  // element forms (.m16n16, .m8n16, .m16n8) are refused. The residual template is a weak ld / st: each lane's
  // pieces are plain accesses of the generic proxy (the PTX ISA gives ldmatrix no other semantics).
  void matrix(const PtxInstruction& in, DecodedInstruction& d, const Quals& q) const {
    static constexpr std::string_view kKnown[] = {"sync", "aligned", "m8n8", "x1", "x2", "x4", "trans", "shared", "shared::cta", "b16"};
    for (const auto& w : in.qualifiers)
      if (std::find(std::begin(kKnown), std::end(kKnown), w.spelling) == std::end(kKnown))
        unsupported(in, "only .m8n8 matrices of .b16 elements are supported, not ." + w.spelling);
    if (!q.has("sync") || !q.has("aligned") || !q.has("m8n8") || !q.has("b16")) unsupported(in, "needs .sync.aligned.m8n8 and .b16");
    const bool load = in.opcode == "ldmatrix";
    d.op = load ? PeOp::MatrixLoad : PeOp::MatrixStore;
    d.vector = q.has("x1") ? 1 : q.has("x2") ? 2 : q.has("x4") ? 4 : 0;
    if (!d.vector) unsupported(in, "needs .x1, .x2 or .x4");
    d.mode = q.has("trans") ? 1 : 0;
    d.space = q.has("shared") || q.has("shared::cta") ? AddrSpace::Shared : AddrSpace::Generic;
    if (d.ops.size() != 2) throw UserError(in.pos, "'" + fullName(in) + "' takes 2 operands");
    const DOperand& regs = d.ops[load ? 0 : 1];
    const bool fits = d.vector == 1 ? regs.kind == DOperand::Kind::Reg
                                    : regs.kind == DOperand::Kind::Vector && static_cast<int>(regs.elements.size()) == d.vector &&
                                          std::all_of(regs.elements.begin(), regs.elements.end(), [](const DOperand& e) { return e.kind == DOperand::Kind::Reg; });
    if (!fits) throw UserError(regs.pos, "'" + fullName(in) + "' needs {} of " + std::to_string(d.vector) + " 32-bit registers");
    if (d.ops[load ? 1 : 0].kind != DOperand::Kind::Address) throw UserError(in.pos, "'" + fullName(in) + "' needs an address [p]");
    frontend::Instruction t;
    const MnemonicInfo* info = findMnemonic(load ? "ld" : "st");
    t.op = info->op;
    t.proxy = info->proxy;
    applyQualifiers(t, *info, load ? "ld" : "st", in.pos, {});
    d.residual = std::move(t);
  }

  // wgmma.fence / commit_group / wait_group N / mma_async .sync.aligned (MatrixDescriptor.hpp): the residual
  // instruction of the litmus side's abstract wgmma. mma_async: d, a-desc | {a}, b-desc, scale-d, imm... of a
  // dense .m64nNkK shape; the sparse form and the transposed (MN-major) layouts are refused.
  void wgmma(const PtxInstruction& in, DecodedInstruction& d, const Quals& q) const {
    if (!q.has("sync") || !q.has("aligned")) unsupported(in, "wgmma needs .sync.aligned");
    frontend::Instruction t;
    d.op = PeOp::Wgmma;
    std::size_t operands = 0;
    if (q.has("fence")) t.op = Opcode::WgmmaFence;
    else if (q.has("commit_group")) t.op = Opcode::WgmmaCommit;
    else if (q.has("wait_group")) t.op = Opcode::WgmmaWait, operands = 1;
    else if (q.has("mma_async")) t.op = Opcode::WgmmaMma;
    else unsupported(in, "needs .fence, .commit_group, .wait_group or .mma_async");
    d.residual = std::move(t);
    if (d.residual->op != Opcode::WgmmaMma) {
      if (d.ops.size() != operands) throw UserError(in.pos, "'" + fullName(in) + "' takes " + std::to_string(operands) + " operands");
      if (operands && d.ops[0].kind != DOperand::Kind::Imm) throw UserError(d.ops[0].pos, "wgmma.wait_group needs an immediate group count");
      return;
    }
    if (q.has("sp")) unsupported(in, "sparse wgmma (.sp) is not supported");
    for (const auto& w : in.qualifiers) {
      int n = 0, k = 0;
      if (std::sscanf(w.spelling.c_str(), "m64n%dk%d", &n, &k) == 2) d.mode = n;
    }
    if (d.mode <= 0 || d.mode % 8) unsupported(in, "needs an .m64nNkK shape");
    if (d.ops.size() < 4 || d.ops[0].kind != DOperand::Kind::Vector || d.ops[2].kind != DOperand::Kind::Reg ||
        (d.ops[1].kind != DOperand::Kind::Reg && d.ops[1].kind != DOperand::Kind::Vector))
      throw UserError(in.pos, "'" + fullName(in) + "' needs d, a-desc or {a}, b-desc, scale-d, ...");
    // The 16-bit types end with imm-trans-a (A from a descriptor) and imm-trans-b, from operand 6 on: 1 is the
    // MN-major layout.
    const bool sixteenBit = q.has("f16") || q.has("bf16");
    if (sixteenBit)
      for (std::size_t i = 6; i < d.ops.size(); ++i)
        if (d.ops[i].kind != DOperand::Kind::Imm || d.ops[i].imm.bits != 0)
          unsupported(in, "the transposed (MN-major) smem layouts (imm-trans = 1) are not supported yet");
  }

  void noEffect(const PtxInstruction&, DecodedInstruction& d, const Quals&) const { d.op = PeOp::Nop; }

  // ---- liveness ---------------------------------------------------------------------------------------------

  // The registers an instruction writes (a guarded write does not kill: the old value may survive).
  static void defsOf(const DecodedInstruction& d, std::vector<int>& out) {
    auto add = [&](const DOperand& o) {
      if (o.kind == DOperand::Kind::Reg) out.push_back(o.reg);
      if (o.second >= 0) out.push_back(o.second);
      for (const auto& e : o.elements)
        if (o.kind == DOperand::Kind::Vector && e.kind == DOperand::Kind::Reg) out.push_back(e.reg);
    };
    if (d.ops.empty()) return;
    switch (d.op) {
      case PeOp::St:
      case PeOp::Red:
      case PeOp::MatrixStore:
      case PeOp::Bra:
      case PeOp::Ret:
      case PeOp::Exit:
      case PeOp::Call:
      case PeOp::Trap:
      case PeOp::Nop:
      case PeOp::Unsupported: return;
      case PeOp::Sync:
        if (!d.roles.empty() && (d.roles[0] == HopperRole::Dst || d.roles[0] == HopperRole::DstOrSink)) add(d.ops[0]);
        return;
      default: add(d.ops[0]); return;
    }
  }

  static void usesOf(const DecodedInstruction& d, std::vector<int>& out) {
    std::vector<int> defs;
    defsOf(d, defs);
    std::function<void(const DOperand&, bool)> add = [&](const DOperand& o, bool isDef) {
      if (o.kind == DOperand::Kind::Reg && !isDef) out.push_back(o.reg);
      if (o.kind == DOperand::Kind::Address && o.reg >= 0) out.push_back(o.reg);
      for (const auto& e : o.elements) add(e, isDef && o.kind == DOperand::Kind::Vector);
    };
    for (std::size_t i = 0; i < d.ops.size(); ++i) add(d.ops[i], i == 0 && !defs.empty());
    if (d.guard >= 0) out.push_back(d.guard);
    // A guarded instruction may leave its destination as it was: the old value is used.
    if (d.guard >= 0) out.insert(out.end(), defs.begin(), defs.end());
  }

  void computeLiveness() {
    const std::size_t n = out_.code.size(), regs = out_.registerNames.size(), words = (regs + 63) / 64;
    std::vector<std::vector<std::uint64_t>> live(n + 1, std::vector<std::uint64_t>(words, 0));
    std::vector<std::vector<int>> defs(n), uses(n), succ(n);
    for (std::size_t i = 0; i < n; ++i) {
      const auto& d = out_.code[i];
      if (d.guard < 0) defsOf(d, defs[i]);
      usesOf(d, uses[i]);
      const bool ends = d.guard < 0 && (d.op == PeOp::Ret || d.op == PeOp::Exit || d.op == PeOp::Trap);
      if (d.op == PeOp::Bra) succ[i].push_back(d.ops[0].target);
      if (!ends && !(d.op == PeOp::Bra && d.guard < 0)) succ[i].push_back(static_cast<int>(i + 1));
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t i = n; i-- > 0;) {
        std::vector<std::uint64_t> in(words, 0);
        for (int s : succ[i])
          for (std::size_t w = 0; w < words; ++w) in[w] |= live[static_cast<std::size_t>(s)][w];
        for (int r : defs[i]) in[static_cast<std::size_t>(r) / 64] &= ~(std::uint64_t{1} << (r % 64));
        for (int r : uses[i]) in[static_cast<std::size_t>(r) / 64] |= std::uint64_t{1} << (r % 64);
        if (in != live[i]) {
          live[i] = std::move(in);
          changed = true;
        }
      }
    }
    out_.liveBefore.resize(n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t r = 0; r < regs; ++r)
        if (live[i][r / 64] >> (r % 64) & 1) out_.liveBefore[i].push_back(static_cast<int>(r));
  }

  const Function& fn_;
  const DecodeContext& ctx_;
  DecodedFunction out_;
  std::unordered_map<std::string, int> regIds_;
};

}  // namespace

DecodedFunction decodeFunction(const Function& fn, const DecodeContext& context) { return Decoder(fn, context).run(); }

}  // namespace ptxmm::frontend::ptx
