// Unit tests of the launch instantiation: the residual code of the kernels the issue names (a tree reduction, a
// spin loop, a last-block reduction, data-indexed histograms), threads and their coordinates, buffers and
// location names, origins on the .cu lines, warp collectives, calls and local memory, clusters and DSMEM,
// opaque values, budgets, and the located errors (an unsupported instruction, a missing scalar argument, a
// launch the kernel forbids). Every fixture kernel (the seed snippets) instantiates.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "ResidualTestSupport.hpp"
#include "model/TextFile.hpp"

using namespace ptxmm::frontend;
using namespace ptxmm::frontend::ptxtest;
using Catch::Contains;

namespace {

std::string fixture(const std::string& name) {
  const auto text = ptxmm::model::readTextFile(PTXMM_SOURCE_DIR "/tests/unit/frontend/ptx/fixtures/" + name);
  REQUIRE(text);
  return *text;
}

// A kernel with one .u64 pointer parameter, registers declared, and `body`.
std::string kernel(const std::string& body, const std::string& params = ".param .u64 k_param_0") {
  return ".version 8.5\n.target sm_90a\n.address_size 64\n.visible .entry k(" + params +
         ")\n{\n .reg .pred %p<8>;\n .reg .b32 %r<32>;\n .reg .b64 %rd<16>;\n .reg .f32 %f<8>;\n" + body + "\n}\n";
}

int count(const Thread& t, Opcode op) { return static_cast<int>(ofKind(t, op).size()); }

}  // namespace

TEST_CASE("a tree reduction: no residual branch, concrete shared addresses, one barrier per step", "[frontend][ptx]") {
  const KernelProgram k = instantiate(fixture("reductions.ptx"), "1", "64", {"n=64"}, "reduce");
  REQUIRE(k.program.threads.size() == 64);
  CHECK(k.displayName == "reduce");
  CHECK(k.program.threadsAreWarps == false);
  CHECK(k.symbolic.empty());
  CHECK(k.outOfBounds.empty());
  CHECK(k.incomplete.empty());
  for (const auto& t : k.program.threads) {
    CHECK(count(t, Opcode::Branch) == 0);
    CHECK(count(t, Opcode::BarSync) == 7);  // after the store, then after each of the 6 halvings
  }
  // Thread 5 adds s[5 + 32], then s[5 + 16]; then it is idle.
  const auto loads = ofKind(k.program.threads[5], Opcode::Ld);
  REQUIRE(loads.size() == 6);  // strides 32, 16 and 8
  CHECK(locationOf(*loads[0]) == "s@cta0[5]");
  CHECK(locationOf(*loads[1]) == "s@cta0[37]");
  CHECK(locationOf(*loads[3]) == "s@cta0[21]");
  CHECK(locationOf(*loads[5]) == "s@cta0[13]");
  CHECK(loads[0]->space == StateSpace::SharedCta);
  // The input is read-only: its values (zero) are stored directly, without a load.
  const auto first = ofKind(k.program.threads[5], Opcode::St).front();
  CHECK(first->operands[1].kind == Operand::Kind::Immediate);
  // Thread 0 publishes the sum with an atomic on out[0], reported on the kernel's line 14 (not atomicAdd's).
  const auto atoms = ofKind(k.program.threads[0], Opcode::Atom);
  REQUIRE(atoms.size() == 1);
  CHECK(locationOf(*atoms[0]) == "out[0]");
  CHECK(atoms[0]->pos.line == 14);
  const KernelOrigin& o = k.origins.at(static_cast<std::size_t>(atoms[0]->origin));
  CHECK(o.source.file.find("reductions.cu") != std::string::npos);
  CHECK(o.inner.file.find("device_atomic_functions") != std::string::npos);
  CHECK(o.ptxText == "atom.global.add.u32 %r21, [%rd6], %r20");
  CHECK(o.ptx.file == "k.ptx");
  CHECK(atoms[0]->valueBits == 32);
  CHECK(atoms[0]->valueUnsigned);
}

TEST_CASE("threads: linear order, coordinates, warps, lanes, clusters", "[frontend][ptx]") {
  const KernelProgram k = instantiate(fixture("reductions.ptx"), "2,2", "40,1", {"n=8"}, "reduce");
  REQUIRE(k.threads.size() == 160);
  const KernelThread& t = k.threads[3 * 40 + 33];
  CHECK(t.cta == 3);
  CHECK(t.ctaid.x == 1);
  CHECK(t.ctaid.y == 1);
  CHECK(t.tid.x == 33);
  CHECK(t.warp == 1);
  CHECK(t.lane == 1);
  CHECK(t.cluster == 3);
  CHECK(k.program.threads[3 * 40 + 33].cta == 3);
  CHECK(k.program.threads[3 * 40 + 33].warp == 1);
  CHECK(k.program.threads[3 * 40 + 33].name == "P153");
}

TEST_CASE("a spin loop on a flag becomes a residual loop", "[frontend][ptx]") {
  const KernelProgram k = instantiate(fixture("reductions.ptx"), "2", "1", {}, "spin");
  const Thread& consumer = k.program.threads[1];
  // A label, the volatile load of the flag, and a branch back to that label.
  const auto& code = consumer.code;
  bool loop = false;
  for (std::size_t i = 0; i < code.size(); ++i)
    if (code[i].op == Opcode::Branch)
      for (std::size_t j = 0; j < i; ++j)
        if (code[j].op == Opcode::Label && code[j].operands[0].name == code[i].operands.back().name) {
          loop = true;
          const bool loads = std::any_of(code.begin() + static_cast<std::ptrdiff_t>(j), code.begin() + static_cast<std::ptrdiff_t>(i),
                                         [](const Instruction& in) { return in.op == Opcode::Ld && in.sem == Sem::Volatile; });
          CHECK(loads);
        }
  CHECK(loop);
  CHECK(count(consumer, Opcode::Fence) == 1);
  // The producer: data, fence, flag.
  const auto stores = ofKind(k.program.threads[0], Opcode::St);
  REQUIRE(stores.size() == 2);
  CHECK(locationOf(*stores[0]) == "data[0]");
  CHECK(locationOf(*stores[1]) == "flag[0]");
  CHECK(stores[1]->sem == Sem::Volatile);
}

TEST_CASE("a last-block reduction: a residual branch on the ticket, opaque float sums", "[frontend][ptx]") {
  const KernelProgram k = instantiate(fixture("reductions.ptx"), "3", "2", {"n=6"}, "lastblock");
  const Thread& t0 = k.program.threads[0];
  const auto atoms = ofKind(t0, Opcode::Atom);
  REQUIRE(atoms.size() == 1);
  CHECK(locationOf(*atoms[0]) == "ticket[0]");
  CHECK(atoms[0]->atomOp == AtomOp::Inc);
  CHECK(atoms[0]->operands[2].value == 3);  // gridDim.x
  CHECK(count(t0, Opcode::Branch) >= 1);
  // Inside the last block: the partial sums are loaded and added as floats: opaque, then stored.
  const auto locals = ofKind(t0, Opcode::Local);
  CHECK(std::any_of(locals.begin(), locals.end(), [](const Instruction* in) { return in->localOp == LocalOp::Opaque; }));
  CHECK(k.incomplete.empty());  // no branch depends on the float values
  // Thread 1 (tid 1) does not take part: its code has the barrier and the isLast load only.
  CHECK(count(k.program.threads[1], Opcode::Atom) == 0);
  CHECK(count(k.program.threads[1], Opcode::BarSync) == 1);
}

TEST_CASE("a histogram: a read-only index array keeps addresses concrete, a written one makes them symbolic",
          "[frontend][ptx]") {
  const KernelProgram ro = instantiate(fixture("reductions.ptx"), "1", "4", {"n=4", "data=int32[4]=2,0,2,1"}, "hist");
  CHECK(ro.symbolic.empty());
  CHECK(locationOf(*ofKind(ro.program.threads[0], Opcode::Atom).front()) == "bins[2]");
  CHECK(locationOf(*ofKind(ro.program.threads[3], Opcode::Atom).front()) == "bins[1]");
  CHECK(ofKind(ro.program.threads[0], Opcode::Ld).empty());  // the index load is gone: its value is known
  const Buffer& bins = ro.buffers.at(1);
  CHECK(bins.name == "bins");
  CHECK(bins.bytes == 12);  // inferred: the highest element touched is bins[2]
  const KernelProgram rw = instantiate(fixture("reductions.ptx"), "1", "4", {"n=4"}, "hist_written");
  REQUIRE(rw.symbolic.size() == 4);
  CHECK(rw.symbolic[0].reason.find("depends on a value read from memory some thread writes") != std::string::npos);
  CHECK(rw.origins.at(static_cast<std::size_t>(rw.symbolic[0].origin)).source.line == 42);
  CHECK(count(rw.program.threads[0], Opcode::Ld) == 1);  // the index is loaded in the residual code
}

TEST_CASE("a warp-shuffle reduction is computed across the lanes", "[frontend][ptx]") {
  const KernelProgram k = instantiate(fixture("reductions.ptx"), "1", "64", {}, "warpred");
  const auto s0 = ofKind(k.program.threads[0], Opcode::St), s1 = ofKind(k.program.threads[32], Opcode::St);
  REQUIRE(s0.size() == 1);
  REQUIRE(s1.size() == 1);
  CHECK(s0[0]->operands[1].value == 496);                // 0 + ... + 31
  CHECK(s1[0]->operands[1].value == 496 + 32 * 32);      // 32 + ... + 63
  CHECK(locationOf(*s1[0]) == "out[1]");
  CHECK(ofKind(k.program.threads[1], Opcode::St).empty());
}

TEST_CASE("float instructions on concrete values: literals, testp, cvt; a symbolic input makes the result opaque",
          "[frontend][ptx]") {
  const std::string body =
      " ld.param.u64 %rd1, [k_param_0];\n mov.u32 %r1, %tid.x;\n cvt.rn.f32.u32 %f1, %r1;\n"
      " add.f32 %f2, %f1, 0.1;\n mul.f32 %f3, %f2, 0f40000000;\n st.global.f32 [%rd1], %f3;\n"
      " testp.subnormal.f32 %p1, %f3;\n selp.u32 %r2, 1, 2, %p1;\n st.global.u32 [%rd1+4], %r2;\n"
      " testp.finite.f32 %p2, %f3;\n selp.u32 %r3, 1, 2, %p2;\n st.global.u32 [%rd1+8], %r3;\n"
      " cvt.rzi.s32.f32 %r4, %f3;\n st.global.u32 [%rd1+12], %r4;\n"
      " ld.global.f32 %f4, [%rd1];\n add.f32 %f5, %f4, %f4;\n st.global.f32 [%rd1+16], %f5;\n";
  const KernelProgram k = instantiate(kernel(body), "1", "2");
  const auto stores = ofKind(k.program.threads[1], Opcode::St);
  REQUIRE(stores.size() == 5);
  CHECK(stores[0]->operands[1].value == 0x400ccccd);  // (1 + 0.1f) * 2 = 2.2f
  CHECK(stores[1]->operands[1].value == 2);           // not subnormal
  CHECK(stores[2]->operands[1].value == 1);           // finite
  CHECK(stores[3]->operands[1].value == 2);           // 2.2 truncated
  const auto locals = ofKind(k.program.threads[1], Opcode::Local);  // the sum of a loaded (written) float
  CHECK(std::any_of(locals.begin(), locals.end(), [](const Instruction* in) { return in->localOp == LocalOp::Opaque; }));
  CHECK(stores[4]->operands[1].kind == Operand::Kind::Register);
}

TEST_CASE("buffers: explicit lengths, initial values, out of bounds, element names", "[frontend][ptx]") {
  const std::string body =
      " ld.param.u64 %rd1, [k_param_0];\n mov.u32 %r1, %tid.x;\n mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
      " st.global.u32 [%rd3], %r1;\n st.global.u8 [%rd1+13], %r1;\n";
  const KernelProgram k = instantiate(kernel(body), "1", "4", {"param_0=int32[3]=7"});
  const Buffer& b = k.buffers.at(0);
  CHECK(b.bytes == 12);
  CHECK(b.elem == ElemType::S32);
  CHECK(b.init.at(0) == 7);
  CHECK(b.pointerParam);
  // Thread 3 stores past the 3 elements; every thread's byte store at offset 13 is outside too.
  REQUIRE(k.outOfBounds.size() == 5);
  CHECK(k.outOfBounds[0].detail == "bytes [13, 14) of 'param_0' (12 bytes)");
  CHECK(k.outOfBounds[0].thread == 0);
  CHECK(k.outOfBounds[3].detail == "bytes [12, 16) of 'param_0' (12 bytes)");
  CHECK(locationOf(*ofKind(k.program.threads[2], Opcode::St).front()) == "param_0[2]");
  CHECK(k.program.locations.at(0).init == 7);
  // Without a length the buffer grows to what the kernel touches, and a byte access is named by offset.
  const KernelProgram inferred = instantiate(kernel(body), "1", "4");
  CHECK(inferred.outOfBounds.empty());
  CHECK(inferred.buffers.at(0).bytes == 16);
  const auto bytes = ofKind(inferred.program.threads[0], Opcode::St);
  CHECK(locationOf(*bytes[1]) == "param_0+13:1");
  const auto named = std::find_if(inferred.program.locations.begin(), inferred.program.locations.end(),
                                  [](const Location& l) { return l.name == "param_0+13:1"; });
  REQUIRE(named != inferred.program.locations.end());
  const KernelLocation& where = inferred.locations.at(static_cast<std::size_t>(named - inferred.program.locations.begin()));
  CHECK(where.offset == 13);
  CHECK(where.size == 1);
}

TEST_CASE("vector accesses become one access per element; .nc reads of read-only memory vanish", "[frontend][ptx]") {
  const KernelProgram k = instantiate(fixture("libcudacxx.ptx"), "1", "32", {"in=int32[128]"}, "cpa");
  const Thread& t = k.program.threads[1];
  const auto loads = ofKind(t, Opcode::Ld);
  REQUIRE(loads.size() == 4);  // ld.shared.v4.u32
  CHECK(locationOf(*loads[0]) == "s@cta0[120]");  // s[31 - 1], four ints each
  CHECK(locationOf(*loads[3]) == "s@cta0[123]");
  CHECK(locationOf(*ofKind(t, Opcode::CpAsync)[1]) == "s@cta0[5]");
  CHECK(count(t, Opcode::CpAsync) == 4);  // the 16-byte cp.async, one copy per element
  CHECK(count(t, Opcode::CpAsyncCommit) == 1);
  CHECK(count(t, Opcode::CpAsyncWait) == 1);
  const KernelProgram nc = instantiate(fixture("libcudacxx.ptx"), "1", "2", {"in=int32[8]=1,2,3,4,5,6,7,8"}, "cnt");
  CHECK(nc.outOfBounds.empty());
  const auto stores = ofKind(nc.program.threads[1], Opcode::St);
  REQUIRE(stores.size() == 1);
  CHECK(stores[0]->operands[1].value == 2);  // __ldg(in[1]) + (int)((float4*)in)[1].y (the bits of 6: a denormal)
}

TEST_CASE(".nc loads of memory the kernel writes are refused (outside the model)", "[frontend][ptx]") {
  const std::string body =
      " ld.param.u64 %rd1, [k_param_0];\n ld.global.nc.u32 %r1, [%rd1];\n st.global.u32 [%rd1], %r1;\n";
  CHECK_THROWS_WITH(instantiate(kernel(body), "1", "1"), Contains("k.ptx:11:2: error:") && Contains("outside the PTX memory model"));
  // With a .loc (nvcc's PTX of a .cu, a temporary file) the error is on the kernel's own line, the PTX line beside.
  const std::string located = ".version 8.5\n.target sm_90a\n.address_size 64\n.visible .entry k(.param .u64 k_param_0)\n{\n"
                              " .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n ld.param.u64 %rd1, [k_param_0];\n .loc 1 35 5\n"
                              " ld.global.nc.u32 %r1, [%rd1];\n st.global.u32 [%rd1], %r1;\n ret;\n}\n.file 1 \"x.cu\"\n";
  CHECK_THROWS_WITH(instantiate(located, "1", "1", {"k_param_0=int32[1]"}),
                    Contains("x.cu:35:5: error: ld.global.nc") && Contains("(PTX line 10: 'ld.global.nc.u32 %r1, [%rd1]')"));
}

TEST_CASE("an unsupported instruction of a .cu kernel is reported on the kernel's own line", "[frontend][ptx]") {
  // nvcc's PTX of a .cu is a temporary file: its line numbers are not lines of the .cu (ldmatrix was reported at
  // FILE.cu:52 in a 15-line file). The .b8 ldmatrix forms stay unsupported.
  const std::string located = ".version 8.5\n.target sm_90a\n.address_size 64\n.visible .entry k(.param .u64 k_param_0)\n{\n"
                              " .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n mov.u32 %r2, 0;\n .loc 1 9 3\n"
                              " ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r1}, [%r2];\n ret;\n}\n.file 1 \"x.cu\"\n";
  CHECK_THROWS_WITH(instantiate(located, "1", "32", {"k_param_0=int32[1]"}),
                    Contains("x.cu:9:3: error: unsupported PTX instruction 'ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8'") &&
                        Contains("(PTX line 10: "));
}

TEST_CASE("bar.red and __syncwarp", "[frontend][ptx]") {
  const KernelProgram k = instantiate(fixture("libcudacxx.ptx"), "1", "3", {"in=int32[12]=1,-2,3"}, "cnt");
  const auto stores = ofKind(k.program.threads[0], Opcode::St);
  REQUIRE(stores.size() >= 2);
  CHECK(stores[0]->operands[1].value == 2);  // __syncthreads_count(in[t] > 0)
  CHECK(stores[1]->operands[1].value == 0);  // __syncthreads_and
  CHECK(count(k.program.threads[2], Opcode::BarSync) == 2);
  CHECK(count(k.program.threads[2], Opcode::BarWarpSync) == 1);
}

TEST_CASE("calls are inlined, local memory is private and exact", "[frontend][ptx]") {
  const KernelProgram calls = instantiate(fixture("calls_local.ptx"), "1", "3", {}, "calls");
  CHECK(ofKind(calls.program.threads[2], Opcode::St).front()->operands[1].value == 5);  // twice(2) = 2*2+1
  const KernelProgram local = instantiate(fixture("calls_local.ptx"), "1", "2", {"in=int32[2]=3,13"}, "local_array");
  CHECK(ofKind(local.program.threads[1], Opcode::St).front()->operands[1].value == 5);  // a[13 & 7] = 5 * 1
  CHECK(local.program.locations.size() == 2);  // out[0], out[1]: local memory is not shared
}

TEST_CASE("clusters: ranks, mapa and distributed shared memory", "[frontend][ptx]") {
  const KernelProgram k = instantiate(fixture("libcudacxx.ptx"), "2", "2", {}, "dsmem");
  REQUIRE(k.threads.size() == 4);
  CHECK(k.threads[2].ctaRank == 1);
  CHECK(k.threads[2].cluster == 0);
  const auto peer = ofKind(k.program.threads[0], Opcode::Ld);
  REQUIRE(peer.size() == 1);
  CHECK(locationOf(*peer[0]) == "s@cta1[0]");  // CTA 0 reads its peer's s[0]
  CHECK(peer[0]->space == StateSpace::SharedCluster);
  CHECK(count(k.program.threads[0], Opcode::ClusterArrive) == 2);
  // Without --cluster the kernel's .reqnctapercluster sets the launch's clusters, and the launch says so (the
  // report printed "cluster 1,1,1" for it).
  REQUIRE(k.launch.cluster);
  CHECK(k.launch.cluster->x == 2);
  LaunchConfig wrong;
  wrong.kernel = "dsmem";
  wrong.grid = {2, 1, 1};
  wrong.block = {2, 1, 1};
  wrong.cluster = Dim3{1, 1, 1};
  CHECK_THROWS_WITH(instantiateKernel(fixture("libcudacxx.ptx"), "k.ptx", "k.ptx", wrong),
                    Contains("--cluster 1,1,1: the kernel requires .reqnctapercluster 2,1,1"));
}

TEST_CASE("a loop whose exit depends on memory and whose counter is concrete is widened", "[frontend][ptx]") {
  // i counts up while the flag reads 0: after the first back edge, i becomes a residual register.
  const std::string body =
      " ld.param.u64 %rd1, [k_param_0];\n mov.u32 %r1, 0;\n"
      "L:\n ld.volatile.global.u32 %r2, [%rd1];\n add.s32 %r1, %r1, 1;\n setp.eq.s32 %p1, %r2, 0;\n @%p1 bra L;\n"
      " st.global.u32 [%rd1+4], %r1;\n st.global.u32 [%rd1], 0;\n";
  const KernelProgram k = instantiate(kernel(body), "1", "1");
  CHECK(k.incomplete.empty());
  const Thread& t = k.program.threads[0];
  const auto stores = ofKind(t, Opcode::St);
  CHECK(std::any_of(stores.begin(), stores.end(), [](const Instruction* in) {  // the count is residual
    return locationOf(*in) == "param_0[1]" && in->operands[1].kind == Operand::Kind::Register;
  }));
  std::map<std::string, std::int64_t> memory{{"param_0[0]", 0}};
  CHECK_FALSE(interpret(t, memory, 200));  // spins while the flag is 0 ...
  memory = {{"param_0[0]", 1}};
  REQUIRE(interpret(t, memory));           // ... and counts one iteration when it is set
  CHECK(memory["param_0[1]"] == 1);
}

TEST_CASE("a loop that comes back to the same state is a residual loop", "[frontend][ptx]") {
  // Nobody writes the flag: the load reads 0 every time, the loop never ends, and the code says so.
  const std::string body =
      " ld.param.u64 %rd1, [k_param_0];\nL:\n ld.volatile.global.u32 %r2, [%rd1];\n setp.eq.s32 %p1, %r2, 0;\n"
      " @%p1 bra L;\n st.global.u32 [%rd1+4], 1;\n";
  const KernelProgram k = instantiate(kernel(body), "1", "1");
  CHECK(k.incomplete.empty());
  const Thread& t = k.program.threads[0];
  CHECK(count(t, Opcode::Goto) == 1);
  CHECK(count(t, Opcode::St) == 0);  // never reached
  std::map<std::string, std::int64_t> memory;
  CHECK_FALSE(interpret(t, memory, 1000));
}

TEST_CASE("budgets: a loop that never ends is recorded, not run forever", "[frontend][ptx]") {
  const std::string body = " mov.u32 %r1, 0;\nL:\n add.s32 %r1, %r1, 1;\n bra.uni L;\n";
  InstantiateOptions options;
  options.limits.stepsPerThread = 1000;
  LaunchConfig launch;
  launch.grid = {1, 1, 1};
  launch.block = {1, 1, 1};
  const KernelProgram k = instantiateKernel(kernel(body), "k.ptx", "k.ptx", launch, options);
  REQUIRE(k.incomplete.size() == 1);
  CHECK(k.incomplete[0].reason.find("more than 1000 PTX instructions") != std::string::npos);
}

TEST_CASE("guards on residual predicates and opaque values", "[frontend][ptx]") {
  // A store guarded by a loaded value; a branch on a clock: the clock-dependent branch is recorded.
  const std::string body =
      " ld.param.u64 %rd1, [k_param_0];\n ld.volatile.global.u32 %r1, [%rd1];\n setp.ne.s32 %p1, %r1, 0;\n"
      " @%p1 st.global.u32 [%rd1+4], 1;\n mov.u32 %r2, %clock;\n setp.gt.u32 %p2, %r2, 100;\n @%p2 bra DONE;\n"
      " st.global.u32 [%rd1+8], 2;\nDONE:\n st.global.u32 [%rd1], 5;\n ret;\n";
  const KernelProgram k = instantiate(kernel(body), "1", "1");
  const Thread& t = k.program.threads[0];
  CHECK(count(t, Opcode::St) == 3);  // the guarded store, in its own block; the one after the clock test; the flag
  REQUIRE(k.incomplete.size() == 1);
  CHECK(k.incomplete[0].reason.find("branch depends on a value ptxmm does not compute") != std::string::npos);
  std::map<std::string, std::int64_t> memory{{"param_0[0]", 0}};
  CHECK_FALSE(interpret(t, memory));  // the clock is opaque
}

TEST_CASE("a branch on a timer that only chooses a sleep is not a reason for UNKNOWN", "[frontend][ptx]") {
  const std::string body =
      " ld.param.u64 %rd1, [k_param_0];\n mov.u64 %rd2, %globaltimer;\n setp.lt.u64 %p1, %rd2, 4000;\n @%p1 bra SHORT;\n"
      " nanosleep.u32 1000;\n bra.uni JOIN;\nSHORT:\n nanosleep.u32 10;\nJOIN:\n ld.volatile.global.u32 %r1, [%rd1];\n"
      " setp.eq.s32 %p2, %r1, 0;\n @%p2 bra JOIN;\n";
  const KernelProgram k = instantiate(kernel(body), "1", "1");
  CHECK(k.incomplete.empty());
  CHECK(count(k.program.threads[0], Opcode::Local) == 0);
}

TEST_CASE("located errors: an unsupported instruction, a missing scalar argument, a launch the kernel forbids",
          "[frontend][ptx]") {
  const std::string body = " ld.param.u64 %rd1, [k_param_0];\n brx.idx %r1, tbl;\n";
  CHECK_THROWS_WITH(instantiate(kernel(body), "1", "1"), Contains("k.ptx:11:2: error: unsupported PTX instruction 'brx.idx'"));
  const std::string shfl = " mov.u32 %r1, 0;\n shfl.bfly.b32 %r2, %r1, 1, 31;\n";
  CHECK_THROWS_WITH(instantiate(kernel(shfl), "1", "1"), Contains("unsupported PTX instruction 'shfl.bfly.b32'") && Contains("shfl.sync"));
  // An unsupported instruction no thread reaches is no error.
  const std::string dead = " ret;\n brx.idx %r1, tbl;\n";
  CHECK_NOTHROW(instantiate(kernel(dead), "1", "1"));
  CHECK_THROWS_WITH(instantiate(fixture("reductions.ptx"), "1", "4", {}, "reduce"),
                    Contains("--arg: the kernel's scalar parameter 'n' (int) needs a value: --arg n=VALUE"));
  CHECK_THROWS_WITH(instantiate(fixture("reductions.ptx"), "1", "4", {"n=4", "m=2"}, "reduce"),
                    Contains("--arg m: the kernel has no parameter or dynamic shared array of that name (it has: in, out, n)"));
  CHECK_THROWS_WITH(instantiate(fixture("reductions.ptx"), "1", "4", {"n=int32[4]"}, "reduce"), Contains("needs a value"));
  CHECK_THROWS_WITH(instantiate(fixture("reductions.ptx"), "1", "4", {"n=4"}), Contains("--kernel:") && Contains("name one"));
  CHECK_THROWS_WITH(instantiate(fixture("reductions.ptx"), "1", "4", {"n=4"}, "nope"), Contains("--kernel nope: no such kernel"));
  // Two instances of a template kernel: picked by their template arguments; the bare name fits both.
  const std::string instances = ".version 8.5\n.target sm_90\n.address_size 64\n"
                                ".visible .entry _Z9block_sumILi32EEvPi(.param .u64 p)\n{\n ret;\n}\n"
                                ".visible .entry _Z9block_sumILi64EEvPi(.param .u64 p)\n{\n ret;\n}\n";
  CHECK(instantiate(instances, "1", "64", {"p=int32[1]"}, "block_sum<64>").entry == "_Z9block_sumILi64EEvPi");
  CHECK_THROWS_WITH(instantiate(instances, "1", "64", {"p=int32[1]"}, "block_sum"),
                    Contains("--kernel block_sum: 2 kernels have that name (the PTX has block_sum<32>, block_sum<64>)"));
  CHECK_THROWS_WITH(instantiate(fixture("reductions.ptx"), "1", "2048", {"n=4"}, "reduce"), Contains("--block 2048,1,1: a block has at most 1024 threads"));
  CHECK_THROWS_AS(parseDim3("0", "--grid"), OptionError);
  const std::string reqntid = ".version 8.5\n.target sm_90\n.address_size 64\n.visible .entry k()\n.reqntid 64\n{\n ret;\n}\n";
  CHECK_THROWS_WITH(instantiate(reqntid, "1", "32"), Contains("--block 32,1,1: the kernel requires .reqntid 64,1,1 (k.ptx:4:17)"));
}

TEST_CASE("a collective over a value read from memory some thread writes gives an opaque result, not an error",
          "[frontend][ptx]") {
  // The warp-aggregated atomic: ballot and shuffle of what an atomic returned (the residual code cannot carry a
  // register from one thread to another; the checker makes what depends on the opaque value UNKNOWN).
  const std::string body = " ld.param.u64 %rd1, [k_param_0];\n cvta.to.global.u64 %rd2, %rd1;\n"
                           " atom.global.add.u32 %r1, [%rd2], 1;\n setp.gt.s32 %p1, %r1, 0;\n"
                           " vote.sync.ballot.b32 %r2, %p1, -1;\n st.global.u32 [%rd2+4], %r2;\n"
                           " shfl.sync.idx.b32 %r3, %r1, 0, 31, -1;\n st.global.u32 [%rd2+8], %r3;\n"
                           " bar.red.popc.u32 %r4, 0, %p1;\n st.global.u32 [%rd2+12], %r4;\n";
  const KernelProgram k = instantiate(kernel(body), "1", "32", {"k_param_0=int32[4]"});
  const Thread& t = k.program.threads[5];
  const auto stores = ofKind(t, Opcode::St);
  REQUIRE(stores.size() == 3);
  for (const Instruction* st : stores) {
    REQUIRE(st->operands[1].kind == Operand::Kind::Register);
    const bool opaque = std::any_of(t.code.begin(), t.code.end(), [&](const Instruction& in) {
      return in.op == Opcode::Local && in.localOp == LocalOp::Opaque && in.operands.at(0).name == st->operands[1].name;
    });
    CHECK(opaque);
  }
}

TEST_CASE("every fixture kernel instantiates", "[frontend][ptx]") {
  struct Launch {
    std::string file, kernel, grid, block;
    std::vector<std::string> args;
  };
  const std::vector<Launch> launches = {
      {"seeds_visibility.ptx", "barrier_example", "2", "64", {}},
      {"seeds_visibility.ptx", "mutex_kernel", "2", "32", {}},
      {"seeds_visibility.ptx", "latch_kernel", "1", "64", {}},
      {"seeds_visibility.ptx", "spinlock_kernel", "1", "64", {}},
      {"seeds_visibility.ptx", "method1", "2", "1", {}},
      {"seeds_visibility.ptx", "method2", "2", "1", {}},
      {"seeds_visibility.ptx", "method3", "2", "1", {}},
      {"seeds_sync.ptx", "block_fence_kernel", "1", "32", {}},
      {"seeds_sync.ptx", "device_fence_kernel", "2", "32", {}},
      {"seeds_sync.ptx", "bad_kernel", "1", "256", {"n=256"}},
      {"seeds_sync.ptx", "fixed_kernel", "1", "256", {"n=256"}},
      {"seeds_sync.ptx", "histogram_broken", "2", "32", {"n=64"}},
      {"seeds_sync.ptx", "histogram_correct", "2", "32", {"n=64"}},
      {"seeds_sync.ptx", "block_reduce_sum", "2", "128", {"n=256"}},
      {"seeds_sync.ptx", "producer_consumer", "2", "1", {}},
      {"seeds_hopper.ptx", "mbarrier_release_acquire", "1", "128", {}},
      {"seeds_hopper.ptx", "mbarrier_relaxed_fences", "1", "128", {}},
      {"seeds_hopper.ptx", "cluster_mbarrier", "2", "64", {}},
      {"seeds_hopper.ptx", "cluster_st_async", "2", "64", {}},
      {"seeds_hopper.ptx", "megakernel_flag", "2", "64", {}},
      {"seeds_hopper.ptx", "proxy_fence_bulk_store", "1", "64", {}},
      {"seeds_hopper.ptx", "bulk_load_mbarrier", "1", "64", {}},
      {"reductions.ptx", "lastblock", "4", "32", {"n=128"}},
      {"libcudacxx.ptx", "bar", "1", "64", {}},
  };
  for (const auto& l : launches) {
    INFO(l.file << " " << l.kernel);
    const KernelProgram k = instantiate(fixture(l.file), l.grid, l.block, l.args, l.kernel);
    CHECK(k.program.threads.size() == static_cast<std::size_t>(std::stoi(l.grid) * std::stoi(l.block)));
    CHECK(k.symbolic.empty());
    // The seed's spin lock passes a generic pointer to .shared::cta: a bug in the snippet, found; its lock loop
    // then tests a value the out-of-bounds atomic never returned.
    CHECK(k.outOfBounds.empty() == (l.kernel != "spinlock_kernel"));
    CHECK(k.incomplete.empty() == (l.kernel != "spinlock_kernel"));
  }
}

TEST_CASE("a .local store at a data-dependent address writes no launch buffer: the index data stays read-only",
          "[frontend][ptx]") {
  // A local histogram indexed by `in` (nvcc's `int hist[8]; hist[in[t] & 7] += 1;`): in the discovery pass the
  // index load is symbolic, and the st.local must not mark `in` (or any buffer) as written.
  const std::string body =
      " .local .align 4 .b8 __local_depot0[32];\n .reg .b64 %SPL;\n mov.u64 %SPL, __local_depot0;\n"
      " ld.param.u64 %rd1, [k_param_0];\n ld.param.u64 %rd2, [k_param_1];\n cvta.to.global.u64 %rd3, %rd1;\n"
      " ld.global.u32 %rd4, [%rd3];\n shl.b64 %rd5, %rd4, 2;\n and.b64 %rd6, %rd5, 28;\n add.s64 %rd7, %SPL, %rd6;\n"
      " st.local.u32 [%rd7], 7;\n ld.local.u32 %r1, [%SPL+4];\n cvta.to.global.u64 %rd8, %rd2;\n"
      " st.global.u32 [%rd8], %r1;\n ret;";
  const KernelProgram k = instantiate(kernel(body, ".param .u64 k_param_0, .param .u64 k_param_1"), "1", "1",
                                      {"k_param_0=int32[1]=1", "k_param_1=int32[1]"});
  CHECK(k.symbolic.empty());
  const auto stores = ofKind(k.program.threads[0], Opcode::St);
  REQUIRE(stores.size() == 1);  // the local store is exact (private), only out[0] is a memory store
  CHECK(locationOf(*stores[0]) == "param_1[0]");
  REQUIRE(stores[0]->operands[1].kind == Operand::Kind::Immediate);
  CHECK(stores[0]->operands[1].value == 7);  // in[0] = 1: hist[1] = 7, read back through .local
}

TEST_CASE("a .local store at an unknown address forgets the thread's private memory", "[frontend][ptx]") {
  // The index is read from memory another thread writes, so the store may hit any local byte: the later load of
  // local byte 4 is unpredictable (opaque), not the 5 stored there before.
  const std::string body =
      " .local .align 4 .b8 __local_depot0[32];\n .reg .b64 %SPL;\n mov.u64 %SPL, __local_depot0;\n"
      " ld.param.u64 %rd1, [k_param_0];\n cvta.to.global.u64 %rd3, %rd1;\n mov.u32 %r2, %tid.x;\n"
      " st.local.u32 [%SPL+4], 5;\n st.global.u32 [%rd3+4], %r2;\n ld.global.u32 %rd4, [%rd3+4];\n"
      " and.b64 %rd6, %rd4, 28;\n add.s64 %rd7, %SPL, %rd6;\n st.local.u32 [%rd7], 7;\n ld.local.u32 %r1, [%SPL+4];\n"
      " st.global.u32 [%rd3], %r1;\n ret;";
  const KernelProgram k = instantiate(kernel(body), "1", "2", {"k_param_0=int32[2]"});
  REQUIRE(k.symbolic.size() == 2);  // the local store of each thread
  const auto stores = ofKind(k.program.threads[0], Opcode::St);
  REQUIRE(stores.size() == 2);
  CHECK(locationOf(*stores[1]) == "param_0[0]");
  CHECK(stores[1]->operands[1].kind != Operand::Kind::Immediate);
}

TEST_CASE("a device assert() that may fail (a reachable __assertfail call) aborts the launch: incomplete",
          "[frontend][ptx]") {
  // nvcc's `assert(threadIdx.x < limit)`: thread 0 passes, thread 1 calls __assertfail; printf is skipped.
  const std::string ptx =
      ".version 8.5\n.target sm_90a\n.address_size 64\n"
      ".extern .func __assertfail(.param .b64 a0, .param .b64 a1, .param .b32 a2, .param .b64 a3, .param .b64 a4);\n"
      ".visible .entry k(.param .u32 k_param_0)\n{\n .reg .pred %p<2>;\n .reg .b32 %r<4>;\n .reg .b64 %rd<2>;\n"
      " ld.param.u32 %r2, [k_param_0];\n mov.u32 %r1, %tid.x;\n setp.lt.u32 %p1, %r1, %r2;\n @%p1 bra $L_ok;\n"
      " mov.u64 %rd1, 0;\n {\n .param .b64 param0;\n st.param.b64 [param0+0], %rd1;\n .param .b64 param1;\n"
      " st.param.b64 [param1+0], %rd1;\n .param .b32 param2;\n st.param.b32 [param2+0], 7;\n .param .b64 param3;\n"
      " st.param.b64 [param3+0], %rd1;\n .param .b64 param4;\n st.param.b64 [param4+0], 1;\n"
      " call.uni __assertfail, (param0, param1, param2, param3, param4);\n }\n$L_ok:\n ret;\n}\n";
  const KernelProgram fails = instantiate(ptx, "1", "2", {"k_param_0=1"});
  REQUIRE(fails.incomplete.size() == 1);
  CHECK(fails.incomplete[0].thread == 1);
  CHECK_THAT(fails.incomplete[0].reason, Contains("__assertfail") && Contains("aborts the launch"));
  const KernelProgram holds = instantiate(ptx, "1", "2", {"k_param_0=2"});
  CHECK(holds.incomplete.empty());
}
