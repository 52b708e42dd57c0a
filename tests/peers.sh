#!/usr/bin/env bash
# Runs a conformance suite over a peer corpus in ../shared/peers when that folder exists; otherwise says so and
# exits 77, which CTest reports as skipped (a fresh clone has no ../shared).
# Usage: peers.sh PTXMM PEERS_DIR RELATIVE [extra suite options...]
# RELATIVE is an expectations CSV (suite --expected) or a directory of nvlitmus .test files (suite --nvlitmus).
set -u
ptxmm=$1 peers=$2 relative=$3
shift 3
if [ -d "$peers/$relative" ]; then
  exec "$ptxmm" suite --nvlitmus "$peers/$relative" "$@"
fi
if [ ! -f "$peers/$relative" ]; then
  echo "SKIP: $peers/$relative not found (the peer corpora live in ../shared/peers beside the checkout)"
  exit 77
fi
exec "$ptxmm" suite --expected "$peers/$relative" "$@"
