#!/bin/sh
# The validate-compile-only test: `ptxmm validate --compile-only` on four cases (release/acquire message
# passing, weak store buffering, release/acquire load buffering, a CTA barrier). Exits 77 (skipped) when nvcc
# or cuobjdump is not installed; `make setup` installs cuobjdump into .tools/.
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
exec "$ptxmm" validate --compile-only --model model/cat/ptx.cat --out "$out" \
  cases/litmus/ptx/MP+rel+acq.litmus cases/litmus/ptx/SB+weak.litmus \
  cases/litmus/ptx/LB+acq+rel.litmus cases/litmus/ptx/MP+bar.sync+rel.litmus
