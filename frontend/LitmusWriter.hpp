// The litmus writer: prints a Program back in the dialect LitmusParser reads, so that programs built or
// edited in memory (by the fuzzer's minimiser, by generators) become files a user can run. It prints from the
// instruction fields, not from the text as written, so the output says what the Program means: spellings
// that the parser maps to the same fields come back in one canonical form (`membar.gl` as `fence.sc.gpu`,
// `fence.gpu` as `fence.acq_rel.gpu`, type suffixes dropped). The Hopper-era instructions (mbarrier, async
// copies, tcgen05, wgmma, restricted fences) are the exception: they are printed as the parser normalised
// them. Parsing the output gives an equivalent Program.
#pragma once

#include <string>
#include <vector>

#include "frontend/Program.hpp"

namespace ptxmm::frontend {

/// A litmus test as lines of text, before layout: what both the writer and the test generator produce.
struct LitmusText {
  std::string name;
  std::vector<std::string> descriptions;        // without quotes
  std::vector<std::string> initEntries;         // "x=0", "s @ surface aliases x", "P0:r1=3" (without ';')
  std::vector<std::string> threadHeaders;       // "P0@cta 0,gpu 0"
  std::vector<std::vector<std::string>> cells;  // per thread, its cells in row order ("L0: ld.weak r0, x")
  std::vector<std::string> observed;            // `locations [...]` entries; empty: no such line
  std::string filter;                           // "(P1:r0 == 1)" after `filter`; empty: no filter
  std::string condition;                        // "exists (P1:r0 == 1 /\ x == 2)"
};

/// Lays a test out in the dialect: header, init block, aligned thread columns, `locations`, filter, condition.
std::string renderLitmus(const LitmusText& text);

/// Prints `program` in the litmus dialect.
std::string writeLitmus(const Program& program);

/// One instruction as the writer prints it ("ld.acquire.gpu r0, x", "L0:", "@!p bra L0").
std::string instructionText(const Instruction& ins);

}  // namespace ptxmm::frontend
