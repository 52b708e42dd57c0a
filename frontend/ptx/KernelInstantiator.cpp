// The launch instantiator (KernelInstantiator.hpp): kernel choice, launch checks, buffers, the two passes over
// every thread, and the assembly of the KernelProgram.
#include "frontend/ptx/KernelInstantiator.hpp"

#include <algorithm>
#include <set>

#include "frontend/ptx/CopyElements.hpp"
#include "frontend/ptx/CtaRunner.hpp"
#include "frontend/ptx/CudaNames.hpp"
#include "frontend/ptx/FloatOps.hpp"
#include "frontend/ptx/LaunchArgs.hpp"
#include "frontend/ptx/PtxParser.hpp"

namespace ptxmm::frontend {
namespace {

using namespace ptx;

std::string where(const SourcePos& p) { return p.file + ":" + std::to_string(p.line) + ":" + std::to_string(p.col); }

std::string dimText(const Dim3& d) { return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z); }

bool sameDims(const Dim3& a, const Dim3& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

// The element type a PTX type stands for (untyped bits read as signed).
ElemType elemOf(const PtxType& t) {
  const int bytes = t.bytes();
  if (t.kind == PtxType::Kind::Float && (bytes == 4 || bytes == 8)) return bytes == 4 ? ElemType::F32 : ElemType::F64;
  const bool u = t.kind == PtxType::Kind::Unsigned;
  switch (bytes) {
    case 1: return u ? ElemType::U8 : ElemType::S8;
    case 2: return u ? ElemType::U16 : ElemType::S16;
    case 8: return u ? ElemType::U64 : ElemType::S64;
    default: return u ? ElemType::U32 : ElemType::S32;
  }
}

void putBytes(std::vector<std::uint8_t>& bytes, std::int64_t at, std::uint64_t value, int size) {
  if (at < 0 || at + size > static_cast<std::int64_t>(bytes.size())) return;
  for (int i = 0; i < size; ++i) bytes[static_cast<std::size_t>(at + i)] = static_cast<std::uint8_t>(value >> (8 * i));
}

// The bits of an initialiser number as a value of type `t` (decimal floats rounded to f32 where needed).
std::uint64_t immediateBits(const Immediate& imm, const PtxType& t) {
  return imm.kind == Immediate::Kind::Decimal && t.isFloat() && t.bits == 32 ? narrowToF32(imm.bits) : imm.bits;
}

class Instantiator {
 public:
  Instantiator(std::string_view text, const std::string& ptxFile, const std::string& userFile, const LaunchConfig& launch,
               const InstantiateOptions& options)
      : module_(parsePtx(text, ptxFile)), userFile_(userFile), launch_(launch), options_(options),
        ctx_(module_, launch_, options.limits) {}

  KernelProgram run() {
    const Function& entry = pickEntry();
    const std::string demangled = demangle(entry.name);
    out_.entry = entry.name;
    out_.displayName = functionName(demangled);
    out_.file = userFile_;
    out_.launch = launch_;
    checkLaunch(entry);
    out_.launch.cluster = ctx_.clusterDims;  // the launch's clusters, also when the kernel's .reqnctapercluster sets them
    layOutMemory(entry, demangled);
    ctx_.functionIndex.clear();
    ctx_.function(entry.name);  // the entry is function 0
    placeThreads();
    runPass(Pass::Discover);
    inferElementTypes();
    std::fill(ctx_.touchedBytes.begin(), ctx_.touchedBytes.end(), 0);
    runPass(Pass::Emit);
    splitBulkCopies(ctx_, out_.program);
    finish();
    return std::move(out_);
  }

 private:
  // ---- the kernel and its launch ----------------------------------------------------------------------------

  const Function& pickEntry() const {
    std::vector<const Function*> entries;
    for (const auto& f : module_.functions)
      if (f.isEntry && f.hasBody) entries.push_back(&f);
    std::string names;
    for (const auto* f : entries) names += (names.empty() ? "" : ", ") + templatedName(demangle(f->name));
    if (entries.empty()) throw OptionError(module_.file + ": the PTX has no kernel (.entry)");
    if (launch_.kernel.empty()) {
      if (entries.size() == 1) return *entries.front();
      throw OptionError("--kernel: " + module_.file + " has " + std::to_string(entries.size()) + " kernels (" + names + "): name one");
    }
    // The mangled name, the CUDA name with or without its template arguments, or either without namespaces; a
    // name that fits two instances of a template kernel is refused rather than guessed.
    auto unqualified = [](const std::string& n) {
      int depth = 0;
      for (std::size_t i = n.size(); i-- > 1;) {
        if (n[i] == '>') ++depth;
        if (n[i] == '<') --depth;
        if (depth == 0 && n[i] == ':' && n[i - 1] == ':') return n.substr(i + 1);
      }
      return n;
    };
    std::vector<const Function*> matches;
    for (const auto* f : entries) {
      const std::string demangled = demangle(f->name);
      for (const std::string& name : {functionName(demangled), templatedName(demangled)}) {
        if (f->name == launch_.kernel || name == launch_.kernel || unqualified(name) == launch_.kernel) {
          matches.push_back(f);
          break;
        }
      }
    }
    if (matches.size() == 1) return *matches.front();
    if (matches.empty()) throw OptionError("--kernel " + launch_.kernel + ": no such kernel (the PTX has " + names + ")");
    throw OptionError("--kernel " + launch_.kernel + ": " + std::to_string(matches.size()) + " kernels have that name (the PTX has " +
                      names + "): give the template arguments or the mangled name");
  }

  void checkLaunch(const Function& entry) {
    const Dim3& b = launch_.block;
    if (b.count() > 1024) throw OptionError("--block " + dimText(b) + ": a block has at most 1024 threads");
    if (b.z > 64) throw OptionError("--block " + dimText(b) + ": the z dimension is at most 64");
    if (entry.reqntid && !sameDims(*entry.reqntid, b))
      throw OptionError("--block " + dimText(b) + ": the kernel requires .reqntid " + dimText(*entry.reqntid) + " (" +
                        where(entry.pos) + ")");
    if (entry.maxntid && b.count() > entry.maxntid->count())
      throw OptionError("--block " + dimText(b) + ": the kernel allows at most .maxntid " + dimText(*entry.maxntid) + " threads");
    Dim3 cluster{1, 1, 1};
    if (entry.reqnctapercluster) cluster = *entry.reqnctapercluster;
    if (launch_.cluster) {
      if (entry.reqnctapercluster && !sameDims(*entry.reqnctapercluster, *launch_.cluster))
        throw OptionError("--cluster " + dimText(*launch_.cluster) + ": the kernel requires .reqnctapercluster " +
                          dimText(*entry.reqnctapercluster));
      cluster = *launch_.cluster;
    }
    if (cluster.count() > 16) throw OptionError("--cluster " + dimText(cluster) + ": a cluster has at most 16 CTAs");
    const Dim3& g = launch_.grid;
    if (g.x % cluster.x || g.y % cluster.y || g.z % cluster.z)
      throw OptionError("--grid " + dimText(g) + ": not a whole number of clusters of " + dimText(cluster));
    if (g.count() * b.count() > (std::int64_t{1} << 20))
      throw OptionError("--grid " + dimText(g) + " --block " + dimText(b) + ": more than 2^20 threads");
    ctx_.clusterDims = cluster;
    ctx_.explicitCluster = entry.explicitCluster || launch_.cluster.has_value() || entry.reqnctapercluster.has_value();
  }

  // ---- memory -----------------------------------------------------------------------------------------------

  const ArgSpec* argFor(const std::vector<std::string>& names) {
    for (const auto& a : launch_.args)
      if (std::find(names.begin(), names.end(), a.name) != names.end()) {
        used_.insert(a.name);
        return &a;
      }
    return nullptr;
  }

  std::vector<std::string> sourceParameterNames(const Function& entry, const std::string& demangled) const {
    if (!options_.readSource || entry.locs.empty()) return {};
    const auto file = module_.files.find(entry.locs.front().file);
    // A Python source is a Triton program: its constexpr arguments are not parameters and Triton appends its
    // own, so names by position would be wrong; such kernels keep param_I.
    if (file == module_.files.end() || file->second.ends_with(".py")) return {};
    const auto source = options_.readSource(file->second);
    if (!source) return {};
    std::string name = functionName(demangled);
    if (const std::size_t colons = name.rfind("::"); colons != std::string::npos) name = name.substr(colons + 2);
    return parameterNames(*source, entry.locs.front().line, name, entry.params.size());
  }

  // The map `spec` describes, over the buffer of one of `pointers`; and the zero-fill source its copies need.
  TensorMap tensorMapOf(std::size_t param, const ArgSpec& spec, const std::vector<std::pair<std::size_t, const ArgSpec*>>& pointers) {
    const TensorMapSpec& m = *spec.tensorMap;
    if (m.type) return ownTensorMap(param, spec);
    const std::string option = "--arg " + spec.name + "=tensormap(" + m.buffer + ",...)";
    int buffer = -1;
    for (std::size_t b = 0; b < ctx_.memory.buffers().size(); ++b) {
      const Buffer& candidate = ctx_.memory.buffers()[b];
      if (candidate.pointerParam && (candidate.name == m.buffer ||
                                     std::find(candidate.aliases.begin(), candidate.aliases.end(), m.buffer) != candidate.aliases.end()))
        buffer = static_cast<int>(b);
    }
    if (buffer < 0) throw OptionError(option + ": '" + m.buffer + "' is not a pointer parameter of the kernel");
    const ArgSpec* bufferSpec = nullptr;
    for (const auto& [i, s] : pointers)
      if (paramNames_[i] == ctx_.memory.buffers()[static_cast<std::size_t>(buffer)].name) bufferSpec = s;
    if (!bufferSpec || !bufferSpec->type)
      throw OptionError(option + ": give '" + m.buffer + "' its element type (--arg " + m.buffer + "=float32[N]): the map's elements are its elements");
    Buffer& b = ctx_.memory.buffers()[static_cast<std::size_t>(buffer)];
    TensorMap map(buffer, elemBytes(b.elem), m.dims, m.box, m.strides, m.swizzle);
    if (const std::string why = map.invalid(); !why.empty()) throw OptionError(option + ": " + why);
    if (bufferSpec->length && b.bytes < map.extentBytes())
      throw OptionError(option + ": the tensor covers " + std::to_string(map.extentBytes()) + " bytes but '" + m.buffer +
                        "' has " + std::to_string(b.bytes));
    addZeroFill(map);
    return map;
  }

  // A map over a buffer of its own (`tensormap(TYPE,...)=v0,...`), named like its parameter, the tensor's size.
  TensorMap ownTensorMap(std::size_t param, const ArgSpec& spec) {
    const TensorMapSpec& m = *spec.tensorMap;
    Buffer b;
    b.name = paramNames_[param];
    b.aliases = paramAliases_[param];
    b.pointerParam = true;
    b.elem = *m.type;
    const int buffer = static_cast<int>(ctx_.memory.buffers().size());
    TensorMap map(buffer, elemBytes(b.elem), m.dims, m.box, m.strides, m.swizzle);
    if (const std::string why = map.invalid(); !why.empty()) throw OptionError("--arg " + spec.name + "=tensormap(...): " + why);
    b.bytes = map.extentBytes();
    if (static_cast<std::int64_t>(spec.values.size()) * elemBytes(b.elem) > b.bytes)
      throw OptionError("--arg " + spec.name + ": " + std::to_string(spec.values.size()) + " values for a tensor of " +
                        std::to_string(b.bytes / elemBytes(b.elem)) + " elements");
    b.init.assign(static_cast<std::size_t>(b.bytes), 0);
    for (std::size_t v = 0; v < spec.values.size(); ++v)
      putBytes(b.init, static_cast<std::int64_t>(v) * elemBytes(b.elem), *elemValueBits(b.elem, spec.values[v]), elemBytes(b.elem));
    ctx_.memory.addGlobal(std::move(b));
    addZeroFill(map);
    return map;
  }

  // The zero-fill source of the launch's tensor copies (one buffer, as large as the largest box).
  void addZeroFill(const TensorMap& map) {
    if (ctx_.zeroFillBuffer < 0) {
      Buffer zero;
      zero.name = "tensormap-zero-fill";
      zero.elem = ElemType::U8;
      ctx_.zeroFillBuffer = ctx_.memory.addGlobal(std::move(zero));
    }
    Buffer& zero = ctx_.memory.buffers()[static_cast<std::size_t>(ctx_.zeroFillBuffer)];
    zero.bytes = std::max(zero.bytes, map.boxBytes());
    zero.init.assign(static_cast<std::size_t>(zero.bytes), 0);
  }

  void layOutMemory(const Function& entry, const std::string& demangled) {
    const auto types = parameterTypes(demangled);
    const auto sourceNames = sourceParameterNames(entry, demangled);
    // Kernel parameters: pointers become buffers, scalars take their --arg value.
    std::vector<std::pair<std::size_t, const ArgSpec*>> pointerParams;
    std::vector<std::pair<std::size_t, const ArgSpec*>> tensorMapParams;
    for (std::size_t i = 0; i < entry.params.size(); ++i) {
      const Variable& p = entry.params[i];
      std::vector<std::string> names = {"param_" + std::to_string(i), p.name};
      if (i < sourceNames.size() && !sourceNames[i].empty()) names.insert(names.begin(), sourceNames[i]);
      paramNames_.push_back(names.front());
      paramAliases_.emplace_back(names.begin() + 1, names.end());
      const ArgSpec* spec = argFor(names);
      ctx_.tensorMaps.emplace_back();
      const bool tensorMapType = i < types.size() && types.size() == entry.params.size() && types[i].find("CUtensorMap") != std::string::npos;
      if ((spec && spec->tensorMap) || tensorMapType) {
        if (!spec || !spec->tensorMap)
          throw OptionError("--arg: the kernel's tensor-map parameter '" + names.front() + "' (" + types[i] +
                            ") needs a map: --arg " + names.front() + "=tensormap(BUFFER,DIMS,box=BOX)");
        if (!p.isArray || p.bytes() != 128)
          throw OptionError("--arg " + spec->name + ": '" + names.front() + "' (" + where(p.pos) + ") is not a 128-byte CUtensorMap parameter");
        tensorMapParams.emplace_back(i, spec);
        ctx_.kernelParams.emplace_back(128, 0);
        continue;
      }
      const bool wide = p.type.bits == 64 && !p.isArray;
      const bool pointer = types.size() == entry.params.size() ? types[i].find('*') != std::string::npos
                           : p.ptrParam || (wide && !(spec && spec->scalar));
      if (pointer) {
        if (spec && spec->scalar) throw OptionError("--arg " + spec->name + ": '" + names.front() + "' is a pointer: give a buffer (--arg " + names.front() + "=int32[N])");
        pointerParams.emplace_back(i, spec);
        ctx_.kernelParams.emplace_back(8, 0);
        continue;
      }
      if (p.isArray) {
        // Without the demangled type (hand-written PTX) a 128-byte aggregate may still be a CUtensorMap.
        const std::string hint = p.bytes() == 128 ? "a CUtensorMap needs --arg " + names.front() + "=tensormap(BUFFER,DIMS,box=BOX); other aggregates are " : "";
        throw OptionError("'" + names.front() + "' (" + where(p.pos) + ") is a " + std::to_string(p.bytes()) +
                          "-byte aggregate parameter: " + hint + "not supported yet");
      }
      if (!spec || !spec->scalar) {
        const std::string type = types.size() == entry.params.size()
                                     ? types[i]
                                     : "." + std::string(p.type.isFloat() ? "f" : p.type.isSigned() ? "s" : "u") + std::to_string(p.type.bits);
        throw OptionError("--arg: the kernel's scalar parameter '" + names.front() + "' (" + type +
                          ") needs a value: --arg " + names.front() + "=VALUE");
      }
      const bool negative = !spec->scalar->empty() && spec->scalar->front() == '-';
      const ElemType as = p.type.isFloat() ? (p.type.bits == 32 ? ElemType::F32 : ElemType::F64) : elemOf(PtxType{negative ? PtxType::Kind::Signed : PtxType::Kind::Unsigned, p.type.bits});
      const auto bits = elemValueBits(as, *spec->scalar);
      if (!bits) throw OptionError("--arg " + spec->name + "=" + *spec->scalar + ": not a value of the parameter's type (." + std::to_string(p.type.bits) + "-bit)");
      std::vector<std::uint8_t> bytes(static_cast<std::size_t>(p.bytes()), 0);
      putBytes(bytes, 0, *bits, static_cast<int>(bytes.size()));
      ctx_.kernelParams.push_back(std::move(bytes));
    }
    for (const auto& [i, spec] : pointerParams) {
      Buffer b;
      b.name = paramNames_[i];
      b.aliases = paramAliases_[i];
      b.pointerParam = true;
      b.pos = entry.params[i].pos;
      b.elem = spec && spec->type ? *spec->type : ElemType::S32;
      if (!spec || !spec->type) inferElem_.insert(static_cast<int>(ctx_.memory.buffers().size()));
      const bool explicitLength = spec && spec->length;
      b.bytes = explicitLength ? *spec->length * elemBytes(b.elem) : 0;
      b.init.assign(static_cast<std::size_t>(b.bytes), 0);
      if (spec)
        for (std::size_t v = 0; v < spec->values.size(); ++v)
          putBytes(b.init, static_cast<std::int64_t>(v) * elemBytes(b.elem), *elemValueBits(b.elem, spec->values[v]), elemBytes(b.elem));
      const int index = ctx_.memory.addGlobal(std::move(b));
      if (!explicitLength) ctx_.memory.setInferredLength(index);
      putBytes(ctx_.kernelParams[i], 0, ctx_.memory.globalAddress(index), 8);
    }
    for (const auto& [i, spec] : tensorMapParams) ctx_.tensorMaps[i] = tensorMapOf(i, *spec, pointerParams);
    // The module .global/.const variables the kernel uses, then their initialisers (which may hold addresses).
    ctx_.globalBuffer.assign(module_.globals.size(), -1);
    const auto used = usedGlobals(entry);
    for (std::size_t g = 0; g < module_.globals.size(); ++g) {
      const Variable& v = module_.globals[g];
      ctx_.decodeContext.globals.emplace(v.name, static_cast<int>(g));
      if (v.space == Variable::Space::Shared || !used.count(v.name)) continue;
      Buffer b;
      b.name = variableName(v.name);
      b.space = v.space == Variable::Space::Const ? Buffer::Space::Const : Buffer::Space::Global;
      b.elem = elemOf(v.type);
      b.bytes = std::max<std::int64_t>(v.bytes(), 1);
      b.init.assign(static_cast<std::size_t>(b.bytes), 0);
      b.pos = v.pos;
      if (v.type.bits == 8 && v.type.kind == PtxType::Kind::Bits) inferElem_.insert(static_cast<int>(ctx_.memory.buffers().size()));
      ctx_.globalBuffer[g] = ctx_.memory.addGlobal(std::move(b));
    }
    for (std::size_t g = 0; g < module_.globals.size(); ++g) {
      const Variable& v = module_.globals[g];
      if (ctx_.globalBuffer[g] < 0) continue;
      Buffer& b = ctx_.memory.buffers()[static_cast<std::size_t>(ctx_.globalBuffer[g])];
      const int size = v.type.bytes();
      for (std::size_t k = 0; k < v.init.size(); ++k) {
        const auto& item = v.init[k];
        std::uint64_t bits = immediateBits(item.value, v.type);
        if (item.isSymbol) {
          const auto target = ctx_.decodeContext.globals.find(item.symbol);
          if (target == ctx_.decodeContext.globals.end() || ctx_.globalBuffer[static_cast<std::size_t>(target->second)] < 0)
            throw model::UserError(v.pos, "the initialiser of '" + v.name + "' takes the address of '" + item.symbol +
                                              "', which is not a .global or .const variable");
          bits = ctx_.memory.globalAddress(ctx_.globalBuffer[static_cast<std::size_t>(target->second)]) +
                 static_cast<std::uint64_t>(item.offset);
        }
        putBytes(b.init, static_cast<std::int64_t>(k) * size, bits, size);
      }
    }
    layOutGridWorkspace(entry);
    layOutShared(entry);
    for (const auto& a : launch_.args)
      if (!used_.count(a.name)) {
        std::string known;
        for (const auto& n : paramNames_) known += (known.empty() ? "" : ", ") + n;
        for (const auto& n : dynamicNames_) known += (known.empty() ? "" : ", ") + n;
        throw OptionError("--arg " + a.name + ": the kernel has no parameter or dynamic shared array of that name (it has: " + known + ")");
      }
    ctx_.touchedBytes.assign(ctx_.memory.buffers().size(), 0);
    ctx_.accessTypes.assign(ctx_.memory.buffers().size(), {});
  }

  // A kernel that syncs its grid (cooperative_groups::this_grid().sync()) reads its barrier's address from
  // %envreg1:%envreg2, which a cooperative launch sets: it gets a zeroed workspace of its own, "grid_workspace".
  void layOutGridWorkspace(const Function& entry) {
    bool used = false;
    for (const Function* f : reachable(entry))
      for (const auto& in : f->code)
        for (const auto& o : in.operands) used = used || o.name == "%envreg1" || o.name == "%envreg2";
    if (!used) return;
    Buffer b;
    b.name = "grid_workspace";
    b.elem = ElemType::U32;
    b.bytes = 16;
    b.init.assign(16, 0);
    b.pos = entry.pos;
    ctx_.gridWorkspace = ctx_.memory.globalAddress(ctx_.memory.addGlobal(std::move(b)));
  }

  // Static shared variables (module scope, then those nvcc demotes into functions), then the dynamic area of the
  // extern ones, as one window per CTA.
  void layOutShared(const Function& entry) {
    std::vector<const Variable*> statics, externs;
    for (const auto& v : module_.globals)
      if (v.space == Variable::Space::Shared) (v.isExtern || v.count == 0 ? externs : statics).push_back(&v);
    for (const Function* f : reachable(entry))
      for (const auto& v : f->locals)
        if (v.space == Variable::Space::Shared) (v.isExtern || v.count == 0 ? externs : statics).push_back(&v);
    std::vector<Buffer> vars;
    std::vector<std::int64_t> align;
    for (const Variable* v : statics) {
      ctx_.decodeContext.sharedVariables.emplace(v->name, static_cast<int>(vars.size()));
      Buffer b;
      b.name = variableName(v->name);
      b.space = Buffer::Space::Shared;
      b.elem = elemOf(v->type);
      b.bytes = std::max<std::int64_t>(v->bytes(), 1);
      b.pos = v->pos;
      if (v->type.bits == 8 && v->type.kind == PtxType::Kind::Bits) sharedInfer_.insert(static_cast<int>(vars.size()));
      vars.push_back(std::move(b));
      align.push_back(v->alignment());
    }
    ctx_.dynamicShared = launch_.dynamicShared;
    if (!externs.empty()) {
      Buffer b;
      b.space = Buffer::Space::Shared;
      b.name = variableName(externs.front()->name);
      b.pos = externs.front()->pos;
      std::int64_t a = 16;
      for (const Variable* v : externs) {
        ctx_.decodeContext.sharedVariables.emplace(v->name, static_cast<int>(vars.size()));
        dynamicNames_.push_back(variableName(v->name));
        a = std::max(a, v->alignment());
      }
      b.elem = elemOf(externs.front()->type);
      if (const ArgSpec* spec = argFor(dynamicNames_)) {
        if (!spec->type || !spec->length) throw OptionError("--arg " + spec->name + ": give the dynamic shared array as TYPE[N]");
        b.elem = *spec->type;
        ctx_.dynamicShared = std::max(ctx_.dynamicShared, *spec->length * elemBytes(b.elem));
      } else if (externs.front()->type.bits == 8) {
        sharedInfer_.insert(static_cast<int>(vars.size()));
      }
      b.bytes = ctx_.dynamicShared;
      vars.push_back(std::move(b));
      align.push_back(a);
    }
    const int ctas = static_cast<int>(launch_.grid.count());
    ctx_.sharedFirstBuffer = ctx_.memory.addSharedWindows(vars, align, ctas);
    ctx_.sharedVariables = static_cast<int>(vars.size());
    ctx_.totalShared = ctx_.memory.sharedBytes();
    for (int v : sharedInfer_)
      for (int c = 0; c < ctas; ++c) inferElem_.insert(ctx_.memory.sharedBuffer(c, v));
  }

  // The module variables the kernel names, directly or through the initialisers of those it names.
  std::set<std::string> usedGlobals(const Function& entry) const {
    std::set<std::string> used;
    std::vector<std::string> work;
    auto visit = [&](const PtxOperand& o, auto& self) -> void {
      if ((o.kind == PtxOperand::Kind::Symbol || o.kind == PtxOperand::Kind::Address) && module_.global(o.name))
        work.push_back(o.name);
      for (const auto& e : o.elements) self(e, self);
    };
    for (const Function* f : reachable(entry))
      for (const auto& in : f->code)
        for (const auto& o : in.operands) visit(o, visit);
    while (!work.empty()) {
      const std::string name = work.back();
      work.pop_back();
      if (!used.insert(name).second) continue;
      for (const auto& item : module_.global(name)->init)
        if (item.isSymbol && module_.global(item.symbol)) work.push_back(item.symbol);
    }
    return used;
  }

  // The entry and every function it calls, directly or not.
  std::vector<const Function*> reachable(const Function& entry) const {
    std::vector<const Function*> out{&entry};
    for (std::size_t i = 0; i < out.size(); ++i)
      for (const auto& in : out[i]->code) {
        if (in.opcode != "call") continue;
        for (const auto& o : in.operands) {
          const Function* callee = o.kind == PtxOperand::Kind::Symbol ? module_.function(o.name) : nullptr;
          if (callee && std::find(out.begin(), out.end(), callee) == out.end()) out.push_back(callee);
        }
      }
    return out;
  }

  // A buffer whose element type neither --arg nor its declaration gives takes the type every access uses.
  void inferElementTypes() {
    for (int b : inferElem_) {
      const auto& seen = ctx_.accessTypes[static_cast<std::size_t>(b)];
      if (seen.empty()) continue;
      const int bits = seen.begin()->second;
      bool sameWidth = true, allFloat = true, allUnsigned = true;
      for (const auto& [kind, w] : seen) {
        sameWidth = sameWidth && w == bits;
        allFloat = allFloat && kind == static_cast<int>(PtxType::Kind::Float);
        allUnsigned = allUnsigned && kind == static_cast<int>(PtxType::Kind::Unsigned);
      }
      if (!sameWidth) continue;
      const PtxType t{allFloat ? PtxType::Kind::Float : allUnsigned ? PtxType::Kind::Unsigned : PtxType::Kind::Signed, bits};
      Buffer& buffer = ctx_.memory.buffers()[static_cast<std::size_t>(b)];
      buffer.elem = elemOf(t);
    }
  }

  // ---- threads ----------------------------------------------------------------------------------------------

  struct CtaPlace {
    Dim3 ctaid;
    int cluster = 0;
    int rank = 0;
    std::vector<int> clusterCtas;
  };

  void placeThreads() {
    const Dim3 g = launch_.grid, c = ctx_.clusterDims;
    const Dim3 n{g.x / c.x, g.y / c.y, g.z / c.z};
    auto linear = [](const Dim3& at, const Dim3& dims) { return at.x + dims.x * (at.y + dims.y * at.z); };
    for (int z = 0; z < g.z; ++z)
      for (int y = 0; y < g.y; ++y)
        for (int x = 0; x < g.x; ++x) {
          CtaPlace p;
          p.ctaid = {x, y, z};
          const Dim3 cluster{x / c.x, y / c.y, z / c.z};
          p.cluster = linear(cluster, n);
          p.rank = linear({x % c.x, y % c.y, z % c.z}, c);
          for (int rz = 0; rz < c.z; ++rz)
            for (int ry = 0; ry < c.y; ++ry)
              for (int rx = 0; rx < c.x; ++rx)
                p.clusterCtas.push_back(linear({cluster.x * c.x + rx, cluster.y * c.y + ry, cluster.z * c.z + rz}, g));
          ctas_.push_back(std::move(p));
        }
  }

  std::vector<ThreadEvaluator> ctaThreads(int cta) {
    const CtaPlace& p = ctas_[static_cast<std::size_t>(cta)];
    const Dim3& b = launch_.block;
    AddressingThread addressing{cta, p.cluster, p.rank, p.clusterCtas};
    std::vector<ThreadEvaluator> threads;
    threads.reserve(static_cast<std::size_t>(b.count()));
    int t = 0;
    for (int z = 0; z < b.z; ++z)
      for (int y = 0; y < b.y; ++y)
        for (int x = 0; x < b.x; ++x, ++t) {
          KernelThread k;
          k.cta = cta;
          k.ctaid = p.ctaid;
          k.tid = {x, y, z};
          k.cluster = p.cluster;
          k.ctaRank = p.rank;
          k.warp = t / 32;
          k.lane = t % 32;
          threads.emplace_back(ctx_, static_cast<int>(cta * b.count() + t), k, addressing);
        }
    return threads;
  }

  void runPass(Pass pass) {
    ctx_.pass = pass;
    for (int cta = 0; cta < static_cast<int>(ctas_.size()); ++cta) {
      std::vector<ThreadEvaluator> threads = ctaThreads(cta);
      runCta(threads, pass);
      if (pass != Pass::Emit) continue;
      for (auto& t : threads) {
        out_.threads.push_back(t.where());
        out_.program.threads.push_back(t.takeThread());
      }
    }
  }

  // ---- the result -------------------------------------------------------------------------------------------

  void finish() {
    auto& buffers = ctx_.memory.buffers();
    for (std::size_t b = 0; b < buffers.size(); ++b) {
      if (!ctx_.memory.inferredLength(static_cast<int>(b))) continue;
      const int elem = elemBytes(buffers[b].elem);
      const std::int64_t touched = std::max<std::int64_t>(ctx_.touchedBytes[b], elem);
      buffers[b].bytes = (touched + elem - 1) / elem * elem;
      buffers[b].init.resize(static_cast<std::size_t>(buffers[b].bytes), 0);
    }
    out_.buffers = std::move(buffers);
    out_.locations = std::move(ctx_.kernelLocations);
    out_.origins = std::move(ctx_.origins);
    out_.program.arch = "PTX";
    out_.program.name = out_.displayName;
    out_.program.file = userFile_;
    out_.program.locations = std::move(ctx_.locations);
    out_.program.threadsAreWarps = false;
    out_.symbolic = unique(std::move(ctx_.symbolic));
    out_.tickets = std::move(ctx_.tickets);
    out_.outOfBounds = unique(std::move(ctx_.outOfBounds));
    out_.incomplete = std::move(ctx_.incomplete);
  }

  template <class Finding>
  static std::vector<Finding> unique(std::vector<Finding> in) {
    std::set<std::tuple<int, int, std::string>> seen;
    std::vector<Finding> out;
    for (auto& f : in) {
      const std::string& text = [&]() -> const std::string& {
        if constexpr (std::is_same_v<Finding, SymbolicAccess>) return f.reason;
        else return f.detail;
      }();
      if (seen.emplace(f.thread, f.origin, text).second) out.push_back(std::move(f));
    }
    return out;
  }

  Module module_;
  std::string userFile_;
  const LaunchConfig& launch_;
  const InstantiateOptions& options_;
  LaunchContext ctx_;
  KernelProgram out_;
  std::vector<std::string> paramNames_, dynamicNames_;
  std::vector<std::vector<std::string>> paramAliases_;
  std::set<std::string> used_;
  std::set<int> inferElem_, sharedInfer_;
  std::vector<CtaPlace> ctas_;
};

}  // namespace

KernelProgram instantiateKernel(std::string_view ptxText, const std::string& ptxFile, const std::string& userFile,
                                const LaunchConfig& launch, const InstantiateOptions& options) {
  return Instantiator(ptxText, ptxFile, userFile, launch, options).run();
}

}  // namespace ptxmm::frontend
