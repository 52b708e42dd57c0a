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
using frontend::cmpOperator;
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

// One role function. Registers are C++ variables `reg<k>`; every load or atomic writes its own `val<k>` first
// (a register overwritten later would make ptxas delete the load, even inside asm volatile), and the XOR of all
// of them is returned as the sink. Litmus labels become C++ labels and backward jumps count iterations against
// the cap: a spinning instance stops and is reported as capped, never classified.
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
    for (std::size_t k = 0; k < role_.accesses.size(); ++k) os_ << "unsigned long long a" << k << ", ";
    os_ << "int ptxmm_cap) {\n";
    for (const auto& [name, id] : regs_) os_ << "  long long reg" << id << " = " << literal(initialValue(name)) << ";  // " << name << "\n";
    for (std::size_t k = 0; k < role_.accesses.size(); ++k) os_ << "  long long val" << k << " = 0;\n";
    if (role_.hasBackwardBranch) os_ << "  int ptxmm_iterations = 0, ptxmm_capped = 0;\n";
    else os_ << "  const int ptxmm_capped = 0;\n  (void)ptxmm_cap;\n";
    int access = 0;
    for (std::size_t i = 0; i < t.code.size(); ++i) statement(t.code[i], static_cast<int>(i), access);
    if (role_.hasBackwardBranch) os_ << "ptxmm_end:\n";
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
    return "{ if (++ptxmm_iterations >= ptxmm_cap) { ptxmm_capped = 1; goto ptxmm_end; } goto " + label(target) + "; }";
  }

  int width(const HwAccess& a) const { return hw_.locations[static_cast<std::size_t>(a.location)].width; }

  void statement(const Instruction& in, int at, int& access) {
    const auto& ops = in.operands;
    os_ << "  // " << in.text << "   (line " << in.pos.line << ")\n";
    switch (in.op) {
      case Opcode::Ld:
      case Opcode::St:
      case Opcode::Atom:
      case Opcode::Red: {
        const int k = access++;
        memoryAccess(in, k, width(role_.accesses[static_cast<std::size_t>(k)]));
        return;
      }
      case Opcode::Fence:
      case Opcode::BarSync:
      case Opcode::BarArrive: {
        const auto count = role_.barrierCount.find(at);
        const PtxForm f = ptxForm(in, 8, count == role_.barrierCount.end() ? 0 : count->second);
        os_ << "  asm volatile(\"" << f.mnemonic << ";\" ::: \"memory\");\n";
        return;
      }
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

  void memoryAccess(const Instruction& in, int k, int width) {
    const PtxForm f = ptxForm(in, width, 0);
    const auto& ops = in.operands;
    const std::string a = "a" + std::to_string(k), v = "val" + std::to_string(k);
    const bool wide = width == 8;
    // 64-bit values travel in "l" registers; 32-bit ones in "r" registers, sign-extended back to 64 bits.
    auto operand = [&](const Operand& op) { return wide ? "\"l\"(" + value(op) + ")" : "\"r\"(static_cast<int>(" + value(op) + "))"; };
    auto assignResult = [&](const std::string& dst) {
      if (!ops.empty() && ops[0].kind == Operand::Kind::Register) os_ << "  reg" << regs_.at(ops[0].name) << " = " << dst << ";\n";
    };
    switch (f.kind) {
      case FormKind::Load:
        if (wide) {
          os_ << "  asm volatile(\"" << f.mnemonic << " %0, [%1];\" : \"=l\"(" << v << ") : \"l\"(" << a << ") : \"memory\");\n";
        } else {
          os_ << "  { int t; asm volatile(\"" << f.mnemonic << " %0, [%1];\" : \"=r\"(t) : \"l\"(" << a << ") : \"memory\"); " << v << " = t; }\n";
        }
        assignResult(v);
        return;
      case FormKind::Store:
        os_ << "  asm volatile(\"" << f.mnemonic << " [%0], %1;\" :: \"l\"(" << a << "), " << operand(ops[1]) << " : \"memory\");\n";
        return;
      case FormKind::Atom: {
        const bool cas = in.atomOp == AtomOp::Cas;
        const std::string tail = cas ? ", %2, %3;" : ", %2;";
        std::string inputs = "\"l\"(" + a + "), " + operand(ops[2]);
        if (cas) inputs += ", " + operand(ops[3]);
        if (wide) {
          os_ << "  asm volatile(\"" << f.mnemonic << " %0, [%1]" << tail << "\" : \"=l\"(" << v << ") : " << inputs << " : \"memory\");\n";
        } else {
          os_ << "  { int t; asm volatile(\"" << f.mnemonic << " %0, [%1]" << tail << "\" : \"=r\"(t) : " << inputs << " : \"memory\"); "
              << v << " = t; }\n";
        }
        assignResult(v);
        return;
      }
      case FormKind::Red:
        os_ << "  asm volatile(\"" << f.mnemonic << " [%0], %1;\" :: \"l\"(" << a << "), " << operand(ops[1]) << " : \"memory\");\n";
        return;
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

}  // namespace

std::string roleFunctionName(int role) { return "ptxmm_role_" + std::to_string(role); }

std::string generateCuda(const GeneratorInput& input) {
  const HardwareTest& hw = *input.test;
  const OutputLayout out = outputLayout(hw);
  std::ostringstream os;
  os << "// Generated by ptxmm validate from " << hw.program.file << " (test " << hw.program.name << "). Do not edit:\n"
     << "// regenerate. Build: nvcc -arch=sm_90 -rdc=true -O3 -o test test.cu; run: ./test --budget SECONDS --seed N.\n\n";
  // Layout.h is a header in ptxmm; in the program it is inline text, where `#pragma once` would only warn.
  std::string layout(harnessLayout());
  if (const auto once = layout.find("#pragma once\n"); once != std::string::npos) layout.erase(once, 13);
  os << harnessPrelude() << "\n" << layout << "\n";

  os << "// ==== the test ====\n";
  std::vector<int> roleCta, widths, stamp, capped, keyIsLocation, keyIndex;
  std::vector<long long> inits, allowed;
  for (const auto& r : hw.roles) roleCta.push_back(r.cta);
  for (const auto& l : hw.locations) widths.push_back(l.width), inits.push_back(l.init);
  for (std::size_t r = 0; r < hw.roles.size(); ++r) {
    const int values = out.values(hw.roles[r]);
    capped.push_back(out.base[r] + values - 1);
    stamp.push_back(out.base[r] + values);
  }
  for (const auto& k : hw.keys) {
    keyIsLocation.push_back(k.location ? 1 : 0);
    keyIndex.push_back(k.location ? k.index : out.base[static_cast<std::size_t>(k.role)] + k.index);
  }
  const bool gpuKnows = input.modelKnown && input.allowed.size() <= kMaxAllowedOnGpu;
  if (gpuKnows)
    for (const auto& s : input.allowed) allowed.insert(allowed.end(), s.begin(), s.end());
  os << "#define PTXMM_TEST_NAME " << cString(hw.program.name) << "\n"
     << "#define PTXMM_ROLES " << hw.roles.size() << "\n"
     << "#define PTXMM_CTAS " << hw.ctaCluster.size() << "\n"
     << "#define PTXMM_LOCATIONS " << hw.locations.size() << "\n"
     << "#define PTXMM_KEYS " << hw.keys.size() << "\n"
     << "#define PTXMM_OUT_SLOTS " << out.slots << "\n"
     << "#define PTXMM_CLUSTER_SIZE " << hw.clusterSize << "\n"
     << "#define PTXMM_ONE_GROUP_PER_BLOCK " << (hw.usesBarriers ? 1 : 0) << "\n"
     << "#define PTXMM_MODEL_KNOWN " << (gpuKnows ? 1 : 0) << "\n"
     << "#define PTXMM_ALLOWED_COUNT " << (gpuKnows ? input.allowed.size() : 0) << "\n"
     << "#define PTXMM_ROLE_CTA " << initList(roleCta) << "\n"
     << "#define PTXMM_CTA_CLUSTER " << initList(hw.ctaCluster) << "\n"
     << "#define PTXMM_LOC_WIDTHS " << initList(widths) << "\n"
     << "#define PTXMM_LOC_INITS " << initList(inits) << "\n"
     << "#define PTXMM_STAMP_SLOTS " << initList(stamp) << "\n"
     << "#define PTXMM_CAPPED_SLOTS " << initList(capped) << "\n"
     << "#define PTXMM_KEY_IS_LOCATION " << initList(keyIsLocation) << "\n"
     << "#define PTXMM_KEY_INDEX " << initList(keyIndex) << "\n"
     << "#define PTXMM_ALLOWED_VALUES " << initList(allowed) << "\n\n";

  for (std::size_t r = 0; r < hw.roles.size(); ++r) RoleWriter(hw, static_cast<int>(r), os).write();

  // The dispatcher: addresses first (one volatile slot load per access), then the start barrier, then the role.
  os << "__device__ __forceinline__ void ptxmm_play(int role, unsigned char* buffer, const std::uint32_t* slots, unsigned stride,\n"
     << "                                           int cap, long long* out, const PtxmmStartBarrier& bar) {\n"
     << "  switch (role) {\n";
  for (std::size_t r = 0; r < hw.roles.size(); ++r) {
    const auto& role = hw.roles[r];
    os << "    case " << r << ": {\n";
    for (std::size_t k = 0; k < role.accesses.size(); ++k)
      os << "      const unsigned long long a" << k << " = ptxmm_address(buffer, slots, " << role.accesses[k].location << ", stride);\n";
    os << "      bar.wait();\n"
       << "      const ptxmm_out_" << r << " o = " << roleFunctionName(static_cast<int>(r)) << "(";
    for (std::size_t k = 0; k < role.accesses.size(); ++k) os << "a" << k << ", ";
    os << "cap);\n";
    for (int v = 0; v < out.values(role); ++v) os << "      out[" << out.base[r] + v << "] = o.v[" << v << "];\n";
    os << "      return;\n    }\n";
  }
  os << "  }\n}\n\n";
  os << harnessMain();
  return os.str();
}

}  // namespace ptxmm::validate
