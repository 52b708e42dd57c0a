// The runtime parts of every generated CUDA program (validate/harness/*), compiled into ptxmm as text by
// validate/cmake/Embed.cmake so that the generated programs are standalone and the sources stay real files.
#pragma once

#include <string_view>

namespace ptxmm::validate {

/// validate/harness/Prelude.cuh: includes, register arithmetic, start barrier, stress, slot addresses.
std::string_view harnessPrelude();
/// validate/harness/Layout.h: thread and location maps and their checks.
std::string_view harnessLayout();
/// validate/harness/Main.cuh: kernels, classification and the host driver.
std::string_view harnessMain();
/// validate/params/default.json: the parameter space runs draw from when no --params file is given.
std::string_view defaultParams();

}  // namespace ptxmm::validate
