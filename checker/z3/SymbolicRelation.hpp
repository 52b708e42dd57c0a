// Sets and relations whose membership is a Z3 formula: one Boolean term per event (set) or per pair
// (relation) inside a static upper bound; pairs outside the bound are false and have no term.
#pragma once

#include <z3++.h>

#include <new>
#include <string_view>

#include <vector>

#include "model/BitMatrix.hpp"

namespace ptxmm::checker::z3enc {

/// The stage a --timeout that runs out while the formulas are built names (model::Deadline::check).
inline constexpr const char* kEncodingStage = "encoding the test for Z3";

/// Runs `f`; Z3's own out-of-memory error (Z3_MEMOUT_FAIL: a z3::exception "out of memory") becomes
/// std::bad_alloc, which every caller reports as the exhausted --max-memory it is (UNKNOWN, exit 3), not as an
/// internal error (issue 16).
template <class F>
auto mappingOutOfMemory(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const z3::exception& e) {
    if (std::string_view(e.msg()).find("out of memory") != std::string_view::npos) throw std::bad_alloc();
    throw;
  }
}

struct SymSet {
  model::BitSet may;
  std::vector<z3::expr> member;  // size n; meaningful where `may` is set

  SymSet(z3::context& ctx, std::size_t n) : may(n), member(n, ctx.bool_val(false)) {}
  void set(std::size_t i, const z3::expr& e) {
    may.set(i);
    member[i] = e;
  }
  const z3::expr& at(std::size_t i) const { return member[i]; }
};

struct SymRel {
  model::BitMatrix may;
  std::vector<z3::expr> member;  // row-major n*n; meaningful where `may` is set
  std::size_t n;

  SymRel(z3::context& ctx, std::size_t size) : may(size), member(size * size, ctx.bool_val(false)), n(size) {}
  void set(std::size_t i, std::size_t j, const z3::expr& e) {
    may.set(i, j);
    member[i * n + j] = e;
  }
  const z3::expr& at(std::size_t i, std::size_t j) const { return member[i * n + j]; }
};

}  // namespace ptxmm::checker::z3enc
