// The PTX spelling of each litmus instruction on hardware (PtxForm.hpp).
#include "validate/PtxForm.hpp"

namespace ptxmm::validate {

using frontend::AtomOp;
using frontend::Instruction;
using frontend::Opcode;
using frontend::Sem;

namespace {

std::string semWord(Sem s) {
  switch (s) {
    case Sem::Relaxed: return "relaxed";
    case Sem::Acquire: return "acquire";
    case Sem::Release: return "release";
    case Sem::AcqRel: return "acq_rel";
    case Sem::Sc: return "sc";
    case Sem::Volatile: return "volatile";
    default: return "weak";
  }
}

// The operation and its PTX type: atom/red add is unsigned, min/max signed (litmus values are signed), the
// bitwise ones and exch/cas untyped; .inc/.dec exist only as .u32.
std::string opWithType(AtomOp op, int width) {
  const std::string bits = width == 8 ? "64" : "32";
  switch (op) {
    case AtomOp::Add: return "add.u" + bits;
    case AtomOp::And: return "and.b" + bits;
    case AtomOp::Or: return "or.b" + bits;
    case AtomOp::Xor: return "xor.b" + bits;
    case AtomOp::Min: return "min.s" + bits;
    case AtomOp::Max: return "max.s" + bits;
    case AtomOp::Exch: return "exch.b" + bits;
    case AtomOp::Cas: return "cas.b" + bits;
    case AtomOp::Inc: return "inc.u32";
    case AtomOp::Dec: return "dec.u32";
    default: return "?";
  }
}

}  // namespace

std::string scopeWord(model::Scope scope) {
  switch (scope) {
    case model::Scope::Cta: return "cta";
    case model::Scope::Cluster: return "cluster";
    case model::Scope::Gpu: return "gpu";
    case model::Scope::Sys: return "sys";
    case model::Scope::Thread: break;
  }
  return "thread";
}

PtxForm ptxForm(const Instruction& in, int width, int barrierCount) {
  PtxForm f;
  f.width = width;
  f.op = in.atomOp;
  switch (in.op) {
    case Opcode::Ld:
    case Opcode::St: {
      f.kind = in.op == Opcode::Ld ? FormKind::Load : FormKind::Store;
      f.sem = in.sem == Sem::Default ? Sem::Weak : in.sem;
      if (f.sem != Sem::Weak && f.sem != Sem::Volatile) f.scope = in.scope;
      // A 32-bit load sign-extends: litmus values are signed 64-bit integers.
      const std::string type = width == 8 ? "u64" : in.op == Opcode::Ld ? "s32" : "u32";
      f.mnemonic = std::string(in.op == Opcode::Ld ? "ld." : "st.") + semWord(f.sem) + (f.scope ? "." + scopeWord(*f.scope) : "") +
                   ".global." + type;
      return f;
    }
    case Opcode::Atom:
    case Opcode::Red:
      f.kind = in.op == Opcode::Atom ? FormKind::Atom : FormKind::Red;
      f.sem = in.sem == Sem::Default ? Sem::Relaxed : in.sem;
      f.scope = in.scope.value_or(model::Scope::Gpu);
      f.mnemonic = std::string(in.op == Opcode::Atom ? "atom." : "red.") + semWord(f.sem) + "." + scopeWord(*f.scope) + ".global." +
                   opWithType(in.atomOp, width);
      return f;
    case Opcode::Fence:
      f.scope = in.scope;
      if (in.text.rfind("membar", 0) == 0) {
        f.kind = FormKind::Membar;
        f.sem = Sem::Sc;
        f.mnemonic = std::string("membar.") + (*in.scope == model::Scope::Gpu ? "gl" : scopeWord(*in.scope));
      } else {
        f.kind = FormKind::Fence;
        f.sem = in.sem == Sem::Default ? Sem::AcqRel : in.sem;
        f.mnemonic = "fence." + semWord(f.sem) + "." + scopeWord(*in.scope);
      }
      return f;
    case Opcode::BarSync:
    case Opcode::BarArrive:
      f.kind = in.op == Opcode::BarSync ? FormKind::BarSync : FormKind::BarArrive;
      f.barrierId = static_cast<int>(in.operands.at(0).value);
      f.barrierCount = barrierCount;
      f.mnemonic = std::string(in.op == Opcode::BarSync ? "bar.sync " : "bar.arrive ") + std::to_string(f.barrierId) + ", " +
                   std::to_string(barrierCount);
      return f;
    default: return f;
  }
}

}  // namespace ptxmm::validate
