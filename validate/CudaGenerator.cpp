// The CUDA program of one test: the runtime prelude, the layout code, the test's part (shape macros, role
// functions, the dispatcher), the runtime main (CudaGenerator.hpp).
#include "validate/CudaGenerator.hpp"

#include <map>
#include <set>
#include <sstream>

#include "validate/HarnessSources.hpp"
#include "validate/PtxForm.hpp"

namespace ptxmm::validate {

using frontend::AtomOp;
using frontend::BulkKind;
using frontend::Instruction;
using frontend::LocalOp;
using frontend::Opcode;
using frontend::Operand;

namespace {

std::string literal(std::int64_t v) {
  if (v == INT64_MIN) return "(-9223372036854775807LL - 1)";
  return "(" + std::to_string(v) + "LL)";
}

std::string cString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out + "\"";
}

template <class T>
std::string initList(const std::vector<T>& v) {
  std::string s = "{";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return (v.empty() ? s + "0" : s) + "}";
}

bool narrowAddress(AddrKind k) { return k == AddrKind::SharedCta || k == AddrKind::SharedCluster || k == AddrKind::TensorCoord; }

// Where each role's values go in an instance's output row: observed registers, the sink, the capped flag, then
// the stamp the kernel writes after the role returns.
struct OutputLayout {
  std::vector<int> base;  // per role
  int slots = 0;
  int values(const HwRole& r) const { return static_cast<int>(r.observed.size()) + 2; }
};

OutputLayout outputLayout(const HardwareTest& hw) {
  OutputLayout o;
  for (const auto& r : hw.roles) {
    o.base.push_back(o.slots);
    o.slots += o.values(r) + 1;
  }
  return o;
}

// One asm statement: operands are numbered outputs first, as GCC-style inline assembly requires.
class AsmStatement {
 public:
  /// An output operand; returns its placeholder ("%0").
  std::string out(const std::string& constraint, const std::string& lvalue) {
    outs_.push_back("\"" + constraint + "\"(" + lvalue + ")");
    return "%" + std::to_string(outs_.size() - 1);
  }
  /// An input operand; returns its placeholder (numbered after every output, which come first).
  std::string in(const std::string& constraint, const std::string& expr) {
    ins_.push_back("\"" + constraint + "\"(" + expr + ")");
    return "%@" + std::to_string(ins_.size() - 1);
  }
  /// The statement for `body` (with the placeholders the calls returned).
  std::string render(std::string body) const {
    for (std::size_t k = ins_.size(); k-- > 0;) {
      const std::string from = "%@" + std::to_string(k), to = "%" + std::to_string(outs_.size() + k);
      for (auto at = body.find(from); at != std::string::npos; at = body.find(from, at + to.size())) body.replace(at, from.size(), to);
    }
    std::string s = "asm volatile(\"" + body + "\" " + (outs_.empty() ? ":: " : ": ");
    for (std::size_t k = 0; k < outs_.size(); ++k) s += (k ? ", " : "") + outs_[k];
    if (!outs_.empty()) s += " : ";
    for (std::size_t k = 0; k < ins_.size(); ++k) s += (k ? ", " : "") + ins_[k];
    return s + " : \"memory\");";
  }

 private:
  std::vector<std::string> outs_, ins_;
};

// One role function. Registers are C++ variables `reg<k>`; every load or atomic writes its own `val<k>` first
// (a register overwritten later would make ptxas delete the load, even inside asm volatile), and the XOR of all
// of them is returned as the sink. Litmus labels become C++ labels and backward jumps count iterations against
// the cap: a loop that reaches it falls through and marks the instance capped (counted, never classified), so
// that barriers after the loop are still reached by every lane.
class RoleWriter {
 public:
  RoleWriter(const HardwareTest& hw, int role, std::ostream& os) : hw_(hw), role_(hw.roles[static_cast<std::size_t>(role)]), index_(role), os_(os) {
    const auto& t = thread();
    for (const auto& in : t.code)
      for (const auto& op : in.operands)
        if (op.kind == Operand::Kind::Register) reg(op.name);
    for (const auto& name : role_.observed) reg(name);
  }

  void write() {
    const auto& t = thread();
    const std::string out = "ptxmm_out_" + std::to_string(index_);
    os_ << "// Litmus thread " << t.name << " (" << hw_.program.file << ":" << t.pos.line << ").\n";
    os_ << "struct " << out << " { long long v[" << role_.observed.size() + 2 << "]; };\n";
    os_ << "extern \"C\" __device__ __noinline__ " << out << " " << roleFunctionName(index_) << "(";
    for (std::size_t k = 0; k < role_.accesses.size(); ++k)
      os_ << (narrowAddress(role_.accesses[k].kind) ? "unsigned a" : "unsigned long long a") << k << ", ";
    os_ << "int ptxmm_cap) {\n";
    for (const auto& [name, id] : regs_) os_ << "  long long reg" << id << " = " << literal(initialValue(name)) << ";  // " << name << "\n";
    for (std::size_t k = 0; k < role_.accesses.size(); ++k) os_ << "  long long val" << k << " = 0;\n";
    if (role_.hasBackwardBranch) os_ << "  int ptxmm_iterations = 0, ptxmm_capped = 0;\n";
    else os_ << "  const int ptxmm_capped = 0;\n  (void)ptxmm_cap;\n";
    for (std::size_t i = 0; i < t.code.size(); ++i) statement(t.code[i], static_cast<int>(i));
    os_ << "  " << out << " o;\n";
    for (std::size_t k = 0; k < role_.observed.size(); ++k) os_ << "  o.v[" << k << "] = reg" << regs_.at(role_.observed[k]) << ";\n";
    os_ << "  o.v[" << role_.observed.size() << "] = 0";
    for (std::size_t k = 0; k < role_.accesses.size(); ++k) os_ << " ^ val" << k;
    os_ << ";\n  o.v[" << role_.observed.size() + 1 << "] = ptxmm_capped;\n  return o;\n}\n\n";
  }

 private:
  const frontend::Thread& thread() const { return hw_.program.threads[static_cast<std::size_t>(role_.thread)]; }

  int reg(const std::string& name) { return regs_.emplace(name, static_cast<int>(regs_.size())).first->second; }

  std::int64_t initialValue(const std::string& name) const {
    for (const auto& ri : hw_.program.regInits)
      if (ri.thread == role_.thread && ri.reg == name) return ri.value;
    return 0;
  }

  std::string value(const Operand& op) const {
    return op.kind == Operand::Kind::Register ? "reg" + std::to_string(regs_.at(op.name)) : literal(op.value);
  }

  std::string label(const std::string& name) {
    return "L" + std::to_string(labels_.emplace(name, static_cast<int>(labels_.size())).first->second);
  }

  int labelIndex(const std::string& name) const {
    const auto& code = thread().code;
    for (std::size_t i = 0; i < code.size(); ++i)
      if (code[i].op == Opcode::Label && code[i].operands.at(0).name == name) return static_cast<int>(i);
    return -1;
  }

  std::string jump(const std::string& target, int at) {
    if (labelIndex(target) > at) return "goto " + label(target) + ";";
    return "{ if (++ptxmm_iterations < ptxmm_cap) goto " + label(target) + "; ptxmm_capped = 1; }";
  }

  // The address argument of operand `operand` of instruction `instr`.
  int access(int instr, int operand) const {
    for (std::size_t k = 0; k < role_.accesses.size(); ++k)
      if (role_.accesses[k].instr == instr && role_.accesses[k].operand == operand) return static_cast<int>(k);
    throw std::logic_error("no address argument for operand " + std::to_string(operand) + " of instruction " + std::to_string(instr));
  }

  // `[%n]` for the address argument of an operand.
  std::string address(AsmStatement& a, int instr, int operand) const {
    const int k = access(instr, operand);
    return a.in(narrowAddress(role_.accesses[static_cast<std::size_t>(k)].kind) ? "r" : "l", "a" + std::to_string(k));
  }

  // An immediate written into the instruction, or a register passed as a `bits`-bit input.
  std::string scalar(AsmStatement& a, const Operand& op, int bits) const {
    if (op.kind == Operand::Kind::Immediate) return std::to_string(op.value);
    return bits == 64 ? a.in("l", value(op)) : a.in("r", "static_cast<int>(" + value(op) + ")");
  }

  void statement(const Instruction& in, int at) {
    const auto& ops = in.operands;
    os_ << "  // " << in.text << "   (line " << in.pos.line << ")\n";
    const PtxForm f = roleForm(hw_, role_, at);
    switch (in.op) {
      case Opcode::Ld:
      case Opcode::St:
      case Opcode::Atom:
      case Opcode::Red: memoryAccess(in, at, f); return;
      case Opcode::Fence:
      case Opcode::FenceProxy:
      case Opcode::BarSync:
      case Opcode::BarArrive:
      case Opcode::ClusterArrive:
      case Opcode::ClusterWait:
      case Opcode::CpAsyncCommit:
        os_ << "  asm volatile(\"" << f.mnemonic << ";\" ::: \"memory\");\n";
        return;
      case Opcode::BarWarpSync:
      case Opcode::CpAsyncWait:
        os_ << "  asm volatile(\"" << f.mnemonic << (ops.empty() ? "" : " " + std::to_string(ops[0].value)) << ";\" ::: \"memory\");\n";
        return;
      case Opcode::MbarInit:
      case Opcode::MbarExpectTx:
      case Opcode::MbarCompleteTx:
      case Opcode::CpAsyncMbarArrive:
      case Opcode::MbarArrive:
      case Opcode::MbarWait:
      case Opcode::CpAsync:
      case Opcode::BulkCopy:
      case Opcode::StAsync:
      case Opcode::RedAsync: os_ << "  " << hopper(in, at, f) << "\n"; return;
      case Opcode::Local: {
        const std::string d = "reg" + std::to_string(regs_.at(ops[0].name));
        const std::string a = ops.size() > 1 ? value(ops[1]) : "", b = ops.size() > 2 ? value(ops[2]) : "";
        static const std::map<LocalOp, std::string> helper = {
            {LocalOp::Add, "ptxmm_add"}, {LocalOp::Sub, "ptxmm_sub"}, {LocalOp::Mul, "ptxmm_mul"}, {LocalOp::Div, "ptxmm_div"},
            {LocalOp::Rem, "ptxmm_rem"}, {LocalOp::Shl, "ptxmm_shl"}, {LocalOp::Shr, "ptxmm_shr"}, {LocalOp::Min, "ptxmm_min"},
            {LocalOp::Max, "ptxmm_max"}};
        switch (in.localOp) {
          case LocalOp::Mov: os_ << "  " << d << " = " << a << ";\n"; return;
          case LocalOp::And: os_ << "  " << d << " = " << a << " & " << b << ";\n"; return;
          case LocalOp::Or: os_ << "  " << d << " = " << a << " | " << b << ";\n"; return;
          case LocalOp::Xor: os_ << "  " << d << " = " << a << " ^ " << b << ";\n"; return;
          case LocalOp::Neg: os_ << "  " << d << " = ptxmm_neg(" << a << ");\n"; return;
          case LocalOp::Not: os_ << "  " << d << " = ~" << a << ";\n"; return;
          default: os_ << "  " << d << " = " << helper.at(in.localOp) << "(" << a << ", " << b << ");\n"; return;
        }
      }
      case Opcode::Setp:
        os_ << "  reg" << regs_.at(ops[0].name) << " = (" << value(ops[1]) << " " << cmpOperator(in.cmp) << " " << value(ops[2]) << ") ? 1 : 0;\n";
        return;
      case Opcode::Branch: {
        std::string cond;
        if (in.predicated) cond = value(ops[0]) + (in.negatePredicate ? " == 0" : " != 0");
        else cond = value(ops[0]) + " " + std::string(cmpOperator(in.cmp)) + " " + value(ops[1]);
        os_ << "  if (" << cond << ") " << jump(ops.back().name, at) << "\n";
        return;
      }
      case Opcode::Goto: os_ << "  " << jump(ops.back().name, at) << "\n"; return;
      case Opcode::Label: os_ << label(ops[0].name) << ":;\n"; return;
      default: return;  // every other opcode is refused by analyze()
    }
  }

  // The Hopper-era instructions: the mnemonic as written, the harness's addresses, the test's values. Operands
  // are taken in order, one statement each (the evaluation order of `+` operands is unspecified).
  std::string hopper(const Instruction& in, int at, const PtxForm& f) {
    const auto& ops = in.operands;
    AsmStatement a;
    std::string body = f.mnemonic;
    auto add = [&](const std::string& text) { body += text; };
    switch (in.op) {
      case Opcode::MbarInit:
      case Opcode::MbarExpectTx:
      case Opcode::MbarCompleteTx:
        add(" [" + address(a, at, 0) + "], ");
        add(scalar(a, ops[1], 32) + ";");
        return a.render(body);
      case Opcode::CpAsyncMbarArrive: add(" [" + address(a, at, 0) + "];"); return a.render(body);
      case Opcode::MbarArrive:
        add(" " + (in.sink ? std::string("_") : a.out("=l", "reg" + std::to_string(regs_.at(ops[0].name)))));
        add(", [" + address(a, at, 1) + "]");
        if (ops.size() > 2) add(", " + scalar(a, ops[2], 32));
        return a.render(body + ";");
      case Opcode::MbarWait: {
        const std::string done = a.out("=r", "ptxmm_done");
        body = "{ .reg .pred P; " + body + " P, [" + address(a, at, 1) + "], ";
        add(scalar(a, ops[2], in.parity ? 32 : 64));
        if (ops.size() > 3) add(", " + scalar(a, ops[3], 32));
        add("; selp.s32 " + done + ", 1, 0, P; }");
        return "{ int ptxmm_done; " + a.render(body) + " reg" + std::to_string(regs_.at(ops[0].name)) + " = ptxmm_done; }";
      }
      case Opcode::CpAsync:
        add(" [" + address(a, at, 0) + "], ");
        add("[" + address(a, at, 1) + "], " + std::to_string(ops[2].value) + ";");
        return a.render(body);
      case Opcode::StAsync:
      case Opcode::RedAsync:
        add(" [" + address(a, at, 0) + "], ");
        add(scalar(a, ops[1], asyncStoreWidth(in) * 8) + ", ");
        add("[" + address(a, at, 2) + "];");
        return a.render(body);
      case Opcode::BulkCopy:
        switch (in.bulk) {
          case BulkKind::GlobalToShared:
          case BulkKind::SharedToCluster:
            add(" [" + address(a, at, 0) + "], ");
            add("[" + address(a, at, 1) + "], " + std::to_string(ops[2].value) + ", ");
            add("[" + address(a, at, 3) + "];");
            return a.render(body);
          case BulkKind::SharedToGlobal:
            add(" [" + address(a, at, 0) + "], ");
            add("[" + address(a, at, 1) + "], " + std::to_string(ops[2].value) + ";");
            return a.render(body);
          case BulkKind::TensorLoad:
            add(" [" + address(a, at, 0) + "], ");
            add("[" + address(a, at, 1) + ", ");
            add("{" + address(a, at, 2) + "}], ");
            add("[" + address(a, at, 3) + "];");
            return a.render(body);
          case BulkKind::TensorStore:
            add(" [" + address(a, at, 0) + ", ");
            add("{" + address(a, at, 1) + "}], ");
            add("[" + address(a, at, 2) + "];");
            return a.render(body);
        }
        break;
      default: break;
    }
    throw std::logic_error("no emitter for '" + in.text + "'");
  }

  void memoryAccess(const Instruction& in, int at, const PtxForm& f) {
    const auto& ops = in.operands;
    const int k = access(at, in.op == Opcode::Ld || in.op == Opcode::Atom ? 1 : 0);
    const std::string v = "val" + std::to_string(k);
    const bool wide = f.width == 8;
    AsmStatement a;
    // 64-bit values travel in "l" registers; 32-bit ones in "r" registers, sign-extended back to 64 bits.
    auto operand = [&](const Operand& op) { return wide ? a.in("l", value(op)) : a.in("r", "static_cast<int>(" + value(op) + ")"); };
    auto result = [&]() { return wide ? a.out("=l", v) : a.out("=r", "ptxmm_t"); };
    auto assign = [&](const std::string& statement) {
      if (wide) os_ << "  " << statement << "\n";
      else os_ << "  { int ptxmm_t; " << statement << " " << v << " = ptxmm_t; }\n";
      if (!ops.empty() && ops[0].kind == Operand::Kind::Register) os_ << "  reg" << regs_.at(ops[0].name) << " = " << v << ";\n";
    };
    switch (f.kind) {
      case FormKind::Load: {
        const std::string r = result();
        const std::string p = address(a, at, 1);
        assign(a.render(f.mnemonic + " " + r + ", [" + p + "];"));
        return;
      }
      case FormKind::Store:
      case FormKind::Red: {
        const std::string p = address(a, at, 0);
        const std::string value = operand(ops[1]);
        os_ << "  " << a.render(f.mnemonic + " [" + p + "], " + value + ";") << "\n";
        return;
      }
      case FormKind::Atom: {
        const std::string r = result();
        std::string body = f.mnemonic + " " + r + ", [" + address(a, at, 1) + "], ";
        body += operand(ops[2]);
        if (in.atomOp == AtomOp::Cas) body += ", " + operand(ops[3]);
        assign(a.render(body + ";"));
        return;
      }
      default: return;
    }
  }

  const HardwareTest& hw_;
  const HwRole& role_;
  int index_;
  std::ostream& os_;
  std::map<std::string, int> regs_;
  std::map<std::string, int> labels_;
};

// The address expression of one argument, computed in the dispatcher before the start barrier.
std::string addressExpression(const HardwareTest& hw, const HwAccess& a) {
  const HwLocation& l = hw.locations[static_cast<std::size_t>(a.location)];
  const std::string slot = std::to_string(l.slot);
  switch (a.kind) {
    case AddrKind::Global: return "ptxmm_address(c.buffer, c.slots, " + slot + ", c.stride)";
    case AddrKind::SharedCta: return "ptxmm_shared_address(c, " + slot + ")";
    case AddrKind::SharedCluster: return "ptxmm_cluster_address(c, " + slot + ", " + std::to_string(l.ownerCta) + ")";
    case AddrKind::GenericShared: return "ptxmm_generic_shared_address(c, " + slot + ")";
    case AddrKind::TensorMap: return "c.tensorMap";
    case AddrKind::TensorCoord: return "ptxmm_coordinate(c, " + slot + ")";
  }
  return "0";
}

}  // namespace

std::string roleFunctionName(int role) { return "ptxmm_role_" + std::to_string(role); }

std::string generateCuda(const GeneratorInput& input) {
  const HardwareTest& hw = *input.test;
  const OutputLayout out = outputLayout(hw);
  std::ostringstream os;
  os << "// Generated by ptxmm validate from " << hw.program.file << " (test " << hw.program.name << "). Do not edit:\n"
     << "// regenerate. Build: nvcc -arch=sm_90 -rdc=true -O3 -o test test.cu; run: ./test --budget SECONDS --seed N.\n\n";
  // The shape macros come first: the prelude's stress code reads some of them.
  std::vector<int> roleCta, roleWarp, widths, bytes, stamp, capped, keyIsLocation, keyIndex, sharedWidths, sharedBytes, sharedCta, sharedData,
      ctaFirstRole(hw.ctaCluster.size(), -1);
  std::vector<long long> inits, sharedInits, allowed;
  for (std::size_t r = 0; r < hw.roles.size(); ++r) {
    roleCta.push_back(hw.roles[r].cta);
    roleWarp.push_back(hw.roles[r].warp);
    if (ctaFirstRole[static_cast<std::size_t>(hw.roles[r].cta)] < 0) ctaFirstRole[static_cast<std::size_t>(hw.roles[r].cta)] = static_cast<int>(r);
  }
  for (int l : hw.globalLocations) {
    const HwLocation& h = hw.locations[static_cast<std::size_t>(l)];
    widths.push_back(h.width), bytes.push_back(h.bytes), inits.push_back(h.init);
  }
  for (int l : hw.sharedLocations) {
    const HwLocation& h = hw.locations[static_cast<std::size_t>(l)];
    sharedWidths.push_back(h.width), sharedBytes.push_back(h.bytes), sharedInits.push_back(h.init), sharedCta.push_back(h.ownerCta);
    sharedData.push_back(h.mbarrier ? 0 : 1);
  }
  for (std::size_t r = 0; r < hw.roles.size(); ++r) {
    const int values = out.values(hw.roles[r]);
    capped.push_back(out.base[r] + values - 1);
    stamp.push_back(out.base[r] + values);
  }
  for (const auto& k : hw.keys) {
    keyIsLocation.push_back(k.location ? 1 : 0);
    keyIndex.push_back(k.location ? hw.locations[static_cast<std::size_t>(k.index)].slot : out.base[static_cast<std::size_t>(k.role)] + k.index);
  }
  const bool gpuKnows = input.modelKnown && input.allowed.size() <= kMaxAllowedOnGpu;
  if (gpuKnows)
    for (const auto& s : input.allowed) allowed.insert(allowed.end(), s.begin(), s.end());
  os << "#define PTXMM_TEST_NAME " << cString(hw.program.name) << "\n"
     << "#define PTXMM_ROLES " << hw.roles.size() << "\n"
     << "#define PTXMM_CTAS " << hw.ctaCluster.size() << "\n"
     << "#define PTXMM_LOCATIONS " << hw.globalLocations.size() << "\n"
     << "#define PTXMM_SHARED_LOCATIONS " << hw.sharedLocations.size() << "\n"
     << "#define PTXMM_KEYS " << hw.keys.size() << "\n"
     << "#define PTXMM_OUT_SLOTS " << out.slots << "\n"
     << "#define PTXMM_CLUSTER_SIZE " << hw.clusterSize << "\n"
     << "#define PTXMM_CLUSTER_PHASES " << hw.clusterPhases << "\n"
     << "#define PTXMM_CLUSTER_SYNC " << (hw.clusterSync ? 1 : 0) << "\n"
     << "#define PTXMM_TENSOR_MAP " << (hw.usesTensorMap ? 1 : 0) << "\n"
     << "#define PTXMM_GLOBAL_ALIGN " << hw.globalAlign << "\n"
     << "#define PTXMM_GLOBAL_BYTES " << hw.globalBytes << "\n"
     << "#define PTXMM_SHARED_ALIGN " << hw.sharedAlign << "\n"
     << "#define PTXMM_SHARED_BYTES " << hw.sharedBytes << "\n"
     << "#define PTXMM_ONE_GROUP_PER_BLOCK " << (hw.usesBarriers ? 1 : 0) << "\n"
     << "#define PTXMM_MODEL_KNOWN " << (gpuKnows ? 1 : 0) << "\n"
     << "#define PTXMM_ALLOWED_COUNT " << (gpuKnows ? input.allowed.size() : 0) << "\n"
     << "#define PTXMM_ROLE_CTA " << initList(roleCta) << "\n"
     << "#define PTXMM_ROLE_WARP " << initList(roleWarp) << "\n"
     << "#define PTXMM_CTA_CLUSTER " << initList(hw.ctaCluster) << "\n"
     << "#define PTXMM_CTA_FIRST_ROLE " << initList(ctaFirstRole) << "\n"
     << "#define PTXMM_LOC_WIDTHS " << initList(widths) << "\n"
     << "#define PTXMM_LOC_BYTES " << initList(bytes) << "\n"
     << "#define PTXMM_LOC_INITS " << initList(inits) << "\n"
     << "#define PTXMM_SHARED_WIDTHS " << initList(sharedWidths) << "\n"
     << "#define PTXMM_SHARED_SLOT_BYTES " << initList(sharedBytes) << "\n"
     << "#define PTXMM_SHARED_INITS " << initList(sharedInits) << "\n"
     << "#define PTXMM_SHARED_CTA " << initList(sharedCta) << "\n"
     << "#define PTXMM_SHARED_DATA " << initList(sharedData) << "\n"
     << "#define PTXMM_STAMP_SLOTS " << initList(stamp) << "\n"
     << "#define PTXMM_CAPPED_SLOTS " << initList(capped) << "\n"
     << "#define PTXMM_KEY_IS_LOCATION " << initList(keyIsLocation) << "\n"
     << "#define PTXMM_KEY_INDEX " << initList(keyIndex) << "\n"
     << "#define PTXMM_ALLOWED_VALUES " << initList(allowed) << "\n\n";
  // Layout.h is a header in ptxmm; in the program it is inline text, where `#pragma once` would only warn.
  std::string layout(harnessLayout());
  if (const auto once = layout.find("#pragma once\n"); once != std::string::npos) layout.erase(once, 13);
  os << harnessPrelude() << "\n" << layout << "\n";

  os << "// ==== the test ====\n";
  for (std::size_t r = 0; r < hw.roles.size(); ++r) RoleWriter(hw, static_cast<int>(r), os).write();

  // The dispatcher: addresses first (one volatile slot load per address), then the start barrier, then the
  // role, then the drains of its asynchronous operations (after its last instruction: they change no outcome,
  // they keep the block alive until its copies are done).
  os << "__device__ __forceinline__ void ptxmm_play(int role, const PtxmmPlay& c) {\n"
     << "  switch (role) {\n";
  for (std::size_t r = 0; r < hw.roles.size(); ++r) {
    const auto& role = hw.roles[r];
    os << "    case " << r << ": {\n";
    for (std::size_t k = 0; k < role.accesses.size(); ++k)
      os << "      const " << (narrowAddress(role.accesses[k].kind) ? "unsigned" : "unsigned long long") << " a" << k << " = "
         << addressExpression(hw, role.accesses[k]) << ";\n";
    os << "      c.bar.wait();\n"
       << "      const ptxmm_out_" << r << " o = " << roleFunctionName(static_cast<int>(r)) << "(";
    for (std::size_t k = 0; k < role.accesses.size(); ++k) os << "a" << k << ", ";
    os << "c.cap);\n";
    for (int v = 0; v < out.values(role); ++v) os << "      c.out[" << out.base[r] + v << "] = o.v[" << v << "];\n";
    if (role.drainsCpAsync) os << "      asm volatile(\"cp.async.wait_all;\" ::: \"memory\");\n";
    if (role.drainsBulkGroup) os << "      asm volatile(\"cp.async.bulk.wait_group 0;\" ::: \"memory\");\n";
    for (int m : role.drainsMbarriers)
      os << "      ptxmm_drain_mbarrier(c, ptxmm_shared_address(c, " << hw.locations[static_cast<std::size_t>(m)].slot << "));\n";
    os << "      return;\n    }\n";
  }
  os << "  }\n}\n\n";
  os << harnessMain();
  return os.str();
}

}  // namespace ptxmm::validate
