#!/usr/bin/env python3
"""Writes the Triton cases: each kernel of kernels.py compiled by Triton for sm_90a (no GPU needed), its PTX
saved as triton-NAME.ptx behind the header tests/kernels/run-cases.py reads (the launch and the verdicts derived
in kernels.py). Triton is not a project dependency: run this by hand after changing kernels.py, with Triton
from PyPI (`python3 -m venv VENV && VENV/bin/pip install triton && VENV/bin/python generate.py`); the
generated files are committed, so the tests need only ptxmm. The `.file` entries are made relative (the PTX
names kernels.py, next to it) and the DWARF .debug_info section (it holds the compile directory) is left out, so
no machine's folders are written down.
"""
import os
import re
import sys

import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernels  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
I32 = "*i32"

# name: (kernel, signature, constexprs, num_warps, launch, expectations)
CASES = {
    "vector-add": (kernels.add_kernel, {"x": I32, "y": I32, "out": I32, "n": "i32", "BLOCK": "constexpr"}, {"BLOCK": 128}, 4,
                   "--grid 2 --block 128 --arg param_0=int32[256]=1,2 --arg param_1=int32[256]=10,10 --arg param_2=int32[256] "
                   "--arg param_3=200 --assert 'param_2[0]==11 && param_2[1]==12 && param_2[199]==0 && param_2[200]==0'",
                   ["race-free", "assert holds", "exit 0"]),
    "histogram": (kernels.hist_kernel, {"x": I32, "bins": I32, "n": "i32", "BLOCK": "constexpr"}, {"BLOCK": 128}, 4,
                  "--grid 2 --block 128 --arg param_0=int32[256]=1,2,3,1 --arg param_1=int32[4] --arg param_2=200 "
                  "--assert 'param_1[0]==196 && param_1[1]==2 && param_1[2]==1 && param_1[3]==1'",
                  ["race-free", "assert holds", "exit 0"]),
    "warp-sum": (kernels.warp_sum_kernel, {"x": I32, "out": I32, "BLOCK": "constexpr"}, {"BLOCK": 32}, 1,
                 "--grid 1 --block 32 --arg param_0=int32[32]=1,2,3 --arg param_1=int32[1] --assert 'param_1[0]==6'",
                 ["race-free", "assert holds", "exit 0"]),
    "block-sum": (kernels.block_sum_kernel, {"x": I32, "out": I32, "BLOCK": "constexpr"}, {"BLOCK": 256}, 4,
                  "--grid 1 --block 128 --arg param_0=int32[256]=1,2,3 --arg param_1=int32[1] --arg global_smem=int32[4] "
                  "--assert 'param_1[0]==6'",
                  ["race 50 50 no-synchronisation", "assert holds", "exit 1"]),
    "overlapping-store": (kernels.overlap_kernel, {"out": I32, "BLOCK": "constexpr"}, {"BLOCK": 64}, 2,
                          "--grid 2 --block 64 --arg param_0=int32[64] --assert 'param_0[0]==0 || param_0[0]==1' "
                          "--observe 'param_0[0]'",
                          ["race 60 60 no-synchronisation", "assert holds", "observe param_0[0] 0,1", "exit 1"]),
    "ticket-slots": (kernels.ticket_kernel, {"count": I32, "slots": I32, "tickets": I32}, {}, 1,
                     "--grid 4 --block 32 --arg param_0=int32[1] --arg param_1=int32[8] --arg param_2=int32[4] "
                     "--assert 'param_0[0]==4 && param_1[4]==0' --observe 'param_1[0]' --observe 'param_2[0]'",
                     ["race-free", "assert holds", "observe param_1[0] 1,2,3,4", "observe param_2[0] 0,1,2,3", "exit 0"]),
}


def main():
    target = GPUTarget("cuda", 90, 32)
    for name, (fn, signature, constexprs, warps, launch, expect) in CASES.items():
        compiled = triton.compile(ASTSource(fn=fn, signature=signature, constexprs=constexprs), target=target,
                                  options={"num_warps": warps})
        ptx = re.sub(r'(\.file\s+\d+\s+")[^"]*/([^"/]+")', r"\1\2", compiled.asm["ptx"])
        # .debug_info spells the compile directory byte by byte; ptxmm reads .loc/.file only, so it goes.
        ptx = re.sub(r"\t\.section\t\.debug_info\n\t\{\n.*?\n\t\}\n", "", ptx, flags=re.S)
        header = [f"// Triton {triton.__version__}: {fn.__name__} of kernels.py, num_warps={warps} (generate.py; the",
                  "// verdicts are derived in kernels.py)", f"// ptxmm-launch: {launch}"]
        header += [f"// ptxmm-expect: {e}" for e in expect]
        header += [f"// ptxmm-source: kernels.py"]
        with open(os.path.join(HERE, f"triton-{name}.ptx"), "w") as f:
            f.write("\n".join(header) + "\n" + ptx)
        print(f"triton-{name}.ptx: shared memory {compiled.metadata.shared} bytes")


if __name__ == "__main__":
    main()
