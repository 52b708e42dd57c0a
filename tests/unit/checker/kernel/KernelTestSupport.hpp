// Hand-built launches for the kernel checker's tests: each thread's residual code is written as litmus
// instructions (one list per thread of the launch, in linear order), placed by its CTA, warp and cluster, and the
// locations become buffer elements: `out_3` is element 3 of global buffer `out`, `s_2 @ shared cta 1 = 0` element
// 2 of CTA 1's shared window `s` (4-byte elements). This is what the PTX instantiator produces, without PTX.
#pragma once

#include <functional>
#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "checker/TestRunner.hpp"
#include "checker/kernel/KernelChecker.hpp"
#include "checker/kernel/SliceBuilder.hpp"
#include "frontend/LitmusWriter.hpp"
#include "frontend/litmus/LitmusParser.hpp"
#include "../CheckerTestSupport.hpp"

namespace ptxmm::testing {

struct TestLaunch {
  frontend::Dim3 grid, block;
  int clusterSize = 1;                 // CTAs per cluster (consecutive CTAs)
  std::vector<std::string> init;       // litmus init entries ("out_0=0", "s_1 @ shared cta 0 = 0")
  std::function<std::vector<std::string>(const frontend::KernelThread&)> code;
};

/// The KernelProgram of a hand-written launch.
inline frontend::KernelProgram makeKernel(const TestLaunch& launch) {
  const int ctas = static_cast<int>(launch.grid.count()), perCta = static_cast<int>(launch.block.count());
  std::vector<frontend::KernelThread> threads;
  frontend::LitmusText text;
  text.name = "kernel";
  text.initEntries = launch.init;
  for (int c = 0; c < ctas; ++c)
    for (int t = 0; t < perCta; ++t) {
      frontend::KernelThread k;
      k.cta = c;
      k.ctaid = {c % launch.grid.x, (c / launch.grid.x) % launch.grid.y, c / (launch.grid.x * launch.grid.y)};
      k.tid = {t % launch.block.x, (t / launch.block.x) % launch.block.y, t / (launch.block.x * launch.block.y)};
      k.cluster = c / launch.clusterSize;
      k.ctaRank = c % launch.clusterSize;
      k.warp = t / 32;
      k.lane = t % 32;
      text.threadHeaders.push_back("P" + std::to_string(threads.size()) + "@cta " + std::to_string(c) + ",cluster " +
                                   std::to_string(k.cluster) + ",warp " + std::to_string(k.warp) + ",gpu 0");
      text.cells.push_back(launch.code(k));
      threads.push_back(k);
    }
  text.condition = "exists (true)";
  frontend::KernelProgram kp;
  kp.program = frontend::parseLitmus(frontend::renderLitmus(text), "kernel.cu");
  kp.threads = threads;
  kp.entry = kp.displayName = "kernel";
  kp.file = "kernel.cu";
  kp.launch.grid = launch.grid;
  kp.launch.block = launch.block;
  std::map<std::pair<std::string, int>, int> buffers;
  for (const auto& loc : kp.program.locations) {
    const std::size_t cut = loc.name.rfind('_');
    const std::string base = loc.name.substr(0, cut);
    const std::int64_t index = cut == std::string::npos ? 0 : std::stoll(loc.name.substr(cut + 1));
    const int owner = loc.ownerCta.value_or(-1);
    auto [it, inserted] = buffers.emplace(std::pair{base, owner}, static_cast<int>(kp.buffers.size()));
    if (inserted) {
      frontend::Buffer b;
      b.name = base;
      b.space = owner >= 0 ? frontend::Buffer::Space::Shared : frontend::Buffer::Space::Global;
      b.ownerCta = owner;
      kp.buffers.push_back(b);
    }
    frontend::Buffer& b = kp.buffers[static_cast<std::size_t>(it->second)];
    b.bytes = std::max(b.bytes, (index + 1) * loc.size);
    b.init.resize(static_cast<std::size_t>(b.bytes), 0);
    for (int i = 0; i < loc.size; ++i)
      b.init[static_cast<std::size_t>(index * loc.size + i)] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(loc.init) >> (8 * i));
    kp.locations.push_back({it->second, index * loc.size, loc.size});
  }
  return kp;
}

/// Checks a hand-built launch with the bundled model.
inline checker::kernel::KernelResult checkLaunch(const TestLaunch& launch, checker::kernel::KernelOptions options = {}) {
  const frontend::KernelProgram kp = makeKernel(launch);
  return checker::kernel::checkKernel(ptxModel(), kp, options);
}

/// The litmus name of element i of an array: idx("out", 3) is "out_3".
inline std::string idx(const std::string& base, int i) { return base + "_" + std::to_string(i); }

/// Checks that the static rules decide a launch whole: race-free, no hang, nothing undecided, its one assertion
/// holds, and no engine run.
inline void checkDecidedWithoutEngine(const checker::kernel::KernelResult& r) {
  CHECK(r.races.empty());
  CHECK(r.hangs.empty());
  CHECK(r.unknowns.empty());
  REQUIRE(r.assertions.size() == 1);
  CHECK(r.assertions[0].holds == true);
  INFO(r.notes.at(0));
  CHECK(r.notes.at(0).find("0 slices run") != std::string::npos);
}

/// Whether the engine finds a race on the whole (small) launch: the reference the static rules are checked
/// against. Throws std::runtime_error when the engine does not decide it.
inline bool wholeLaunchRaces(const TestLaunch& launch) {
  checker::RunOptions o;
  o.engineOptions.races = true;
  o.liveness = false;
  const checker::TestResult whole = checker::checkProgram(ptxModel(), makeKernel(launch).program, o);
  if (whole.status != checker::Status::Ok) throw std::runtime_error("the engine on the whole launch: " + whole.reason);
  return !whole.races.empty();
}

/// The races of a result as "INSTRUCTION / INSTRUCTION: kind", the two instructions in text order.
inline std::set<std::string> raceTexts(const checker::kernel::KernelResult& r) {
  std::set<std::string> out;
  for (const auto& race : r.races) {
    const auto [a, b] = std::minmax(race.first.instruction, race.second.instruction);
    out.insert(a + " / " + b + ": " + race.kind);
  }
  return out;
}

// The checker's analyses of one launch, for building slices by hand.
struct Analyses {
  explicit Analyses(const frontend::KernelProgram& kp) : graph(kp, 2), phases(graph), values(graph, phases), order(graph),
                                                          builder(graph, phases, values, &order) {}
  checker::kernel::KernelGraph graph;
  checker::kernel::BarrierPhases phases;
  checker::kernel::KernelValues values;
  checker::kernel::MayOrder order;
  checker::kernel::SliceBuilder builder;

  /// The first event of kernel thread `thread` on location `name` with tag `tag`.
  int event(int thread, const std::string& name, model::Tag tag) const {
    const auto& kp = graph.kernel();
    for (std::size_t e = 0; e < graph.graph().events.size(); ++e) {
      const model::Event& ev = graph.graph().events[e];
      if (ev.thread == thread && ev.is(tag) && ev.paddr >= 0 &&
          kp.program.locations[static_cast<std::size_t>(graph.locationOfPhysical(ev.paddr))].name == name)
        return static_cast<int>(e);
    }
    FAIL("no event of thread " << thread << " on " << name);
    return -1;
  }
};

}  // namespace ptxmm::testing
