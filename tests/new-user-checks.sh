#!/bin/bash
# What a new user meets on the command line (issue 14 scope 3), checked on the real executable: directories given to
# `run` and `races` and the summary of a batch. Test files are written into a temporary folder. Usage: new-user-checks.sh PTXMM.
set -u
B=$1
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

if [ "$failures" -gt 0 ]; then echo "$failures check(s) failed"; exit 1; fi
echo "all checks passed"
