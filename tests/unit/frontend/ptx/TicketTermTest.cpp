// Ticket terms (frontend/ptx/TicketTerm.hpp): the arithmetic that carries an atomic add's returned value into
// addresses, and the 32-bit stages that bound where the term is exact.
#include <catch2/catch.hpp>

#include "frontend/ptx/KernelInstantiator.hpp"
#include "frontend/ptx/LaunchArgs.hpp"
#include "frontend/ptx/TicketTerm.hpp"

namespace ptxmm::frontend {
namespace {

TEST_CASE("a ticket term follows adds and scalings and remembers its 32-bit stages", "[frontend][ptx][tickets]") {
  const auto t = ticket_term::fresh(3, 32);
  REQUIRE(t);
  CHECK(t->narrowed);  // the atomic's own 32-bit result
  auto u = ticket_term::plus(*t, 2);  // T + rank
  REQUIRE(u);
  u = ticket_term::at(*u, 32);
  REQUIRE(u);
  u = ticket_term::times(*u, 4);  // mul.wide.s32 by 4
  REQUIRE(u);
  u = ticket_term::at(*u, 64);
  REQUIRE(u);
  u = ticket_term::plus(*u, std::int64_t{1} << 40);  // + the buffer's address
  REQUIRE(u);
  CHECK(u->ticket == 3);
  CHECK(u->scale == 4);
  CHECK(u->addend == (std::int64_t{1} << 40) + 8);
  CHECK(u->narrowScale == 1);
  CHECK(u->narrowHigh == 2);
  CHECK(ticket_term::exactUpTo(*u, (std::int64_t{1} << 31) - 3));
  CHECK_FALSE(ticket_term::exactUpTo(*u, (std::int64_t{1} << 31) - 2));  // T + 2 would wrap in 32 bits
}

TEST_CASE("a ticket term is lost where it could not stay exact", "[frontend][ptx][tickets]") {
  const auto t = ticket_term::fresh(0, 32);
  REQUIRE(t);
  CHECK_FALSE(ticket_term::fresh(0, 16));
  CHECK_FALSE(ticket_term::at(*t, 16));          // a 16-bit register keeps part of it
  CHECK_FALSE(ticket_term::times(*t, -4));        // a negative scale
  CHECK_FALSE(ticket_term::times(*t, std::int64_t{1} << 30));  // past the scale the checker can bound
  const auto below = ticket_term::at(*ticket_term::plus(*t, -1), 32);  // T - 1 in 32 bits: -1 when T is 0
  REQUIRE(below);
  CHECK_FALSE(ticket_term::exactUpTo(*below, 5));
}

// Lane 0 shuffles a value it loaded from x (which thread 32 writes), or the result of an atomic whose increment or
// operation is not a constant add: none of these is a ticket, so the stores through them have no ticket address.
const char* const kNotTickets = R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 x, .param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [out];
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mov.u32 %r1, %tid.x;
  setp.ne.s32 %p1, %r1, 32;
  @%p1 bra $L1;
  mov.u32 %r2, 1;
  st.global.u32 [%rd3], %r2;
$L1:
  ld.global.u32 %r3, [%rd3];
  mov.u32 %r4, -1;
  mov.u32 %r5, 0;
  mov.u32 %r6, 31;
  shfl.sync.idx.b32 %r7, %r3, %r5, %r6, %r4;
  mul.wide.s32 %rd5, %r7, 4;
  add.s64 %rd6, %rd4, %rd5;
  st.global.u32 [%rd6], %r1;
  atom.global.add.u32 %r8, [%rd3+4], %r3;
  mul.wide.s32 %rd7, %r8, 4;
  add.s64 %rd8, %rd4, %rd7;
  st.global.u32 [%rd8], %r1;
  atom.global.exch.b32 %r9, [%rd3+8], %r1;
  mul.wide.s32 %rd9, %r9, 4;
  add.s64 %rd10, %rd4, %rd9;
  st.global.u32 [%rd10], %r1;
  ret;
}
)";

TEST_CASE("a shuffled load, an add of a loaded increment and an exchange are not tickets", "[frontend][ptx][tickets]") {
  LaunchConfig launch;
  launch.grid = parseDim3("1", "--grid");
  launch.block = parseDim3("64", "--block");
  launch.args.push_back(parseArgSpec("param_0=int32[4]"));
  launch.args.push_back(parseArgSpec("param_1=int32[64]"));
  const KernelProgram k = instantiateKernel(kNotTickets, "k.ptx", "k.ptx", launch);
  CHECK(k.tickets.empty());
  REQUIRE(k.symbolic.size() == 3 * 64);
  for (const auto& s : k.symbolic) CHECK_FALSE(s.address.has_value());
}

}  // namespace
}  // namespace ptxmm::frontend
