// Tests of the random litmus generator: a test is a function of its seed, every generated test parses and
// unrolls and stays within the bounds that keep the explicit engine fast, the options are obeyed, and the
// variety the fuzzer relies on actually appears (instruction kinds counted over 500 seeds, from the parsed
// programs rather than from the text), and every generated test survives the writer's round trip.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <stdexcept>

#include "app/fuzz/LitmusGenerator.hpp"
#include "frontend/InstructionTable.hpp"
#include "frontend/litmus/LitmusParser.hpp"
#include "frontend/lower/Unroller.hpp"
#include "unit/frontend/RoundTrip.hpp"

namespace {

using namespace ptxmm::app;
using namespace ptxmm::frontend;
using ptxmm::model::proxyName;
using ptxmm::model::scopeName;

Program generated(std::uint64_t seed, const GeneratorOptions& options = {}) {
  return parseLitmus(generateLitmus(seed, options), "fuzz-" + std::to_string(seed) + ".litmus");
}

/// The physical location an address names (aliases resolve to their target).
std::string physical(const Program& p, const std::string& name) {
  for (const auto& l : p.locations)
    if (l.name == name && l.aliasProxy) return l.aliasOf;
  return name;
}

bool writes(const Instruction& ins) { return ins.op == Opcode::St || ins.op == Opcode::Atom || ins.op == Opcode::Red; }

std::string addressOf(const Instruction& ins) {
  for (const auto& o : ins.operands)
    if (o.kind == Operand::Kind::Location) return o.name;
  return {};
}

std::map<std::string, int> writesPerLocation(const Program& p) {
  std::map<std::string, int> count;
  for (const auto& t : p.threads)
    for (const auto& ins : t.code)
      if (writes(ins)) ++count[physical(p, addressOf(ins))];
  return count;
}

int fenceScCount(const Program& p) {
  int count = 0;
  for (const auto& t : p.threads)
    for (const auto& ins : t.code) count += ins.op == Opcode::Fence && ins.sem == Sem::Sc;
  return count;
}

std::string semKey(Sem sem) { return sem == Sem::Default ? "default" : std::string(semName(sem)); }

bool labelBefore(const std::vector<Instruction>& code, std::size_t at, const std::string& label) {
  for (std::size_t i = 0; i < at; ++i)
    if (code[i].op == Opcode::Label && code[i].operands[0].name == label) return true;
  return false;
}

/// The features of one instruction, as keys to count.
std::vector<std::string> features(const std::vector<Instruction>& code, std::size_t at) {
  const Instruction& ins = code[at];
  std::vector<std::string> out;
  if (ins.scope && ins.op != Opcode::BarSync && ins.op != Opcode::BarArrive)
    out.push_back("scope." + std::string(scopeName(*ins.scope)));
  switch (ins.op) {
    case Opcode::Ld:
      out.push_back(ins.proxy == ptxmm::model::Proxy::Generic ? "ld." + semKey(ins.sem)
                                                              : "ld.proxy." + std::string(proxyName(ins.proxy)));
      break;
    case Opcode::St:
      out.push_back(ins.proxy == ptxmm::model::Proxy::Generic ? "st." + semKey(ins.sem)
                                                              : "st.proxy." + std::string(proxyName(ins.proxy)));
      break;
    case Opcode::Atom:
      out.push_back("atom.op." + std::to_string(static_cast<int>(ins.atomOp)));
      out.push_back("atom.sem." + semKey(ins.sem));
      break;
    case Opcode::Red: out.push_back("red.sem." + semKey(ins.sem)); break;
    case Opcode::Fence: out.push_back(ins.text.rfind("membar.gl", 0) == 0 ? "membar.gl" : "fence." + semKey(ins.sem)); break;
    case Opcode::FenceProxy:
      out.push_back(ins.aliasFence ? "fence.proxy.alias" : "fence.proxy." + std::string(proxyName(ins.proxy)));
      break;
    case Opcode::BarSync:
      if (ins.dat3mBarrier && ins.operands.size() > 1) {
        out.push_back("bar.named");
        if (ins.operands[1].kind == Operand::Kind::Register) out.push_back("bar.named.register-id");
        if (ins.operands.size() > 2) out.push_back("bar.named.quorum");
      } else {
        out.push_back(ins.operands.size() == 2 ? "bar.sync.count" : "bar.sync");
      }
      break;
    case Opcode::BarArrive: out.push_back("bar.arrive"); break;
    case Opcode::Local: out.push_back(ins.text.rfind("ld ", 0) == 0 ? "local.ld-move" : "local"); break;
    case Opcode::Setp: out.push_back("setp"); break;
    case Opcode::Branch:
      out.push_back(ins.predicated ? "branch.predicated" : "branch.compare");
      if (labelBefore(code, at, ins.operands.back().name)) out.push_back("spin-loop");
      break;
    case Opcode::Label: break;
    default: out.push_back("unexpected"); break;  // the generator writes no goto and no Hopper-era instruction
  }
  return out;
}

void countCondition(const CondPtr& e, std::map<std::string, int>& counts) {
  if (!e) return;
  if (e->kind == CondExpr::Kind::And) ++counts["condition./\\"];
  if (e->kind == CondExpr::Kind::Or) ++counts["condition.\\/"];
  countCondition(e->a, counts);
  countCondition(e->b, counts);
}

/// The features of a whole test: placement, aliases, register initialisations, condition.
void countProgram(const Program& p, std::map<std::string, int>& counts) {
  std::set<std::pair<int, int>> ctas;
  std::set<int> gpus;
  bool clusters = false;
  for (const auto& t : p.threads) {
    ctas.emplace(t.gpu, t.cta);
    gpus.insert(t.gpu);
    clusters |= t.cluster.has_value();
  }
  if (ctas.size() == 1) ++counts["placement.same-cta"];
  if (ctas.size() == p.threads.size()) ++counts["placement.all-different-ctas"];
  if (ctas.size() > 1 && ctas.size() < p.threads.size()) ++counts["placement.some-shared-cta"];
  if (clusters) ++counts["placement.clusters"];
  if (gpus.size() > 1) ++counts["placement.gpus"];
  ++counts["threads." + std::to_string(p.threads.size())];
  for (const auto& l : p.locations)
    if (l.aliasProxy) ++counts["alias." + std::string(proxyName(*l.aliasProxy))];
  if (!p.regInits.empty()) ++counts["register-init"];
  ++counts["quantifier." + std::to_string(static_cast<int>(p.condition.quantifier))];
  countCondition(p.condition.expr, counts);
}

}  // namespace

TEST_CASE("a generated test is a function of its seed and options", "[app][generator]") {
  std::set<std::string> distinct;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const std::string first = generateLitmus(seed);
    generateLitmus(seed + 1000);  // no state survives from one call to the next
    CHECK(generateLitmus(seed) == first);
    distinct.insert(first);
  }
  CHECK(distinct.size() == 200);
  GeneratorOptions fewer;
  fewer.maxThreads = 2;
  CHECK(generateLitmus(7, fewer) == generateLitmus(7, fewer));
  CHECK(generateLitmus(UINT64_MAX) == generateLitmus(UINT64_MAX));
}

TEST_CASE("2000 generated tests parse, unroll and stay small", "[app][generator]") {
  const GeneratorOptions defaults;
  for (std::uint64_t seed = 1; seed <= 2000; ++seed) {
    INFO("seed " << seed << "\n" << generateLitmus(seed));
    Program p;
    REQUIRE_NOTHROW(p = generated(seed));
    REQUIRE_NOTHROW(unroll(p, {2}));
    CHECK(p.threads.size() >= 2);
    CHECK(p.threads.size() <= 4);
    int physicalLocations = 0;
    for (const auto& l : p.locations) physicalLocations += !l.aliasProxy;
    CHECK(physicalLocations >= 1);
    CHECK(physicalLocations <= defaults.maxLocations);
    for (const auto& [location, count] : writesPerLocation(p)) CHECK(count <= defaults.maxWritesPerLocation);
    CHECK(fenceScCount(p) <= defaults.maxFenceSc);
    for (const auto& t : p.threads) CHECK(!t.code.empty());
  }
}

TEST_CASE("the generated tests show the variety the fuzzer needs", "[app][generator]") {
  std::map<std::string, int> counts;
  for (std::uint64_t seed = 1; seed <= 500; ++seed) {
    const Program p = generated(seed);
    countProgram(p, counts);
    for (const auto& t : p.threads)
      for (std::size_t i = 0; i < t.code.size(); ++i)
        for (const auto& key : features(t.code, i)) ++counts[key];
  }
  const std::vector<std::string> expected = {
      "ld.default", "ld.weak", "ld.relaxed", "ld.acquire", "ld.volatile",
      "st.weak", "st.relaxed", "st.release", "st.volatile",
      "ld.proxy.surface", "ld.proxy.texture", "ld.proxy.constant", "st.proxy.surface",
      "atom.op." + std::to_string(static_cast<int>(AtomOp::Add)), "atom.op." + std::to_string(static_cast<int>(AtomOp::Exch)),
      "atom.op." + std::to_string(static_cast<int>(AtomOp::Cas)), "atom.op." + std::to_string(static_cast<int>(AtomOp::Inc)),
      "atom.op." + std::to_string(static_cast<int>(AtomOp::Max)),
      "atom.sem.default", "atom.sem.relaxed", "atom.sem.acquire", "atom.sem.release", "atom.sem.acq_rel",
      "red.sem.default", "red.sem.relaxed", "red.sem.release",
      "fence.sc", "fence.acq_rel", "fence.acquire", "fence.release", "membar.gl",
      "fence.proxy.alias", "fence.proxy.surface", "fence.proxy.texture", "fence.proxy.constant",
      "scope.cta", "scope.cluster", "scope.gpu", "scope.sys",
      "bar.sync", "bar.sync.count", "bar.arrive", "bar.named", "bar.named.register-id", "bar.named.quorum",
      "local", "local.ld-move", "setp", "branch.predicated", "branch.compare", "spin-loop",
      "placement.same-cta", "placement.all-different-ctas", "placement.some-shared-cta", "placement.clusters",
      "placement.gpus", "threads.2", "threads.3", "threads.4",
      "alias.generic", "alias.surface", "alias.texture", "alias.constant", "register-init",
      "quantifier.0", "quantifier.1", "quantifier.2", "condition./\\", "condition.\\/"};
  std::string table;
  for (const auto& [key, n] : counts) table += key + " " + std::to_string(n) + "\n";
  INFO(table);
  for (const auto& key : expected) {
    INFO(key);
    CHECK(counts[key] > 0);
  }
  CHECK(counts["unexpected"] == 0);
}

TEST_CASE("the generator obeys its options", "[app][generator]") {
  GeneratorOptions o;
  o.maxThreads = 2;
  o.maxWritesPerLocation = 1;
  o.maxFenceSc = 0;
  o.weights.atom = 0;
  o.proxyPercent = 0;
  o.barrierPercent = 100;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    INFO("seed " << seed);
    const Program p = generated(seed, o);
    CHECK(p.threads.size() == 2);
    CHECK(fenceScCount(p) == 0);
    for (const auto& [location, count] : writesPerLocation(p)) CHECK(count <= 1);
    bool barrier = false;
    for (const auto& t : p.threads)
      for (const auto& ins : t.code) {
        CHECK(ins.op != Opcode::Atom);
        CHECK(ins.proxy == ptxmm::model::Proxy::Generic);
        barrier |= ins.op == Opcode::BarSync || ins.op == Opcode::BarArrive;
      }
    CHECK(barrier);
  }
  GeneratorOptions bad;
  bad.minThreads = 3;
  bad.maxThreads = 2;
  CHECK_THROWS_AS(generateLitmus(1, bad), std::invalid_argument);
}

TEST_CASE("500 generated tests survive write -> parse", "[app][generator]") {
  for (std::uint64_t seed = 1; seed <= 500; ++seed) {
    INFO("seed " << seed);
    ptxmm::testing::requireRoundTrip(generated(seed));
  }
}
