// The mbarrier object as one 64-bit location value. PTX's ranges (ISA, "Contents of the mbarrier object"):
// expected arrival count 1 .. 2^20-1, pending arrival count 0 .. 2^20-1, tx-count -(2^20-1) .. 2^20-1. Packed
// low bits first: tx-count + 2^21 (22 bits: room for one operation of the largest count on either side of the
// range), expected (20 bits), pending (20 bits), phase modulo 4 (2 bits). The phase is kept modulo 4: a wait may
// only name the current phase or the one before it (ISA, test_wait/try_wait), and a state token is the phase it
// was taken in, so its phase completed iff the phase moved on. The lowering builds terms over this layout
// (frontend/lower/InstructionSemantics.cpp); reports unpack final values with it (a Hang line says which phase a
// wait is stuck in and how many arrivals or bytes it still waits for).
#pragma once

#include <cstdint>
#include <string>

namespace ptxmm::model::mbar {

constexpr std::int64_t kMaxCount = (1 << 20) - 1;  // the largest count of each kind (ISA)
constexpr int kTxBits = 22, kCountBits = 20;
constexpr int kExpectedShift = kTxBits, kPendingShift = kTxBits + kCountBits, kPhaseShift = kTxBits + 2 * kCountBits;
constexpr std::int64_t kTxOffset = std::int64_t{1} << (kTxBits - 1);
constexpr std::int64_t kTxMask = (std::int64_t{1} << kTxBits) - 1, kCountMask = (std::int64_t{1} << kCountBits) - 1;

/// A packed mbarrier value as a person reads it: "{phase 1, pending 1 of 2, tx 0}" (the phase modulo 4, the
/// arrivals still pending of those expected per phase, the tx-count).
std::string describe(std::int64_t value);

}  // namespace ptxmm::model::mbar
