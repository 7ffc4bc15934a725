// One side of a full-duplex link: serializes one packet at a time onto the wire toward its peer, holds the
// per-priority egress queues (switches) and the PFC pause state imposed by the peer.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "core/simulator.h"
#include "net/net_counters.h"
#include "net/packet.h"
#include "net/partition.h"
#include "net/switch_architecture.h"

namespace lossless {

class Port;

// A change of a port's pause state (net/deadlock.h watches them).
struct PauseTransition {
  TimePs time_ps;
  const Port* port;
  std::uint8_t prio;
  bool paused;  // false: resumed or expired
};

// Where a round-robin over the data priorities 1..7 starts after serving priority q (0..7): q % 7 + 1,
// without the division (it runs for every packet-hop). Shared by every queue set that serves priorities so.
inline std::uint8_t round_robin_after(std::uint8_t q) {
  return q == kPriorities - 1 ? 1 : static_cast<std::uint8_t>(q + 1);
}

// What a port keeps that a packet passing it idle never reads: its per-priority queues, its pause
// bookkeeping and the listeners of its pauses, its counters and the link delay's full value. Its owner
// (switch, NIC) holds it beside its ports (Port::attach) so that the ports themselves are two cache lines: a
// fat tree's ports, one of which every switch hop reads at random, then lie on a quarter of the 4 KiB pages
// they took at 576 bytes each, which in a virtual machine whose host maps guest memory with 4 KiB pages is
// what a TLB entry covers (k = 32: 41,000 switch ports on 1,300 pages instead of 5,800; docs/performance.md
// "Twenty-third pass").
// Only its port reads or writes it (through Port's accessors).
class PortState {
  friend class Port;

  // The port's own per-priority queues: the default queue set (net/switch_architecture.h).
  std::array<PacketFifo, kPriorities> queues;
  EgressQueues* custom_queues = nullptr;
  void (*pause_changed)(void* owner, std::uint16_t port, std::uint8_t prio, bool paused) = nullptr;
  std::vector<PauseTransition>* pause_log = nullptr;
  NetCounters* counters = nullptr;
  TimePs delay_ps = 0;
  std::array<std::uint32_t, kPriorities> pause_gen{};
  std::array<TimePs, kPriorities> paused_since{};
  std::array<TimePs, kPriorities> pause_until{};
};

class alignas(64) Port {
 public:
  using KickFn = void (*)(void* owner, std::uint16_t port);

  Port() = default;
  // Ports are wired by address (peers, events, pause logs): never copied.
  Port(const Port&) = delete;
  Port& operator=(const Port&) = delete;
  // The state the port keeps beside it; once, before the port is wired.
  void attach(PortState& state) { state_ = &state; }

  // Field order matters for speed. Ports are cache-line aligned, and a packet that finds its egress port idle
  // (most hops below saturation) reads and writes only the port's first line: the busy test, the
  // transmission's clock and delay, and where the delivery goes. Line 2 holds what a queued packet's kick and
  // INT stamping read besides and where the rest is (PortState: a queued hop touches the line of its
  // priority's queue there). An arrival does not read its ingress port at all:
  // the delivery goes to the peer's owner and the packet carries the port's index (`peer_owner`,
  // `peer_index`), which at scale saves a cache miss per hop (the port was last touched a link delay
  // earlier).
  // --- line 1
 private:
  TimePs busy_until_ = 0;
  std::uint64_t tx_done_order_ = 0;

 public:
  Bytes queued_bytes = 0;
  Simulator* sim = nullptr;
  // Deliveries go to the peer's owner (its switch or NIC; for a node of another rank, the stand-in port that
  // names the peer, see Network::peer_of) with its receive handler, both kept here: reading them from the
  // peer would share a cache line with a port another thread may be writing.
  void* peer_owner = nullptr;
  EventFn deliver = nullptr;

 private:
  // Line 1's copies of the clock's picoseconds per byte (0: the rate does not divide or the figure does not
  // fit, ask clock_) and of the link delay (kLongDelay: does not fit, read the state's), written by set_link.
  static constexpr std::uint32_t kMaxCopy = ~std::uint32_t{0};
  static constexpr std::uint32_t kLongDelay = kMaxCopy;
  std::uint32_t ps_per_byte_ = 0;
  std::uint32_t short_delay_ps_ = 0;

 public:
  std::uint8_t paused_mask = 0;

 private:
  std::uint8_t nonempty_mask_ = 0;  // bit q: queues()[q] holds a packet
  bool tx_done_pending_ = false;
  std::uint8_t rr_next_ = 1;

 public:
  std::uint16_t peer_index = 0;  // the peer's index at its node: each packet sent carries it (`in_port`)

 private:
  bool hands_over_ = false;       // remote_ != null
  bool counts_tx_bytes_ = false;  // count_tx_bytes

 public:
  // --- line 2
  void* owner = nullptr;
  KickFn kick = nullptr;  // owner: "this port can send again"
  std::uint16_t index = 0;
  std::uint32_t node = 0;  // global node id of the owner

 private:
  SerializationClock clock_;
  // Cumulative bytes serialized (INT's txBytes), kept only once something asked for it (count_tx_bytes):
  // adding to it on every transmission would bring this line into every hop.
  Bytes tx_bytes_ = 0;
  std::vector<HandedOverEvent>* remote_ = nullptr;  // set by hand_over_to
  PortState* state_ = nullptr;

 public:
  // The port's own per-priority queues: the default queue set (net/switch_architecture.h). Read-only outside
  // Port: pop through dequeue/pop_first_sendable. With a custom queue set they hold priority 0 only.
  const std::array<PacketFifo, kPriorities>& queues() const { return state_->queues; }
  // The partition's counters (pauses; a transmission's hop is counted by the caller).
  void set_counters(NetCounters* c) { state_->counters = c; }

  // The peer runs in another partition (`outbox`, net/partition.h): deliveries go there, not to `sim`.
  void hand_over_to(std::vector<HandedOverEvent>* outbox) {
    remote_ = outbox;
    hands_over_ = outbox != nullptr;
  }

  // --- wiring (set once by the network builder) and colder state
  // The link: serialization rate and propagation delay.
  void set_link(RateBps rate_bps, TimePs delay_ps) {
    clock_ = SerializationClock(rate_bps);
    state_->delay_ps = delay_ps;
    const TimePs ps_per_byte = clock_.ps_per_byte();
    ps_per_byte_ = ps_per_byte <= kMaxCopy ? static_cast<std::uint32_t>(ps_per_byte) : 0;
    short_delay_ps_ = delay_ps < kLongDelay ? static_cast<std::uint32_t>(delay_ps) : kLongDelay;
  }
  const SerializationClock& clock() const { return clock_; }
  TimePs delay_ps() const { return state_->delay_ps; }
  // From now on, every transmission adds its bytes to tx_bytes(): a switch does it for its ports when a
  // mechanism is added (Switch::add_hooks).
  void count_tx_bytes() { counts_tx_bytes_ = true; }
  // Bytes serialized since the start (INT's txBytes). Only where counted: asking elsewhere is a bug (the
  // figure would be 0), so it stops the run.
  Bytes tx_bytes() const {
    if (!counts_tx_bytes_) [[unlikely]]
      tx_bytes_not_counted();
    return tx_bytes_;
  }
  // A switch port's own queue set for data priorities, when its switch's architecture or a mechanism gives it
  // one (only the switch's extended packet path looks at it).
  EgressQueues* custom_queues() const { return state_->custom_queues; }
  void set_custom_queues(EgressQueues* q) { state_->custom_queues = q; }
  // Told when the peer pauses or resumes a priority of this port (only set when a scheme listens).
  void set_pause_listener(void (*changed)(void* owner, std::uint16_t port, std::uint8_t prio, bool paused)) {
    state_->pause_changed = changed;
  }
  // When set, every change of this port's pause state is appended here (PFC deadlock detection,
  // net/deadlock.h).
  std::vector<PauseTransition>* pause_log() const { return state_->pause_log; }
  void set_pause_log(std::vector<PauseTransition>* log) { state_->pause_log = log; }

  RateBps rate_bps() const { return clock_.rate_bps(); }
  // Serializing a packet now. For a lazy port the transmission ends at busy_until_, at the order its
  // end-of-transmission event would have had, so same-time events see exactly what they saw with that event.
  bool busy() const {
    TimePs now = sim->now();
    return busy_until_ > now || (busy_until_ == now && sim->current_order() < tx_done_order_);
  }
  // Something may be sendable: send now if idle, else make sure the port looks again when it is free.
  // Always inlined: with one more compiled switch path (kIntStamp) gcc stopped inlining it into the paths.
  [[gnu::always_inline]] void kick_or_wait() {
    if (!busy()) {
      kick(owner, index);
    } else if (!tx_done_pending_) {
      tx_done_pending_ = true;
      sim->at_reserved_soon(busy_until_, tx_done_order_, &Port::tx_done_event, this);
    }
  }
  bool paused(std::uint8_t prio) const { return (paused_mask >> prio) & 1u; }
  // Nothing queued, not serializing, and `prio` not paused: a packet of `prio` queued now would be the one
  // dequeue() takes at once. (Ports without a custom queue set.)
  bool idle_for(std::uint8_t prio) const { return first_sendable_now(prio, prio == kControlPriority); }
  // Nothing queued, not serializing, and `prio` sendable as pop_first_sendable(ignore_pause) sees it: a
  // packet of `prio` queued now would be the one it takes at once (a NIC's reply queues).
  bool first_sendable_now(std::uint8_t prio, bool ignore_pause) const {
    return nonempty_mask_ == 0 && (ignore_pause || !paused(prio)) && !busy();
  }
  // A packet of `prio` goes out without passing through the queue (idle_for held): the round-robin state
  // dequeue() would have left.
  void bypass_queue(std::uint8_t prio) {
    if (prio != kControlPriority) rr_next_ = round_robin_after(prio);
  }
  // While `prio` is paused: since when, and when the pause in force ends unless refreshed or resumed.
  TimePs paused_since(std::uint8_t prio) const { return state_->paused_since[prio]; }
  TimePs pause_until(std::uint8_t prio) const { return state_->pause_until[prio]; }

  void enqueue(Packet* p) {
    state_->queues[p->priority].push(p);
    queued_bytes += p->wire_bytes;
    nonempty_mask_ = static_cast<std::uint8_t>(nonempty_mask_ | (1u << p->priority));
  }
  // Priority 0 (control) first, then round-robin among non-empty, non-paused priorities (switch egress).
  Packet* dequeue();
  // With a custom queue set: a data-priority packet goes to it, priority 0 to the port's own queue.
  // False: the custom queue set refused the packet (the caller still owns it).
  bool enqueue_from(Packet* p, std::uint16_t in_port) {
    if (EgressQueues* custom = state_->custom_queues; custom && p->priority != kControlPriority) {
      if (!custom->enqueue(p, in_port)) return false;
      queued_bytes += p->wire_bytes;
    } else {
      enqueue(p);
    }
    return true;
  }
  // Priority 0 first, then the custom queue set (or the port's own queues); `retry_ps` as EgressQueues.
  Packet* dequeue_from_any(TimePs& retry_ps) {
    EgressQueues* custom = state_->custom_queues;
    if (!custom) return dequeue();
    if (nonempty_mask_ & (1u << kControlPriority)) return pop_from(kControlPriority);
    Packet* p = custom->dequeue(paused_mask, sim->now(), retry_ps);
    if (p) queued_bytes -= p->wire_bytes;
    return p;
  }
  // Bytes of data priorities queued (everything but priority 0).
  Bytes data_bytes() const { return queued_bytes - state_->queues[kControlPriority].bytes(); }
  // Bytes queued at priority `prio`, in the custom queue set if the port has one.
  Bytes priority_bytes(std::uint8_t prio) const {
    const EgressQueues* custom = state_->custom_queues;
    return custom && prio != kControlPriority ? custom->bytes(prio) : state_->queues[prio].bytes();
  }
  // Every queued data-priority packet.
  template <class F>
  void for_each_data_packet(F&& f) const {
    if (const EgressQueues* custom = state_->custom_queues) {
      custom->for_each(f);
      return;
    }
    for (int q = 1; q < kPriorities; ++q) state_->queues[q].for_each(f);
  }
  // The lowest non-empty, non-paused priority (a NIC's reply queues), or null. With `ignore_pause`, the
  // lowest non-empty one.
  Packet* pop_first_sendable(bool ignore_pause = false) {
    const unsigned sendable = nonempty_mask_ & (ignore_pause ? 0xFFu : ~paused_mask & 0xFFu);
    return sendable ? pop_from(static_cast<std::uint8_t>(__builtin_ctz(sendable))) : nullptr;
  }
  // Sends `p` now (the port is idle), counting the hop in `hops_into` (the caller's partition's counters,
  // which the caller's cache holds: the port's own pointer to them is not in its first line).
  // The end-of-transmission event is scheduled only when something waits to be sent then: packets in the
  // queues, or `owner_work`, what the owner will send next (a NIC's next QP; 0: nothing). Most transmissions
  // at moderate load leave nothing behind; a later arrival asks for the event itself (kick_or_wait). The
  // event carries owner_work as its argument, which the event queue prefetches with the event (the handler
  // ignores it), so the owner's send does not start with a miss.
  void transmit(Packet* p, NetCounters& hops_into, std::uint64_t owner_work = 0);
  // A PFC frame for `prio` arrived at this port (so it concerns what this port sends); `kind` says who sent
  // it (net/pause_kinds.h).
  void on_pfc(std::uint8_t prio, std::uint16_t quanta, std::uint8_t kind);
  // Accounts paused time still open when the run ended at `end_ps`.
  void close_pause_accounting(TimePs end_ps);

 private:
  static void tx_done_event(void* target, std::uint64_t arg);
  // Out of line: the check's message is not built in the INT path that reads tx_bytes on every hop.
  [[noreturn, gnu::cold, gnu::noinline]] static void tx_bytes_not_counted();
  static void pause_expire_event(void* target, std::uint64_t arg);
  void unpause(std::uint8_t prio);

  Packet* pop_from(std::uint8_t q) {
    PacketFifo& fifo = state_->queues[q];
    Packet* p = fifo.pop();
    queued_bytes -= p->wire_bytes;
    if (fifo.empty()) nonempty_mask_ = static_cast<std::uint8_t>(nonempty_mask_ & ~(1u << q));
    return p;
  }
};
static_assert(sizeof(Port) == 128, "a port is its two lines; the rest is its PortState");

}  // namespace lossless
