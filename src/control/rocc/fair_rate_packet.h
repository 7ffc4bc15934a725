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
// Listed by the congestion point (mechanism rocc) that writes it and the reaction point (cc rocc) that reads
// it.
inline constexpr PacketSlot<RoccFairRate> kRoccFairRateSlot{"rocc.fair_rate", {"rocc.fair_rate"}};

// Registered once (control/rocc/rocc_cp.cc).
extern const PacketType kRoccFairRate;

}  // namespace lossless
