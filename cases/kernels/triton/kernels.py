# Triton kernels whose PTX (generate.py writes it beside this file) ptxmm reads as Triton emits it for sm_90a:
# braces around every scalar ld/st operand, .ptr parameters, dynamic `global_smem`, redux.sync and shuffles,
# predicated (masked) accesses, inline-asm atomics. Each kernel's verdict is derived here from the PTX model
# (../shared/spec/ptx-model.md) and the PTX Triton emits (read it next to this file); generate.py turns the
# verdicts into each .ptx file's `// ptxmm-launch:` / `// ptxmm-expect:` header for tests/kernels/run-cases.py.
import triton
import triton.language as tl


# triton-vector-add (2 programs x 128 threads, n = 200): thread t of program p owns element 128p + t; the mask
# keeps elements >= 200 untouched. No two threads access one element, so nothing conflicts: race-free, and
# out[i] = x[i] + y[i] below n, 0 above (global memory is zero-initialised by ptxmm and by the test's host).
@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=m) + tl.load(y + offs, mask=m), mask=m)


# triton-histogram (2 programs x 128 threads, n = 200): every bin update is one atom.add (Triton's default
# atomic_add: .acq_rel, .gpu scope); atomics of one location are morally strong with each other (§2.4), so the
# updates never race and none is lost: with x = 1,2,3,1 and zeros, bins[1] = 2, bins[2] = 1, bins[3] = 1 and
# bins[0] = 196 (the other elements below n). Masked-off elements touch nothing.
@triton.jit
def hist_kernel(x, bins, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n, other=0)
    tl.atomic_add(bins + v, 1, mask=offs < n)


# triton-warp-sum (1 program x 32 threads, one warp): tl.sum over a warp is shuffles/redux.sync only, no shared
# memory; thread 0 alone (Triton predicates the atomic on tid == 0) adds the total with one atom.add: nothing
# conflicts, out[0] = 1 + 2 + 3 = 6.
@triton.jit
def warp_sum_kernel(x, out, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    tl.atomic_add(out, tl.sum(v, axis=0))


# triton-block-sum (1 program x 128 threads, 4 warps): the cross-warp step of tl.sum has EVERY lane of a warp
# store the warp's partial sum to the same shared word (`st.shared.b32 [%r13], %r9`, unpredicated). Those stores
# are weak, from different threads, unordered by anything before the bar.sync: a data race by the letter of
# §2.4 (conflicting, not morally strong, not in causality order). PTX gives uniform-size races defined
# semantics (no UB, §2.4) and all racing stores write the same value, so the total is still 6: race on that
# line, the assertion holds, exit 1 (the race). ptxmm today reports the race but cannot compute the value the
# second redux.sync combines (it reads what other threads stored): the assertion stays UNKNOWN (a known gap).
@triton.jit
def block_sum_kernel(x, out, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    tl.atomic_add(out, tl.sum(v, axis=0))


# triton-overlapping-store (2 programs x 64 threads): both programs store their program id to the same 64
# elements with plain (weak) st.global: the two stores of out[i] conflict, are not morally strong (weak) and
# nothing orders them (no barrier spans CTAs): a race on that line (no synchronisation); the final out[0] is
# either program's id, so `out[0]==0 || out[0]==1` holds and out[0] may be 0 or 1.
@triton.jit
def overlap_kernel(out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.full((BLOCK,), 0, tl.int32) + tl.program_id(0))


# triton-ticket-slots (4 programs x 32 threads, one warp each): each program draws a ticket with a scalar
# tl.atomic_add(count, 1) — Triton predicates the atom.add (.acq_rel, .gpu) on lane 0 and broadcasts its result
# with shfl.sync.idx (a register exchange, no memory event) — then lane 0 (Triton predicates scalar stores on it
# too) stores pid + 1 at slots[ticket] and the ticket at tickets[pid]. The four atomics write one location, are
# strong and .gpu: morally strong (§2.3), so each reads its immediate coherence predecessor (§3.3, §2.12): the
# tickets are 0, 1, 2, 3, one per program, in any order. The four slot stores therefore write four different
# elements and the ticket stores one element each: nothing conflicts, race-free (§2.4). count ends at 4,
# slots[4] is never written (0), slots[0] holds pid + 1 of whichever program drew ticket 0 (1..4: every order of
# the four unordered atomics is permitted) and tickets[0] is program 0's ticket (0..3).
@triton.jit
def ticket_kernel(count, slots, tickets):
    t = tl.atomic_add(count, 1)
    tl.store(slots + t, tl.program_id(0) + 1)
    tl.store(tickets + tl.program_id(0), t)
