// The names a kernel author knows, recovered from what nvcc leaves in PTX: the CUDA name of a mangled kernel or
// variable (`_Z6reducePKiPii` is `reduce`, `_ZZ6reducePKiPiiE1s` is `s`), the parameter types of a kernel
// (which `.u64` parameters are pointers), and the parameter names from the `.cu` source line the kernel's
// first `.loc` points at (PTX keeps only `_param_N`). Used for `--kernel`, `--arg NAME=...` and reports.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ptxmm::frontend::ptx {

/// The demangled form of `mangled` ("reduce(int const*, int*, int)"), or `mangled` itself when it is not a
/// C++ mangled name.
std::string demangle(const std::string& mangled);

/// The qualified function name of a demangled signature without return type, template arguments and
/// parameters: "void ns::k<4>(int*)" -> "ns::k".
std::string functionName(const std::string& demangled);

/// The qualified function name of a demangled signature with its template arguments, without return type and
/// parameters: "void ns::k<4>(int*)" -> "ns::k<4>" (what tells two instances of a template kernel apart).
std::string templatedName(const std::string& demangled);

/// The parameter types of a demangled signature ("int const*", "int*", "int"); empty when there are none or
/// the name was not mangled.
std::vector<std::string> parameterTypes(const std::string& demangled);

/// The CUDA name of a (mangled) variable: "_ZZ6reducePKiPiiE1s" -> "s"; a scalar nvcc split off an array keeps
/// its element index: "_ZZ1kPjE6shared_$_1" -> "shared$1".
std::string variableName(const std::string& mangled);

/// The parameter names of the definition of function `name` (unqualified) in `source`, looked for from line
/// `line` (1-based) on; empty when no definition with `count` parameters is found there.
std::vector<std::string> parameterNames(std::string_view source, int line, const std::string& name, std::size_t count);

}  // namespace ptxmm::frontend::ptx
