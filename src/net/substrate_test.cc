// The substrate's own parts, one rule at a time, on a star fabric built by hand: a Port's pause state and its
// egress order, a Switch's handling of pause frames and of the frames its policy sends, and an RdmaNic's send
// decision (pause, window, send gate, pacing) and ACK handling.
#include <gtest/gtest.h>

#include "core/params.h"
#include "net/congestion_control.h"
#include "net/network.h"
#include "net/pause_kinds.h"

namespace lossless {
namespace {

constexpr LinkSpec kLink{100'000'000'000, kPsPerUs};

// A star of `hosts` hosts, one switch, no flows.
struct Star {
  Network net;
  explicit Star(std::uint32_t hosts = 3) : net(make_star(hosts, kLink), SwitchConfig{}, NicConfig{}, 1) {}
  Simulator& sim() { return net.sim(); }
  // Runs the fabric to `t` with the clock at `t` after (run() leaves it at the last event's time).
  void advance_to(TimePs t) {
    sim().at(
        t, [](void*, std::uint64_t) {}, nullptr);
    sim().run(t);
  }
  NetCounters& counters() { return net.partition(0).counters; }
  Packet* packet(std::uint8_t prio, std::uint32_t bytes = 1000) {
    Packet* p = net.partition(0).pool.get();
    p->priority = prio;
    p->wire_bytes = bytes;
    return p;
  }
};

// --- Port

TEST(Port, APauseFrameSetsThePriorityBitAndItsQuantaEndIt) {
  Star s;
  Port& port = s.net.nic(0).port;
  port.on_pfc(3, 1000, PauseKinds::kStandard);  // 1000 quanta x 512 bit at 100 G = 5.12 us
  EXPECT_EQ(port.paused_mask, 1u << 3);
  EXPECT_TRUE(port.paused(3));
  EXPECT_FALSE(port.paused(2));
  EXPECT_EQ(port.paused_since(3), 0u);
  EXPECT_EQ(port.pause_until(3), 5'120'000u);
  port.on_pfc(5, 1, PauseKinds::kStandard);
  EXPECT_EQ(port.paused_mask, (1u << 3) | (1u << 5));
  s.sim().run(5'119'999);
  EXPECT_TRUE(port.paused(3));
  s.sim().run(5'120'000);
  EXPECT_EQ(port.paused_mask, 0u);
  EXPECT_EQ(s.counters().pause_frames, 2u);
  EXPECT_EQ(s.counters().pause_expiries, 2u);
  EXPECT_EQ(s.counters().pause_frames_by_kind[PauseKinds::kStandard], 2u);
  // Paused time: 5.12 us at priority 3 plus 5.12 ns at priority 5.
  EXPECT_EQ(s.counters().paused_time_ps, 5'120'000u + 5'120u);
}

TEST(Port, ARefreshExtendsThePauseAndAResumeEndsItAtOnce) {
  Star s;
  Port& port = s.net.nic(0).port;
  port.on_pfc(3, 1000, PauseKinds::kStandard);
  s.advance_to(4 * kPsPerUs);
  port.on_pfc(3, 1000, PauseKinds::kStandard);  // refreshed at 4 us: now ends at 9.12 us
  EXPECT_EQ(port.pause_until(3), 9'120'000u);
  EXPECT_EQ(port.paused_since(3), 0u);  // one pause, not two
  s.advance_to(6 * kPsPerUs);
  EXPECT_TRUE(port.paused(3));  // the first frame's expiry was superseded
  port.on_pfc(3, 0, PauseKinds::kStandard);
  EXPECT_FALSE(port.paused(3));
  EXPECT_EQ(s.counters().resume_frames, 1u);
  s.sim().run(20 * kPsPerUs);
  EXPECT_EQ(s.counters().pause_expiries, 0u);
  EXPECT_EQ(s.counters().paused_time_ps, 6 * kPsPerUs);
}

TEST(Port, APauseLogAndListenerSeeEveryChange) {
  Star s;
  Port& port = s.net.nic(0).port;
  std::vector<PauseTransition> log;
  port.set_pause_log(&log);
  port.on_pfc(2, 100, PauseKinds::kStandard);
  port.on_pfc(2, 100, PauseKinds::kStandard);  // a refresh: no change
  port.on_pfc(2, 0, PauseKinds::kStandard);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_TRUE(log[0].paused);
  EXPECT_FALSE(log[1].paused);
  EXPECT_EQ(log[1].prio, 2);
  port.set_pause_log(nullptr);
}

TEST(Port, ControlFirstThenRoundRobinOverUnpausedPriorities) {
  Star s;
  Port& port = s.net.switch_at(0).ports[1];
  for (std::uint8_t prio : {3, 3, 5, 5, 1}) port.enqueue(s.packet(prio));
  port.enqueue(s.packet(kControlPriority, 64));
  EXPECT_EQ(port.queued_bytes, 5 * 1000u + 64u);
  EXPECT_EQ(port.data_bytes(), 5 * 1000u);
  std::vector<int> order;
  while (Packet* p = port.dequeue()) {
    order.push_back(p->priority);
    s.net.partition(0).pool.put(p);
  }
  // Control first; then 1, 3, 5 in turn from the round-robin pointer, 3 and 5 again.
  EXPECT_EQ(order, (std::vector<int>{0, 1, 3, 5, 3, 5}));
  EXPECT_EQ(port.queued_bytes, 0u);
}

TEST(Port, APausedPriorityIsSkippedButControlNeverWaits) {
  Star s;
  Port& port = s.net.switch_at(0).ports[1];
  port.on_pfc(3, 65535, PauseKinds::kStandard);
  port.on_pfc(kControlPriority, 65535, PauseKinds::kStandard);  // a peer cannot hold control packets back
  port.enqueue(s.packet(3));
  port.enqueue(s.packet(4));
  port.enqueue(s.packet(kControlPriority, 64));
  Packet* p = port.dequeue();
  EXPECT_EQ(p->priority, kControlPriority);
  s.net.partition(0).pool.put(p);
  p = port.dequeue();
  EXPECT_EQ(p->priority, 4);
  s.net.partition(0).pool.put(p);
  EXPECT_EQ(port.dequeue(), nullptr);  // only paused priority 3 is left
  EXPECT_EQ(port.pop_first_sendable(), nullptr);
  p = port.pop_first_sendable(true);  // ignoring the pause
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->priority, 3);
  s.net.partition(0).pool.put(p);
}

TEST(Port, ATransmissionTakesItsSerializationTimeAndArrivesAfterTheLinkDelay) {
  Star s;
  Port& port = s.net.switch_at(0).ports[1];
  Packet* p = s.packet(kControlPriority, 1250);  // 10000 bits: 100 ns at 100 G
  p->type = PacketType::kPfc;
  p->pfc_priority = 6;
  p->pfc_quanta = 10;
  port.count_tx_bytes();
  port.transmit(p, s.net.partition(0).counters);
  EXPECT_TRUE(port.busy());
  EXPECT_EQ(port.tx_bytes(), 1250u);
  s.advance_to(100'000 - 1);
  EXPECT_TRUE(port.busy());
  s.advance_to(100'000);
  EXPECT_FALSE(port.busy());
  s.sim().run(100'000 + kPsPerUs - 1);
  EXPECT_FALSE(s.net.nic(1).port.paused(6));  // still on the wire
  s.sim().run(100'000 + kPsPerUs);
  EXPECT_TRUE(s.net.nic(1).port.paused(6));  // the NIC obeys the frame
}

// A port keeps copies of its link's clock and delay in its first line (Port::set_link); a rate that does not
// divide 8e12 and a delay beyond 2^32 ps take the full values: the same times either way.
TEST(Port, ARateThatDoesNotDivideAndALongDelayKeepTheirExactTimes) {
  constexpr TimePs kDelay = 5'000'000'000;  // 5 ms: more than a 32-bit count of picoseconds
  Network net(make_star(2, LinkSpec{3'000'000'000, kDelay}), SwitchConfig{}, NicConfig{}, 1);
  Port& port = net.switch_at(0).ports[1];
  EXPECT_EQ(port.delay_ps(), kDelay);
  EXPECT_EQ(port.clock().ps_per_byte(), 0u);
  Packet* p = net.partition(0).pool.get();
  p->priority = kControlPriority;
  p->wire_bytes = 1250;
  p->type = PacketType::kPfc;
  p->pfc_priority = 6;
  p->pfc_quanta = 10;
  const std::uint64_t hops = net.partition(0).counters.packet_hops;
  port.transmit(p, net.partition(0).counters);
  EXPECT_EQ(net.partition(0).counters.packet_hops, hops + 1);
  const TimePs ser = tx_time_ps(1250, 3'000'000'000);  // 3,333,334 ps, rounded up
  EXPECT_EQ(ser, 3'333'334u);
  net.sim().run(ser - 1);
  EXPECT_TRUE(port.busy());
  net.sim().run(ser + kDelay - 1);
  EXPECT_FALSE(net.nic(1).port.paused(6));  // still on the wire
  net.sim().run(ser + kDelay);
  EXPECT_TRUE(net.nic(1).port.paused(6));
}

// tx_bytes is kept where something reads it (a switch with a mechanism, count_tx_bytes); reading it elsewhere
// is a bug, caught rather than answered with 0.
TEST(Port, BytesSentAreCountedOnlyWhereAsked) {
  Star s;
  Port& port = s.net.switch_at(0).ports[1];
  EXPECT_THROW((void)port.tx_bytes(), InternalError);
  Packet* p = s.packet(1, 1000);
  port.transmit(p, s.counters());
  port.count_tx_bytes();
  EXPECT_EQ(port.tx_bytes(), 0u);  // counted from when it was asked
}

// --- Switch

TEST(Switch, APauseFrameItReceivesPausesThePortItArrivedOn) {
  Star s;
  Switch& sw = s.net.switch_at(0);
  Port& nic = s.net.nic(2).port;
  Packet* f = s.packet(kControlPriority, 64);
  f->type = PacketType::kPfc;
  f->pfc_priority = 3;
  f->pfc_quanta = 65535;
  nic.enqueue(f);
  nic.kick_or_wait();  // the NIC sends what its queues hold: replies first
  s.sim().run(2 * kPsPerUs);
  EXPECT_TRUE(sw.ports[2].paused(3));
  EXPECT_FALSE(sw.ports[1].paused(3));
  EXPECT_EQ(s.counters().pause_frames_by_kind[PauseKinds::kStandard], 1u);
}

// The sending port writes its peer's index into the packet (Port::peer_index): the arrival does not read the
// port it came in on, and the buffer accounts the packet there.
TEST(Switch, AnArrivingPacketIsAccountedAtThePortItCameInOn) {
  Star s;
  Switch& sw = s.net.switch_at(0);
  sw.ports[0].on_pfc(3, 65535, PauseKinds::kStandard);  // what goes to host 0 at priority 3 stays queued
  Packet* p = s.packet(3);
  p->src = 2;
  p->dst = 0;
  Port& nic = s.net.nic(2).port;
  nic.enqueue(p);
  nic.kick_or_wait();
  s.sim().run(2 * kPsPerUs);
  ASSERT_EQ(sw.ports[0].queues()[3].count(), 1u);
  EXPECT_EQ(sw.ports[0].queues()[3].front()->in_port, 2);
  EXPECT_EQ(sw.mmu.ingress_bytes(2, 3), 1000u);
  EXPECT_EQ(sw.mmu.ingress_bytes(1, 3), 0u);
  EXPECT_EQ(sw.mmu.ingress_bytes(0, 3), 0u);
}

TEST(Switch, ItsPauseFramesTravelAtControlPriorityWithTheirQuanta) {
  Star s;
  Switch& sw = s.net.switch_at(0);
  sw.queue_pause_frame(1, 4, 300);
  const Port& out = sw.ports[1];
  ASSERT_EQ(out.queues()[kControlPriority].count(), 1u);
  const Packet& f = *out.queues()[kControlPriority].front();
  EXPECT_EQ(f.type, PacketType::kPfc);
  EXPECT_EQ(f.pfc_priority, 4);
  EXPECT_EQ(f.pfc_quanta, 300);
  EXPECT_EQ(f.wire_bytes, s.net.nic_config().pfc_bytes);
  EXPECT_EQ(s.net.pause_kind().read(f), PauseKinds::kStandard);
  sw.ports[1].kick_or_wait();
  s.sim().run(2 * kPsPerUs);
  EXPECT_TRUE(s.net.nic(1).port.paused(4));
}

TEST(Switch, APolicyWithoutThePauseKindSlotSendsStandardFramesOnly) {
  Star s;  // standard PFC lists no pfc.kind slot
  EXPECT_FALSE(s.net.slots().has(kPauseKindSlot));
  const std::uint8_t other = static_cast<std::uint8_t>(PauseKinds::count() - 1);
  if (other == PauseKinds::kStandard) GTEST_SKIP() << "no policy of this binary registers a pause kind";
  EXPECT_THROW(s.net.switch_at(0).queue_pause_frame(1, 3, 100, other), InternalError);
}

// --- RdmaNic

// A star with flow 0 from h0 to h1 (`size` bytes), installed with no congestion control and not started.
struct OneFlow : Star {
  DefaultParams none_params;
  std::unique_ptr<CcFactory> none = CcRegistry::find("none")->make(none_params);
  explicit OneFlow(Bytes size) {
    Flow f;
    f.src = 0;
    f.dst = 1;
    f.size_bytes = size;
    f.priority = 3;
    net.install_flows({f}, *none);
  }
  SenderQp& qp() { return net.qp(0); }
};

TEST(RdmaNic, MaySendOnlyWithDataUnpausedBelowTheWindowAndTheGateAndWhenThePacerAllows) {
  OneFlow s(100'000);
  SenderQp& qp = s.qp();
  RdmaNic& nic = s.net.nic(0);
  TimePs earliest = kTimeNever;
  qp.send_limit_bytes = qp.size();
  qp.priority = 3;
  EXPECT_TRUE(nic.may_send(qp, 0, earliest));
  // Paused priority.
  nic.port.on_pfc(3, 65535, PauseKinds::kStandard);
  EXPECT_FALSE(nic.may_send(qp, 0, earliest));
  nic.port.on_pfc(3, 0, PauseKinds::kStandard);
  EXPECT_TRUE(nic.may_send(qp, 0, earliest));
  // Window: 4000 B in flight of a 4000 B window.
  qp.snd_nxt = 4000;
  qp.window_bytes = 4000;
  EXPECT_FALSE(nic.may_send(qp, 0, earliest));
  qp.snd_una = 1000;
  EXPECT_TRUE(nic.may_send(qp, 0, earliest));
  // Send gate: closed at the next byte.
  qp.set_send_gate(4000);
  EXPECT_EQ(qp.send_limit_bytes, 4000u);
  EXPECT_FALSE(nic.may_send(qp, 0, earliest));
  qp.set_send_gate(kNoSendGate);
  EXPECT_EQ(qp.send_limit_bytes, qp.size());
  EXPECT_TRUE(nic.may_send(qp, 0, earliest));
  // Pacing: the next slot is at 7 us; the NIC learns when to look again.
  qp.next_avail_ps = 7 * kPsPerUs;
  EXPECT_FALSE(nic.may_send(qp, kPsPerUs, earliest));
  EXPECT_EQ(earliest, 7 * kPsPerUs);
  EXPECT_TRUE(nic.may_send(qp, 7 * kPsPerUs, earliest));
  // All data sent.
  qp.snd_nxt = qp.size();
  EXPECT_FALSE(nic.may_send(qp, 7 * kPsPerUs, earliest));
}

TEST(RdmaNic, APacedQpSendsAtItsRate) {
  OneFlow s(10'000'000);
  SenderQp& qp = s.qp();
  s.sim().run(1);  // start
  ASSERT_TRUE(qp.active);
  qp.set_rate(10e9);  // a tenth of the line (set_rate tells the NIC)
  const Bytes sent_before = qp.sent_bytes;
  s.sim().run(101 * kPsPerUs);
  // 100 us at 10 Gb/s: 125 KB of wire bytes, i.e. about 119 packets of 1000 B payload (1048 B on the wire).
  const double payload = static_cast<double>(qp.sent_bytes - sent_before);
  EXPECT_NEAR(payload, 125'000.0 * 1000 / 1048, 2 * 1000.0);
}

TEST(RdmaNic, AcksAdvanceTheSenderAndTheLastOneCompletesTheFlow) {
  OneFlow s(10'000);
  SenderQp& qp = s.qp();
  s.sim().run(kTimeNever - 1);
  EXPECT_TRUE(qp.finished);
  EXPECT_EQ(qp.snd_una, 10'000u);
  EXPECT_EQ(qp.sent_bytes, 10'000u);  // no retransmission on an idle fabric
  EXPECT_EQ(s.net.receiver(0).expected, 10'000u);
  EXPECT_EQ(s.net.flows_completed(), 1u);
  EXPECT_GT(s.net.finish_ps(0), 0u);
  EXPECT_EQ(s.counters().retransmitted_bytes, 0u);
}

// A QP keeps the header its data packets carry (RdmaNic::send_data writes it from these copies): the flow's
// id, destination and size, and the network's ECMP hash and route of the flow.
TEST(RdmaNic, AQpCarriesItsFlowsPacketHeader) {
  OneFlow s(123'456);
  const SenderQp& qp = s.qp();
  const Flow& f = s.net.flow(0);
  EXPECT_EQ(qp.flow_id, f.id);
  EXPECT_EQ(qp.dst, f.dst);
  EXPECT_EQ(qp.size(), 123'456u);
  EXPECT_EQ(qp.ecmp_hash, s.net.forward_hash(0));
  EXPECT_EQ(s.net.route_ports() + qp.route_offset, s.net.forward_route(0));
  // The offset a packet carries names the same ports in the table every switch routes it by.
  EXPECT_EQ(qp.route_offset, s.net.forward_route_offset(0));
  for (std::size_t sw = 0; sw < s.net.switch_count(); ++sw) {
    if (!s.net.has_switch(sw)) continue;
    EXPECT_EQ(s.net.switch_at(static_cast<std::uint32_t>(sw)).flow_routes, s.net.route_ports());
  }
}

// The end of a NIC port's transmission is scheduled only while the NIC has QPs to send from, and carries the
// one its round-robin tries first (prefetched with the event): the NIC hands it to Port::transmit.
TEST(RdmaNic, ItsPortNamesTheQpItTriesNextOrNoWork) {
  OneFlow s(10'000);
  RdmaNic& nic = s.net.nic(0);
  EXPECT_EQ(RdmaNic::next_work(&nic), 0u);  // not started
  s.sim().run(1);
  ASSERT_TRUE(s.qp().active);
  EXPECT_EQ(RdmaNic::next_work(&nic), reinterpret_cast<std::uint64_t>(&s.qp()));
  s.sim().run(kTimeNever - 1);
  ASSERT_TRUE(s.qp().finished);
  EXPECT_EQ(RdmaNic::next_work(&nic), 0u);
}

// A packet a NIC sends (a reply, a scheme's packet) that finds the port idle with nothing queued goes out at
// once, as queueing it and kicking the port would do; one whose priority is paused waits in the queue.
TEST(RdmaNic, APacketSentToAnIdlePortGoesOutAtOnceUnlessItsPriorityIsPaused) {
  OneFlow s(10'000);
  RdmaNic& nic = s.net.nic(1);
  const std::uint64_t control_before = s.counters().control_packets;
  Packet* now = nic.packet_for_flow(0, PacketType::kCnp, 64);
  nic.send(now);
  EXPECT_TRUE(nic.port.busy());
  EXPECT_EQ(nic.port.queued_bytes, 0u);
  EXPECT_EQ(s.counters().control_packets, control_before + 1);

  OneFlow t(10'000);
  RdmaNic& paused_nic = t.net.nic(1);
  paused_nic.port.on_pfc(3, 65535, PauseKinds::kStandard);
  Packet* waits = paused_nic.packet_for_flow(0, PacketType::kCnp, 64);
  waits->priority = 3;
  paused_nic.send(waits);
  EXPECT_FALSE(paused_nic.port.busy());
  EXPECT_EQ(paused_nic.port.queues()[3].count(), 1u);
  paused_nic.port.on_pfc(3, 0, PauseKinds::kStandard);  // the resume kicks the port
  EXPECT_TRUE(paused_nic.port.busy());
  EXPECT_EQ(paused_nic.port.queues()[3].count(), 0u);
}

// Arrivals' second-stage prefetch is registered only where a partition's ports outgrow four L2 caches
// (Network::deep_prefetch): fattree k = 24 on one partition (20,736 ports, 11.4 MiB), not on two, not k = 16.
TEST(Network, DeepPrefetchOnlyWhereThePortsOutgrowTheCaches) {
  const LinkSpec fabric{400'000'000'000, kPsPerUs};
  EXPECT_TRUE(Network(make_fat_tree_k(24, kLink, fabric), SwitchConfig{}, NicConfig{}, 1, 1).deep_prefetch());
  EXPECT_FALSE(
      Network(make_fat_tree_k(24, kLink, fabric), SwitchConfig{}, NicConfig{}, 1, 2).deep_prefetch());
  EXPECT_FALSE(
      Network(make_fat_tree_k(16, kLink, fabric), SwitchConfig{}, NicConfig{}, 1, 1).deep_prefetch());
}

}  // namespace
}  // namespace lossless
