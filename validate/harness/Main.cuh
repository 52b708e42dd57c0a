// The last part of every generated validation program: the litmus kernel (every warp plays one role of 32
// instances, or stresses; shared-memory locations initialised in the owning block first, the roles bracketed
// by cluster-wide barriers where they reach other CTAs' shared memory), the classification kernel (reads each
// instance's registers and final memory, packs the outcome tuple into a 64-bit key, counts it in a GPU hash
// table, resets the locations for the next launch), and the host driver (occupancy-bounded geometry, layouts
// checked before any launch, the 1-D tensor map over the location buffers, the time budget, JSON on stdout).
// The generated part defines the PTXMM_* shape macros and ptxmm_play().

// ---- the test's shape, from the generated part -------------------------------------------------------------
static const int kHostRoleCta[] = PTXMM_ROLE_CTA;
static const int kHostRoleWarp[] = PTXMM_ROLE_WARP;
static const int kHostCtaCluster[] = PTXMM_CTA_CLUSTER;
static const int kHostLocBytes[] = PTXMM_LOC_BYTES;
static const int kHostSharedBytes[] = PTXMM_SHARED_SLOT_BYTES;
static const int kHostSharedCta[] = PTXMM_SHARED_CTA;
__constant__ int kDevRoleCta[] = PTXMM_ROLE_CTA;
__constant__ int kDevCtaFirstRole[] = PTXMM_CTA_FIRST_ROLE;
__constant__ int kDevSharedWidth[] = PTXMM_SHARED_WIDTHS;
__constant__ int kDevSharedBytes[] = PTXMM_SHARED_SLOT_BYTES;
__constant__ long long kDevSharedInit[] = PTXMM_SHARED_INITS;
__constant__ int kDevSharedCta[] = PTXMM_SHARED_CTA;
__constant__ int kDevSharedData[] = PTXMM_SHARED_DATA;
__constant__ int kDevLocBytes[] = PTXMM_LOC_BYTES;
__constant__ int kDevStampSlot[] = PTXMM_STAMP_SLOTS;
__constant__ int kDevCappedSlot[] = PTXMM_CAPPED_SLOTS;
__constant__ int kDevKeyIsLocation[] = PTXMM_KEY_IS_LOCATION;
__constant__ int kDevKeyIndex[] = PTXMM_KEY_INDEX;
__constant__ int kDevLocWidth[] = PTXMM_LOC_WIDTHS;
__constant__ long long kDevLocInit[] = PTXMM_LOC_INITS;
__constant__ long long kDevAllowed[] = PTXMM_ALLOWED_VALUES;

constexpr int kKeySlots = PTXMM_KEYS > 0 ? PTXMM_KEYS : 1;
constexpr unsigned long long kEmptyKey = ~0ull;
constexpr int kOverflowCapacity = 4096;  // outcome tuples the hash table cannot hold (wide values, full table)
constexpr int kExampleCapacity = 16;     // forbidden outcomes recorded with their instance and launch
constexpr int kExampleWords = 4 + kKeySlots;
constexpr int kMaxProbes = 64;

enum PtxmmCounter : int {
  kCtrTimeouts,   // start-barrier waits that timed out
  kCtrCapped,     // instances whose litmus loop hit the iteration cap (never classified)
  kCtrMissing,    // instances a role did not write this launch (a harness bug; never classified)
  kCtrOverflow,   // outcome records in the overflow list
  kCtrLost,       // outcomes that fitted nowhere (the run is incomplete)
  kCtrForbidden,  // instances whose outcome the model forbids
  kCtrExamples,   // forbidden examples offered
  kCtrRank,       // warps whose %cluster_ctarank is not their block index modulo the cluster size (a harness bug)
  kCtrMapAlign,   // warps that found the tensor map parameter not 64-byte aligned (a harness bug)
  kCtrDrain,      // drains of an mbarrier that ran out of time (they change no outcome)
  kCtrCount
};

struct PtxmmArgs {
#if PTXMM_TENSOR_MAP
  CUtensorMap tensorMap;               // 1-D, 4-byte elements, boxes of 16 bytes, over both location buffers
#endif
  unsigned char* locs[2];              // location buffers; launch k uses locs[k & 1] and resets the other
  const std::uint32_t* slots;          // [layouts][instances][locations]
  const std::int16_t* warpRole;        // [layouts][warps]
  const std::int16_t* laneRole;        // [layouts][warps * 32]: the role each lane plays (lanes of a shared warp differ)
  const std::int32_t* warpGroup;       // [layouts][warps]
  const std::uint32_t* laneInstance;   // [layouts][warps * 32]
  long long* out;                      // [instances][PTXMM_OUT_SLOTS]
  unsigned* groupCounters;             // [groups]: start barriers
  unsigned* scratch;                   // stress buffer, `scratchLines` lines of 32 words
  unsigned scratchLines;
  unsigned long long* counters;        // [kCtrCount]
  unsigned long long* hashKeys;        // [hashMask + 1]
  unsigned long long* hashCounts;      // [hashMask + 1]
  unsigned hashMask;
  long long* overflow;                 // [kOverflowCapacity][kKeySlots + 1]: values, count
  long long* examples;                 // [kExampleCapacity][kExampleWords]: instance, launch, maps, values
  unsigned instances;
  unsigned warps;
  unsigned stride;
  int cap;                             // iterations of litmus loops before an instance is capped
  int barrierEnabled;
  long long barrierTimeout;
  unsigned stressIterations;
  int stressPattern;
  unsigned preStressIterations;
  const std::uint32_t* sslots;         // [layouts][blockInstances][sharedLocations]
  const std::int32_t* groupCtaSlot;    // [layouts][groups][ctas]
  const std::int32_t* groupCtaBlock;   // [layouts][groups][ctas]
  unsigned groups;
  unsigned blockInstances;
  unsigned sharedStride;
  unsigned sharedInstanceBytes;        // the instances' area of a block's shared memory; the stress area follows
  unsigned stressSmemBytes;
  unsigned bufferBytes;                // bytes of one location buffer (locs[1] = locs[0] + bufferBytes)
  long long drainCycles;
};

// A role warp's part of the block prologue: the shared-memory locations of its test CTA, initialised by the
// CTA's first role for each of its instances (mbarrier objects are left to the test's mbarrier.init).
__device__ void ptxmm_shared_init(unsigned char* area, const std::uint32_t* sslots, unsigned stride, int cta) {
  for (int l = 0; l < PTXMM_SHARED_LOCATIONS; ++l) {
    if (kDevSharedCta[l] != cta || !kDevSharedData[l]) continue;
    unsigned char* p = area + static_cast<size_t>(sslots[l]) * stride;
    for (int b = 0; b < kDevSharedBytes[l]; b += 4) *reinterpret_cast<int*>(p + b) = 0;
    if (kDevSharedWidth[l] == 8) *reinterpret_cast<long long*>(p) = kDevSharedInit[l];
    else *reinterpret_cast<int*>(p) = static_cast<int>(kDevSharedInit[l]);
  }
}

// Every non-idle thread of the block (of the cluster) passes here before the roles start and, in tests that
// reach other CTAs' shared memory, again after they end.
__device__ __forceinline__ void ptxmm_enter() {
#if PTXMM_CLUSTER_SYNC
  ptxmm_cluster_sync();
#elif PTXMM_SHARED_LOCATIONS > 0
  __syncthreads();
#endif
}

__device__ __forceinline__ void ptxmm_leave() {
#if PTXMM_CLUSTER_SYNC
  ptxmm_cluster_sync();
#endif
}

__global__ void ptxmm_litmus(const __grid_constant__ PtxmmArgs a, unsigned launch, unsigned tmap, unsigned lmap) {
  extern __shared__ __align__(128) unsigned char ptxmm_smem[];
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned warp = tid >> 5;
  const int mark = a.warpRole[static_cast<size_t>(tmap) * a.warps + warp];
  if (mark == ptxmm_harness::kIdleWarp) return;
#if PTXMM_CLUSTER_SIZE > 1
  if ((threadIdx.x & 31) == 0) {
    unsigned rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    if (rank != blockIdx.x % PTXMM_CLUSTER_SIZE) atomicAdd(a.counters + kCtrRank, 1ull);
  }
#endif
  PtxmmStress stress;
  stress.scratch = a.scratch;
  stress.lines = a.scratchLines;
  stress.area = ptxmm_smem + a.sharedInstanceBytes;
  stress.areaShared = static_cast<unsigned>(__cvta_generic_to_shared(stress.area));
  stress.areaBytes = a.stressSmemBytes;
  stress.peerArea = 0;
#if PTXMM_CLUSTER_SYNC && PTXMM_CLUSTER_SIZE > 1
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(stress.peerArea)
               : "r"(stress.areaShared), "r"((blockIdx.x + 1) % PTXMM_CLUSTER_SIZE));
#endif
  if (mark == ptxmm_harness::kStressWarp) {
    // Stress warps pass every cluster barrier the roles pass, with stress between them.
    ptxmm_enter();
    const unsigned chunk = a.stressIterations / (PTXMM_CLUSTER_PHASES + 1);
    for (int k = 0; k < PTXMM_CLUSTER_PHASES; ++k) {
      ptxmm_stress(stress, chunk, a.stressPattern, tid ^ (launch * 7919u) ^ (k * 31u), false);
      asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    }
    ptxmm_stress(stress, chunk, a.stressPattern, tid ^ (launch * 7919u), false);
    ptxmm_leave();
    return;
  }
  const int role = a.laneRole[static_cast<size_t>(tmap) * a.warps * 32 + tid];
  const unsigned inst = a.laneInstance[static_cast<size_t>(tmap) * a.warps * 32 + tid];
  const unsigned group = static_cast<unsigned>(a.warpGroup[static_cast<size_t>(tmap) * a.warps + warp]);
  const size_t groupRow = (static_cast<size_t>(tmap) * a.groups + group) * PTXMM_CTAS;
  const unsigned local = static_cast<unsigned>(a.groupCtaSlot[groupRow + kDevRoleCta[role]]) * 32 + (inst & 31);
  const std::uint32_t* sslots = a.sslots + (static_cast<size_t>(lmap) * a.blockInstances + local) * PTXMM_SHARED_LOCATIONS;
  if (kDevCtaFirstRole[kDevRoleCta[role]] == role) ptxmm_shared_init(ptxmm_smem, sslots, a.sharedStride, kDevRoleCta[role]);
  ptxmm_enter();
  if (a.preStressIterations) ptxmm_stress(stress, a.preStressIterations, a.stressPattern, tid + launch, true);
  PtxmmPlay c;
  c.buffer = a.locs[launch & 1];
  c.slots = a.slots + (static_cast<size_t>(lmap) * a.instances + inst) * PTXMM_LOCATIONS;
  c.stride = a.stride;
  c.sharedBase = static_cast<unsigned>(__cvta_generic_to_shared(ptxmm_smem));
  c.sharedGeneric = ptxmm_smem;
  c.sharedSlots = sslots;
  c.sharedMap = a.sslots + static_cast<size_t>(lmap) * a.blockInstances * PTXMM_SHARED_LOCATIONS;
  c.lane = inst & 31;
  c.sharedStride = a.sharedStride;
  c.ctaBlock = a.groupCtaBlock + groupRow;
  c.ctaSlot = a.groupCtaSlot + groupRow;
#if PTXMM_TENSOR_MAP
  c.tensorMap = reinterpret_cast<unsigned long long>(&a.tensorMap);
  const bool play = (c.tensorMap & 63) == 0;  // a misaligned map would fault: counted, the role not played
  if ((threadIdx.x & 31) == 0 && !play) atomicAdd(a.counters + kCtrMapAlign, 1ull);
#else
  const bool play = true;
  c.tensorMap = 0;
#endif
  c.coordinateBase = (launch & 1) * (a.bufferBytes / 4);
  c.cap = a.cap;
  c.out = a.out + static_cast<size_t>(inst) * PTXMM_OUT_SLOTS;
  c.bar = PtxmmStartBarrier{a.groupCounters + group, (launch + 1u) * static_cast<unsigned>(PTXMM_ROLES), a.barrierTimeout,
                            a.barrierEnabled != 0, a.counters + kCtrTimeouts};
  c.drainCycles = a.drainCycles;
  c.drainTimeouts = a.counters + kCtrDrain;
  if (play) {
    ptxmm_play(role, c);
  } else {
    for (int k = 0; k < PTXMM_CLUSTER_PHASES; ++k)  // the phases the role would have passed, so that no one waits
      asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
  }
  ptxmm_leave();
  c.out[kDevStampSlot[role]] = static_cast<long long>(launch) + 1;
}

__device__ bool ptxmm_insert(const PtxmmArgs& a, unsigned long long key, unsigned long long n) {
  unsigned h = static_cast<unsigned>((key * 0x9E3779B97F4A7C15ull) >> 32) & a.hashMask;
  for (int probe = 0; probe < kMaxProbes; ++probe, h = (h + 1) & a.hashMask) {
    unsigned long long seen = *reinterpret_cast<volatile unsigned long long*>(a.hashKeys + h);
    if (seen == kEmptyKey) seen = atomicCAS(a.hashKeys + h, kEmptyKey, key);
    if (seen == kEmptyKey || seen == key) {
      atomicAdd(a.hashCounts + h, n);
      return true;
    }
  }
  return false;
}

__device__ void ptxmm_overflow(const PtxmmArgs& a, const long long* v, unsigned long long n) {
  const unsigned long long k = atomicAdd(a.counters + kCtrOverflow, 1ull);
  if (k >= kOverflowCapacity) {
    atomicAdd(a.counters + kCtrLost, n);
    return;
  }
  long long* row = a.overflow + k * (kKeySlots + 1);
  for (int i = 0; i < kKeySlots; ++i) row[i] = v[i];
  row[kKeySlots] = static_cast<long long>(n);
}

// Counts one outcome: lanes with the same packed key are counted together by one atomic (a hot outcome would
// otherwise serialise the whole grid on one counter); tuples whose values do not fit their field go to the
// overflow list with their full values.
__device__ void ptxmm_record(const PtxmmArgs& a, const long long* v, unsigned inst, unsigned launch, unsigned tmap, unsigned lmap) {
#if PTXMM_MODEL_KNOWN
  bool allowed = false;
  for (int s = 0; s < PTXMM_ALLOWED_COUNT && !allowed; ++s) {
    bool same = true;
    for (int k = 0; k < PTXMM_KEYS; ++k) same = same && kDevAllowed[s * kKeySlots + k] == v[k];
    allowed = same;
  }
  if (!allowed) {
    atomicAdd(a.counters + kCtrForbidden, 1ull);
    const unsigned long long e = atomicAdd(a.counters + kCtrExamples, 1ull);
    if (e < kExampleCapacity) {
      long long* row = a.examples + e * kExampleWords;
      row[0] = inst;
      row[1] = launch;
      row[2] = tmap;
      row[3] = lmap;
      for (int k = 0; k < kKeySlots; ++k) row[4 + k] = v[k];
    }
  }
#else
  (void)inst, (void)launch, (void)tmap, (void)lmap;
#endif
  unsigned long long key = 0;
  bool packable = true;
  constexpr int bits = PTXMM_KEYS > 0 ? 64 / PTXMM_KEYS : 64;
  for (int k = 0; k < PTXMM_KEYS; ++k) {
    if (bits < 64) {
      const long long lo = -(1ll << (bits - 1)), hi = (1ll << (bits - 1)) - 1;
      packable = packable && v[k] >= lo && v[k] <= hi;
      key |= (static_cast<unsigned long long>(v[k]) & ((1ull << bits) - 1)) << (k * bits);
    } else {
      key = static_cast<unsigned long long>(v[k]);
    }
  }
  packable = packable && key != kEmptyKey;
  if (!packable) {
    ptxmm_overflow(a, v, 1);
    return;
  }
  const unsigned active = __activemask();
  const unsigned peers = __match_any_sync(active, key);
  if ((threadIdx.x & 31) == static_cast<unsigned>(__ffs(peers) - 1))
    if (!ptxmm_insert(a, key, static_cast<unsigned long long>(__popc(peers)))) ptxmm_overflow(a, v, static_cast<unsigned long long>(__popc(peers)));
}

// A location's slot: its value, and zeros in the rest of the bytes a copy moves with it.
__device__ void ptxmm_store_init(unsigned char* buffer, const std::uint32_t* slots, unsigned stride) {
  for (int l = 0; l < PTXMM_LOCATIONS; ++l) {
    unsigned char* p = buffer + static_cast<size_t>(slots[l]) * stride;
    for (int b = 8; b < kDevLocBytes[l]; b += 8) *reinterpret_cast<long long*>(p + b) = 0;
    // A 4-byte value goes into the low half of a zeroed 8-byte word (slots are 8-byte aligned).
    *reinterpret_cast<long long*>(p) =
        kDevLocWidth[l] == 8 ? kDevLocInit[l] : static_cast<long long>(static_cast<unsigned>(static_cast<int>(kDevLocInit[l])));
  }
}

// One thread per instance, after launch `launch`: classify it, then initialise its locations in the other buffer
// under the next launch's location map (no thread of this kernel reads that buffer, so there is no race).
__global__ void ptxmm_classify(PtxmmArgs a, unsigned launch, unsigned tmap, unsigned lmap, unsigned nextLmap) {
  const unsigned inst = blockIdx.x * blockDim.x + threadIdx.x;
  if (inst >= a.instances) return;
  const long long* out = a.out + static_cast<size_t>(inst) * PTXMM_OUT_SLOTS;
  bool missing = false, capped = false;
  for (int r = 0; r < PTXMM_ROLES; ++r) {
    if (out[kDevStampSlot[r]] != static_cast<long long>(launch) + 1) missing = true;
    else if (out[kDevCappedSlot[r]] != 0) capped = true;
  }
  if (missing) {
    atomicAdd(a.counters + kCtrMissing, 1ull);
  } else if (capped) {
    atomicAdd(a.counters + kCtrCapped, 1ull);
  } else {
    const std::uint32_t* slots = a.slots + (static_cast<size_t>(lmap) * a.instances + inst) * PTXMM_LOCATIONS;
    const unsigned char* buffer = a.locs[launch & 1];
    long long v[kKeySlots] = {};
    for (int k = 0; k < PTXMM_KEYS; ++k) {
      const int index = kDevKeyIndex[k];
      if (kDevKeyIsLocation[k]) {
        const unsigned char* p = buffer + static_cast<size_t>(slots[index]) * a.stride;
        v[k] = kDevLocWidth[index] == 8 ? *reinterpret_cast<const long long*>(p) : *reinterpret_cast<const int*>(p);
      } else {
        v[k] = out[index];
      }
    }
    ptxmm_record(a, v, inst, launch, tmap, lmap);
  }
  ptxmm_store_init(a.locs[(launch + 1) & 1], a.slots + (static_cast<size_t>(nextLmap) * a.instances + inst) * PTXMM_LOCATIONS, a.stride);
}

__global__ void ptxmm_reset(PtxmmArgs a, unsigned lmap, unsigned buffer) {
  const unsigned inst = blockIdx.x * blockDim.x + threadIdx.x;
  if (inst >= a.instances) return;
  ptxmm_store_init(a.locs[buffer], a.slots + (static_cast<size_t>(lmap) * a.instances + inst) * PTXMM_LOCATIONS, a.stride);
}

// ---- host ------------------------------------------------------------------------------------------------------

namespace {

std::string jsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += c;
    else if (static_cast<unsigned char>(c) < 0x20) out += ' ';
    else out += c;
  }
  return out + "\"";
}

[[noreturn]] void fail(const std::string& why) {
  std::printf("{\"ok\": false, \"error\": %s}\n", jsonString(why).c_str());
  std::fflush(stdout);
  std::exit(1);
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) fail(std::string(what) + ": " + cudaGetErrorString(e));
}

// The run's parameters: defaults here, each overridable with --param name=value (ptxmm passes the values it
// drew from validate/params/*.json).
struct Params {
  long long warpsPerBlock = 8;
  long long blocksPerSm = 8;
  long long stressWarpsPerBlock = 0;
  long long stressIterations = 64;
  long long stressPattern = 2;
  long long preStressIterations = 0;
  long long startBarrier = 1;
  long long barrierTimeoutCycles = 20000;
  long long locationStride = 8;
  long long layouts = 8;
  long long spinCap = 1000;
  long long hashSlots = 1 << 16;
  long long scratchLines = 1 << 15;
  long long sharedStride = 16;
  long long stressSmemBytes = 4096;
  long long drainCycles = 2000000;

  struct Entry { const char* name; long long* value; };
  std::vector<Entry> entries() {
    return {{"warps_per_block", &warpsPerBlock}, {"blocks_per_sm", &blocksPerSm}, {"stress_warps_per_block", &stressWarpsPerBlock},
            {"stress_iterations", &stressIterations}, {"stress_pattern", &stressPattern},
            {"pre_stress_iterations", &preStressIterations}, {"start_barrier", &startBarrier},
            {"barrier_timeout_cycles", &barrierTimeoutCycles}, {"location_stride", &locationStride}, {"layouts", &layouts},
            {"spin_cap", &spinCap}, {"hash_slots", &hashSlots}, {"scratch_lines", &scratchLines},
            {"shared_stride", &sharedStride}, {"stress_smem_bytes", &stressSmemBytes}, {"drain_cycles", &drainCycles}};
  }
  void set(const std::string& assignment) {
    const auto eq = assignment.find('=');
    if (eq == std::string::npos) fail("--param expects name=value, got '" + assignment + "'");
    for (auto& e : entries())
      if (assignment.compare(0, eq, e.name) == 0 && std::strlen(e.name) == eq) {
        *e.value = std::strtoll(assignment.c_str() + eq + 1, nullptr, 10);
        return;
      }
    fail("unknown parameter '" + assignment.substr(0, eq) + "'");
  }
};

template <class T>
T* upload(const std::vector<T>& host) {
  T* dev = nullptr;
  check(cudaMalloc(&dev, host.size() * sizeof(T)), "cudaMalloc");
  check(cudaMemcpy(dev, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
  return dev;
}

template <class T>
T* zeroed(size_t count) {
  T* dev = nullptr;
  check(cudaMalloc(&dev, count * sizeof(T)), "cudaMalloc");
  check(cudaMemset(dev, 0, count * sizeof(T)), "cudaMemset");
  return dev;
}

template <class T>
std::vector<T> download(const T* dev, size_t count) {
  std::vector<T> host(count);
  check(cudaMemcpy(host.data(), dev, count * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
  return host;
}

std::string valuesJson(const long long* v) {
  std::string s = "[";
  for (int k = 0; k < PTXMM_KEYS; ++k) s += (k ? ", " : "") + std::to_string(v[k]);
  return s + "]";
}

}  // namespace

int main(int argc, char** argv) {
  double budget = 1.0;
  unsigned long long seed = 1, maxLaunches = 0;
  Params params;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) fail("option " + arg + " needs a value");
    if (arg == "--budget") budget = std::atof(argv[++i]);
    else if (arg == "--seed") seed = std::strtoull(argv[++i], nullptr, 10);
    else if (arg == "--max-launches") maxLaunches = std::strtoull(argv[++i], nullptr, 10);
    else if (arg == "--param") params.set(argv[++i]);
    else fail("unknown option " + arg);
  }

  cudaDeviceProp prop;
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  if (prop.major != 9 || prop.minor != 0)
    fail("the program is built for sm_90 and the GPU is compute capability " + std::to_string(prop.major) + "." + std::to_string(prop.minor));
  int clockKhz = 0, driver = 0, runtime = 0;
  // The peak SM clock is reported for the record only: a driver that no longer answers leaves it 0.
  if (cudaDeviceGetAttribute(&clockKhz, cudaDevAttrClockRate, 0) != cudaSuccess) {
    clockKhz = 0;
    cudaGetLastError();
  }
  check(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
  check(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");

  // Geometry: every block of the grid co-resident, so that no instance waits for a block that cannot start.
  if (params.warpsPerBlock < 1 || params.warpsPerBlock > 32) fail("warps_per_block must be 1..32");
  if (params.layouts < 1 || params.locationStride < 8 || params.locationStride % 8 || params.hashSlots < 1024 ||
      (params.hashSlots & (params.hashSlots - 1)) || params.scratchLines < 4 || params.spinCap < 1 || params.sharedStride < 8 ||
      params.sharedStride % 8 || params.stressSmemBytes < 512)
    fail("invalid parameters (layouts >= 1, location_stride and shared_stride multiples of 8, hash_slots a power of two >= 1024, "
         "scratch_lines >= 4, stress_smem_bytes >= 512)");
  // Slots must hold every byte a copy moves, aligned as copies need: the strides grow to fit.
  auto fitStride = [](long long stride, long long bytes, long long align) {
    stride = std::max(stride, bytes);
    return (stride + align - 1) / align * align;
  };
  params.locationStride = fitStride(params.locationStride, PTXMM_GLOBAL_BYTES, PTXMM_GLOBAL_ALIGN);
  params.sharedStride = fitStride(params.sharedStride, PTXMM_SHARED_BYTES, PTXMM_SHARED_ALIGN);
  params.stressSmemBytes = (params.stressSmemBytes + 255) / 256 * 256;
  // A block must hold the warps of one test CTA: a drawn set with too little room gives up stress warps first,
  // then grows the block (the printed parameters are the ones used).
  int needed = 0;
  for (int c = 0; c < PTXMM_CTAS; ++c) {
    int roles = 0;
    for (int r = 0; r < PTXMM_ROLES; ++r) roles += kHostRoleCta[r] == c;
    needed = std::max(needed, roles);
  }
  if (needed > 32) fail("a test CTA has more than 32 threads");
  if (params.warpsPerBlock - params.stressWarpsPerBlock < needed)
    params.stressWarpsPerBlock = std::max<long long>(0, params.warpsPerBlock - needed);
  if (params.warpsPerBlock < needed) params.warpsPerBlock = needed;
  const int threadsPerBlock = static_cast<int>(params.warpsPerBlock) * 32;
  const int clusterSize = PTXMM_CLUSTER_SIZE;

  ptxmm_harness::Shape shape;
  shape.roles = PTXMM_ROLES;
  shape.roleCta.assign(kHostRoleCta, kHostRoleCta + PTXMM_ROLES);
  shape.roleWarp.assign(kHostRoleWarp, kHostRoleWarp + PTXMM_ROLES);
  shape.ctaCluster.assign(kHostCtaCluster, kHostCtaCluster + PTXMM_CTAS);
  shape.locWidth.assign(kHostLocBytes, kHostLocBytes + PTXMM_LOCATIONS);
  shape.sharedWidth.assign(kHostSharedBytes, kHostSharedBytes + PTXMM_SHARED_LOCATIONS);
  shape.sharedCta.assign(kHostSharedCta, kHostSharedCta + PTXMM_SHARED_LOCATIONS);
  shape.oneGroupPerBlock = PTXMM_ONE_GROUP_PER_BLOCK;
  shape.warpsPerBlock = static_cast<int>(params.warpsPerBlock);
  shape.clusterSize = clusterSize;
  shape.stressWarpsPerBlock = static_cast<int>(params.stressWarpsPerBlock);
  shape.locationStride = static_cast<int>(params.locationStride);
  shape.sharedStride = static_cast<int>(params.sharedStride);
  // Dynamic shared memory: the instances' shared locations, then the stress area. A drawn shared_stride too wide
  // for the block shrinks towards the least the locations need (the printed parameters are the ones used).
  const long long leastSharedStride = fitStride(8, PTXMM_SHARED_BYTES, PTXMM_SHARED_ALIGN);
  auto smemFor = [&](long long stride) {
    shape.sharedStride = static_cast<int>(stride);
    return (ptxmm_harness::sharedBytes(shape) + 127) / 128 * 128 + static_cast<size_t>(params.stressSmemBytes);
  };
  while (smemFor(params.sharedStride) > prop.sharedMemPerBlockOptin && params.sharedStride > leastSharedStride)
    params.sharedStride = std::max(leastSharedStride, fitStride(params.sharedStride / 2, PTXMM_SHARED_BYTES, PTXMM_SHARED_ALIGN));
  const size_t smemBytes = smemFor(params.sharedStride);
  const size_t sharedInstanceBytes = smemBytes - static_cast<size_t>(params.stressSmemBytes);
  if (smemBytes > prop.sharedMemPerBlockOptin)
    fail("a block needs " + std::to_string(smemBytes) + " bytes of shared memory, more than the " + std::to_string(prop.sharedMemPerBlockOptin) +
         " available (fewer warps per block or a smaller shared_stride)");
  check(cudaFuncSetAttribute(ptxmm_litmus, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smemBytes)),
        "cudaFuncSetAttribute");

  int coResident = 0;
  cudaLaunchConfig_t config = {};
  cudaLaunchAttribute clusterAttr[1];
  config.blockDim = dim3(threadsPerBlock);
  config.dynamicSmemBytes = smemBytes;
  if (clusterSize > 1) {
    clusterAttr[0].id = cudaLaunchAttributeClusterDimension;
    clusterAttr[0].val.clusterDim.x = clusterSize;
    clusterAttr[0].val.clusterDim.y = 1;
    clusterAttr[0].val.clusterDim.z = 1;
    config.attrs = clusterAttr;
    config.numAttrs = 1;
    config.gridDim = dim3(clusterSize * prop.multiProcessorCount);
    int clusters = 0;
    check(cudaOccupancyMaxActiveClusters(&clusters, ptxmm_litmus, &config), "cudaOccupancyMaxActiveClusters");
    coResident = clusters * clusterSize;
  } else {
    int perSm = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, ptxmm_litmus, threadsPerBlock, smemBytes),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    coResident = perSm * prop.multiProcessorCount;
  }
  long long blocks = std::min<long long>(params.blocksPerSm * prop.multiProcessorCount, coResident);
  blocks -= blocks % clusterSize;
  if (blocks < clusterSize) fail("no block of " + std::to_string(threadsPerBlock) + " threads fits on the GPU");
  shape.blocks = static_cast<int>(blocks);
  const ptxmm_harness::Plan plan = ptxmm_harness::plan(shape);
  if (plan.groups == 0) fail("no layout: " + plan.problem);

  // Layouts: built and checked here, before any launch; a failed check stops the run.
  const size_t layouts = static_cast<size_t>(params.layouts);
  const size_t instances = static_cast<size_t>(plan.instances());
  const size_t warps = static_cast<size_t>(shape.totalWarps());
  std::vector<std::uint32_t> slots, laneInstance, sharedSlots;
  std::vector<std::int16_t> warpRole, laneRole;
  std::vector<std::int32_t> warpGroup, groupCtaSlot, groupCtaBlock;
  for (size_t l = 0; l < layouts; ++l) {
    const auto tm = ptxmm_harness::makeThreadMap(shape, plan, ptxmm_harness::deriveSeed(seed, l, 1));
    const auto lm = ptxmm_harness::makeLocationMap(shape, plan, ptxmm_harness::deriveSeed(seed, l, 2));
    const auto sm = ptxmm_harness::makeSharedMap(shape, ptxmm_harness::deriveSeed(seed, l, 3));
    const std::string t = ptxmm_harness::checkThreadMap(shape, plan, tm);
    if (!t.empty()) fail("thread map " + std::to_string(l) + " is wrong: " + t);
    const std::string m = ptxmm_harness::checkLocationMap(shape, plan, lm);
    if (!m.empty()) fail("location map " + std::to_string(l) + " is wrong: " + m);
    const std::string sh = ptxmm_harness::checkSharedMap(shape, sm, PTXMM_SHARED_ALIGN);
    if (!sh.empty()) fail("shared map " + std::to_string(l) + " is wrong: " + sh);
    slots.insert(slots.end(), lm.slot.begin(), lm.slot.end());
    sharedSlots.insert(sharedSlots.end(), sm.slot.begin(), sm.slot.end());
    warpRole.insert(warpRole.end(), tm.warpRole.begin(), tm.warpRole.end());
    laneRole.insert(laneRole.end(), tm.laneRole.begin(), tm.laneRole.end());
    warpGroup.insert(warpGroup.end(), tm.warpGroup.begin(), tm.warpGroup.end());
    laneInstance.insert(laneInstance.end(), tm.laneInstance.begin(), tm.laneInstance.end());
    groupCtaSlot.insert(groupCtaSlot.end(), tm.groupCtaSlot.begin(), tm.groupCtaSlot.end());
    groupCtaBlock.insert(groupCtaBlock.end(), tm.groupCtaBlock.begin(), tm.groupCtaBlock.end());
  }
  if (sharedSlots.empty()) sharedSlots.push_back(0);

  PtxmmArgs a = {};
  // Both location buffers in one allocation, so that one tensor map covers them.
  const size_t bufferBytes = (ptxmm_harness::locationBufferBytes(shape, plan) + 255) / 256 * 256;
  a.locs[0] = zeroed<unsigned char>(2 * bufferBytes);
  a.locs[1] = a.locs[0] + bufferBytes;
  a.bufferBytes = static_cast<unsigned>(bufferBytes);
  if (2 * bufferBytes / 4 > 0xffffffffull) fail("the location buffers are too large for a tensor map");
#if PTXMM_TENSOR_MAP
  {
    // cuTensorMapEncodeTiled through the runtime's driver entry point: no libcuda at build time.
    void* entry = nullptr;
    cudaDriverEntryPointQueryResult found;
    check(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &entry, 12000, cudaEnableDefault, &found),
          "cudaGetDriverEntryPointByVersion(cuTensorMapEncodeTiled)");
    if (found != cudaDriverEntryPointSuccess || !entry) fail("the driver has no cuTensorMapEncodeTiled");
    const auto encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(entry);
    const cuuint64_t dims[1] = {static_cast<cuuint64_t>(2 * bufferBytes / 4)};
    const cuuint64_t strides[1] = {0};  // rank - 1 = 0 strides; the array is not read
    const cuuint32_t box[1] = {4}, elementStrides[1] = {1};
    const CUresult r = encode(&a.tensorMap, CU_TENSOR_MAP_DATA_TYPE_UINT32, 1, a.locs[0], dims, strides, box, elementStrides,
                              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) fail("cuTensorMapEncodeTiled failed with " + std::to_string(static_cast<int>(r)));
  }
#endif
  a.slots = upload(slots);
  a.warpRole = upload(warpRole);
  a.laneRole = upload(laneRole);
  a.warpGroup = upload(warpGroup);
  a.laneInstance = upload(laneInstance);
  a.sslots = upload(sharedSlots);
  a.groupCtaSlot = upload(groupCtaSlot);
  a.groupCtaBlock = upload(groupCtaBlock);
  a.groups = static_cast<unsigned>(plan.groups);
  a.blockInstances = static_cast<unsigned>(ptxmm_harness::blockInstances(shape));
  a.sharedStride = static_cast<unsigned>(params.sharedStride);
  a.sharedInstanceBytes = static_cast<unsigned>(sharedInstanceBytes);
  a.stressSmemBytes = static_cast<unsigned>(params.stressSmemBytes);
  a.drainCycles = params.drainCycles;
  a.out = zeroed<long long>(instances * PTXMM_OUT_SLOTS);
  a.groupCounters = zeroed<unsigned>(static_cast<size_t>(plan.groups));
  a.scratchLines = static_cast<unsigned>(params.scratchLines);
  a.scratch = zeroed<unsigned>(static_cast<size_t>(params.scratchLines) * 32);
  a.counters = zeroed<unsigned long long>(kCtrCount);
  const size_t hashSlots = static_cast<size_t>(params.hashSlots);
  check(cudaMalloc(&a.hashKeys, hashSlots * sizeof(unsigned long long)), "cudaMalloc");
  check(cudaMemset(a.hashKeys, 0xff, hashSlots * sizeof(unsigned long long)), "cudaMemset");
  a.hashCounts = zeroed<unsigned long long>(hashSlots);
  a.hashMask = static_cast<unsigned>(hashSlots - 1);
  a.overflow = zeroed<long long>(static_cast<size_t>(kOverflowCapacity) * (kKeySlots + 1));
  a.examples = zeroed<long long>(static_cast<size_t>(kExampleCapacity) * kExampleWords);
  a.instances = static_cast<unsigned>(instances);
  a.warps = static_cast<unsigned>(warps);
  a.stride = static_cast<unsigned>(params.locationStride);
  a.cap = static_cast<int>(params.spinCap);
  a.barrierEnabled = params.startBarrier != 0;
  a.barrierTimeout = params.barrierTimeoutCycles;
  a.stressIterations = static_cast<unsigned>(params.stressIterations);
  a.stressPattern = static_cast<int>(params.stressPattern);
  a.preStressIterations = static_cast<unsigned>(params.preStressIterations);

  auto mapOf = [&](unsigned long long launch, unsigned long long purpose) {
    return static_cast<unsigned>(ptxmm_harness::deriveSeed(seed, launch, 100 + purpose) % layouts);
  };
  const unsigned classifyBlocks = static_cast<unsigned>((instances + 255) / 256);
  config.gridDim = dim3(static_cast<unsigned>(blocks));
  ptxmm_reset<<<classifyBlocks, 256>>>(a, mapOf(0, 2), 0);
  check(cudaGetLastError(), "reset launch");
  check(cudaDeviceSynchronize(), "reset");

  // Launch pairs (litmus, classify) in batches without host synchronisation; the batch grows to about 50 ms.
  const auto start = std::chrono::steady_clock::now();
  unsigned long long launches = 0;
  unsigned long long batch = 4;
  double seconds = 0;
  for (;;) {
    for (unsigned long long b = 0; b < batch; ++b, ++launches) {
      const unsigned k = static_cast<unsigned>(launches);
      const unsigned tmap = mapOf(launches, 1), lmap = mapOf(launches, 2), next = mapOf(launches + 1, 2);
      if (clusterSize > 1) check(cudaLaunchKernelEx(&config, ptxmm_litmus, a, k, tmap, lmap), "cluster launch");
      else ptxmm_litmus<<<static_cast<unsigned>(blocks), threadsPerBlock, smemBytes>>>(a, k, tmap, lmap);
      ptxmm_classify<<<classifyBlocks, 256>>>(a, k, tmap, lmap, next);
    }
    check(cudaGetLastError(), "launch");
    check(cudaDeviceSynchronize(), "litmus kernels");
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (seconds >= budget || (maxLaunches && launches >= maxLaunches)) break;
    const double perLaunch = seconds / static_cast<double>(launches);
    const double want = std::min(0.05, budget - seconds) / perLaunch;
    batch = static_cast<unsigned long long>(std::max(1.0, want));
    if (maxLaunches) batch = std::min(batch, maxLaunches - launches);
  }

  const auto counters = download(a.counters, kCtrCount);
  const auto keys = download(a.hashKeys, hashSlots);
  const auto counts = download(a.hashCounts, hashSlots);
  const auto overflow = download(a.overflow, static_cast<size_t>(kOverflowCapacity) * (kKeySlots + 1));
  const auto examples = download(a.examples, static_cast<size_t>(kExampleCapacity) * kExampleWords);

  std::vector<std::pair<std::vector<long long>, unsigned long long>> histogram;
  auto add = [&](const long long* v, unsigned long long n) {
    std::vector<long long> values(v, v + PTXMM_KEYS);
    for (auto& h : histogram)
      if (h.first == values) return void(h.second += n);
    histogram.emplace_back(std::move(values), n);
  };
  constexpr int bits = PTXMM_KEYS > 0 ? 64 / PTXMM_KEYS : 64;
  for (size_t h = 0; h < hashSlots; ++h) {
    if (keys[h] == kEmptyKey) continue;
    long long v[kKeySlots] = {};
    for (int k = 0; k < PTXMM_KEYS; ++k) {
      if (bits == 64) {
        v[k] = static_cast<long long>(keys[h]);
      } else {
        const unsigned long long field = (keys[h] >> (k * bits)) & ((1ull << bits) - 1);
        v[k] = static_cast<long long>(field << (64 - bits)) >> (64 - bits);  // sign extension
      }
    }
    add(v, counts[h]);
  }
  const size_t overflowRows = static_cast<size_t>(std::min<unsigned long long>(counters[kCtrOverflow], kOverflowCapacity));
  for (size_t r = 0; r < overflowRows; ++r)
    add(&overflow[r * (kKeySlots + 1)], static_cast<unsigned long long>(overflow[r * (kKeySlots + 1) + kKeySlots]));

  std::printf("{\"ok\": true, \"test\": %s,\n", jsonString(PTXMM_TEST_NAME).c_str());
  std::printf(" \"device\": {\"name\": %s, \"compute_capability\": \"%d.%d\", \"multiprocessors\": %d, \"sm_clock_khz\": %d, "
              "\"driver_version\": %d, \"runtime_version\": %d, \"l2_bytes\": %d},\n",
              jsonString(prop.name).c_str(), prop.major, prop.minor, prop.multiProcessorCount, clockKhz, driver, runtime, prop.l2CacheSize);
  std::printf(" \"seed\": %llu, \"params\": {", seed);
  bool first = true;
  for (auto& e : params.entries()) std::printf("%s\"%s\": %lld", first ? "" : ", ", e.name, *e.value), first = false;
  std::printf("},\n \"geometry\": {\"blocks\": %lld, \"threads_per_block\": %d, \"cluster_size\": %d, \"groups\": %d, "
              "\"instances_per_launch\": %zu, \"co_resident_blocks\": %d, \"shared_bytes\": %zu},\n",
              blocks, threadsPerBlock, clusterSize, plan.groups, instances, coResident, smemBytes);
  std::printf(" \"launches\": %llu, \"instances\": %llu, \"seconds\": %.6f,\n", launches, launches * instances, seconds);
  if (counters[kCtrMapAlign]) fail("the tensor map parameter is not 64-byte aligned in " + std::to_string(counters[kCtrMapAlign]) + " warps");
  if (counters[kCtrRank]) fail("the cluster rank of " + std::to_string(counters[kCtrRank]) + " warps is not their block index modulo the cluster size");
  std::printf(" \"capped\": %llu, \"missing\": %llu, \"barrier_timeouts\": %llu, \"lost\": %llu, \"forbidden\": %llu, \"drain_timeouts\": %llu,\n",
              counters[kCtrCapped], counters[kCtrMissing], counters[kCtrTimeouts], counters[kCtrLost], counters[kCtrForbidden], counters[kCtrDrain]);
  std::printf(" \"histogram\": [");
  for (size_t i = 0; i < histogram.size(); ++i)
    std::printf("%s\n  {\"values\": %s, \"count\": %llu}", i ? "," : "", valuesJson(histogram[i].first.data()).c_str(), histogram[i].second);
  std::printf("],\n \"forbidden_examples\": [");
  const size_t exampleRows = static_cast<size_t>(std::min<unsigned long long>(counters[kCtrExamples], kExampleCapacity));
  for (size_t r = 0; r < exampleRows; ++r) {
    const long long* row = &examples[r * kExampleWords];
    std::printf("%s\n  {\"instance\": %lld, \"launch\": %lld, \"thread_map\": %lld, \"location_map\": %lld, \"values\": %s}", r ? "," : "",
                row[0], row[1], row[2], row[3], valuesJson(row + 4).c_str());
  }
  std::printf("]}\n");
  return 0;
}
