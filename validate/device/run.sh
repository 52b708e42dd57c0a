#!/bin/sh
# Runs on the device machine, from the repository root: `ptxmm validate` on the given litmus files with BUDGET
# seconds per test, writing into $OUT the text report (h100.txt), the JSON report (h100.json, one object per test
# as `--json` prints them, with the environment), nvidia-smi's view of the GPU, and the generated programs with
# their SASS (work.tar.gz). Needs .tools/device/ from validate/device/prepare.sh (carried with the call).
# Usage: validate/device/run.sh BUDGET [ptxmm validate options...] FILE...
set -u
[ $# -ge 2 ] || { echo "usage: $0 BUDGET [options] FILE..." >&2; exit 2; }
budget=$1
shift
tools=.tools/device
out=${OUT:?set OUT to the folder the results go to (the device tool sets it)}
work=$(mktemp -d)
mkdir -p "$out"
export LD_LIBRARY_PATH="$PWD/$tools/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv >"$out/gpu.csv" 2>&1
# Compile every test (and the allowed sibling of each forbidden one) in parallel first: the runs below reuse the
# binaries (app/hardware/CudaWorkbench.cpp) and check their SASS again, so the GPU time is spent running.
jobs=$(nproc 2>/dev/null || echo 4)
for f in "$@"; do case $f in *.litmus) printf '%s\n' "$f" ;; esac; done |
  xargs -P "$jobs" -n 2 "$tools/bin/ptxmm" validate --compile-only --model model/cat/ptx.cat --out "$work" \
  >"$out/compile.txt" 2>&1
"$tools/bin/ptxmm" validate --model model/cat/ptx.cat --budget "$budget" --out "$work" --report "$out/h100.json" "$@" \
  >"$out/h100.txt" 2>"$out/stderr.txt"
rc=$?
tar -czf "$out/work.tar.gz" -C "$work" . 2>/dev/null
cat "$out/h100.txt" "$out/stderr.txt"
echo "ptxmm validate exit code: $rc"
exit $rc
