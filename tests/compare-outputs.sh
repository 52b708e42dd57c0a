#!/usr/bin/env bash
# Byte-for-byte comparison of what two ptxmm builds print: `ptxmm run` and `ptxmm races`, as text and as
# --json, on every project case (cases/litmus/ptx/*.litmus) and every peer test (../shared/peers: Dat3M's
# litmus corpus and NVIDIA's nvlitmus .test files, when that folder exists). Each run's stdout, stderr and exit
# status are recorded per file; volatile fields (herd's `Time NAME s` lines, JSON `time_ms`) are masked. A
# restructuring that claims "no behaviour change" must leave every byte of these outputs as it was.
#
#   tests/compare-outputs.sh --record DIR BINARY    record BINARY's outputs into DIR (e.g. a baseline in /tmp)
#   tests/compare-outputs.sh BINARY DIR             compare BINARY's outputs with a recorded DIR
#   tests/compare-outputs.sh BINARY OTHER_BINARY    compare two binaries
#
# Run it from the project root (the paths in the outputs are the ones passed, so both sides must use the same
# root). PEERS overrides the peer folder (default: ../shared/peers). Exit 0 when identical, 1 with a diff.
set -euo pipefail

usage() { sed -n '8,10p' "$0" | sed 's/^# *//' >&2; exit 2; }

peers=${PEERS:-../shared/peers}

# The test files, relative to the project root where possible.
inputs() {
  ls cases/litmus/ptx/*.litmus
  if [ -d "$peers" ]; then
    find "$peers/dat3m/litmus" -name '*.litmus' | LC_ALL=C sort
    find "$peers/mixedproxy/tests" -maxdepth 1 -name '*.test' | LC_ALL=C sort
  else
    echo "compare-outputs: $peers not found; comparing the project cases only" >&2
  fi
}

# record BINARY DIR: one file per (command, format, input) holding stdout, stderr and the exit status.
record() {
  local binary dir
  binary=$(realpath "$1")
  dir=$2
  mkdir -p "$dir"
  inputs >"$dir/inputs.txt"
  export binary dir
  # shellcheck disable=SC2016
  xargs -P "$(nproc)" -n 1 -d '\n' bash -c '
    f=$1
    key=$(printf "%s" "$f" | tr "/" "%")
    for cmd in run races; do
      for fmt in text json; do
        flags=(); [ "$fmt" = json ] && flags=(--json)
        status=0
        "$binary" "$cmd" "${flags[@]}" "$f" >"$dir/$cmd-$fmt.$key.out" 2>"$dir/$cmd-$fmt.$key.err" || status=$?
        echo "$status" >"$dir/$cmd-$fmt.$key.status"
        sed -i -E -e "s/^(Time [^ ]+) [0-9.eE+-]+$/\1 MASKED/" -e "s/\"time_ms\":[0-9.eE+-]+/\"time_ms\":MASKED/g" \
          "$dir/$cmd-$fmt.$key.out"
      done
    done' _ <"$dir/inputs.txt"
}

if [ "${1:-}" = --record ]; then
  [ $# -eq 3 ] || usage
  record "$3" "$2"
  echo "recorded $(wc -l <"$2/inputs.txt") inputs x 4 runs into $2"
  exit 0
fi
[ $# -eq 2 ] || usage
new=$(mktemp -d)
trap 'rm -rf "$new" ${old_tmp:+"$old_tmp"}' EXIT
record "$1" "$new"
if [ -d "$2" ]; then
  old=$2
else
  old_tmp=$(mktemp -d)
  record "$2" "$old_tmp"
  old=$old_tmp
fi
if diff -r "$old" "$new" >"$new.diff" 2>&1; then
  echo "identical: $(wc -l <"$new/inputs.txt") inputs x 4 runs (run/races, text/json; stdout, stderr, status)"
  rm -f "$new.diff"
else
  head -100 "$new.diff"
  echo "compare-outputs: DIFFERENT ($(grep -c '^diff ' "$new.diff" || true) files differ; full diff in $new.diff)"
  trap - EXIT
  exit 1
fi
