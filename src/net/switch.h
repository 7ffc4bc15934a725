// A switch: its ports (each with its egress queues), its buffer, and the schemes that decide what it does
// with packets — the flow-control policy (pauses), the routing policy (next hops), the architecture (buffer
// and queue sets), RED/ECN marking, and mechanisms with per-packet hooks. The packet path itself
// (net/switch_path.h) is compiled per flow-control policy, with and without the hooks.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/rng.h"
#include "core/timer.h"
#include "net/flow_control.h"
#include "net/int_stamp.h"
#include "net/partition.h"
#include "net/pause_kinds.h"
#include "net/port.h"
#include "net/routing_policy.h"
#include "net/shared_buffer_mmu.h"
#include "net/switch_architecture.h"
#include "net/switch_mechanism.h"

namespace lossless {

class Network;

class Switch {
 public:
  Switch(Network& net, std::uint32_t index, std::uint32_t node, std::size_t ports);
  Switch(const Switch&) = delete;
  Switch& operator=(const Switch&) = delete;
  ~Switch();

  // Called by the network once the ports are wired (rates known): buffer, ECN settings and the schemes of the
  // switch configuration.
  void configure();

  std::vector<Port> ports;
  // The network's flow routes (Network::route_ports), where a packet's route_offset points; set with the
  // flows (Network::install_flows).
  const std::uint16_t* flow_routes = nullptr;
  // The shared buffer (architecture `shared`); see buffer() for the one in use.
  SharedBufferMmu mmu;

  std::uint32_t index() const { return index_; }
  std::uint32_t node() const { return node_; }
  Network& net() { return net_; }
  const Network& net() const { return net_; }
  // The clock and event queue this switch runs on (its partition's).
  Simulator& sim() { return partition_.sim; }
  // The switch's random stream (RED marking, spraying).
  RngStream& rng() { return rng_; }
  BufferModel& buffer() { return *buffer_; }
  const BufferModel& buffer() const { return *buffer_; }
  FlowControlPolicy& flow_control() { return *fc_; }
  // Whether the flow-control policy keeps this switch lossless (headroom instead of drops).
  bool lossless() const { return lossless_; }

  // The instance of `switch.mechanism` (null: none).
  void set_mechanism(std::unique_ptr<SwitchMechanism> m);
  SwitchMechanism* mechanism() { return mechanism_.get(); }
  const SwitchMechanism* mechanism() const { return mechanism_.get(); }
  // A congestion-control scheme's part on every switch (HPCC's INT stamper).
  void add_companion(std::unique_ptr<SwitchMechanism> m);
  // Starts the congestion control's switch parts (before any flow starts).
  void start_companions() {
    for (auto& c : companions_) c->start();
  }
  // The marking scheme of `switch.ecn.marking` when it is not the built-in RED (null: RED, inline in the
  // packet path); the network starts it with the flow-control policy.
  SwitchMechanism* marking() { return marking_.get(); }
  // Sets the CE mark of a data packet leaving this switch (a marking scheme's dequeue hook), counted once.
  void mark_ce(Packet& p) {
    if (!p.ecn_ce) ++partition_.counters.ecn_marks;
    p.ecn_ce = true;
  }
  // The receive handler of this switch's packet path: what the ports at the other end of its links deliver
  // to.
  EventFn arrive_handler() const { return arrive_; }
  // Replaces the routing policy (a mechanism's adaptive routing); before flows are installed.
  void set_router(std::unique_ptr<RoutingPolicy> r);
  RoutingPolicy& router() { return *router_; }
  // Gives `port` its own queue set for data priorities (before any packet is queued there). A port has at
  // most one: a second throws ConfigError (two schemes that each bring theirs cannot be combined).
  // `owner` names the scheme that gives the queue set ("switch.flow_control: bfc"): two schemes that each
  // want a port's queue set cannot be combined, and the error (exit 2) names both.
  void set_egress_queues(std::uint16_t port, std::unique_ptr<EgressQueues> q,
                         const std::string& owner = "a scheme's switch part");
  // For a queue set that releases packets itself (EgressQueues::releases_ingress): data packet `p`, bound
  // for `out_port`, leaves the ingress side now — the buffer releases it and the flow-control policy may
  // resume its ingress.
  void release_ingress(const Packet& p, std::uint16_t out_port) { release_(*this, p, out_port); }

  // Packets a scheme makes at this switch. new_packet(): a reset packet from the pool; free_packet(): back to
  // it.
  Packet* new_packet() { return partition_.pool.get(); }
  void free_packet(Packet* p) { partition_.pool.put(p); }
  // A control-priority packet of `kind` about `flow_id` addressed to the flow's source host (a CNP, a fair
  // rate): the caller writes its scheme fields, then send()s it. A switch's own packets travel at priority 0
  // (the buffer never admitted them).
  Packet* packet_to_source(std::uint32_t flow_id, PacketType kind, std::uint32_t wire_bytes);
  // Routes a packet made here toward its `dst` and queues it at the egress port.
  void send(Packet* p);
  // Queues a (link-local) packet at `port`, to the neighbour on that link.
  void send_on(std::uint16_t port, Packet* p);
  // Queues a PFC frame for priority `prio` at `port` (quanta 0 = resume) without starting the port: the
  // flow-control policy does its bookkeeping, then calls ports[port].kick_or_wait(). `kind`: who sends it
  // (net/pause_kinds.h; a policy's own rule registers its kind).
  void queue_pause_frame(std::uint16_t port, std::uint8_t prio, std::uint16_t quanta,
                         std::uint8_t kind = PauseKinds::kStandard);

 private:
  template <class Policy, unsigned kFeatures, class Buffer>
  friend struct SwitchPath;
  struct EcnSetting {
    Bytes kmin_bytes;
    Bytes kmax_bytes;
    double pmax;
  };
  struct RetryTimer {
    Switch* sw;
    std::uint16_t port;
    Timer timer;
  };
  // Chooses the compiled packet path (with hooks or without) and wires it to the ports.
  void select_path();
  std::uint16_t route(Packet& p) {
    if (p.route_offset != kNoRoute) return flow_routes[p.route_offset + p.route_hop++];
    return route_by_table(p);
  }
  std::uint16_t route_by_table(const Packet& p);
  bool should_mark(std::uint16_t port, Bytes queue_bytes);
  // Extended path only.
  void deliver_link_local(Port& in, Packet* p);
  void retry_at(std::uint16_t port, TimePs at);
  static void on_pause_change(void* owner, std::uint16_t port, std::uint8_t prio, bool paused);
  void add_hooks(SwitchMechanism* m);

  Network& net_;
  Partition& partition_;  // the thread's share this switch runs in
  std::uint32_t index_;
  std::uint32_t node_;
  bool lossless_ = true;
  bool ecn_enabled_ = true;
  RngStream rng_;
  // RED settings: the distinct ones, and which one each port uses (a few bytes per switch, read per packet,
  // instead of a setting per port).
  std::vector<EcnSetting> ecn_;
  std::vector<std::uint16_t> ecn_of_port_;
  std::unique_ptr<FlowControlPolicy> fc_;
  BufferModel* buffer_ = &mmu;
  std::unique_ptr<BufferModel> custom_buffer_;
  std::unique_ptr<RoutingPolicy> router_;
  EventFn arrive_ = nullptr;
  std::unique_ptr<SwitchMechanism> mechanism_;
  std::vector<std::unique_ptr<SwitchMechanism>> companions_;
  std::unique_ptr<SwitchMechanism> marking_;
  std::vector<SwitchMechanism*> on_enqueue_, on_dequeue_, on_pause_, on_packet_;
  // INT stamping compiled into the path (kIntStamp): the stamper when it is the only dequeue hook.
  IntStamping int_stamp_;
  std::vector<std::unique_ptr<EgressQueues>> custom_queues_;  // by port (null: the port's own)
  std::vector<std::string> custom_queues_owner_;              // by port: who gave it (set_egress_queues)
  std::unique_ptr<RetryTimer[]> retry_;
  void (*release_)(Switch&, const Packet&, std::uint16_t) = nullptr;  // of the compiled path
  std::vector<PortState> port_states_;  // by port: what a packet passing a port idle never reads
};

}  // namespace lossless
