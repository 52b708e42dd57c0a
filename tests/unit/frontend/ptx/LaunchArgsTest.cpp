// Unit tests of the launch options: dimensions, --arg scalars and buffers, element values, and the message of
// every malformed option.
#include <catch2/catch.hpp>

#include "frontend/ptx/LaunchArgs.hpp"

using namespace ptxmm::frontend;
using Catch::Contains;

TEST_CASE("dimensions X[,Y[,Z]]", "[frontend][ptx]") {
  const Dim3 d = parseDim3("4,2", "--grid");
  CHECK(d.x == 4);
  CHECK(d.y == 2);
  CHECK(d.z == 1);
  CHECK(parseDim3(" 128 ", "--block").x == 128);
  CHECK(parseDim3("1,1,3", "--cluster").z == 3);
  CHECK_THROWS_AS(parseDim3("0", "--grid"), OptionError);
  CHECK_THROWS_WITH(parseDim3("0,2", "--grid"), Contains("--grid 0,2: each dimension must be a positive integer"));
  CHECK_THROWS_WITH(parseDim3("1,2,3,4", "--block"), Contains("--block 1,2,3,4: at most three dimensions"));
  CHECK_THROWS_WITH(parseDim3("x", "--grid"), Contains("positive integer"));
  CHECK_THROWS_WITH(parseDim3("-1", "--grid"), Contains("positive integer"));
  CHECK_THROWS_WITH(parseDim3("", "--grid"), Contains("positive integer"));
}

TEST_CASE("--arg scalars and buffers", "[frontend][ptx]") {
  const ArgSpec n = parseArgSpec("n=128");
  CHECK(n.name == "n");
  CHECK(n.scalar == "128");
  CHECK_FALSE(n.type);
  CHECK(parseArgSpec("alpha=-0.5").scalar == "-0.5");
  const ArgSpec out = parseArgSpec("out=int32[16]");
  CHECK(out.type == ElemType::S32);
  CHECK(out.length == 16);
  CHECK(out.values.empty());
  const ArgSpec in = parseArgSpec("in=uint8[4]=1,2,255");
  CHECK(in.type == ElemType::U8);
  CHECK(in.length == 4);
  CHECK(in.values == std::vector<std::string>{"1", "2", "255"});
  const ArgSpec f = parseArgSpec("x=float32=1.5,-2");
  CHECK(f.length == 2);
  CHECK(f.values.size() == 2);
}

TEST_CASE("malformed --arg values are refused with the reason", "[frontend][ptx]") {
  CHECK_THROWS_WITH(parseArgSpec("n"), Contains("--arg n: expected NAME=VALUE"));
  CHECK_THROWS_WITH(parseArgSpec("=3"), Contains("expected NAME=VALUE"));
  CHECK_THROWS_WITH(parseArgSpec("n="), Contains("the value of 'n' is missing"));
  CHECK_THROWS_WITH(parseArgSpec("n=abc"), Contains("unknown element type 'abc'"));
  CHECK_THROWS_WITH(parseArgSpec("n=12x"), Contains("'12x' is not a number"));
  CHECK_THROWS_WITH(parseArgSpec("a=int32[0]"), Contains("the length must be a positive integer"));
  CHECK_THROWS_WITH(parseArgSpec("a=int32[4"), Contains("missing ']'"));
  CHECK_THROWS_WITH(parseArgSpec("a=int8[2]=1,300"), Contains("'300' is not a int8 value"));
  CHECK_THROWS_WITH(parseArgSpec("a=uint32[2]=-1"), Contains("'-1' is not a uint32 value"));
  CHECK_THROWS_WITH(parseArgSpec("a=int32[1]=1,2"), Contains("2 values for 1 elements"));
  CHECK_THROWS_WITH(parseArgSpec("a=int32[2]x"), Contains("expected '=' before the initial values"));
}

TEST_CASE("element types and values", "[frontend][ptx]") {
  CHECK(findElemType("uint64") == ElemType::U64);
  CHECK_FALSE(findElemType("int128"));
  CHECK(elemTypeName(ElemType::F32) == "float32");
  CHECK(elemBytes(ElemType::S16) == 2);
  CHECK(elemIsFloat(ElemType::F64));
  CHECK_FALSE(elemIsSigned(ElemType::U8));
  CHECK(elemValueBits(ElemType::S8, "-1") == 0xff);
  CHECK(elemValueBits(ElemType::S8, "-128") == 0x80);
  CHECK_FALSE(elemValueBits(ElemType::S8, "-129"));
  CHECK(elemValueBits(ElemType::U16, "0xffff") == 0xffff);
  CHECK_FALSE(elemValueBits(ElemType::U16, "65536"));
  CHECK(elemValueBits(ElemType::F32, "1") == 0x3f800000u);
  CHECK(elemValueBits(ElemType::F64, "-2") == 0xc000000000000000ull);
  CHECK(elemValueBits(ElemType::U64, "18446744073709551615") == ~std::uint64_t{0});
  CHECK_FALSE(elemValueBits(ElemType::S32, "1.5"));
}

TEST_CASE("--arg tensor maps", "[frontend][ptx][tma]") {
  const ArgSpec t = parseArgSpec("tmap=tensormap(in,64x32,box=32x8)");
  REQUIRE(t.tensorMap);
  CHECK(t.tensorMap->buffer == "in");
  CHECK(t.tensorMap->dims == std::vector<std::int64_t>{64, 32});
  CHECK(t.tensorMap->box == std::vector<std::int64_t>{32, 8});
  CHECK(t.tensorMap->strides.empty());
  CHECK(t.tensorMap->swizzle == 0);
  const ArgSpec s = parseArgSpec("m=tensormap(a, 16x4x2, box=16x2x1, strides=128x1024, swizzle=64)");
  REQUIRE(s.tensorMap);
  CHECK(s.tensorMap->strides == std::vector<std::int64_t>{128, 1024});
  CHECK(s.tensorMap->swizzle == 64);
  CHECK_THROWS_WITH(parseArgSpec("m=tensormap(in,64x32)"), Contains("expected tensormap(BUFFER|TYPE,DIMS,box=BOX"));
  CHECK_THROWS_WITH(parseArgSpec("m=tensormap(in,64x32,box=32)"), Contains("box= needs one extent per dimension"));
  CHECK_THROWS_WITH(parseArgSpec("m=tensormap(in,64x32,box=32x8,swizzle=16)"), Contains("swizzle= must be 32, 64 or 128"));
  CHECK_THROWS_WITH(parseArgSpec("m=tensormap(in,64x32,box=512x8)"), Contains("at most 256"));
  CHECK_THROWS_WITH(parseArgSpec("m=tensormap(in,8x2,box=16x2)"), Contains("larger than the tensor"));
  CHECK_THROWS_WITH(parseArgSpec("m=tensormap(in,8x2x2,box=8x2x1,strides=40)"), Contains("strides= gives the byte strides"));
  CHECK_THROWS_WITH(parseArgSpec("m=tensormap(in,8x2,box=8x2,strides=40)"), Contains("multiples of 16"));
  CHECK_THROWS_WITH(parseArgSpec("m=tensormap(in,8x2,box=8x2,fill=nan)"), Contains("unknown tensor-map field"));
  CHECK_THROWS_WITH(parseArgSpec("m=tensormap(in,1x2x3x4x5x6,box=1x1x1x1x1x1)"), Contains("1 to 5 positive integers"));
  CHECK_THROWS_WITH(parseArgSpec("m=tensormap(in,8x2,box=8x2"), Contains("missing ')'"));
}
