#!/bin/bash
# What a new user meets on the command line (issue 14 scope 3), checked on the real executable: directories given to
# `run` and `races` and the summary of a batch, warnings for names never declared nor written, notes in plain
# words, the line saying what the Test header's Allowed/Required mean, --explain on an allowed outcome, readable
# Hopper executions and graphs. Test files are written into a temporary folder. Usage: new-user-checks.sh PTXMM.
set -u
B=$1
CASES=$(cd "$(dirname "$0")/../cases/litmus/ptx" && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
failures=0

# check NAME EXIT PATTERN [--stdout|--stderr] -- COMMAND...: runs COMMAND, expects exit EXIT and PATTERN (grep -E)
# in its output (both streams, or the one named).
check() {
  local name=$1 want=$2 pattern=$3 stream=both; shift 3
  if [ "$1" != -- ]; then stream=${1#--}; shift; fi
  shift
  "$@" > "$T/stdout" 2> "$T/stderr"; local rc=$?
  cat "$T/stdout" "$T/stderr" > "$T/both"
  if [ "$rc" != "$want" ] || ! grep -qE -- "$pattern" "$T/$stream"; then
    echo "FAIL $name: exit $rc (want $want), no /$pattern/ in $stream; output:"; head -c 1500 "$T/both"; echo
    failures=$((failures + 1))
  else
    echo "ok   $name"
  fi
}

# refute NAME PATTERN [--stdout|--stderr] -- COMMAND...: PATTERN must not be in the output (whatever the exit).
refute() {
  local name=$1 pattern=$2 stream=both; shift 2
  if [ "$1" != -- ]; then stream=${1#--}; shift; fi
  shift
  "$@" > "$T/stdout" 2> "$T/stderr"
  cat "$T/stdout" "$T/stderr" > "$T/both"
  if grep -qE -- "$pattern" "$T/$stream"; then
    echo "FAIL $name: /$pattern/ in $stream:"; grep -E -- "$pattern" "$T/$stream" | head -5
    failures=$((failures + 1))
  else
    echo "ok   $name"
  fi
}

mkdir -p "$T/tests/sub" "$T/empty"
cat > "$T/tests/ok.litmus" <<'LITMUS'
PTX ok
{
 x=0; flag=0;
}
 P0@cta 0,gpu 0         | P1@cta 1,gpu 0          ;
 st.relaxed.gpu x, 1    | ld.acquire.gpu r0, flag ;
 st.release.gpu flag, 1 | ld.relaxed.gpu r1, x    ;
exists (P1:r0 == 1 /\ P1:r1 == 1)
LITMUS
# The same test with the flag misspelt in P1: it reads a location nobody declares or writes, so the outcome is gone.
sed -e 's/^PTX ok/PTX typo/' -e 's/r0, flag ;/r0, flga ;/' "$T/tests/ok.litmus" > "$T/tests/sub/typo.litmus"
echo 'not a test' > "$T/tests/notes.txt"

# Directories: every .litmus/.test file under them, sorted, the exit code the most severe (1: typo's claim fails).
check dir-run          1 '^Test ok Allowed' --stdout -- "$B" run "$T/tests"
check dir-run-order    0 '^Test ok Allowed Test typo Allowed$' --stdout -- \
  bash -c "'$B' run '$T/tests' | grep '^Test ' | paste -sd' '"
check dir-races        0 '^typo: race-free' --stdout -- "$B" races "$T/tests"
check dir-summary      1 '^Summary: 2 tests: 1 Ok, 1 No \(a claim fails or a hang\), 0 Unknown, 0 Error$' --stdout -- \
  "$B" run "$T/tests"
check dir-races-sum    0 '^Summary: 2 tests: 2 race-free, 0 with races, 0 Unknown, 0 Error$' --stdout -- "$B" races "$T/tests"
refute one-no-summary  '^Summary' -- "$B" run "$T/tests/ok.litmus"
refute json-no-summary '^Summary' -- "$B" run --json "$T/tests"
check dir-empty        2 "empty:0:0: error: the directory holds no test file" --stderr -- "$B" run "$T/empty"
check dir-empty-races  2 "the directory holds no test file" --stderr -- "$B" races "$T/empty" "$T/tests"
check dir-empty-others 2 '^Test typo Allowed' --stdout -- "$B" run "$T/empty" "$T/tests"

# Warnings name the misspelt location and the declared one it is closest to, on stderr; the verdict is unchanged
# (typo's claim fails: exit 1 as without the warning) and JSON carries them too.
check typo-warning     1 "sub/typo.litmus:6:46: warning: P1 reads location 'flga', which is neither declared nor written by any thread, so it reads 0 \\(did you mean 'flag'\\?\\)" --stderr -- \
  "$B" run "$T/tests/sub/typo.litmus"
check typo-json        1 '"warnings":\["[^"]*typo.litmus:6:46: warning: P1 reads location' --stdout -- "$B" run --json "$T/tests/sub/typo.litmus"
refute ok-no-warning   'warning' --stderr -- "$B" run "$T/tests/ok.litmus"
sed -e 's/^PTX ok/PTX regtypo/' -e 's/st.release.gpu flag, 1 |/st.release.gpu flag, r9 |/' "$T/tests/ok.litmus" > "$T/regtypo.litmus"
check reg-warning      1 "regtypo.litmus:7:23: warning: P0 reads register 'r9' before any instruction writes it" --stderr -- \
  "$B" run "$T/regtypo.litmus"

# What the Test header's words mean: one line after the text reports (and in `run --help`), not in JSON.
check header-key       0 '^Key: as in herd, `Test NAME Allowed` heads a test whose condition is `exists P` or `~exists P`' \
  --stdout -- "$B" run "$T/tests/ok.litmus"
check header-key-help  0 'Key: as in herd' --stdout -- "$B" run --help
refute header-key-json '^Key:' -- "$B" run --json "$T/tests/ok.litmus"

# --explain on an outcome the model allows: an execution reaching it (both engines; the forbidden case is unchanged).
for engine in z3 explicit; do
  check explain-allowed-$engine 0 'Explanation: \(P1:r0 == 1 /\\ P1:r1 == 1\) is allowed; an execution the model permits' \
    --stdout -- "$B" run --explain --engine $engine "$T/tests/ok.litmus"
  check explain-witness-$engine 0 'ld.relaxed.gpu r1, x +R x = 1 +from e' --stdout -- \
    "$B" run --explain --engine $engine "$T/tests/ok.litmus"
done
check explain-forbidden 1 'is forbidden; smallest sets of axioms whose removal permits it: \{Causality\}' --stdout -- \
  "$B" run --explain "$CASES/MP+rel+acq.litmus"
check explain-json      0 '"explanation":\{"allowed":"\(P1:r0 == 1' --stdout -- "$B" run --explain --json "$T/tests/ok.litmus"
mkdir -p "$T/graphs"
check explain-graph     0 'graph: .*ok-allowed' --stdout -- \
  "$B" run --explain --graph "$T/graphs" --show forbidden "$T/tests/ok.litmus"

# An mbarrier's value reads as its fields: the init writes phase 0 with one arrival pending, the arrive completes
# the phase (phase 1, re-armed).
check mbarrier-fields  0 'mbarrier.init.shared::cta.b64 \[b\], 1 +W b = \{phase 0, pending 1 of 1, tx 0\}' --stdout -- \
  "$B" run --explain "$CASES/HOP+mbar-cluster-arrive+wait-default.litmus"
check mbarrier-phase   0 'mbarrier.arrive.shared::cluster.b64 _, \[b\] +W b = \{phase 1, pending 1 of 1, tx 0\}' --stdout -- \
  "$B" run --explain "$CASES/HOP+mbar-cluster-arrive+wait-default.litmus"

# Graphs of Hopper tests: long instructions wrapped, mbarrier values as fields.
mkdir -p "$T/hop"
"$B" run --graph "$T/hop" --show all "$CASES/HOP+mbar-cluster-arrive+wait-default.litmus" > /dev/null 2>&1
check graph-wrapped    0 'mbarrier.arrive.shared::cluster.b64\\n_, \[b\]' -- cat "$T/hop/HOP+mbar-cluster-arrive+wait-default-0.dot"
check graph-mbarrier   0 'W b = \{phase 1, pending 1 of 1, tx 0\}' -- cat "$T/hop/HOP+mbar-cluster-arrive+wait-default-0.dot"

# Notes in plain words: a verdict that depends on reading A6, and a test without any execution.
check note-mbarrier    0 'Note: the verdict depends on a point the PTX text leaves open \(spec A6\): whether mbarrier operations' \
  --stdout -- "$B" run "$CASES/HOP+mbar-cluster-arrive+wait-default.litmus"
check note-vacuous     1 'Note: the model permits no execution of this test at all, so the condition is decided vacuously' \
  --stdout -- "$B" run --no-liveness "$CASES/BAR+deadlock-crossed.litmus"

if [ "$failures" -gt 0 ]; then echo "$failures check(s) failed"; exit 1; fi
echo "all checks passed"
