// Prints the Z3 AllSAT floor (bench/AllSatFloor.hpp) for k = 1..K free Booleans, one JSON object per
// line: {"booleans": k, "states": 2^k, "context_ms": ..., "list_ms": ...}. bench/bench.py --families reads it.
#include "bench/AllSatFloor.hpp"

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  const int most = argc > 1 ? std::atoi(argv[1]) : 8;
  if (most < 1 || most > 16) {
    std::fprintf(stderr, "usage: %s [K]   (1 <= K <= 16 free Booleans)\n", argv[0]);
    return 2;
  }
  for (int k = 1; k <= most; ++k) {
    const auto floor = ptxmm::bench::measureAllSatFloor(static_cast<unsigned>(k));
    std::printf("{\"booleans\": %d, \"states\": %zu, \"context_ms\": %.3f, \"list_ms\": %.3f}\n", k, floor.states,
                floor.contextMs, floor.listMs);
  }
  return 0;
}
