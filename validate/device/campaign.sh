#!/bin/sh
# One device call of a hardware campaign: optionally a parameter search (`ptxmm validate --tune`) on broken
# Hopper-era siblings first, then run.sh on each list named (one report each, 1 s per test and per sibling, seed
# 29), keeping under $OUT/PART only what the report needs (NAME.json, NAME.txt, stderr.txt: the device tool
# brings back at most 8 files). Needs the folder validate/device/prepare.sh fills and the lists PART in it.
# Usage: [TOOLS=DIR] [LIMIT=SECONDS] validate/device/campaign.sh NAME PARAMS|tune PART...
set -u
[ $# -ge 3 ] || { echo "usage: $0 NAME PARAMS|tune PART..." >&2; exit 2; }
name=$1
params=$2
shift 2
T=${TOOLS:-.tools/device}
export TOOLS=$T
base=${OUT:?set OUT to the folder the results go to (the device tool sets it)}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv
if [ "$params" = tune ]; then
  mkdir -p "$base/tune"
  P=cases/litmus/ptx
  work=$(mktemp -d)
  LD_LIBRARY_PATH=$PWD/$T/lib timeout 200 "$T/bin/ptxmm" validate --model model/cat/ptx.cat --tune --trials 6 --budget 6 --seed 21 \
    --out "$work" $P/HOP+cluster-barrier-rlx-nofence.litmus $P/HOP+bar.named-arrive-early.litmus \
    $P/HOP+bar.sync-smem-wrongcta.litmus $P/HOP+mbar-cluster-arrive+wait-default.litmus \
    $P/HOP+tma-load-wait-other-mbar.litmus $P/HOP+cp.async+plain-arrive.litmus >"$base/tune/tune.txt" 2>&1
  echo "tune rc $?"
  cat "$base/tune/tune.txt"
  cp "$work/tuned-params.json" "$base/tune/" || exit 1
  params=$base/tune/tuned-params.json
fi
for part in "$@"; do
  mkdir -p "$base/$part"
  OUT=$base/$part NAME=$name timeout "${LIMIT:-300}" sh validate/device/run.sh 1 --seed 29 --params "$params" $(cat "$T/$part") \
    >"$base/$part/log" 2>&1
  echo "part $part rc $?"
  grep -E '^(Test|Observation|Sibling|Verdict)' "$base/$part/log" | head -150
  rm -f "$base/$part/work.tar.gz" "$base/$part/log" "$base/$part/compile.txt" "$base/$part/gpu.csv"
  tail -5 "$base/$part/stderr.txt"
done
