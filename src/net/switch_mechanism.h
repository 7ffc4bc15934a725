// The switch-side hook (congestion point): one instance per switch, created by the scheme named in
// `switch.mechanism` (or installed by a congestion-control scheme on every switch, as HPCC installs its INT
// stamper). A mechanism sees its switch (ports and their queues, the buffer), runs its own timers, may act on
// packets as they are queued and leave, learns when its ports are paused and resumed by PFC, and sends its
// own packets (Switch::packet_to_source, Switch::send): real packets, routed and queued like any other.
#pragma once
#include <cstdint>
#include <cstdio>
#include <memory>

#include "core/params.h"
#include "core/scheme_registry.h"
#include "net/packet.h"
#include "net/scheme_factory.h"

namespace lossless {

class Switch;
class Network;
class Port;
struct IntStamping;

class SwitchMechanism {
 public:
  // The per-packet hooks a mechanism uses (packet_hooks()). The switch calls only those; a run whose switches
  // use none runs a packet path without any hook code.
  // kStampsInt (with kOnDequeue): the dequeue hook is INT stamping as net/int_stamp.h does it, with
  // int_stamping()'s slot; a switch whose only dequeue hook it is runs it compiled into its path.
  enum Hook : unsigned { kOnEnqueue = 1, kOnDequeue = 2, kOnPauseChange = 4, kOnPacket = 8, kStampsInt = 16 };

  virtual ~SwitchMechanism() = default;
  virtual unsigned packet_hooks() const { return 0; }
  // With kStampsInt: what the switch stamps.
  virtual const IntStamping* int_stamping() const { return nullptr; }
  // Called once the fabric is built, before any flow starts.
  virtual void start() {}
  // A data-priority packet was admitted by the buffer and queued at `egress` (control-priority packets — PFC
  // frames, CNPs, ACKs at high priority — bypass the buffer and the hooks). The queues are read-only here.
  virtual void on_enqueue(const Port& egress, const Packet& p) { (void)egress, (void)p; }
  // A data-priority packet leaves `egress` now: after its buffer release, RED/ECN marking and the
  // flow-control policy's resume check, before it is serialized. It may be modified (INT stamps, marks).
  virtual void on_dequeue(const Port& egress, Packet& p) { (void)egress, (void)p; }
  // The peer paused or resumed what `port` sends at `prio` (changes of state only: a refreshed pause is none,
  // an expired one is a resume).
  virtual void on_pause_change(const Port& port, std::uint8_t prio, bool paused) {
    (void)port, (void)prio, (void)paused;
  }
  // A link-local scheme packet arrived at `in`. Return true to take it (then put it back to the pool with
  // Switch::free_packet, or send it on); false leaves it to the next mechanism.
  virtual bool on_packet(Port& in, Packet* p) { return (void)in, (void)p, false; }
  // Appends the scheme's own trace rows (if it keeps any) to `out`, a CSV the runner opened.
  virtual void write_trace(std::FILE* out) const { (void)out; }
  // The header of that CSV, or null when the scheme writes none; its file is <scheme>.csv.
  virtual const char* trace_header() const { return nullptr; }
};

// What a switch mechanism expects of the substrate. They come from the mechanism's default parameters (the
// parser reads them before the switch section).
struct MechanismHints {
  // Defaults of substrate keys by scenario path (core/params.h), which the scenario may still override:
  // `switch.ecn.enabled` false when the mechanism replaces RED marking (its switches send the feedback, as
  // PACC's CNPs, or mark packets themselves, as TCD).
  KeyDefaults defaults;
  // Packets of one flow may arrive out of order: the mechanism moves flows with packets in flight to another
  // path (RCM's SAR). nic.rto auto then arms the timeout when receivers NACK out-of-order data.
  bool moves_flows = false;
};

class MechanismFactory : public SchemeFactory {
 public:
  virtual ~MechanismFactory() = default;
  virtual std::unique_ptr<SwitchMechanism> create(Switch& sw, Network& net) const = 0;
  virtual MechanismHints hints() const { return {}; }
  // The switch.architecture the mechanism works on (null: any); the scenario reader enforces it.
  virtual const char* required_architecture() const { return nullptr; }
};

using MechanismScheme = SchemeEntry<MechanismFactory>;
using MechanismRegistry = SchemeRegistry<MechanismScheme>;

// An ECN marking scheme (`switch.ecn.marking`, other than the built-in RED): a mechanism on every switch that
// decides the CE mark of data packets in its dequeue hook (Switch::mark_ce); its parameters live under
// switch.ecn.<name>. A registry of its own, so that `switch.mechanism` stays free for another scheme.
class MarkingFactory : public MechanismFactory {};
using MarkingScheme = SchemeEntry<MarkingFactory>;
using MarkingRegistry = SchemeRegistry<MarkingScheme>;

}  // namespace lossless
