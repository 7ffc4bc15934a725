// How a switch buffers and queues packets (`switch.architecture`). `shared` — today's switch: one
// shared-memory buffer accounted per (ingress port, priority) (SharedBufferMmu) and per-priority queues at
// each egress port (Port's own) — is the default; another architecture (virtual output queues, per-flow
// queues) brings its own buffer model and egress queue sets. A mechanism may also give one of its switch's
// ports its own queue set (Switch::set_egress_queues), e.g. a rate-limited queue for credits.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>

#include "core/scheme_registry.h"
#include "core/time.h"
#include "net/packet.h"
#include "net/scheme_factory.h"

namespace lossless {

class Switch;
class Port;

// The buffer's accounting of data-priority packets (control priority bypasses it), and the state standard PFC
// decides on.
class BufferModel {
 public:
  virtual ~BufferModel() = default;
  // Accounts a packet arriving at `in_port` for `out_port`; false means it must be dropped (nothing
  // accounted).
  virtual bool admit(std::uint16_t in_port, std::uint8_t prio, Bytes bytes, std::uint16_t out_port) = 0;
  // The packet leaves through `out_port`.
  virtual void release(std::uint16_t in_port, std::uint8_t prio, Bytes bytes, std::uint16_t out_port) = 0;
  // The ingress (port, priority) crossed its pause threshold (and is not paused yet) / may be resumed.
  virtual bool should_pause(std::uint16_t port, std::uint8_t prio) const = 0;
  virtual bool should_resume(std::uint16_t port, std::uint8_t prio) const = 0;
  // We have paused (or resumed) the upstream of this ingress (port, priority).
  virtual void set_paused(std::uint16_t port, std::uint8_t prio, bool paused) = 0;
  virtual bool paused(std::uint16_t port, std::uint8_t prio) const = 0;
  // Bytes held for the ingress (port, priority), and what the buffer could still take in.
  virtual Bytes ingress_bytes(std::uint16_t port, std::uint8_t prio) const = 0;
  virtual Bytes free_bytes() const = 0;
};

// The data-priority queues of one egress port (priorities 1-7; priority 0 stays in the port's own queue and
// is always sent first). The port keeps the byte count of everything queued (Port::queued_bytes).
//
// Most queue sets hold a packet in one place until it leaves: the switch then releases it from the buffer
// (BufferModel::release and the flow-control policy's after_release) as it departs. A queue set that holds
// packets on the ingress side first and moves them to an output queue later (virtual output queues) passes
// `releases_ingress` = true to the constructor: it calls Switch::release_ingress(packet, port) when a packet
// leaves the ingress side — the buffer releases it there and the policy may resume the ingress — and the
// switch releases nothing when that packet departs (RED/ECN and the dequeue hooks still run then).
class EgressQueues {
 public:
  explicit EgressQueues(bool releases_ingress = false) : releases_ingress_(releases_ingress) {}
  virtual ~EgressQueues() = default;
  // A packet from ingress `in_port` (kSwitchMade for a packet the switch itself made). False refuses it (a
  // full credit queue drops credits): the switch then takes it back out of the buffer and frees it, counted
  // as a scheme drop (not a loss of data: summary.json's `drops` stays for those).
  virtual bool enqueue(Packet* p, std::uint16_t in_port) = 0;
  // The next packet to send now, or null. `paused` has bit q set while the peer pauses priority q. When
  // packets wait but none may leave before a later time (a shaper), set `retry_ps` to that time.
  virtual Packet* dequeue(std::uint8_t paused, TimePs now, TimePs& retry_ps) = 0;
  // Bytes queued at priority `prio` (RED/ECN marking reads it).
  virtual Bytes bytes(std::uint8_t prio) const = 0;
  // Every queued packet, read-only (mechanisms, tests).
  virtual void for_each(const std::function<void(const Packet&)>& f) const = 0;
  // The most bytes the architecture lets these queues hold, when it sizes them itself (VOQ: every queue
  // switch.voq.queue_size, whatever switch.buffer says); 0 = the switch's memory bounds them (the queue-bytes
  // invariant, net/invariants.cc).
  virtual Bytes capacity() const { return 0; }
  static constexpr std::uint16_t kSwitchMade = 0xffff;
  // The queue set releases packets from the buffer itself (Switch::release_ingress).
  bool releases_ingress() const { return releases_ingress_; }

 private:
  bool releases_ingress_;
};

class ArchitectureFactory : public SchemeFactory {
 public:
  virtual ~ArchitectureFactory() = default;
  // The switch's buffer; null = the shared buffer (SharedBufferMmu, configured by switch.buffer and
  // switch.pfc).
  virtual std::unique_ptr<BufferModel> create_buffer(Switch& sw) const = 0;
  // The queue set of one egress port; null = the port's own per-priority queues.
  virtual std::unique_ptr<EgressQueues> create_queues(Switch& sw, const Port& port) const = 0;
};

using ArchitectureScheme = SchemeEntry<ArchitectureFactory>;
using ArchitectureRegistry = SchemeRegistry<ArchitectureScheme>;

}  // namespace lossless
