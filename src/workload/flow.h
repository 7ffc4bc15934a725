// A flow: one message from src to dst, carried by one QP (one RDMA write).
#pragma once
#include <cstdint>

#include "core/time.h"

namespace lossless {

// The most flows a run may hold (README "Limits"): flow ids are 32-bit and every flow keeps its state for the
// whole run (a few hundred bytes), so generators stop, and the scenario is rejected, beyond this.
constexpr std::uint64_t kMaxFlows = 5'000'000;

struct Flow {
  std::uint32_t id = 0;
  std::uint32_t src = 0;  // host index
  std::uint32_t dst = 0;
  Bytes size_bytes = 0;
  TimePs start_ps = 0;
  std::uint8_t priority = 3;
  std::uint16_t sport = 0;
  std::uint16_t dport = 100;
  RateBps max_rate_bps = 0;  // the sender never exceeds this (its offered load); 0 = NIC line rate
};

}  // namespace lossless
