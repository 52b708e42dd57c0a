#!/usr/bin/env bash
# Runs a conformance suite over a peer corpus in ../shared/peers when that folder exists; otherwise says so and
# exits 77, which CTest reports as skipped (a fresh clone has no ../shared).
# Usage: peers.sh PTXMM PEERS_DIR RELATIVE_CSV [extra suite options...]
set -u
ptxmm=$1 peers=$2 csv=$3
shift 3
if [ ! -f "$peers/$csv" ]; then
  echo "SKIP: $peers/$csv not found (the peer corpora live in ../shared/peers beside the checkout)"
  exit 77
fi
exec "$ptxmm" suite --expected "$peers/$csv" "$@"
