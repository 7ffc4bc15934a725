// The switch's packet path, compiled per flow-control policy (the policy's registration instantiates it,
// control/switch_schemes.h): a packet's arrival (route, buffer admission, the policy's pause decision,
// queueing) and a port's next transmission (dequeue, buffer release, RED/ECN, the policy's resume decision).
// It is compiled for each combination of the extensions a switch may use (kFeatures: mechanisms' enqueue and
// dequeue hooks, custom egress queue sets; Buffer = BufferModel for an architecture's own buffer), and each
// switch runs the one with exactly what it uses: a switch without hooks runs a path without any hook code.
//
// Why compiled paths: the packet path is where the simulator spends its time. A single path that checks at
// run time what each switch uses executed +3.4 % instructions on the fat320 benchmarks, DCQCN and HPCC alike
// (bench/scenarios/fat320-ws30-dcqcn and -hpcc, counted by bench/instructions.sh: cachegrind Ir over 0.6 ms
// of traffic; the figure of issue 27), above the +3 % a change may cost any bench scenario.
#pragma once
#include <type_traits>
#include <utility>

#include "core/error.h"
#include "net/flow_control.h"
#include "net/int_stamp.h"
#include "net/network.h"
#include "net/switch.h"

namespace lossless {

// What a compiled path includes besides the policy.
// kIntStamp (alone: a switch whose only hook is INT stamping, as HPCC's) stamps INT records at dequeue where
// the dequeue hooks run, without the hook's call.
enum PathFeature : unsigned {
  kEnqueueHooks = 1,
  kDequeueHooks = 2,
  kCustomQueues = 4,
  kAllPathFeatures = 7,
  kIntStamp = 8
};

template <class Policy, unsigned kFeatures, class Buffer>
struct SwitchPath {
  static constexpr bool kEnqueue = kFeatures & kEnqueueHooks;
  static constexpr bool kDequeue = kFeatures & kDequeueHooks;
  static constexpr bool kQueues = kFeatures & kCustomQueues;
  static constexpr bool kInt = kFeatures & kIntStamp;
  // A packet that finds its egress idle may skip the buffer when the policy acts on nothing but the shared
  // buffer's should_pause / should_resume (Policy::kActsOnBufferAnswers) and the path has no enqueue hooks
  // or queue sets (which see a packet queued).
  static constexpr bool kUnaccountedBypass = [] {
    if constexpr (requires { Policy::kActsOnBufferAnswers; })
      return Policy::kActsOnBufferAnswers && std::is_same_v<Buffer, SharedBufferMmu> && !kQueues && !kEnqueue;
    return false;
  }();

  static void arrive(void* target, std::uint64_t packet) {
    auto* sw = static_cast<Switch*>(target);
    sw->partition_.sim.act_as(sw->node_);  // the event was scheduled by the sending node
    receive(*sw, reinterpret_cast<Packet*>(packet));
  }

  static void kick(void* owner, std::uint16_t port) {
    auto* sw = static_cast<Switch*>(owner);
    try_send(*sw, sw->ports[port]);
  }

 private:
  static Policy& policy(Switch& sw) { return static_cast<Policy&>(*sw.fc_); }
  static Buffer& buffer(Switch& sw) {
    if constexpr (std::is_same_v<Buffer, SharedBufferMmu>) {
      return sw.mmu;
    } else {
      return *sw.buffer_;
    }
  }

  static void receive(Switch& sw, Packet* p) {
    const std::uint16_t in_index = p->in_port;
    if (is_link_local(p->type)) {
      Port& in = sw.ports[in_index];
      if (p->type == PacketType::kPfc) {
        in.on_pfc(p->pfc_priority, p->pfc_quanta, sw.net().pause_kind().read(*p));
        sw.partition_.pool.put(p);
      } else {
        sw.deliver_link_local(in, p);  // to the mechanism that takes it (an error if none does)
      }
      return;
    }
    const std::uint16_t out = sw.route(*p);
    const std::uint8_t prio = p->priority;
    Port& egress = sw.ports[out];
    if constexpr (kUnaccountedBypass) {
      // An idle egress port takes the packet at once, and a packet the buffer would admit and release with
      // nothing for the policy to act on needs neither: the accounts end as they were (the common case
      // below saturation, ACKs at data priority included).
      if (egress.idle_for(prio) &&
          (prio == kControlPriority || buffer(sw).passes_unaccounted(in_index, prio, p->wire_bytes))) {
        bypass(sw, egress, p);
        send_packet<true, false>(sw, egress, p);
        return;
      }
    }
    if (prio != kControlPriority) {
      Buffer& buf = buffer(sw);
      if (!buf.admit(in_index, prio, p->wire_bytes, out)) {
        if (sw.lossless_)
          sw.partition_.counters.note_headroom_drop(sw.partition_.sim.now(), sw.node(), in_index, prio);
        sw.partition_.count_drop(*p, sw.lossless_ ? DropReason::kHeadroomFull : DropReason::kBufferFull);
        sw.partition_.pool.put(p);
        return;
      }
      policy(sw).after_admit(sw, buf, in_index, prio, *p, out);
    }
    if constexpr (!kQueues && !kEnqueue) {
      // An idle egress port with nothing queued sends the packet at once: what queueing it and kicking the
      // port does, without touching the queue (the common case below saturation).
      if (egress.idle_for(prio)) {
        bypass(sw, egress, p);
        send_packet<true, true>(sw, egress, p);
        return;
      }
    }
    if constexpr (kQueues) {
      if (!egress.enqueue_from(p, in_index)) {
        if (prio != kControlPriority) {
          Buffer& buf = buffer(sw);
          buf.release(in_index, prio, p->wire_bytes, out);
          policy(sw).after_release(sw, buf, in_index, prio, *p, out);
        }
        sw.partition_.count_drop(*p, DropReason::kScheme);
        sw.partition_.pool.put(p);
        return;
      }
    } else {
      egress.enqueue(p);
    }
    if constexpr (kEnqueue) {
      if (prio != kControlPriority) {
        SwitchMechanism* const* m = sw.on_enqueue_.data();
        const std::size_t n = sw.on_enqueue_.size();
        m[0]->on_enqueue(egress, *p);
        for (std::size_t i = 1; i < n; ++i) m[i]->on_enqueue(egress, *p);
      }
    }
    if (egress.queued_bytes > sw.partition_.counters.max_queue_bytes)
      sw.partition_.counters.max_queue_bytes = egress.queued_bytes;
    egress.kick_or_wait();
  }

  // What queueing `p` at the idle `egress` and taking it out at once would leave behind.
  [[gnu::always_inline]] static void bypass(Switch& sw, Port& egress, Packet* p) {
    const Bytes queued = egress.queued_bytes + p->wire_bytes;
    if (queued > sw.partition_.counters.max_queue_bytes) sw.partition_.counters.max_queue_bytes = queued;
    p->next = nullptr;
    egress.bypass_queue(p->priority);
  }

  static void try_send(Switch& sw, Port& out) {
    if (out.busy()) return;
    Packet* p;
    if constexpr (kQueues) {
      TimePs retry_ps = kTimeNever;
      p = out.dequeue_from_any(retry_ps);
      if (!p) {
        if (retry_ps != kTimeNever) sw.retry_at(out.index, retry_ps);
        return;
      }
    } else {
      p = out.dequeue();
      if (!p) return;
    }
    send_packet<false, true>(sw, out, p);
  }

  // Sends `p`, just taken from `out`'s queues (kDirect: it bypassed them, and they hold nothing;
  // !kAccounted: the buffer did not account it, passes_unaccounted).
  template <bool kDirect, bool kAccounted>
  [[gnu::always_inline]] static void send_packet(Switch& sw, Port& out, Packet* p) {
    const std::uint8_t prio = p->priority;
    if (prio != kControlPriority) {
      if constexpr (kAccounted) {
        Buffer& buf = buffer(sw);
        // A queue set that releases packets itself (virtual output queues) already did.
        bool release_here = true;
        if constexpr (kQueues) {
          const EgressQueues* custom = out.custom_queues();
          release_here = !(custom && custom->releases_ingress());
        }
        if (release_here) buf.release(p->in_port, prio, p->wire_bytes, out.index);
        // RED on the instantaneous queue of (port, priority), decided at dequeue (an empty queue is never
        // marked: should_mark(port, 0) is false and draws nothing).
        // The switch's setting first: ACKs at data priority (HPCC) are not ECN-capable, so the packet's test
        // has no pattern a predictor could learn.
        if (!kDirect && sw.ecn_enabled_ && p->ecn_capable &&
            sw.should_mark(out.index, queue_bytes(out, prio))) {
          if (!p->ecn_ce) ++sw.partition_.counters.ecn_marks;
          p->ecn_ce = true;
        }
        if (release_here) policy(sw).after_release(sw, buf, p->in_port, prio, *p, out.index);
      }
      if constexpr (kDequeue) {
        // At least one: the common case of one hook is a single call.
        SwitchMechanism* const* m = sw.on_dequeue_.data();
        const std::size_t n = sw.on_dequeue_.size();
        m[0]->on_dequeue(out, *p);
        for (std::size_t i = 1; i < n; ++i) m[i]->on_dequeue(out, *p);
      }
      if constexpr (kInt) stamp_int(sw.int_stamp_, out, *p, sw.partition_.sim.now());
    }
    // Added, not tested: whether a packet is data or an ACK follows no pattern, and a branch here
    // mispredicts.
    sw.partition_.counters.control_packets += p->type != PacketType::kData;
    out.transmit(p, sw.partition_.counters);
  }

  static void release(Switch& sw, const Packet& p, std::uint16_t out) {
    Buffer& buf = buffer(sw);
    buf.release(p.in_port, p.priority, p.wire_bytes, out);
    policy(sw).after_release(sw, buf, p.in_port, p.priority, p, out);
  }

  static Bytes queue_bytes(const Port& out, std::uint8_t prio) {
    if constexpr (kQueues) {
      if (const EgressQueues* custom = out.custom_queues()) return custom->bytes(prio);
    }
    return out.queues()[prio].bytes();
  }

 public:
  // What a policy's registration hands to its factory.
  // Before an arrival runs (Simulator::add_prefetcher): the first line of the egress port the packet's route
  // names (all that a packet finding the port idle reads; the second is read when a transmission ends, not
  // at the arrival) and the packet's ingress account in the shared buffer. Found through the port and the
  // packet, which the event queue prefetched earlier; without this they are two misses one after the other
  // once the arrival runs (measured: fattree k = 24 -5 to -9 % wall, docs/performance.md).
  static void prefetch_arrival(const void* target, std::uint64_t packet) {
    const Switch& sw = *static_cast<const Switch*>(target);
    const auto* p = reinterpret_cast<const Packet*>(packet);
    if (is_link_local(p->type) || p->route_offset == kNoRoute) return;
    const auto* egress =
        reinterpret_cast<const char*>(&sw.ports[sw.flow_routes[p->route_offset + p->route_hop]]);
    __builtin_prefetch(egress);
    // An empty buffer answers without the account (SharedBufferMmu::holds_nothing).
    if constexpr (std::is_same_v<Buffer, SharedBufferMmu>)
      if (!sw.mmu.holds_nothing()) sw.mmu.prefetch_account(p->in_port, p->priority);
  }
  static SwitchPathFns fns() {
    return {&SwitchPath::arrive, &SwitchPath::prefetch_arrival, &SwitchPath::kick, &SwitchPath::release};
  }
};

// The compiled path of a policy with `features` (PathFeature bits), for the shared buffer or another.
template <class Policy, class Buffer, unsigned... kF>
SwitchPathFns switch_path_among(unsigned features, std::integer_sequence<unsigned, kF...>) {
  SwitchPathFns fns;
  // The fold stops at the matching feature set; its value is not needed (cast, or clang warns it is unused).
  static_cast<void>(((features == kF ? (fns = SwitchPath<Policy, kF, Buffer>::fns(), true) : false) || ...));
  return fns;
}
template <class Policy>
SwitchPathFns switch_path_for(unsigned features, bool custom_buffer) {
  using All = std::integer_sequence<unsigned, 0, 1, 2, 3, 4, 5, 6, 7, kIntStamp>;
  static_assert(kAllPathFeatures == 7);
  return custom_buffer ? switch_path_among<Policy, BufferModel>(features, All{})
                       : switch_path_among<Policy, SharedBufferMmu>(features, All{});
}

}  // namespace lossless
