// The NIC-side hooks of a congestion-control scheme, all created by the scheme's factory (STYLE P7):
//  - CongestionControl, per QP at the sender (reaction point): reads feedback, sets the QP's pacing rate,
//    window, send gate and the priority of its next packets; it never reaches into the fabric.
//  - ReceiverControl, per flow at the receiver (notification point): sees every data packet, may write the
//    scheme's fields of each ACK (a window), send its own packets (CNPs, credits, grants) and run timers.
//    The default is the RoCEv2 NIC's ECN notification point (control/dcqcn/notification_point.h).
//  - NicControl, optional, per NIC: host-wide state (all flows of a receiver), link-local packets, and the
//    choice of the QP that sends next (SRPT instead of round-robin). A flow-control policy may bring the
//    NIC's part instead (BFC's per-flow NIC queues, net/flow_control.h); a NIC has at most one.
//  - a switch part, optional, installed on every switch (HPCC's INT stamping), a SwitchMechanism.
#pragma once
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/params.h"
#include "core/scheme_registry.h"
#include "core/simulator.h"
#include "net/config.h"
#include "net/packet.h"
#include "net/packet_layout.h"
#include "net/scheme_factory.h"
#include "net/state_check.h"

namespace lossless {

struct SenderQp;
struct ReceiverContext;
struct Flow;
class RdmaNic;
class MechanismFactory;
class LinkRates;

// What a scheme may know of the fabric when it creates per-flow or per-NIC state.
struct CcEnv {
  Simulator& sim;  // the clock of the NIC the object lives on
  const NicConfig& nic;
  TimePs max_base_rtt_ps;  // largest base RTT between any two hosts (HPCC's GLOBAL_T)
  Bytes max_bdp_bytes;     // largest host-pair bandwidth-delay product
  RdmaNic& host_nic;       // the NIC the object lives on (the sender's, or the receiver's)
  std::uint64_t seed;      // the scenario seed: a part's random streams derive from it (core/rng.h)
  // Of the flow a per-flow part serves (0 in a per-NIC part's), from the topology: the unloaded one-way delay
  // (propagation plus serialization on every link) of a full data packet from sender to receiver, and of an
  // ACK back. Their sum is the RTT a sender measures on an idle path.
  TimePs data_one_way_ps;
  TimePs ack_one_way_ps;
  bool lossless;              // the switches keep the fabric lossless (PFC); false: they drop when full
  const PacketLayout& slots;  // the run's packet layout: a part binds its packet slots here
  // Of the flow a per-flow part serves (0 in a per-NIC part's): the switches its data packets cross (the hop
  // count a sender reads from the TTL; every shortest path has the same count).
  std::uint32_t path_switches = 0;
  // The topology's link rates, by which INT records name a port's rate (net/int_stamp.h); null in a bare
  // environment that no INT run uses.
  const LinkRates* link_rates = nullptr;
};

// Cache-line aligned for the same reason as SenderQp.
class alignas(64) CongestionControl {
 public:
  virtual ~CongestionControl() = default;
  virtual void on_start() {}
  // An ACK or NACK arrived (ack.type says which); snd_una has already advanced.
  virtual void on_ack(const Packet& ack) { (void)ack; }
  // A CNP arrived.
  virtual void on_cnp(const Packet& cnp) { (void)cnp; }
  // A scheme packet of this flow arrived at its sender (a switch's feedback, a grant, a credit).
  virtual void on_packet(const Packet& p) { (void)p; }
  // A data packet is about to leave: the scheme may write its packet slots (ext_init(slot)).
  virtual void on_sent(Packet& data) { (void)data; }
  // The flow completed: stop timers.
  virtual void on_finish() {}
  // The conditions the scheme's state must meet (rates, windows, credits; net/state_check.h). Default: none.
  virtual void check_state(StateCheck& check) const { (void)check; }
  // What the QP's send gate (SenderQp::set_send_gate) waits for, in a stall report: "grant", "credit".
  virtual const char* send_gate_name() const { return "send gate"; }
};

class ReceiverControl {
 public:
  virtual ~ReceiverControl() = default;
  // A data packet of the flow arrived (before in-order delivery and the ACK decision).
  virtual void on_data(const Packet& data) { (void)data; }
  // An ACK or NACK of the flow is about to leave; write the scheme's fields. An ACK is the data packet turned
  // around and still holds the data packet's scheme fields; a NACK starts with none.
  virtual void on_ack(Packet& ack) { (void)ack; }
  // A scheme packet of this flow arrived at its receiver.
  virtual void on_packet(const Packet& p) { (void)p; }
  // Only when the receiver set ReceiverContext::reassembles to kScheme: data beyond the in-order end is the
  // receiver's to hold (it saw it in on_data) instead of being NACKed and discarded. When in-order data has
  // just moved the in-order end to `in_order_end`, return the end of the contiguous bytes now held from the
  // start.
  virtual Bytes contiguous_end(Bytes in_order_end) { return in_order_end; }
  // The conditions the receiver's state must meet (net/state_check.h). Default: none.
  virtual void check_state(StateCheck& check) const { (void)check; }
};

class NicControl {
 public:
  virtual ~NicControl() = default;
  // Called once the flows are installed, before the run.
  virtual void start() {}
  // A link-local scheme packet arrived from the switch.
  virtual void on_packet(const Packet& p) { (void)p; }
  // A flow of this NIC starts sending (after its sender's on_start) / has been acknowledged in full.
  virtual void on_flow_start(SenderQp& qp) { (void)qp; }
  virtual void on_flow_finish(SenderQp& qp) { (void)qp; }
  // A data packet of `qp` is about to leave (after its sender's on_sent): the part may write its packet slots
  // (a per-hop flow-control policy's queue id, BFC).
  virtual void on_sent(SenderQp& qp, Packet& data) { (void)qp, (void)data; }
  // True: the NIC asks pick() which QP sends next instead of its round-robin.
  virtual bool schedules_qps() const { return false; }
  // The QP to send from now, among `active` (the NIC's QPs with data left, in start order), or null. Use
  // RdmaNic::may_send to test a QP; lower `earliest` to when a QP held back by its pacer may send.
  virtual SenderQp* pick(const std::vector<SenderQp*>& active, TimePs now, TimePs& earliest) {
    (void)active, (void)now, (void)earliest;
    return nullptr;
  }
  // The conditions the NIC part's state must meet (net/state_check.h). Default: none.
  virtual void check_state(StateCheck& check) const { (void)check; }
};

// What a scheme (or its preset) expects of the substrate.
struct SubstrateHints {
  // Defaults of substrate keys by scenario path (core/params.h), which the scenario may still override:
  // `nic.cnp_interval` (0ns: the ECN echo rides on ACKs), `nic.ack_priority`, `switch.ecn.enabled` (false for
  // schemes whose switches are the congestion and notification points, Mercury, or that need no marks,
  // Swift), the ECN tables (`switch.ecn.kmin`, ...), `nic.rto` (0ns for schemes that recover losses with
  // their own timers, Homa and ExpressPass).
  KeyDefaults defaults;
  // Handlers read and write records across whole packets (INT): the event loop prefetches all of a packet.
  bool prefetch_whole_packet = false;
  std::string required_mechanism;  // switch.mechanism the scheme cannot work without
  // switch.architecture the scheme cannot work without (Homa and ExpressPass give every switch port their
  // own queue set, which takes the place of the shared architecture's per-priority queues); empty: any
  std::string required_architecture;
  // Replies and scheme packets toward a flow's sender retrace its data path hop by hop (ExpressPass credits,
  // which must cross the links its data will cross); otherwise they follow their own ECMP path.
  bool symmetric_routes = false;
  // The scheme's rule reads the state of one path per flow (HPCC compares each hop's INT record with the same
  // hop's record on the previous ACK): a routing policy that sends a flow's packets over several paths
  // (RoutingFactory::reorders, switch.routing: spray) is refused when the scenario is read.
  bool one_path_per_flow = false;
};

class CcFactory : public SchemeFactory {
 public:
  virtual ~CcFactory() = default;
  virtual std::unique_ptr<CongestionControl> create(SenderQp& qp, const CcEnv& env) const = 0;
  virtual std::unique_ptr<ReceiverControl> create_receiver(ReceiverContext& rx, const Flow& flow,
                                                           const CcEnv& env) const = 0;
  // Null: the NIC has no per-NIC part.
  virtual std::unique_ptr<NicControl> create_nic(RdmaNic& nic, const CcEnv& env) const = 0;
  // A part for every switch, or null.
  virtual const MechanismFactory* switch_part() const = 0;
  virtual SubstrateHints hints() const { return {}; }
  // Bytes of per-flow state one create() and create_receiver() allocate (memory report).
  virtual std::size_t state_bytes() const = 0;
  // The scheme's per-flow trace (`<cc>.csv`, written at the end of a run when its parameters ask for one):
  // the CSV header, its first column flow_id; null = no trace.
  virtual const char* trace_header() const { return nullptr; }
  // One flow's columns after flow_id (with the leading comma and the newline), from its two parts.
  virtual void write_trace_row(std::FILE* out, const CongestionControl& sender,
                               const ReceiverControl& receiver) const {
    (void)out, (void)sender, (void)receiver;
  }
};

using CcScheme = SchemeEntry<CcFactory>;
using CcRegistry = SchemeRegistry<CcScheme>;

}  // namespace lossless
