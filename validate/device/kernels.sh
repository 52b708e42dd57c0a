#!/bin/sh
# The kernel cases (cases/kernels/*.cu, issue 18) as programs on a GPU: a sanity check of the verdicts `ptxmm
# kernel` is measured against. Each case has a small main that launches the header's configuration, waits with a
# watchdog (host.cuh: a kernel still running after 10 s prints HANG and exits 3) and prints `name[i]=value` lines.
#   build DEST [CASE...]  (here, with nvcc) compiles every case (or the named ones: file names without .cu) with
#                     nvcc -arch=sm_90a into DEST/bin/CASE, linked against the shared CUDA runtime, which is copied
#                     into DEST/lib (the folder stays small enough to be carried to the device machine)
#   run DEST [RUNS]   (on the device machine) runs every DEST/bin/CASE RUNS times (default 10; after a hang or a
#                     failure once), the cases 8 at a time, and writes into $OUT/kernels.txt, per case and per
#                     distinct output, `== CASE rc RC runs N` followed by what it printed (stdout and stderr);
#                     nvidia-smi's view of the GPU first
# validate/device/kernels_table.py reads that file and writes the GPU column of cases/kernels/README.md.
# Usage: validate/device/kernels.sh build DEST [CASE...] | run DEST [RUNS]
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 2 ] || { echo "usage: $0 build DEST [CASE...] | run DEST [RUNS]" >&2; exit 2; }
mode=$1
dest=$2
case $mode in
build)
  nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
  [ -x "$nvcc" ] || { echo "nvcc not found (set NVCC)" >&2; exit 2; }
  mkdir -p "$dest/bin" "$dest/lib"
  fails=0
  shift 2
  files=$(if [ $# -gt 0 ]; then for c in "$@"; do echo "$root/cases/kernels/$c.cu"; done; else ls "$root"/cases/kernels/*.cu; fi)
  for f in $files; do
    c=$(basename "$f" .cu)
    if ! "$nvcc" -arch=sm_90a -O2 -cudart shared -o "$dest/bin/$c" "$f" 2>"$dest/$c.err"; then
      echo "FAIL $c"; cat "$dest/$c.err"; fails=$((fails + 1))
    fi
    rm -f "$dest/$c.err"
  done
  cp -L "$(dirname "$nvcc")/../lib64/libcudart.so.13" "$dest/lib/"
  echo "$(ls "$dest/bin" | wc -l) programs built, $fails failed"
  du -sh "$dest"
  [ "$fails" -eq 0 ]
  ;;
run)
  out=${OUT:?set OUT to the folder the results go to (the device tool sets it)}
  runs=${3:-10}
  dest=$(cd "$dest" && pwd)
  export LD_LIBRARY_PATH="$dest/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  work=$(mktemp -d)
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv >"$out/kernels.txt" 2>&1
  start=$(date +%s)
  # One case: RUNS runs, each output (with its exit code) counted once per distinct text.
  export runs work
  ls "$dest/bin" | xargs -P 8 -I{} sh -c '
    c={}; bin=$0/bin/$c; i=0
    while [ $i -lt "$runs" ]; do
      timeout 60 "$bin" >"$work/$c.cur" 2>&1; rc=$?
      printf "rc %s\n" $rc >>"$work/$c.cur"
      h=$(md5sum <"$work/$c.cur" | cut -c1-12)
      [ -f "$work/$c.$h" ] || cp "$work/$c.cur" "$work/$c.$h"
      echo "$h" >>"$work/$c.seen"
      i=$((i + 1))
      [ $rc -eq 0 ] || break
    done' "$dest"
  for c in $(ls "$dest/bin"); do
    sort "$work/$c.seen" | uniq -c | while read -r n h; do
      rc=$(tail -1 "$work/$c.$h" | cut -d" " -f2)
      echo "== $c rc $rc runs $n"
      sed '$d' "$work/$c.$h"
    done
  done >>"$out/kernels.txt"
  echo "$(ls "$dest/bin" | wc -l) cases, $runs runs each, $(($(date +%s) - start)) s" | tee -a "$out/kernels.txt"
  grep '^== ' "$out/kernels.txt"
  ;;
*) echo "usage: $0 build DEST [CASE...] | run DEST [RUNS]" >&2; exit 2 ;;
esac
