// A kernel at its launch configuration, ready for the checker: every thread of the launch is a thread of a
// Program (the same IR litmus tests use), holding its *residual code* — what is left of the kernel's PTX once
// everything that depends only on the thread's coordinates, the launch and the scalar arguments has been
// computed. Addresses are concrete byte ranges of named buffers (one per pointer parameter, per .global/.const
// variable, and one shared window per CTA), so every memory access of the residual code names a Program
// location. Only what depends on values read from memory that some thread may write stays symbolic: register
// arithmetic on those values, branches on them (spin loops, last-block tests), and their stores.
//
// This header is the contract between the PTX reader/instantiator (frontend/ptx/) and the kernel checker
// (checker/kernel/): the instantiator fills it, the checker reads it and slices `program` into small litmus
// Programs for the engines. Every instruction of the residual code carries the origin of the PTX instruction it
// came from, so reports point at the kernel's own source lines.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frontend/Program.hpp"
#include "frontend/ptx/TicketTerm.hpp"
#include "model/Diagnostic.hpp"

namespace ptxmm::frontend {

struct Dim3 {
  int x = 1, y = 1, z = 1;
  std::int64_t count() const { return std::int64_t{x} * y * z; }
};

/// Element types a buffer can be given with `--arg NAME=TYPE[N]` (default int32).
enum class ElemType : std::uint8_t { S8, S16, S32, S64, U8, U16, U32, U64, F32, F64 };

/// `--arg NAME=tensormap(BUFFER,D0xD1..,box=B0xB1..[,strides=S1xS2..][,swizzle=32|64|128])`: a CUtensorMap
/// parameter viewing pointer parameter BUFFER's memory as a tiled tensor (innermost dimension first); with an
/// element type for BUFFER (`tensormap(int32,16x8,box=8x4)=v0,v1,...`), over a buffer of its own, named NAME.
struct TensorMapSpec {
  std::string buffer;                 // the pointer parameter whose buffer the map views (empty: its own buffer)
  std::optional<ElemType> type;       // the element type of its own buffer
  std::vector<std::int64_t> dims;     // elements per dimension
  std::vector<std::int64_t> box;      // the box (tile) a copy moves, elements per dimension
  std::vector<std::int64_t> strides;  // bytes between consecutive indices of dimensions 1.. (empty: packed)
  int swizzle = 0;                    // bytes of the swizzle span (0: none)
};

/// `--arg NAME=VALUE` (a scalar parameter) or `--arg NAME=TYPE[N][=v0,v1,...]` (a pointer parameter's buffer).
struct ArgSpec {
  std::string name;
  std::optional<std::string> scalar;     // the value as written, for a scalar parameter
  std::optional<ElemType> type;          // buffer element type
  std::optional<std::int64_t> length;    // buffer length in elements
  std::vector<std::string> values;       // initial elements as written (the rest are zero)
  std::optional<TensorMapSpec> tensorMap;  // a tensor-map parameter
};

struct LaunchConfig {
  std::string kernel;             // --kernel: CUDA or mangled name; empty: the only entry of the module
  Dim3 grid, block;
  std::optional<Dim3> cluster;    // --cluster; absent: each CTA is its own cluster (or the kernel's .reqnctapercluster)
  std::vector<ArgSpec> args;
  std::int64_t dynamicShared = 0; // bytes of `extern .shared` memory per CTA
};

/// A memory object of the launch.
struct Buffer {
  enum class Space : std::uint8_t { Global, Const, Shared };
  std::string name;             // parameter or variable name as the user knows it ("out", "count", "s")
  std::vector<std::string> aliases;  // other names claims accept: param_I, the PTX parameter's own name
  Space space = Space::Global;
  int ownerCta = -1;            // Shared: the CTA (linear id) whose window this is
  std::int64_t bytes = 0;
  ElemType elem = ElemType::S32;
  std::vector<std::uint8_t> init;  // initial bytes, little-endian (size == bytes)
  bool pointerParam = false;    // a buffer behind a pointer parameter (its length may have been inferred), or a
                                // tensor map's own buffer: what --assert and --observe name by element
  model::SourcePos pos;         // the declaration (parameter or variable) in the PTX
};

/// Program::locations[i] is bytes [offset, offset + size) of buffers[buffer]. Two locations of one buffer may
/// overlap (mixed-size accesses); the checker must never treat overlapping locations as independent.
struct KernelLocation {
  int buffer = -1;
  std::int64_t offset = 0;
  int size = 4;
};

/// Where a thread of the launch sits.
struct KernelThread {
  int cta = 0;          // linear CTA id: ctaid.x + nctaid.x * (ctaid.y + nctaid.y * ctaid.z)
  Dim3 ctaid;           // %ctaid (0-based in each dimension; Dim3 reused as a coordinate)
  Dim3 tid;             // %tid
  int cluster = 0;      // linear cluster id
  int ctaRank = 0;      // %cluster_ctarank
  int warp = 0;         // warp of the CTA: linear tid / 32
  int lane = 0;         // linear tid % 32
};

/// The PTX instruction a residual instruction comes from.
struct KernelOrigin {
  model::SourcePos source;   // the kernel's own line (.loc; the outermost `inlined_at` when inlined)
  model::SourcePos inner;    // the innermost .loc (a helper function's line); equal to source when not inlined
  model::SourcePos ptx;      // the instruction in the .ptx file (file, line, column)
  std::string ptxText;       // the PTX instruction as written
};

/// An `atom.add` with a concrete increment whose returned value (the counter's old value, a ticket) some address
/// is built from (TicketTerm.hpp). Thread `thread`'s residual code has the atomic at origin `origin`.
struct Ticket {
  int thread = -1;
  int origin = -1;
  int buffer = -1;             // the counter: bytes [offset, offset + size) of buffers[buffer]
  std::int64_t offset = 0;
  int size = 4;
  std::int64_t increment = 0;  // >= 0
};

/// The address of an access is `term` bytes into buffers[buffer] (term.addend counts from the buffer's start).
struct TicketAddress {
  TicketTerm term;
  int buffer = -1;
  int size = 0;
  bool always = false;                // reached on every path of its thread (no branch on memory before it)
  std::optional<std::int64_t> stored; // a st of this constant (canonical at the access width)
};

/// A memory access whose address the instantiator could not make concrete (it depends on a value read from
/// memory that some thread may write). The checker reports the verdict UNKNOWN naming it, never drops it — unless
/// its address is a ticket term the checker can tell apart from every other access (TicketAddresses.hpp).
struct SymbolicAccess {
  int thread = -1;
  int origin = -1;
  std::string reason;
  bool write = false;        // it may write (a store, an atomic, a copy's operand): final values it reaches are unknown
  std::vector<int> buffers;  // a write's reach: the buffers its address may point into
  std::optional<TicketAddress> address;  // an ld/st/atom/red whose address is a ticket term
};

/// An access outside every buffer (or past the length given with --arg): a bug in the kernel, reported with its
/// line. The access is not part of the residual code.
struct OutOfBounds {
  int thread = -1;
  int origin = -1;
  std::string detail;  // e.g. "bytes [512, 516) of 'out' (512 bytes)"
};

/// Why the residual code of a thread is not exact: a budget ran out, or a branch or barrier operand depends on
/// an opaque value. The checker's verdict is UNKNOWN naming it.
struct Incomplete {
  int thread = -1;
  int origin = -1;
  std::string reason;
};

struct KernelProgram {
  Program program;                       // one thread per launch thread, in linear order (CTA-major, tid.x fastest)
  std::vector<KernelThread> threads;     // parallel to program.threads
  std::vector<Buffer> buffers;
  std::vector<KernelLocation> locations; // parallel to program.locations
  std::vector<KernelOrigin> origins;     // Instruction::origin indexes this
  std::vector<SymbolicAccess> symbolic;
  std::vector<Ticket> tickets;           // TicketTerm::ticket indexes this
  std::vector<OutOfBounds> outOfBounds;
  std::vector<Incomplete> incomplete;
  std::string entry;                     // the mangled entry name
  std::string displayName;               // the CUDA name when it can be recovered, else the entry name
  std::string file;                      // the .cu (or .ptx) file the user gave
  LaunchConfig launch;
};

}  // namespace ptxmm::frontend
