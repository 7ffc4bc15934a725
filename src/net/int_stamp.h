// In-band network telemetry as HPCC uses it: the records each switch egress stamps into a data packet as it
// leaves (a packet slot), echoed back by the ACK. The records live here, in the switch's layer, so that the
// stamping can be compiled into the switch's packet path (net/switch_path.h, feature kIntStamp) the way a
// flow-control policy is, rather than called through a mechanism's on_dequeue hook; the mechanism that asks
// for it (control/hpcc/int_records.h) still owns the parameters. Only runs with INT carry the records.
#pragma once
#include <array>
#include <cstdint>

#include "core/time.h"
#include "net/packet.h"
#include "net/packet_slot.h"
#include "net/port.h"

namespace lossless {

constexpr int kMaxIntHops = 5;

// One record, stamped by an egress port at dequeue.
struct IntHop {
  TimePs time_ps;
  Bytes tx_bytes;    // cumulative bytes sent by the port
  Bytes qlen_bytes;  // bytes queued at the port when this packet left
  RateBps rate_bps;
};

// The packet slot on data packets and ACKs (the ACK is the data packet turned around: it carries the records
// back).
struct IntRecords {
  std::uint8_t hops;  // records valid
  std::array<IntHop, kMaxIntHops> hop;
};
inline constexpr PacketSlot<IntRecords> kIntRecords{"hpcc.int", {"data", "ack"}};

// What a switch needs to stamp: the bound slot and how much each record adds on the wire.
struct IntStamping {
  Slot<IntRecords> slot;
  std::uint32_t hop_bytes = 0;
};

// Stamps a record into a data packet leaving `out` at `now` (up to kMaxIntHops records); the packet grows
// by hop_bytes on the wire. Other packets pass untouched.
// Always inlined: with the buffer calls inline in the switch path gcc made it a call (+29 M instructions on
// fat320 HPCC, bench/instructions.sh).
[[gnu::always_inline]] inline void stamp_int(const IntStamping& s, const Port& out, Packet& p, TimePs now) {
  if (p.type != PacketType::kData) return;
  IntRecords& r = p.ext(s.slot);
  if (r.hops >= kMaxIntHops) return;
  r.hop[r.hops++] = {now, out.tx_bytes(), out.queued_bytes, out.rate_bps()};
  p.wire_bytes += s.hop_bytes;
}

}  // namespace lossless
