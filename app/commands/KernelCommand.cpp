// `ptxmm kernel FILE.cu|FILE.ptx --grid X[,Y[,Z]] --block X[,Y[,Z]] ...`: a real kernel checked at its launch
// configuration (issue 18). A .cu file is compiled to PTX by the CUDA toolkit's nvcc (found as `validate` finds
// it) with -arch=sm_90a -lineinfo -ptx and the --nvcc-flag options; the PTX is instantiated at the launch
// (frontend/ptx) and checked (checker/kernel). Exit 0: race-free, no hang, every assertion holds; 1: a race, a
// hang, a failed assertion or an out-of-bounds access; 2: bad input or options; 3: something stayed undecided
// (the reason is printed); 4: internal error.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "app/MemoryLimit.hpp"
#include "app/OutputFiles.hpp"
#include "app/ProcessRunner.hpp"
#include "app/PtxFileTable.hpp"
#include "app/Watchdog.hpp"
#include "app/commands/Command.hpp"
#include "app/commands/CommonOptions.hpp"
#include "app/hardware/CudaWorkbench.hpp"
#include "checker/EngineRegistry.hpp"
#include "checker/kernel/KernelChecker.hpp"
#include "checker/kernel/KernelReport.hpp"
#include "checker/kernel/RaceFixes.hpp"
#include "frontend/ptx/KernelInstantiator.hpp"
#include "frontend/ptx/LaunchArgs.hpp"
#include "model/CatParser.hpp"
#include "model/TextFile.hpp"

namespace fs = std::filesystem;

namespace ptxmm::app {
namespace {

// nvcc's flags for the PTX the checker reads (issue 18): Hopper with its arch-specific features, .loc lines.
const std::vector<std::string> kNvccFlags = {"-arch=sm_90a", "-lineinfo", "-ptx"};

struct KernelCommand {
  std::string file;
  std::string kernel;
  std::string grid, block, cluster;
  std::vector<std::string> args;
  std::vector<std::string> nvccFlags;
  std::string model;
  std::string mbarrier = "lenient";
  std::string engine;
  std::string maxMemory;
  bool json = false;
  checker::kernel::KernelOptions options;

  frontend::LaunchConfig launch() const {
    try {
      frontend::LaunchConfig l;
      l.kernel = kernel;
      l.grid = frontend::parseDim3(grid, "--grid");
      l.block = frontend::parseDim3(block, "--block");
      if (!cluster.empty()) l.cluster = frontend::parseDim3(cluster, "--cluster");
      for (const auto& a : args) l.args.push_back(frontend::parseArgSpec(a));
      return l;
    } catch (const frontend::OptionError& e) {
      throw UsageError(e.what());
    }
  }

  // The PTX of the input: the file itself, or what nvcc makes of a .cu (its time goes to `nvccSeconds`).
  std::pair<std::string, std::string> ptx(double& nvccSeconds) const {
    if (fs::path(file).extension() != ".cu") {
      auto text = model::readTextFile(file);
      if (!text) throw model::UserError({file, 0, 0}, "cannot read the file");
      return {*text, file};
    }
    if (!model::readTextFile(file)) throw model::UserError({file, 0, 0}, "cannot read the file");
    const auto nvcc = findCudaTool("nvcc");
    if (!nvcc)
      throw model::UserError({file, 0, 0}, "a .cu file needs nvcc, which was not found ($CUDA_HOME/bin, "
                                           "/usr/local/cuda/bin, PATH); give the .ptx it emits instead");
    std::string pattern = (fs::temp_directory_path() / "ptxmm-kernel-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temporary folder for nvcc's output");
    const fs::path dir(pattern);
    const std::string out = (dir / (fs::path(file).stem().string() + ".ptx")).string();
    std::vector<std::string> argv{*nvcc};
    argv.insert(argv.end(), kNvccFlags.begin(), kNvccFlags.end());
    argv.insert(argv.end(), nvccFlags.begin(), nvccFlags.end());
    argv.insert(argv.end(), {file, "-o", out});
    const auto start = std::chrono::steady_clock::now();
    const CommandResult r = runCommand(argv, 600);
    nvccSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    auto text = model::readTextFile(out);
    std::error_code ignored;
    fs::remove_all(dir, ignored);
    if (r.status != 0 || !text)
      throw model::UserError({file, 0, 0}, "nvcc failed (exit " + std::to_string(r.status) + "):\n" + r.output);
    return {nameInputAsGiven(*text, file), file};
  }

  ExitCode run() {
    const frontend::LaunchConfig l = launch();
    double nvccSeconds = -1;
    const auto [text, ptxFile] = ptx(nvccSeconds);
    // Bounded after nvcc ran (its own address-space needs are not ptxmm's): a kernel whose paths or pairs outgrow
    // the bound ends UNKNOWN instead of taking the machine's memory (issue 16 M1, for kernels).
    applyMemoryLimit(maxMemory.empty() ? defaultMemoryLimit() : parseMemoryLimit(maxMemory));
    frontend::InstantiateOptions instantiate;
    // Parameter names come from the kernel's source, found where the PTX's .file says or next to the input.
    instantiate.readSource = [this](const std::string& path) {
      if (auto source = model::readTextFile(path)) return source;
      return model::readTextFile(fs::path(file).parent_path() / fs::path(path).filename());
    };
    frontend::KernelProgram program;
    try {
      program = frontend::instantiateKernel(text, ptxFile, file, l, instantiate);
    } catch (const frontend::OptionError& e) {
      throw UsageError(e.what());
    } catch (const std::bad_alloc&) {
      program.displayName = program.entry = l.kernel;
      program.file = file;
      print(undecided(program, l, memoryReason(), 0, nvccSeconds));
      return ExitCode::Unknown;
    }
    const bool bundled = model.empty();
    const model::CatModel cat = model::parseCatFile(bundled ? std::string(PTXMM_MODEL_DIR) +
                                                                  (mbarrier == "strict" ? "/ptx.cat" : "/ptx-mbarrier-lenient.cat")
                                                            : model);
    options.mayOrderShortcut = bundled;
    options.run.engine = engine.empty() ? checker::engineNames().front() : engine;
    // The check stops itself at --timeout; the watchdog answers for what does not (freeing a large Z3 formula).
    Watchdog watchdog;
    watchdog.arm(options.timeoutSeconds > 0 ? options.timeoutSeconds + kWatchdogGraceSeconds : 0, [&] {
      print(undecided(program, l, checker::timeoutReason(options.timeoutSeconds) + " (the check overran it; ptxmm stops here)",
                      options.timeoutSeconds, nvccSeconds));
      std::_Exit(static_cast<int>(ExitCode::Unknown));
    });
    checker::kernel::KernelResult r;
    try {
      r = checker::kernel::checkKernel(cat, program, options);
      checker::kernel::checkRaceFixes(cat, program, options, r);  // each race's fix, re-checked (RaceFixes.hpp)
    } catch (const std::bad_alloc&) {
      watchdog.disarm();
      print(undecided(program, l, memoryReason(), 0, nvccSeconds));
      return ExitCode::Unknown;
    }
    watchdog.disarm();
    r.nvccSeconds = nvccSeconds;
    print(r);
    if (r.hasFinding()) return ExitCode::ExpectationFailed;
    return r.status == checker::kernel::KernelStatus::Ok ? ExitCode::Ok : ExitCode::Unknown;
  }

  // A kernel left undecided as a whole (the time or the memory ran out), with why; every claim undecided with it.
  checker::kernel::KernelResult undecided(const frontend::KernelProgram& program, const frontend::LaunchConfig& l,
                                          const std::string& why, double seconds, double nvccSeconds) const {
    checker::kernel::KernelResult r;
    for (const auto& a : options.asserts) r.assertions.push_back({a, std::nullopt, "", why});
    for (const auto& o : options.observes) r.observed.push_back({o, {}, false, why});
    r.name = program.displayName;
    r.file = program.file;
    r.kernel = program.entry;
    r.grid = l.grid;
    r.block = l.block;
    r.cluster = program.launch.cluster.value_or(frontend::Dim3{});
    r.status = checker::kernel::KernelStatus::Unknown;
    r.unknowns.push_back(why);
    r.checkSeconds = seconds;
    r.nvccSeconds = nvccSeconds;
    return r;
  }

  std::string memoryReason() const {
    return "the memory bound ran out (--max-memory " + (maxMemory.empty() ? std::string("default: three quarters of the machine's") : maxMemory) +
           "); ptxmm stops here";
  }

  void print(const checker::kernel::KernelResult& r) const {
    if (json) std::cout << jsonText(checker::kernel::kernelJson(r)) << std::endl;
    else std::cout << checker::kernel::kernelText(r) << std::flush;
  }
};

}  // namespace

Command addKernelCommand(CLI::App& app) {
  auto state = std::make_shared<KernelCommand>();
  auto* cmd = app.add_subcommand("kernel", "check a CUDA or PTX kernel at its launch configuration for races, claims on "
                                           "final memory and hangs");
  auto& s = *state;
  cmd->add_option("file", s.file, "the kernel: a .cu file (compiled with nvcc) or a .ptx file")->required();
  cmd->add_option("--kernel", s.kernel, "the entry to check, by CUDA or mangled name (optional when there is one)");
  cmd->add_option("--grid", s.grid, "blocks of the launch: X[,Y[,Z]]")->required();
  cmd->add_option("--block", s.block, "threads per block: X[,Y[,Z]]")->required();
  cmd->add_option("--cluster", s.cluster, "blocks per cluster: X[,Y[,Z]] (default: the kernel's, else 1)");
  cmd->add_option("--arg", s.args, "NAME=VALUE for a scalar parameter, NAME=TYPE[N][=v0,v1,...] for a buffer")->take_all();
  cmd->add_option("--assert", s.options.asserts, "a claim on final memory, e.g. 'out[0]==8128 && flag[0]==1'")->take_all();
  cmd->add_option("--observe", s.options.observes, "a location whose permitted final values to list, e.g. 'out[0]'")->take_all();
  cmd->add_flag("--json", s.json, "one JSON object per kernel");
  cmd->add_option("--timeout", s.options.timeoutSeconds, "seconds for the check before what is left is UNKNOWN (0: none)")
      ->check(secondsValidator());
  cmd->add_option("--nvcc-flag", s.nvccFlags, "an extra nvcc flag for a .cu file (repeatable)")->take_all();
  cmd->add_option("--model", s.model, "cat model file (default: the bundled PTX model; disables the static may-order rule)");
  cmd->add_option("--mbarrier", s.mbarrier, "reading A6 of mbarrier scopes for the bundled model (kernels: lenient)")
      ->capture_default_str()
      ->check(CLI::IsMember({"strict", "lenient"}));
  cmd->add_option("--engine", s.engine, "the engine that decides slices")->check(CLI::IsMember(checker::engineNames()));
  cmd->add_option("--unroll", s.options.run.unroll, "iterations of each loop with side effects")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--max-slice-threads", s.options.slices.maxThreads, "threads of a slice before its pair is UNKNOWN")
      ->capture_default_str();
  cmd->add_flag("--cross-check", s.options.run.engineOptions.crossCheck,
                "z3 engine: re-decide every solution with the explicit evaluator; a disagreement exits 4");
  cmd->add_option("--max-memory", s.maxMemory, kMaxMemoryHelp);
  return {cmd, [state] { return state->run(); }};
}

}  // namespace ptxmm::app
