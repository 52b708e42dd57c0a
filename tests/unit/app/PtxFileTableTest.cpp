// The input's `.file` entry in nvcc's PTX is renamed to the path the user gave, so positions read `k.cu:23:5`.
#include <catch2/catch.hpp>

#include <filesystem>

#include "app/PtxFileTable.hpp"

namespace ptxmm::app {
namespace {

TEST_CASE("the input's .file entry is spelled as the user gave it; headers keep theirs", "[app][kernel]") {
  const std::string absolute = (std::filesystem::current_path() / "cases/k.cu").string();
  const std::string ptx = ".version 8.0\n\t.file\t1 \"" + absolute + "\"\n\t.file\t2 \"/usr/include/cuda.h\"\n\tret;\n";
  const std::string out = nameInputAsGiven(ptx, "cases/./k.cu");
  CHECK(out == ".version 8.0\n\t.file\t1 \"cases/./k.cu\"\n\t.file\t2 \"/usr/include/cuda.h\"\n\tret;\n");
  CHECK(nameInputAsGiven(ptx, "other.cu") == ptx);
  CHECK(nameInputAsGiven(ptx, "we\"ird.cu") == ptx);
}

}  // namespace
}  // namespace ptxmm::app
