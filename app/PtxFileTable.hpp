// nvcc names the compiled .cu in its PTX's `.file` table by an absolute path (`.file 1 "<absolute path>/k.cu"`), and every
// position ptxmm reports comes from that table. A user who ran `ptxmm kernel k.cu` expects `k.cu:23:5`, the name
// they typed (as compilers print it), not nvcc's spelling: the table entry for the input is renamed before reading.
#pragma once

#include <string>

namespace ptxmm::app {

/// `ptx` with each `.file` entry that names the same file as `input` (same path after making both absolute and
/// normal) spelled as `input`; other entries (headers) and every other line are unchanged.
std::string nameInputAsGiven(const std::string& ptx, const std::string& input);

}  // namespace ptxmm::app
