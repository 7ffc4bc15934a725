// In-band network telemetry as HPCC uses it: the records each switch egress stamps into a data packet as it
// leaves (a packet slot), echoed back by the ACK. The records live here, in the switch's layer, so that the
// stamping can be compiled into the switch's packet path (net/switch_path.h, feature kIntStamp) the way a
// flow-control policy is, rather than called through a mechanism's on_dequeue hook; the mechanism that asks
// for it (control/hpcc/int_records.h) still owns the parameters. Only runs with INT carry the records.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/time.h"
#include "net/packet.h"
#include "net/packet_slot.h"
#include "net/port.h"
#include "topo/topology.h"

namespace lossless {

constexpr int kMaxIntHops = 5;

// The run's distinct link rates, ascending, taken from the topology so that every rank numbers them alike.
// An INT record names its port's rate by its index here: a record then takes 24 bytes instead of 32, and an
// HPCC packet three cache lines instead of five (docs/performance.md "Twenty-fourth pass").
class LinkRates {
 public:
  // Indices fit the record's 16 bits.
  static constexpr std::size_t kMaxRates = std::size_t{1} << 16;
  LinkRates() = default;
  explicit LinkRates(const std::vector<TopoLink>& links) {
    for (const TopoLink& l : links) bps_.push_back(l.rate_bps);
    std::sort(bps_.begin(), bps_.end());
    bps_.erase(std::unique(bps_.begin(), bps_.end()), bps_.end());
    for (RateBps r : bps_) as_double_.push_back(static_cast<double>(r));
  }
  std::size_t size() const { return bps_.size(); }
  // The index of `rate_bps`; size() if no link has that rate.
  std::size_t index_of(RateBps rate_bps) const {
    auto it = std::lower_bound(bps_.begin(), bps_.end(), rate_bps);
    return it != bps_.end() && *it == rate_bps ? static_cast<std::size_t>(it - bps_.begin()) : bps_.size();
  }
  // By index, as the double a sender computes with (the same value as converting the rate).
  const double* as_double() const { return as_double_.data(); }

 private:
  std::vector<RateBps> bps_;
  std::vector<double> as_double_;
};

// One record, stamped by an egress port at dequeue. The queue length and the port's rate share a word: the
// length in the low 48 bits (saturated there: 256 TiB, beyond any buffer), the rate's index in the run's
// LinkRates in the high 16.
struct IntHop {
  static constexpr unsigned kRateShift = 48;
  static constexpr std::uint64_t kQlenMask = (std::uint64_t{1} << kRateShift) - 1;
  TimePs time_ps;
  Bytes tx_bytes;  // cumulative bytes sent by the port
  std::uint64_t qlen_and_rate;
  // Bytes queued at the port when this packet left.
  Bytes qlen_bytes() const { return qlen_and_rate & kQlenMask; }
  std::size_t rate_index() const { return static_cast<std::size_t>(qlen_and_rate >> kRateShift); }
};
static_assert(sizeof(IntHop) == 24);

// The packet slot on data packets and ACKs (the ACK is the data packet turned around: it carries the records
// back).
struct IntRecords {
  std::uint8_t hops;  // records valid
  std::array<IntHop, kMaxIntHops> hop;
};
// 128 bytes: with the 64-byte header an HPCC packet is three cache lines (net/packet.h, PacketPool).
static_assert(sizeof(IntRecords) == 128);
inline constexpr PacketSlot<IntRecords> kIntRecords{"hpcc.int", {"data", "ack"}};

// What a switch needs to stamp: the bound slot, how much each record adds on the wire, and each of its ports'
// rate index already in place (IntHop::kRateShift), by port index.
struct IntStamping {
  Slot<IntRecords> slot;
  std::uint32_t hop_bytes = 0;
  const std::uint64_t* rate_tags = nullptr;
};

// Stamps a record into a data packet leaving `out` at `now` (up to kMaxIntHops records); the packet grows
// by hop_bytes on the wire. Other packets pass untouched.
// Always inlined: with the buffer calls inline in the switch path gcc made it a call (+29 M instructions on
// fat320 HPCC, bench/instructions.sh).
[[gnu::always_inline]] inline void stamp_int(const IntStamping& s, const Port& out, Packet& p, TimePs now) {
  if (p.type != PacketType::kData) return;
  IntRecords& r = p.ext(s.slot);
  if (r.hops >= kMaxIntHops) return;
  const Bytes qlen = out.queued_bytes < IntHop::kQlenMask ? out.queued_bytes : IntHop::kQlenMask;
  r.hop[r.hops++] = {now, out.tx_bytes(), qlen | s.rate_tags[out.index]};
  p.wire_bytes += s.hop_bytes;
}

}  // namespace lossless
