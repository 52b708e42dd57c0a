#!/bin/sh
# Runs on the device machine, from the repository root: `ptxmm validate` on the given litmus files with BUDGET
# seconds per test, writing into $OUT the text report (NAME.txt), the JSON report (NAME.json, one object per test
# as `--json` prints them, with the environment), nvidia-smi's view of the GPU, and the generated programs with
# their SASS (work.tar.gz). NAME is $NAME (default h100). Needs the folder validate/device/prepare.sh fills
# (carried with the call): $TOOLS, default .tools/device.
# Usage: [NAME=h200] [TOOLS=DIR] validate/device/run.sh BUDGET [ptxmm validate options...] FILE...
set -u
[ $# -ge 2 ] || { echo "usage: $0 BUDGET [options] FILE..." >&2; exit 2; }
budget=$1
shift
tools=${TOOLS:-.tools/device}
name=${NAME:-h100}
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
"$tools/bin/ptxmm" validate --model model/cat/ptx.cat --budget "$budget" --out "$work" --report "$out/$name.json" "$@" \
  >"$out/$name.txt" 2>"$out/stderr.txt"
rc=$?
tar -czf "$out/work.tar.gz" -C "$work" . 2>/dev/null
cat "$out/$name.txt" "$out/stderr.txt"
echo "ptxmm validate exit code: $rc"
exit $rc
