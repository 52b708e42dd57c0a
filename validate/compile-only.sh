#!/bin/sh
# The validate-compile-only test: `ptxmm validate --compile-only` (generation, nvcc, the SASS check of every role
# and of each forbidden test's allowed sibling) on cases that cover every instruction family the harness runs:
# release/acquire message passing, weak store buffering, release/acquire load buffering, a CTA barrier, and the
# Hopper-era forms (shared memory and DSMEM, mbarrier init/arrive/expect_tx/try_wait local and remote, cluster
# barriers aligned and not, cp.async with groups and mbarrier arrive, bulk copies and reductions to global and
# to DSMEM with bulk groups, TMA load and store, st.async, proxy, restricted and mbarrier_init fences, and threads
# sharing a warp: non-aligned barrier.sync with a count, bar.warp.sync from the lanes' different code). Exits 77
# (skipped) when nvcc or cuobjdump is not installed; `make setup` installs cuobjdump into .tools/.
# Usage: compile-only.sh PTXMM SOURCE_DIR
ptxmm=$1
root=$2
cuda=${CUDA_HOME:-/usr/local/cuda}
if ! command -v nvcc >/dev/null 2>&1 && [ ! -x "$cuda/bin/nvcc" ]; then
  echo "skipped: nvcc not found (CUDA_HOME, /usr/local/cuda/bin, PATH)"
  exit 77
fi
if ! command -v cuobjdump >/dev/null 2>&1 && [ ! -x "$cuda/bin/cuobjdump" ] &&
   [ ! -x "$root/.tools/cuobjdump/nvidia/cu13/bin/cuobjdump" ]; then
  echo "skipped: cuobjdump not found; run 'make setup'"
  exit 77
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$root" || exit 2
c=cases/litmus/ptx
exec "$ptxmm" validate --compile-only --model model/cat/ptx.cat --out "$out" \
  $c/MP+rel+acq.litmus $c/SB+weak.litmus $c/LB+acq+rel.litmus $c/MP+bar.sync+rel.litmus \
  $c/HOP+mbar-cluster-arrive-rel+wait-acq.litmus $c/HOP+cluster-barrier-default-pull+gmem.litmus \
  $c/HOP+cp.async.mbarrier.arrive.litmus $c/HOP+cp.async-wait_group+bar.sync.litmus \
  $c/HOP+bulk-reduce-dsmem+mbar.litmus $c/HOP+bulk-reduce+group.litmus $c/HOP+tma-load-wait-other-mbar.litmus \
  $c/HOP+tma-store+fence.proxy.async.litmus $c/HOP+tma-store-fence.proxy.async.global.litmus \
  $c/HOP+st.async+wait-rlx+fence.acq.restrict.litmus $c/HOP+pull-fence.rel.restrict+fence.acq.restrict.litmus \
  $c/HOP+warp-elected-arrive+warp.sync.litmus
