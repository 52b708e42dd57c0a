// libFuzzer target for the PTX reader and the launch instantiator: any input must be read (and its kernel
// instantiated on a small launch) or rejected with a model::UserError or an OptionError (a launch the kernel
// does not fit, a missing argument); a crash, a hang, a sanitizer report or any other exception is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "frontend/ptx/KernelInstantiator.hpp"
#include "frontend/ptx/LaunchArgs.hpp"
#include "frontend/ptx/PtxParser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    ptxmm::frontend::ptx::parsePtx(text, "fuzz.ptx");
    ptxmm::frontend::LaunchConfig launch;
    launch.block = {2, 1, 1};
    ptxmm::frontend::InstantiateOptions options;
    options.limits = {20'000, 2'000, 16};
    ptxmm::frontend::instantiateKernel(text, "fuzz.ptx", "fuzz.ptx", launch, options);
  } catch (const ptxmm::model::UserError&) {
  } catch (const ptxmm::frontend::OptionError&) {
  }
  return 0;
}
