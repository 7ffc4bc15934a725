// One side of a full-duplex link: serializes one packet at a time onto the wire toward `peer`, holds the
// per-priority egress queues (switches) and the PFC pause state imposed by the peer.
#pragma once
#include <array>
#include <cstdint>

#include "core/simulator.h"
#include "net/packet.h"
#include "stats/net_counters.h"

namespace lossless {

class Port {
 public:
  using KickFn = void (*)(void* owner, std::uint16_t port);

  // Wiring (set once by the network builder).
  Simulator* sim = nullptr;
  NetCounters* counters = nullptr;
  void* owner = nullptr;
  KickFn kick = nullptr;        // owner: "this port can send again"
  EventFn on_arrive = nullptr;  // owner's receive handler for packets arriving at this port
  std::uint32_t node = 0;       // global node id of the owner
  std::uint16_t index = 0;
  Port* peer = nullptr;
  SerializationClock clock;
  TimePs delay_ps = 0;

  // State.
  bool busy = false;
  std::array<PacketFifo, kPriorities> queues;
  Bytes queued_bytes = 0;
  Bytes tx_bytes = 0;  // cumulative bytes serialized (INT txBytes)
  std::uint8_t paused_mask = 0;

  RateBps rate_bps() const { return clock.rate_bps(); }
  bool paused(std::uint8_t prio) const { return (paused_mask >> prio) & 1u; }

  void enqueue(Packet* p) {
    queues[p->priority].push(p);
    queued_bytes += p->wire_bytes;
  }
  // Priority 0 (control) first, then round-robin among non-empty, non-paused priorities.
  Packet* dequeue();
  void transmit(Packet* p);
  // A PFC frame for `prio` arrived at this port (so it concerns what this port sends).
  void on_pfc(std::uint8_t prio, std::uint16_t quanta);
  // Accounts paused time still open at the end of the run.
  void close_pause_accounting();

 private:
  static void tx_done_event(void* target, std::uint64_t arg);
  static void pause_expire_event(void* target, std::uint64_t arg);
  void unpause(std::uint8_t prio);

  std::uint8_t rr_next_ = 1;
  std::array<std::uint32_t, kPriorities> pause_gen_{};
  std::array<TimePs, kPriorities> paused_since_{};
};

}  // namespace lossless
