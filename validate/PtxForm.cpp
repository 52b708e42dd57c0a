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

// The state space written on an access whose address the harness passes as `space`.
std::string spaceWord(AddrKind space) {
  switch (space) {
    case AddrKind::SharedCta: return ".shared::cta";
    case AddrKind::SharedCluster: return ".shared::cluster";
    case AddrKind::GenericShared: return "";
    default: return ".global";
  }
}

FormKind hopperKind(Opcode op) {
  switch (op) {
    case Opcode::MbarInit: return FormKind::MbarInit;
    case Opcode::MbarArrive: return FormKind::MbarArrive;
    case Opcode::MbarExpectTx: return FormKind::MbarExpectTx;
    case Opcode::MbarCompleteTx: return FormKind::MbarCompleteTx;
    case Opcode::MbarWait: return FormKind::MbarWait;
    case Opcode::CpAsync: return FormKind::CpAsync;
    case Opcode::CpAsyncCommit: return FormKind::CpAsyncCommit;
    case Opcode::CpAsyncWait: return FormKind::CpAsyncWait;
    case Opcode::CpAsyncMbarArrive: return FormKind::CpAsyncMbarArrive;
    case Opcode::BulkCopy: return FormKind::BulkCopy;
    case Opcode::StAsync: return FormKind::StAsync;
    case Opcode::RedAsync: return FormKind::RedAsync;
    case Opcode::FenceProxy: return FormKind::FenceProxy;
    case Opcode::ClusterArrive: return FormKind::ClusterArrive;
    case Opcode::ClusterWait: return FormKind::ClusterWait;
    case Opcode::BarWarpSync: return FormKind::BarWarpSync;
    default: return FormKind::None;
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

std::string writtenMnemonic(const Instruction& in) {
  std::string m = in.text.substr(0, in.text.find(' '));
  if (in.op == Opcode::BulkCopy && (in.bulk == frontend::BulkKind::TensorLoad || in.bulk == frontend::BulkKind::TensorStore)) {
    bool dimension = false;
    for (const char* d : {".1d", ".2d", ".3d", ".4d", ".5d"}) dimension = dimension || m.find(d) != std::string::npos;
    if (!dimension) m.insert(m.find(".tensor") + 7, ".1d");
  }
  return m;
}

PtxForm ptxForm(const Instruction& in, int width, int barrierCount, AddrKind space) {
  PtxForm f;
  f.width = width;
  f.op = in.atomOp;
  f.space = space;
  f.source = in;
  switch (in.op) {
    case Opcode::Ld:
    case Opcode::St: {
      f.kind = in.op == Opcode::Ld ? FormKind::Load : FormKind::Store;
      f.sem = in.sem == Sem::Default ? Sem::Weak : in.sem;
      if (f.sem != Sem::Weak && f.sem != Sem::Volatile) f.scope = in.scope;
      // A 32-bit load sign-extends: litmus values are signed 64-bit integers.
      const std::string type = width == 8 ? "u64" : in.op == Opcode::Ld ? "s32" : "u32";
      f.mnemonic = std::string(in.op == Opcode::Ld ? "ld." : "st.") + semWord(f.sem) + (f.scope ? "." + scopeWord(*f.scope) : "") +
                   spaceWord(space) + "." + type;
      return f;
    }
    case Opcode::Atom:
    case Opcode::Red:
      f.kind = in.op == Opcode::Atom ? FormKind::Atom : FormKind::Red;
      f.sem = in.sem == Sem::Default ? Sem::Relaxed : in.sem;
      f.scope = in.scope.value_or(model::Scope::Gpu);
      f.mnemonic = std::string(in.op == Opcode::Atom ? "atom." : "red.") + semWord(f.sem) + "." + scopeWord(*f.scope) + spaceWord(space) +
                   "." + opWithType(in.atomOp, width);
      return f;
    case Opcode::Fence:
      f.scope = in.scope;
      if (in.fenceKind != frontend::FenceKind::Plain) {
        f.kind = FormKind::FenceRestricted;
        f.sem = in.sem;
        f.mnemonic = writtenMnemonic(in);
      } else if (in.text.rfind("membar", 0) == 0) {
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
    default:
      f.kind = hopperKind(in.op);
      if (f.kind == FormKind::None) return f;
      f.sem = in.sem;
      f.scope = in.scope;
      f.mnemonic = writtenMnemonic(in);
      return f;
  }
}

int asyncStoreWidth(const Instruction& in) {
  const std::string m = writtenMnemonic(in);
  for (const char* t : {".b64", ".u64", ".s64"})
    if (m.size() >= 4 && m.compare(m.size() - 4, 4, t) == 0) return 8;
  return 4;
}

PtxForm roleForm(const HardwareTest& hw, const HwRole& role, int instr) {
  const Instruction& in = hw.program.threads[static_cast<std::size_t>(role.thread)].code[static_cast<std::size_t>(instr)];
  // The first address of the instruction decides: the accessed location for ld/st/atom/red, the mbarrier for
  // mbarrier operations (their only address).
  const HwAccess* first = nullptr;
  for (const auto& a : role.accesses)
    if (a.instr == instr) {
      first = &a;
      break;
    }
  int width = first ? hw.locations[static_cast<std::size_t>(first->location)].width : 8;
  if (in.op == Opcode::CpAsync) width = static_cast<int>(in.operands.at(2).value);
  if (in.op == Opcode::StAsync || in.op == Opcode::RedAsync) width = asyncStoreWidth(in);
  const auto count = role.barrierCount.find(instr);
  PtxForm f = ptxForm(in, width, count == role.barrierCount.end() ? 0 : count->second, first ? first->kind : AddrKind::Global);
  // The lanes of a shared warp play different threads, in different code: the barrier.sync/arrive forms that
  // such lanes may reach separately (bar is barrier.aligned).
  if (role.sharesWarp && (f.kind == FormKind::BarSync || f.kind == FormKind::BarArrive)) f.mnemonic.replace(0, 3, "barrier");
  return f;
}

}  // namespace ptxmm::validate
