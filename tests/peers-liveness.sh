#!/usr/bin/env bash
# Checks ptxmm's liveness verdicts against every Dat3M-style liveness expectation file in the peer corpus
# (../shared/peers/dat3m/*liveness*.csv: path,1|0, 1 = every execution terminates). The progress model is read
# from the file name (fair, hsa, obe, hsa_obe, lobe, unfair; fair when it names none). Exits 77 (CTest: skipped)
# with a message when the peers or such files are absent.
# Usage: peers-liveness.sh PTXMM PEERS_DIR
set -u
ptxmm=$1 peers=$2
shopt -s nullglob
files=("$peers"/dat3m/*[Ll]iveness*.csv "$peers"/dat3m/*[Tt]ermination*.csv)
if [ ${#files[@]} -eq 0 ]; then
  echo "SKIP: no liveness expectations (*liveness*.csv) under $peers/dat3m"
  exit 77
fi
status=0
for f in "${files[@]}"; do
  name=$(basename "$f" | tr 'A-Z' 'a-z')
  model=fair
  for m in hsa_obe lobe obe hsa unfair fair; do
    case "$name" in *"$m"*) model=$m; break ;; esac
  done
  echo "== $f (--progress $model)"
  "$ptxmm" suite --liveness --progress "$model" --expected "$f" --root "$peers/dat3m" || status=1
done
exit $status
