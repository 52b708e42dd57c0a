// Per-bucket spin locks (a hash table's bucket array): each of 8 threads hashes its key to one of 4 buckets,
// takes that bucket's lock with atomicCAS, fences, updates the bucket's count and last key with plain accesses,
// fences, and releases with atomicExch.
//
// ptxmm-launch: --grid 2 --block 4 --arg keys=int32[8]=0,1,2,3,4,5,6,7 --arg locks=int32[4] --arg count=int32[4] --arg last=int32[4] --assert 'count[0]==2 && count[1]==2 && count[2]==2 && count[3]==2' --observe 'last[1]'
// ptxmm-expect: race-free
// ptxmm-expect: assert holds
// ptxmm-expect: observe last[1] 1,5
// ptxmm-expect: exit 0
//
// Reasoning (§ = ../shared/spec/ptx-model.md; PTX checked: atom.global.cas.b32 in the acquire loop [A],
// membar.gl [FA] and [FR], plain ld/st.global [X] and [Y], atom.global.exch.b32 [U]):
// * Keys 0..7 hash (k % 4) to buckets 0,1,2,3,0,1,2,3: threads t and t + 4 (of the other block) share a bucket.
// * A bucket's two users hand it off as in lock-cas-threadfence.cu: [X] [Y] po [FR] po [U] is a release
//   pattern, the next user's successful [A] po [FA] an acquire pattern, the fences ms .gpu: FR sw FA (§2.8),
//   so the two critical sections on one bucket are in causality order (§2.10): no race; different buckets
//   touch different words.
// * Each bucket's count is incremented twice in order: 2. last[b] is the key of the second holder, either
//   thread: last[1] ∈ {1, 5}. The acquire loops end: a holder always releases.
#include "host.cuh"

__device__ void lock_bucket(int* lock) {
  while (atomicCAS(lock, 0, 1) != 0) {  // [A]
  }
  __threadfence();  // [FA]
}

__device__ void unlock_bucket(int* lock) {
  __threadfence();       // [FR]
  atomicExch(lock, 0);  // [U]
}

__global__ void bucket_insert(const int* keys, int* locks, int* count, int* last) {
  const int key = keys[blockIdx.x * blockDim.x + threadIdx.x];
  const int b = key % 4;
  lock_bucket(&locks[b]);
  count[b] += 1;  // [X]
  last[b] = key;  // [Y]
  unlock_bucket(&locks[b]);
}

int main() {
  int* keys = device_buffer<int>(8, {0, 1, 2, 3, 4, 5, 6, 7});
  int* locks = device_buffer<int>(4);
  int* count = device_buffer<int>(4);
  int* last = device_buffer<int>(4);
  bucket_insert<<<2, 4>>>(keys, locks, count, last);
  finish();
  print("count", count, 4, {0, 1, 2, 3});
  print("last", last, 4, {1});
  return 0;
}
