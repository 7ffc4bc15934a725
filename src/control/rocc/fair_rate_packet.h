// The packet a RoCC congestion point sends to the source of each flow in its queue: the fair rate, and which
// congestion point computed it (node << 16 | port) for the reaction point's acceptance rule.
#pragma once
#include <cstdint>

#include "net/packet.h"

namespace lossless {

struct RoccFairRate {
  std::uint64_t rate_bps;
  std::uint32_t cp;
};

// Registered once (control/rocc/rocc_cp.cc).
extern const PacketType kRoccFairRate;

}  // namespace lossless
