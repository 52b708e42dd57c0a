// Random small launches for the kernel checker's differential test (KernelDifferentialTest.cpp): one or two CTAs of
// one to three threads, each thread a short list of litmus instructions over two global words, a flag and a
// shared word of its CTA — weak, relaxed, release/acquire and volatile accesses at .cta and .gpu scope, RMWs, fences,
// CTA barriers (the same number in every thread of a CTA, so none diverges), forward branches on loaded values and
// flag waits. Small enough that the engine decides the whole launch in milliseconds; varied enough to exercise the
// checker's static rules (barrier phases, the may-order graph, forced values, final values of atomics) and its
// slices against it.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "KernelTestSupport.hpp"

namespace ptxmm::testing {

class RandomLaunch {
 public:
  explicit RandomLaunch(std::uint64_t seed) : rng_(seed) {}

  /// The next launch; `text` gets its code, one line per thread, for the failure message.
  TestLaunch next(std::string& text) {
    TestLaunch l;
    const int ctas = pick(2) + 1;
    const int perCta = pick(ctas == 1 ? 3 : 2) + 1;
    l.grid = {ctas, 1, 1};
    l.block = {perCta, 1, 1};
    l.init = {"x_0 = 0", "x_1 = 0", "f_0 = 0"};
    for (int c = 0; c < ctas; ++c) l.init.push_back("s_" + std::to_string(c) + " @ shared cta " + std::to_string(c) + " = 0");
    std::vector<int> barriers(static_cast<std::size_t>(ctas));
    for (int& b : barriers) b = perCta > 1 && pick(3) == 0 ? pick(2) + 1 : 0;
    std::vector<std::vector<std::string>> code;
    text.clear();
    for (int c = 0; c < ctas; ++c)
      for (int t = 0; t < perCta; ++t) {
        code.push_back(thread(c, barriers[static_cast<std::size_t>(c)]));
        text += "  block " + std::to_string(c) + " thread " + std::to_string(t) + ":";
        for (const auto& line : code.back()) text += " " + line + ";";
        text += "\n";
      }
    l.code = [code, perCta](const frontend::KernelThread& k) { return code[static_cast<std::size_t>(k.cta * perCta + k.tid.x)]; };
    return l;
  }

 private:
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  template <class T>
  const T& oneOf(const std::vector<T>& v) { return v[static_cast<std::size_t>(pick(static_cast<int>(v.size())))]; }

  std::string scope() { return pick(3) == 0 ? "cta" : "gpu"; }
  // A global word or the flag; the CTA's shared word (bracketed: the space is part of the instruction).
  std::string globalLoc() { return oneOf<std::string>({"x_0", "x_1", "f_0"}); }

  std::vector<std::string> thread(int cta, int barriers) {
    std::vector<std::string> c;
    int regs = 0, labels = 0;
    const std::string shared = "[s_" + std::to_string(cta) + "]";
    const auto access = [&]() -> std::string {
      const std::string loc = globalLoc();
      const std::string value = std::to_string(pick(3) + 1);
      switch (pick(12)) {
        case 0: return "st.weak " + loc + ", " + value;
        case 1: return "st.relaxed." + scope() + " " + loc + ", " + value;
        case 2: return "st.release." + scope() + " " + loc + ", " + value;
        case 3: return "st.volatile " + loc + ", " + value;
        case 4: return "ld.weak r" + std::to_string(regs++) + ", " + loc;
        case 5: return "ld.relaxed." + scope() + " r" + std::to_string(regs++) + ", " + loc;
        case 6: return "ld.acquire." + scope() + " r" + std::to_string(regs++) + ", " + loc;
        case 7: return "atom." + oneOf<std::string>({"relaxed", "acq_rel", "acquire", "release"}) + "." + scope() + "." +
                       oneOf<std::string>({"add", "exch", "or"}) + " r" + std::to_string(regs++) + ", " + loc + ", " + value;
        case 8: return "fence." + oneOf<std::string>({"sc", "acq_rel"}) + "." + scope();
        case 9: return pick(2) ? "st.shared.u32 " + shared + ", " + value : "ld.shared.u32 r" + std::to_string(regs++) + ", " + shared;
        case 10: return regs > 0 ? "st.weak " + loc + ", r" + std::to_string(pick(regs)) : "st.weak " + loc + ", " + value;
        default: return "red.relaxed." + scope() + ".add " + loc + ", " + value;
      }
    };
    const int segments = barriers + 1;
    for (int s = 0; s < segments; ++s) {
      if (s > 0) c.push_back("bar.sync 0");
      const int n = pick(3) + (segments == 1 ? 1 : 0);
      for (int i = 0; i < n; ++i) {
        if (regs > 0 && pick(6) == 0) {  // skip the next access when a loaded value is 0
          const std::string label = "LS" + std::to_string(labels++);
          c.push_back("beq r" + std::to_string(pick(regs)) + ", 0, " + label);
          c.push_back(access());
          c.push_back(label + ":");
        } else if (pick(10) == 0) {  // wait for the flag
          const std::string label = "LW" + std::to_string(labels++);
          const std::string r = "r" + std::to_string(regs++);
          c.push_back(label + ":");
          c.push_back("ld." + oneOf<std::string>({"acquire.gpu", "relaxed.gpu", "volatile", "acquire.cta"}) + " " + r + ", f_0");
          c.push_back("beq " + r + ", 0, " + label);
        } else {
          c.push_back(access());
        }
      }
    }
    return c;
  }

  std::mt19937_64 rng_;
};

}  // namespace ptxmm::testing
