// Unit tests of the CUDA names recovered from PTX: kernels, variables (including nvcc's split arrays),
// parameter types and the parameter names read from the .cu source.
#include <catch2/catch.hpp>

#include "frontend/ptx/CudaNames.hpp"

using namespace ptxmm::frontend::ptx;

TEST_CASE("kernel names from mangled ones", "[frontend][ptx]") {
  CHECK(demangle("_Z6reducePKiPii") == "reduce(int const*, int*, int)");
  CHECK(demangle("add_kernel") == "add_kernel");
  CHECK(functionName(demangle("_Z6reducePKiPii")) == "reduce");
  CHECK(functionName("void ns::k<4>(int*)") == "ns::k");
  CHECK(functionName("add_kernel") == "add_kernel");
  CHECK(templatedName(demangle("_Z9block_sumILi64EEvPi")) == "block_sum<64>");
  CHECK(templatedName("void ns::k<a<int>, 4>(int*)") == "ns::k<a<int>, 4>");
  CHECK(templatedName(demangle("_Z6reducePKiPii")) == "reduce");
  CHECK(parameterTypes(demangle("_Z6reducePKiPii")) == std::vector<std::string>{"int const*", "int*", "int"});
  CHECK(parameterTypes("k()").empty());
  CHECK(parameterTypes("add_kernel").empty());
}

TEST_CASE("variable names, split arrays keep their element", "[frontend][ptx]") {
  CHECK(variableName("_ZZ6reducePKiPiiE1s") == "s");
  CHECK(variableName("ticket") == "ticket");
  CHECK(variableName("_ZZ18block_fence_kernelPjE6shared_$_1") == "shared$1");
  CHECK(variableName("$str") == "$str");
}

TEST_CASE("parameter names from the kernel's definition in the source", "[frontend][ptx]") {
  const std::string source =
      "#include <x.h>\n"
      "// reduce(a, b) in a comment\n"
      "template <int N>\n"
      "__global__ void reduce(const int* __restrict__ in,\n"
      "                       int* out, int n = 3, float scale[4]) {\n"
      "}\n"
      "__global__ void plain(int*, int) {}\n";
  CHECK(parameterNames(source, 4, "reduce", 4) == std::vector<std::string>{"in", "out", "n", "scale"});
  CHECK(parameterNames(source, 4, "reduce", 3).empty());       // no definition with that many parameters
  CHECK(parameterNames(source, 7, "plain", 2) == std::vector<std::string>{"", ""});  // unnamed parameters
  CHECK(parameterNames(source, 1, "missing", 1).empty());
}
