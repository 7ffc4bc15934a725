// TCD's marks (assumptions of baselines-verified.md §6.4): a congestion port sets the packet's ECN CE bit
// (TCD's CE codepoint); an undetermined port sets `ue` in TCD's packet slot of the data packet (the reused
// ECT codepoint). CE outranks UE, so the worst state along the path reaches the receiver. The sender writes a
// clear mark on every data packet it sends (dcqcn_tcd), and the receiver answers UE with a UE-CNP (or, with
// nic.cnp_interval 0, the sender reads it on the ACK, the data packet turned around). The slot is TCD's own:
// it never shares bytes with another scheme's fields (HPCC's INT records), so TCD runs beside any
// congestion control.
#pragma once
#include <cstdint>

#include "net/packet.h"

namespace lossless {

struct TcdMark {
  bool ue;
};
// Listed by the switch (TcdSwitch) and by dcqcn_tcd, which reads it.
inline constexpr PacketSlot<TcdMark> kTcdMark{"tcd.mark", {"data", "ack"}};

// Registered once (control/tcd/tcd.cc): the receiver's notice that a flow's packets crossed an undetermined
// port.
extern const PacketType kTcdUeCnp;

}  // namespace lossless
