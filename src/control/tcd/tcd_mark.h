// TCD's marks (assumptions of baselines-verified.md §6.4): a congestion port sets the packet's ECN CE bit
// (TCD's CE codepoint); an undetermined port sets `ue` in the data packet's scheme fields (the reused ECT
// codepoint). CE outranks UE, so the worst state along the path reaches the receiver. The sender writes a
// clear mark on every data packet it sends (dcqcn_tcd), and the receiver answers UE with a UE-CNP.
#pragma once
#include <cstdint>

#include "net/packet.h"

namespace lossless {

struct TcdMark {
  bool ue;
};

// Registered once (control/tcd/tcd.cc): the receiver's notice that a flow's packets crossed an undetermined
// port.
extern const PacketType kTcdUeCnp;

}  // namespace lossless
