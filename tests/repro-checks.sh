#!/bin/bash
# The adversarial reproducers of issue 16 (../shared/repro, not part of the repository), each with the answer, exit
# code and time bound it must meet now: a verdict or exit 2/3 with a message, never a signal or exit 4, within
# --timeout plus a margin. Generated inputs (include chains, 100,000 lets) are written into a temporary folder.
# Usage: repro-checks.sh PTXMM REPRO_DIR CASES_DIR. Exit 77 (skipped) when REPRO_DIR does not exist.
set -u
B=$1 R=$2 CASES=$3
if [ ! -d "$R" ]; then echo "skipped: no reproducers at $R"; exit 77; fi
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
# The time bound for a --timeout 5 run: the acceptance is timeout + 1 s; the margin covers a loaded CI machine.
SLACK=${PTXMM_REPRO_SLACK:-2}
failures=0

# check NAME EXIT SECONDS PATTERN -- COMMAND...: runs COMMAND (address space capped at 8 GB), expects exit EXIT
# within SECONDS and PATTERN (grep -E) in its output.
check() {
  local name=$1 want=$2 limit=$3 pattern=$4; shift 5
  local start end rc
  start=$(date +%s.%N)
  ( ulimit -v 8000000; timeout -k 2 "$limit" "$@" > "$T/out" 2>&1 ); rc=$?
  end=$(date +%s.%N)
  local took; took=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
  if [ "$rc" != "$want" ] || ! grep -qE -- "$pattern" "$T/out"; then
    echo "FAIL $name: exit $rc (want $want) after $took s (limit $limit s); output:"; head -c 600 "$T/out"; echo
    failures=$((failures + 1))
  else
    echo "ok   $name: exit $rc, $took s"
  fi
}

check D1a-tx32k          1 60 'No'                 -- "$B" run "$R/D1a-mbarrier-tx32k-wrong-pass.litmus"
check D1a-tx32k-explicit 1 60 'No'                 -- "$B" run --engine explicit "$R/D1a-mbarrier-tx32k-wrong-pass.litmus"
check D1b-tx32768        0 60 'P0:p=1'             -- "$B" run "$R/D1b-mbarrier-tx32768.litmus"
check D1c-count-65537    1 60 'P0:p=0'             -- "$B" run "$R/D1c-mbarrier-count-65537.litmus"
check D2-letrec-z3       2 60 'not monotone'       -- "$B" run --model "$R/D2-letrec-nonmonotone.cat" "$R/mp.litmus"
check D2-letrec-explicit 2 60 'not monotone'       -- "$B" run --engine explicit --timeout 5 --model "$R/D2-letrec-nonmonotone.cat" "$R/mp.litmus"
check D3-shl-64          0 60 'x=0;'               -- "$B" run "$R/D3-shl-64.litmus"
check D4-register-typo   2 60 "unknown register 'r11'" -- "$B" run "$R/D4-condition-register-typo.litmus"
# D5: no execution exists because the poll waits for a value nobody writes; the liveness check (issue 13) names the
# hang, which is what makes the former silent PASS visible (run and suite exit 1).
check D5-vacuous-run     1 60 'Hang spin'          -- "$B" run "$R/D5-vacuous-pass.test"
check D5-vacuous-suite   1 60 'a hang the expectation does not mention' -- "$B" suite --nvlitmus "$R/D5-vacuous-pass.test"
check D6-bar-count-48    2 60 'multiple of'        -- "$B" run "$R/D6-bar-count-48.litmus"
check C1-200k-conjuncts  1 60 'No'                 -- "$B" run "$R/C1-condition-200k-conjuncts.litmus"
check C1-200k-explicit   1 60 'No'                 -- "$B" run --engine explicit "$R/C1-condition-200k-conjuncts.litmus"
check C2-5000-explicit   0 60 'Ok'                 -- "$B" run --engine explicit "$R/C2-explicit-5000-instructions.litmus"
check C3a-20000-lets     0 60 'Ok'                 -- "$B" run --model "$R/C3a-cat-20000-let-chain.cat" "$R/mp.litmus"
sh "$R/C3b-gen-include-chain.sh" "$T/includes" 300 > /dev/null
check C3b-300-includes   2 60 'nested too deeply'  -- "$B" run --model "$T/includes/top.cat" "$R/mp.litmus"
check C4-suite-threads   0 120 'passed'            -- bash -c "ulimit -v 3000000; exec '$B' suite --expected '$R/ok.expect' --root '$CASES' -j 1000"
check C5-json-utf8       1 60 '"engine":"z3"'      -- "$B" run --json "$R/C5-json-invalid-utf8.litmus"
python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$T/out" || { echo "FAIL C5: not JSON"; failures=$((failures + 1)); }
touch "$T/not-a-folder"
check C6-graph-file      2 60 'cannot create the folder' -- "$B" run --graph "$T/not-a-folder" --show all "$R/mp.litmus"
check H1a-unroll20       3 $((5 + SLACK)) 'Unknown' -- "$B" run --unroll 20 --timeout 5 "$R/H1a-timeout-ignored-nested-loops.litmus"
check H1b-1000-threads   3 $((5 + SLACK)) 'Unknown' -- "$B" run --timeout 5 "$R/H1b-timeout-ignored-1000-threads.litmus"
check H2-teardown        0 $((1 + SLACK)) 'Ok'      -- "$B" run --timeout 5 "$R/H2-exit-teardown-10000-instructions.litmus"
awk 'BEGIN { print "\"lets\""; for (i = 0; i < 100000; i++) print "let r" i " = po | rf"; print "acyclic po as sane" }' > "$T/lets.cat"
check H4-100k-lets       0 $((3 + SLACK)) 'Ok'      -- "$B" run --model "$T/lets.cat" "$R/mp.litmus"
check M1-10000-locations 3 $((5 + SLACK)) 'Unknown' -- "$B" run --timeout 5 "$R/M1-memory-10000-locations.litmus"
check M1-max-memory      3 60 'out of memory'      -- "$B" run --max-memory 1G "$R/M1-memory-10000-locations.litmus"
check M1-kernel-memory   3 120 'memory bound ran out' -- "$B" kernel "$CASES/kernels/latch-block.cu" --grid 2 --block 128 --arg out=int32[256] --assert 'out[0]==7' --max-memory 100M
for bad in nan inf -1 abc; do
  check "timeout-$bad"   2 60 'expected a number of seconds' -- "$B" run --timeout "$bad" "$R/mp.litmus"
done
check U1-report-missing-dir 2 60 'does not exist'  -- "$B" suite --expected "$R/ok.expect" --root "$CASES" --report /nonexistent/dir/r.json
check U1-report-dev-full 2 60 "cannot write '/dev/full'" -- "$B" suite --expected "$R/ok.expect" --root "$CASES" --report /dev/full
check U1-expected-dir    2 60 'is a directory'     -- "$B" suite --expected "$T" --root "$CASES"
check U1-stdout-full     2 60 'cannot write standard output' -- bash -c "'$B' run '$R/mp.litmus' 2>&1 > /dev/full"
cp "$R/ok.expect" "$T/ok.expect"
check U1-report-is-expected 2 60 'would overwrite' -- "$B" suite --expected "$T/ok.expect" --root "$CASES" --report "$T/ok.expect"
cmp -s "$R/ok.expect" "$T/ok.expect" || { echo "FAIL: the expectations file was overwritten"; failures=$((failures + 1)); }
# U5: concurrent suites sharing one report never leave it torn.
printf 'litmus/ptx/MP+rel+acq.litmus,0\nlitmus/ptx/MP+rel+acq.litmus,0\n' > "$T/two.expect"
torn=0
for i in $(seq 1 20); do
  "$B" suite --expected "$T/two.expect" --root "$CASES" -j 2 --report "$T/shared.json" > /dev/null 2>&1 &
  "$B" suite --expected "$R/ok.expect" --root "$CASES" -j 2 --report "$T/shared.json" > /dev/null 2>&1 &
  wait
  python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/shared.json" 2> /dev/null || torn=$((torn + 1))
done
if [ "$torn" != 0 ]; then echo "FAIL U5: $torn torn reports in 20 rounds"; failures=$((failures + 1)); else echo "ok   U5-report-race: 20 rounds"; fi

echo "$failures failed"
[ "$failures" = 0 ]
