// Counters and event logs the fabric fills while it runs; written out by stats/writers at the end.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "core/time.h"
#include "net/pause_kinds.h"

namespace lossless {

// Why a packet was dropped: the buffer's threshold on a lossy fabric, a full headroom on a lossless one (a
// violation of losslessness, counted), or a scheme's queue set refusing it (credits beyond their share).
enum class DropReason : std::uint8_t { kBufferFull, kHeadroomFull, kScheme };
inline const char* drop_reason_name(DropReason r) {
  switch (r) {
    case DropReason::kBufferFull:
      return "buffer full";
    case DropReason::kHeadroomFull:
      return "headroom full";
    case DropReason::kScheme:
      return "refused by a scheme's queue";
  }
  return "?";
}

// A data packet dropped (the invariant checker's per-flow byte balance, net/invariants.h).
struct DataDrop {
  std::uint32_t flow_id;
  std::uint32_t payload_bytes;
  DropReason reason;
};

struct PfcLogRecord {
  TimePs time_ps;
  std::uint32_t node;
  std::uint16_t port;
  std::uint8_t priority;
  bool pause;  // false = resume (explicit, or the pause expired)
  std::uint16_t quanta;
  std::uint8_t kind;  // who sent the frame (net/pause_kinds.h)
};

// Where a full PFC headroom first dropped a packet (at_ps kTimeNever: nowhere): where to look when a lossless
// fabric lost packets. Of several, the earliest, then the lowest switch, port and priority.
struct HeadroomDrop {
  TimePs at_ps = kTimeNever;
  std::uint32_t node = 0;  // the switch
  std::uint16_t port = 0;  // its ingress port
  std::uint8_t priority = 0;
  bool before(const HeadroomDrop& o) const {
    if (at_ps != o.at_ps) return at_ps < o.at_ps;
    if (node != o.node) return node < o.node;
    if (port != o.port) return port < o.port;
    return priority < o.priority;
  }
};

struct NetCounters {
  std::uint64_t drops = 0;
  std::uint64_t drops_headroom_full = 0;  // lossless-fabric violations (headroom too small)
  HeadroomDrop first_headroom_drop;
  std::uint64_t pause_frames = 0;                                      // pause frames received (quanta > 0)
  std::array<std::uint64_t, PauseKinds::kMax> pause_frames_by_kind{};  // the same, by who sent them
  std::uint64_t resume_frames = 0;        // explicit resumes received (quanta = 0)
  std::uint64_t pause_expiries = 0;       // pauses that ran out their quanta
  TimePs paused_time_ps = 0;              // summed over (port, priority) pairs
  Bytes max_queue_bytes = 0;              // max bytes queued at one switch egress port
  std::uint64_t data_packets = 0;         // data packets put on the wire by NICs (retransmissions included)
  std::uint64_t control_packets = 0;      // ACK/NACK/CNP/PFC/feedback packets put on the wire
  std::uint64_t packet_hops = 0;          // packets serialized on any link
  std::uint64_t retransmitted_bytes = 0;  // payload bytes sent again after a go-back-N
  std::uint64_t nacks = 0;
  std::uint64_t cnps = 0;
  std::uint64_t ecn_marks = 0;
  std::uint64_t timeouts = 0;
  std::uint64_t scheme_drops =
      0;  // packets a scheme's queue set refused (e.g. credits): by design, not losses
  bool log_pfc = false;
  std::vector<PfcLogRecord> pfc_log;

  // Adds another partition's counts (net/partition.h): sums, the larger queue maximum, the PFC records.
  void add(const NetCounters& c) {
    drops += c.drops;
    drops_headroom_full += c.drops_headroom_full;
    if (c.first_headroom_drop.before(first_headroom_drop)) first_headroom_drop = c.first_headroom_drop;
    pause_frames += c.pause_frames;
    for (std::size_t k = 0; k < pause_frames_by_kind.size(); ++k)
      pause_frames_by_kind[k] += c.pause_frames_by_kind[k];
    resume_frames += c.resume_frames;
    pause_expiries += c.pause_expiries;
    paused_time_ps += c.paused_time_ps;
    max_queue_bytes = max_queue_bytes > c.max_queue_bytes ? max_queue_bytes : c.max_queue_bytes;
    data_packets += c.data_packets;
    control_packets += c.control_packets;
    packet_hops += c.packet_hops;
    retransmitted_bytes += c.retransmitted_bytes;
    nacks += c.nacks;
    cnps += c.cnps;
    ecn_marks += c.ecn_marks;
    timeouts += c.timeouts;
    scheme_drops += c.scheme_drops;
    pfc_log.insert(pfc_log.end(), c.pfc_log.begin(), c.pfc_log.end());
  }
  void drop(DropReason reason) {
    ++drops;
    if (reason == DropReason::kHeadroomFull) ++drops_headroom_full;
  }
  // A packet a full headroom dropped at `now`: the earliest is kept, and of drops at the same time the lowest
  // switch, port and priority, whatever order simultaneous events ran in (the same on any number of threads).
  void note_headroom_drop(TimePs now, std::uint32_t node, std::uint16_t port, std::uint8_t priority) {
    const HeadroomDrop d{now, node, port, priority};
    if (d.before(first_headroom_drop)) first_headroom_drop = d;
  }
};

}  // namespace lossless
