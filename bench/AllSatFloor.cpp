// The AllSAT floor measured (AllSatFloor.hpp): the Z3 engine's listing loop on a formula that constrains nothing.
#include "bench/AllSatFloor.hpp"

#include <z3++.h>

#include <chrono>
#include <string>

namespace ptxmm::bench {

namespace {

double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

AllSatFloor measureAllSatFloor(unsigned freeBooleans) {
  AllSatFloor floor;
  auto start = std::chrono::steady_clock::now();
  z3::context ctx;
  floor.contextMs = msSince(start);

  start = std::chrono::steady_clock::now();
  z3::solver solver(ctx, z3::solver::simple());
  z3::expr_vector values(ctx);
  for (unsigned i = 0; i < freeBooleans; ++i) values.push_back(ctx.bool_const(("b" + std::to_string(i)).c_str()));
  while (solver.check() == z3::sat) {
    const z3::model m = solver.get_model();
    z3::expr_vector differs(ctx);
    for (unsigned i = 0; i < values.size(); ++i) differs.push_back(m.eval(values[i], true).is_true() ? !values[i] : values[i]);
    solver.add(z3::mk_or(differs));
    ++floor.states;
  }
  floor.listMs = msSince(start);
  return floor;
}

}  // namespace ptxmm::bench
