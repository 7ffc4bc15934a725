// HPCC's in-band telemetry: the records each switch egress stamps into a data packet as it leaves (the
// packet's scheme fields), echoed back by the ACK. Only HPCC runs carry them: other schemes pay nothing.
#pragma once
#include <array>
#include <cstdint>

#include "core/simulator.h"
#include "core/time.h"
#include "net/packet_slot.h"
#include "net/switch_mechanism.h"

namespace lossless {

constexpr int kMaxIntHops = 5;

// One record, stamped by an egress port at dequeue.
struct IntHop {
  TimePs time_ps;
  Bytes tx_bytes;    // cumulative bytes sent by the port
  Bytes qlen_bytes;  // bytes queued at the port when this packet left
  RateBps rate_bps;
};

// HPCC's packet slot on data packets and ACKs (the ACK is the data packet turned around: it carries the
// records back).
struct IntRecords {
  std::uint8_t hops;  // records valid
  std::array<IntHop, kMaxIntHops> hop;
};
inline constexpr PacketSlot<IntRecords> kIntRecords{"hpcc.int", {"data", "ack"}};

class Switch;
class Network;
struct HpccParams;

// Every switch stamps a record into each data packet leaving a data-priority queue, and the packet grows by
// nic.int_hop_size on the wire.
class IntStamper final : public SwitchMechanism {
 public:
  IntStamper(const HpccParams&, Switch& sw, Network& net);
  unsigned packet_hooks() const override { return kOnDequeue; }
  void on_dequeue(const Port& egress, Packet& p) override;

 private:
  Simulator& sim_;
  std::uint32_t hop_bytes_;
  Slot<IntRecords> int_;
};

}  // namespace lossless
