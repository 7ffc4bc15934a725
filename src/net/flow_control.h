// The flow-control policy of a switch (`switch.flow_control`): it owns the decision to pause and resume the
// upstream of an ingress (port, priority) and the duration a pause frame carries. Standard PFC (`pfc`) is the
// first policy; P-PFC, CaPFC and BFC are others. One instance per switch.
//
// A policy P is a final class derived from FlowControlPolicy that also provides, for the packet path,
//   template <class Buffer> void after_admit(Switch&, Buffer&, std::uint16_t in_port, std::uint8_t prio,
//                                            const Packet& p, std::uint16_t out_port);
//   template <class Buffer> void after_release(Switch&, Buffer&, std::uint16_t in_port, std::uint8_t prio,
//                                              const Packet& p, std::uint16_t out_port);
// called for every data-priority packet `p` right after the buffer accounted it in (at arrival, `out_port`
// the egress it is routed to) and out (when it leaves through `out_port`). Buffer is SharedBufferMmu or
// BufferModel (net/switch_architecture.h). Its registration (LOSSLESS_REGISTER_FLOW_CONTROL,
// control/flow_control_scheme.h) compiles the switch's packet path for P, so these calls are inlined: a
// policy costs what its own code costs. A policy whose two calls act on nothing but the buffer's
// should_pause / should_resume for (in_port, prio) may say so (`static constexpr bool kActsOnBufferAnswers =
// true`, as standard PFC does): a packet that finds its egress port idle, and that the shared buffer would
// admit and release with nothing to act on (SharedBufferMmu::passes_unaccounted), then skips both the
// accounting and the calls. Everything else (timers, its own packets) it does through the switch:
// Switch::queue_pause_frame, Switch::send_on, Switch::sim(), ... A policy that exchanges its own link-local
// frames with its neighbours (BFC's pause bitmaps) receives them in on_packet, and may give every NIC a part
// of its own (FlowControlFactory::create_nic) that obeys them.
#pragma once
#include <cstdint>
#include <memory>

#include "core/scheme_registry.h"
#include "core/simulator.h"
#include "net/congestion_control.h"
#include "net/packet.h"
#include "net/scheme_factory.h"

namespace lossless {

class Switch;
class Port;

class FlowControlPolicy {
 public:
  virtual ~FlowControlPolicy() = default;
  // Called once the fabric is built, before any flow starts.
  virtual void start() {}
  // A link-local scheme packet arrived at `in` (offered before the mechanisms see it). Return true to take
  // it (then free it with Switch::free_packet or send it on).
  virtual bool on_packet(Port& in, Packet* p) { return (void)in, (void)p, false; }
};

// The switch's packet handlers compiled for one policy: `arrive` is the event of a packet reaching a port of
// the switch, `kick` tells the switch a port may send, `release` releases a data packet bound for `out_port`
// from the buffer and runs the policy's after_release (for queue sets that release at their own time:
// EgressQueues::releases_ingress).
struct SwitchPathFns {
  EventFn arrive = nullptr;
  PrefetchFn prefetch_arrival = nullptr;  // arrive's second-stage prefetch (Simulator::add_prefetcher)
  void (*kick)(void* owner, std::uint16_t port) = nullptr;
  void (*release)(Switch& sw, const Packet& p, std::uint16_t out_port) = nullptr;
};

class FlowControlFactory : public SchemeFactory {
 public:
  virtual ~FlowControlFactory() = default;
  virtual std::unique_ptr<FlowControlPolicy> create(Switch& sw) const = 0;
  // True: pauses stop senders in time, so beyond its threshold a packet goes to its port's headroom and the
  // fabric is lossless; false: the buffer tail-drops at its threshold.
  virtual bool lossless() const = 0;
  // The packet path for this policy with `features` (PathFeature bits of net/switch_path.h: mechanisms'
  // enqueue and dequeue hooks, custom queue sets) and, with `custom_buffer`, an architecture's own buffer
  // model (else the shared buffer, called without virtual dispatch).
  virtual SwitchPathFns path(unsigned features, bool custom_buffer) const = 0;
  // The policy's part on every NIC (per-flow queues that obey its frames), or null. A NIC has one part: a
  // congestion control that brings its own cannot be combined with such a policy.
  virtual std::unique_ptr<NicControl> create_nic(RdmaNic& nic, const CcEnv& env) const {
    return (void)nic, (void)env, nullptr;
  }
};

using FlowControlScheme = SchemeEntry<FlowControlFactory>;
using FlowControlRegistry = SchemeRegistry<FlowControlScheme>;

}  // namespace lossless
