// Packet kinds that schemes add (credits, grants, a switch's feedback): each scheme registers its kinds by
// name from a static initialiser and keeps the number it gets, e.g.
//   const PacketType kRoccFairRate = PacketKinds::add("rocc.fair_rate", PacketKinds::kEndToEnd);
// An end-to-end kind is routed toward the packet's `dst` host; there the NIC hands it to the flow's sender
// (CongestionControl::on_packet) when that host is the flow's source, else to the flow's receiver
// (ReceiverControl::on_packet). A link-local kind is consumed by the node at the other end of the link: a
// switch offers it to its mechanisms (SwitchMechanism::on_packet), a NIC to its scheme's per-NIC part
// (NicControl::on_packet).
#pragma once
#include <optional>
#include <string>

#include "net/packet.h"

namespace lossless {

class PacketKinds {
 public:
  enum Scope { kEndToEnd, kLinkLocal };
  // Registers a kind; names must be unique ("scheme.kind").
  static PacketType add(const std::string& name, Scope scope);
  // The registered name of a kind ("data", "ack", ... for the RoCEv2 kinds).
  static std::string name(PacketType kind);
  // The kind registered as `name` (packet slots name the kinds that carry them), if any.
  static std::optional<PacketType> find(const std::string& name);
};

}  // namespace lossless
