#!/bin/bash
# --timeout in every command that checks (issue 16): a generated test that takes far longer than a second to
# decide (1,000 threads: minutes of unrolling, encoding and evaluation) is given --timeout 1 and must end UNKNOWN,
# exit 3, with the timeout as its reason, well within the bound below; never a verdict. `kernel` runs a spin-lock
# kernel of the corpus (cases/kernels/lock-cas-threadfence.cu) when nvcc is there, with the model given by --model:
# that turns off the bundled model's static rules (spin locks, may-order), so its slices take tens of seconds.
# --max-events gives the same UNKNOWN, from inside the unroller, and Z3 running out of memory. Usage:
# timeout-checks.sh PTXMM CASES_DIR.
set -u
B=$1 CASES=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
# --timeout 1 plus a margin for a loaded CI machine (the acceptance is 1 s; this is a hang detector, not a timer).
LIMIT=${PTXMM_TIMEOUT_CHECK_LIMIT:-10}
failures=0

# 1,000 threads each storing to its own location.
awk 'BEGIN {
  n = 1000
  print "PTX T1000"; print "\"many threads\""; printf "{"; for (i = 0; i < n; i++) printf " x%d=0;", i; print " }"
  for (i = 0; i < n; i++) printf "%sP%d@cta %d,gpu 0", (i ? " | " : ""), i, i; print " ;"
  for (i = 0; i < n; i++) printf "%sst.relaxed.gpu x%d, 1", (i ? " | " : ""), i; print " ;"
  print "exists (x0 == 1)"
}' > "$T/many.litmus"
printf 'many.litmus,1\n' > "$T/many.expect"

# check NAME PATTERN -- COMMAND...: COMMAND must exit 3 within LIMIT seconds, printing PATTERN (grep -E).
check() {
  local name=$1 pattern=$2; shift 3
  local start end rc took
  start=$(date +%s.%N)
  timeout -k 2 "$LIMIT" "$@" > "$T/out" 2>&1; rc=$?
  end=$(date +%s.%N)
  took=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
  if [ "$rc" != 3 ] || ! grep -qE -- "$pattern" "$T/out"; then
    echo "FAIL $name: exit $rc (want 3) after $took s (limit $LIMIT s); output:"; head -c 800 "$T/out"; echo
    failures=$((failures + 1))
  else
    echo "ok   $name: exit 3 after $took s"
  fi
}

for engine in z3 explicit; do
  check "run-$engine"   'timeout after 1 s' -- "$B" run --engine "$engine" --timeout 1 "$T/many.litmus"
  check "races-$engine" 'UNKNOWN \(timeout after 1 s' -- "$B" races --engine "$engine" --timeout 1 "$T/many.litmus"
  check "suite-$engine" 'timeout after 1 s' -- "$B" suite --engine "$engine" --timeout 1 --expected "$T/many.expect"
done
check diff 'INCONCLUSIVE .*timeout after 1 s' -- "$B" diff --timeout 1 "$T/many.litmus"
# --max-events is checked while unrolling: the unroller stops at the bound (1,000 initial writes and 100 stores),
# not after all 2,000 events.
check max-events-run 'more than --max-events 1100 events \(unrolling stopped at 110[0-9]\)' -- "$B" run --max-events 1100 "$T/many.litmus"
check max-events-diff 'INCONCLUSIVE .*more than --max-events 1100' -- "$B" diff --max-events 1100 "$T/many.litmus"

# Z3's own out-of-memory error is UNKNOWN like ptxmm's (it was exit 4, "internal error: out of memory"): 80 threads
# storing to and loading from 4 locations, under a memory bound that the Z3 encoding exceeds. --max-memory has no
# effect under AddressSanitizer (MemoryLimit.hpp), so the check is skipped there.
awk 'BEGIN {
  n = 80
  print "PTX T80"; print "\"loads and stores\""; print "{ x0=0; x1=0; x2=0; x3=0; }"
  for (i = 0; i < n; i++) printf "%sP%d@cta %d,gpu 0", (i ? " | " : ""), i, i; print " ;"
  for (i = 0; i < n; i++) printf "%sst.relaxed.gpu x%d, 1", (i ? " | " : ""), i % 4; print " ;"
  for (i = 0; i < n; i++) printf "%sld.relaxed.gpu r0, x%d", (i ? " | " : ""), (i + 1) % 4; print " ;"
  print "exists (x0 == 1)"
}' > "$T/loads.litmus"
if grep -q __asan_init "$B"; then
  echo "skipped z3-out-of-memory: AddressSanitizer build"
else
  check z3-out-of-memory 'Reason: out of memory' -- "$B" run --no-liveness --max-memory 150M "$T/loads.litmus"
fi

KERNEL=$CASES/kernels/lock-cas-threadfence.cu
if command -v nvcc > /dev/null || [ -x /usr/local/cuda/bin/nvcc ] || [ -n "${CUDA_HOME:-}" ]; then
  eval "launch=($(sed -n 's/^\/\/ ptxmm-launch: //p' "$KERNEL"))"
  check kernel 'timeout' -- "$B" kernel "$KERNEL" "${launch[@]}" --model "$CASES/../model/cat/ptx.cat" --timeout 1
else
  echo "skipped kernel: no nvcc"
fi

[ "$failures" = 0 ] && echo "all --timeout checks passed" || echo "$failures --timeout check(s) failed"
[ "$failures" = 0 ]
