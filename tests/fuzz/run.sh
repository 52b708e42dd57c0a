#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan+UBSan) and fuzzes one reader for a while.
# Usage: tests/fuzz/run.sh litmus|cat|nvlitmus|ptx|options SECONDS
# Seeds: the project's cases (litmus), model/cat (cat), tests/fuzz/seeds/nvlitmus (nvlitmus) or the PTX reader's
# fixtures (ptx), plus every regression input. New crashes are written
# to build-fuzz/crashes/<target>/; copy each (after fixing the bug) to tests/fuzz/regressions/<target>/ so the
# unit tests replay it forever.
set -euo pipefail
cd "$(dirname "$0")/../.."
target=$1 seconds=$2
command -v clang++ >/dev/null || { echo "clang++ is missing: sudo apt-get install -y clang libclang-rt-14-dev"; exit 2; }
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPTXMM_FUZZ=ON \
  -DPTXMM_SANITIZE=ON >/dev/null
cmake --build build-fuzz --target "${target}_fuzzer"
corpus=build-fuzz/corpus/$target crashes=build-fuzz/crashes/$target
mkdir -p "$corpus" "$crashes"
case $target in
  litmus) cp cases/litmus/ptx/*.litmus "$corpus"/ ;;
  cat) cp model/cat/*.cat "$corpus"/ ;;
  nvlitmus) cp tests/fuzz/seeds/nvlitmus/*.test "$corpus"/ ;;
  ptx) cp tests/unit/frontend/ptx/fixtures/*.ptx "$corpus"/ ;;
  options) printf 'run\0--timeout\0nan\0a.litmus' > "$corpus/timeout"; printf 'suite\0--expected\0e\0-j\0%s' 0 > "$corpus/suite" ;;
  *) echo "unknown target $target (litmus, cat, nvlitmus, ptx or options)"; exit 2 ;;
esac
cp tests/fuzz/regressions/$target/* "$corpus"/ 2>/dev/null || true
"build-fuzz/tests/fuzz/${target}_fuzzer" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
  -artifact_prefix="$crashes/" -print_final_stats=1
