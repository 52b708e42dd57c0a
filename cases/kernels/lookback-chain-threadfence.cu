// Chained inter-block scan (the serial ancestor of decoupled look-back): block b waits for block b-1's status
// flag, reads its inclusive prefix, publishes its own, and writes its exclusive offset. Status published with
// __threadfence() + a volatile flag store, consumed with a volatile poll + __threadfence() (the bug without the
// writer's fence is lookback-chain-no-writer-fence.cu; release/acquire: lookback-chain-atomic-ref.cu).
//
// ptxmm-launch: --grid 4 --block 32 --arg in=int32[128]=1,2,3 --arg flag=int32[4] --arg incl=int64[4] --arg out=int64[4] --assert 'out[0]==0 && out[1]==38 && out[3]==102 && incl[3]==134'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: __reduce_add_sync = redux.sync.add, the poll
// ld.volatile.global.u32 in a loop, __threadfence() = membar.gl (fence.sc.gpu), the flag store
// st.volatile.global.u32, incl/out st/ld.global.u64 (weak)):
// * Block sums: 32 + the block's inputs: 38, 32, 32, 32 (redux.sync over values of read-only memory).
// * Writer b: [W] (incl[b]) po [FW] fence.sc po [P] (strong st.volatile = relaxed.sys): release pattern (§2.5,
//   A7). Reader b+1: [Q] poll (strong ld.volatile) reading [P]'s 1, po [FR] fence.sc: acquire pattern. Both
//   fences .gpu: ms, so FW sw FR (§2.8 rule 4) and [W] is in causality order before [R] (§2.10): no race,
//   and [R] reads incl[b] = prefix through block b (§3.6). out/flag/incl words have one writer each.
// * The polls end: each flag is written once with 1 by a block that waits only for lower blocks; under fair
//   progress of every launched thread block 0 publishes, then 1, 2, 3 (a strong write is eventually visible to
//   a strong poll). Values: incl = 38, 70, 102, 134; out = 0, 38, 70, 102.
#include "host.cuh"

__global__ void chained_scan(const int* in, int* flag, long long* incl, long long* out) {
  const int b = blockIdx.x;
  const int s = __reduce_add_sync(0xffffffffu, in[b * 32 + threadIdx.x] + 1);
  if (threadIdx.x == 0) {
    long long prev = 0;
    if (b > 0) {
      while (*(volatile int*)&flag[b - 1] == 0) {  // [Q]
      }
      __threadfence();     // [FR]
      prev = incl[b - 1];  // [R]
    }
    incl[b] = prev + s;  // [W]
    __threadfence();     // [FW]
    *(volatile int*)&flag[b] = 1;  // [P]
    out[b] = prev;
  }
}

int main() {
  int* in = device_buffer<int>(128, {1, 2, 3});
  int* flag = device_buffer<int>(4);
  long long* incl = device_buffer<long long>(4);
  long long* out = device_buffer<long long>(4);
  chained_scan<<<4, 32>>>(in, flag, incl, out);
  finish();
  print("out", out, 4, {0, 1, 2, 3});
  print("incl", incl, 4, {3});
  return 0;
}
