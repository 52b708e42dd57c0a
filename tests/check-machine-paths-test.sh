#!/usr/bin/env bash
# The machine-path check must fail where a committed file names a machine's folder: it is run on a generated git
# repository holding one clean file and one that cites the spec by an absolute path; only the latter is reported.
# Usage: check-machine-paths-test.sh CHECKER
set -u
checker=$1
repo=$(mktemp -d)
trap 'rm -rf "$repo"' EXIT
fail() { echo "check-machine-paths-test: $*"; exit 1; }
git -C "$repo" init -q
printf '# derived from ../shared/spec/ptx-model.md\n' >"$repo/clean.expect"
git -C "$repo" add clean.expect
out=$("$checker" "$repo") || fail "a clean repository was refused: $out"
printf 'ok line\n# derived from /%s/dev/shared/spec/ptx-model.md\n' home >"$repo/bad.expect"  # (spelt apart: not a path here)
git -C "$repo" add bad.expect
out=$("$checker" "$repo")
status=$?
echo "$out"
[ $status -eq 1 ] || fail "expected exit 1, got $status"
grep -qF "bad.expect:2: a path of a particular machine" <<<"$out" || fail "bad.expect:2 not reported"
grep -qF "clean.expect" <<<"$out" && fail "clean.expect reported"
echo "check-machine-paths-test: the check reports a machine path and nothing else"
