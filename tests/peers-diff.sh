#!/usr/bin/env bash
# Runs both engines on every litmus and nvlitmus (.test) file of a peer corpus in ../shared/peers (ptxmm diff); exits 77 (CTest:
# skipped) with a message when the folder does not exist.
# Usage: peers-diff.sh PTXMM PEERS_DIR RELATIVE_DIR
set -u
ptxmm=$1 peers=$2 dir=$3
if [ ! -d "$peers/$dir" ]; then
  echo "SKIP: $peers/$dir not found (the peer corpora live in ../shared/peers beside the checkout)"
  exit 77
fi
find "$peers/$dir" \( -name '*.litmus' -o -name '*.test' \) -print0 | sort -z | xargs -0 "$ptxmm" diff
