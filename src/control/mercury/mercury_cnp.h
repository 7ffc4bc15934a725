// The CNP a Mercury switch sends to the source of a flow through a truly congested port: the window the flow
// may keep in flight (the paper carries it in the CNP's 32-bit reserved field).
#pragma once
#include <cstdint>

#include "net/packet.h"

namespace lossless {

struct MercuryCnp {
  std::uint32_t window_bytes;
};
// Listed by the switch (mechanism mercury) and the sender (cc mercury).
inline constexpr PacketSlot<MercuryCnp> kMercuryCnpSlot{"mercury.cnp", {"mercury.cnp"}};

// Registered once (control/mercury/mercury_switch.cc).
extern const PacketType kMercuryCnp;

}  // namespace lossless
