// The litmus writer's round trip as a test helper: a program written, parsed back and written again must give
// the same text and the same meaning, compared by a dump of every field the engines read (independent of the
// writer). The writer's tests and the generator's use it.
#pragma once

#include <catch2/catch.hpp>
#include <set>
#include <sstream>
#include <string>

#include "frontend/LitmusWriter.hpp"
#include "frontend/litmus/LitmusParser.hpp"

namespace ptxmm::testing {

using namespace ptxmm::frontend;

inline std::string dump(const Operand& o) {
  return std::to_string(static_cast<int>(o.kind)) + ":" + o.name + ":" + std::to_string(o.value);
}

inline std::string dump(const Instruction& ins) {
  std::ostringstream out;
  out << static_cast<int>(ins.op) << ' ' << static_cast<int>(ins.sem) << ' '
      << (ins.scope ? static_cast<int>(*ins.scope) : -1) << ' ' << static_cast<int>(ins.proxy) << ' '
      << ins.aliasFence << ' ' << static_cast<int>(ins.space) << ' ' << static_cast<int>(ins.atomOp) << ' '
      << static_cast<int>(ins.localOp) << ' ' << static_cast<int>(ins.cmp) << ' ' << ins.predicated << ' '
      << ins.negatePredicate << ' ' << ins.dat3mBarrier << ' ' << ins.aligned;
  for (const auto& o : ins.operands) out << ' ' << dump(o);
  return out.str();
}

inline std::string dump(const CondValue& v) {
  return std::to_string(static_cast<int>(v.kind)) + ":" + std::to_string(v.value) + ":" + std::to_string(v.thread) +
         ":" + v.name;
}

inline std::string dump(const CondPtr& e) {
  if (!e) return "-";
  return "(" + std::to_string(static_cast<int>(e->kind)) + " " + std::to_string(static_cast<int>(e->cmp)) + " " +
         dump(e->lhs) + " " + dump(e->rhs) + " " + dump(e->a) + " " + dump(e->b) + ")";
}

/// Every field of a program that gives it meaning, without source positions and instruction texts. Locations
/// first seen in the code are listed apart: the writer leaves them to be re-created at their first use.
inline std::string dump(const Program& p) {
  std::ostringstream out;
  out << p.name << "\n";
  for (const auto& d : p.descriptions) out << "desc " << d << "\n";
  std::set<std::string> implicit;
  for (const auto& l : p.locations) {
    if (!l.declared) {
      implicit.insert(l.name);
      continue;
    }
    out << "loc " << l.name << " " << l.init << " " << static_cast<int>(l.space) << " "
        << (l.aliasProxy ? static_cast<int>(*l.aliasProxy) : -1) << " " << l.aliasOf << " &" << l.addressOf << "\n";
  }
  for (const auto& name : implicit) out << "implicit " << name << "\n";
  for (const auto& r : p.regInits) out << "reg " << r.thread << " " << r.reg << " " << r.value << " &" << r.addressOf << "\n";
  for (const auto& t : p.threads) {
    out << "thread " << t.name << " " << t.index << " " << t.cta << " " << (t.cluster ? *t.cluster : -1) << " "
        << t.gpu << "\n";
    for (const auto& ins : t.code) out << "  " << dump(ins) << "\n";
  }
  for (const auto& v : p.observed) out << "observed " << dump(v) << "\n";
  out << "filter " << dump(p.filter) << "\n";
  out << "condition " << static_cast<int>(p.condition.quantifier) << " " << dump(p.condition.expr) << "\n";
  return out.str();
}

/// Writes, parses back and writes again: same text, same meaning.
inline void requireRoundTrip(const Program& original) {
  const std::string written = writeLitmus(original);
  INFO(written);
  Program reparsed;
  REQUIRE_NOTHROW(reparsed = parseLitmus(written, original.file));
  CHECK(writeLitmus(reparsed) == written);
  CHECK(dump(reparsed) == dump(original));
}

}  // namespace ptxmm::testing
