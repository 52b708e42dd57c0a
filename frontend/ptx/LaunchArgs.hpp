// The launch options of `ptxmm kernel` as text: `--grid/--block/--cluster X[,Y[,Z]]` and `--arg NAME=VALUE` /
// `--arg NAME=TYPE[N][=v0,v1,...]` / `--arg NAME=tensormap(...)`, checked and turned into the LaunchConfig fields
// of KernelProgram.hpp. The command (app layer) calls these while reading its options; a bad option is an
// OptionError, whose message names the option and says what is wrong (the command prints it and exits 2). The element type vocabulary
// (`int8` ... `float64`) lives here, in one table.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "frontend/ptx/KernelProgram.hpp"

namespace ptxmm::frontend {

/// A malformed command-line option: the message names it ("--grid 0,2: ...").
class OptionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Parses `X[,Y[,Z]]` (positive integers, missing ones 1) for the option named `option`. Throws OptionError.
Dim3 parseDim3(std::string_view text, std::string_view option);

/// Parses one `--arg` value: `NAME=VALUE` (a scalar), `NAME=TYPE[N]`, `NAME=TYPE[N]=v0,v1,...`,
/// `NAME=TYPE=v0,...` (a buffer; N defaults to the number of values given) or `NAME=tensormap(BUFFER,DIMS,
/// box=BOX[,strides=..][,swizzle=..])` (a CUtensorMap parameter, TensorMapSpec). Throws OptionError.
ArgSpec parseArgSpec(std::string_view text);

/// The element type spelled `name` ("int32", "uint8", "float64"), or nullopt.
std::optional<ElemType> findElemType(std::string_view name);
/// The spelling of `type` ("int32").
std::string_view elemTypeName(ElemType type);
/// Bytes of one element of `type`.
int elemBytes(ElemType type);
/// Whether `type` is a floating-point type.
bool elemIsFloat(ElemType type);
/// Whether `type` is a signed integer or a floating-point type (its values print signed).
bool elemIsSigned(ElemType type);

/// The bits of `text` (an integer, or a float for float types) as a value of `type`, or nullopt when it is
/// not a number or does not fit.
std::optional<std::uint64_t> elemValueBits(ElemType type, std::string_view text);

}  // namespace ptxmm::frontend
