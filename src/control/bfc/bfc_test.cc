#include "control/bfc/bfc.h"

#include <gtest/gtest.h>

#include "core/params.h"
#include "net/network.h"
#include "net/rdma_nic.h"
#include "net/switch.h"

namespace lossless {
namespace {

// A switch with BFC on every port (3 hosts at 100G, 1 us links), driven by hand-made packets.
struct BfcSwitch {
  Network net;
  Bfc& bfc;
  explicit BfcSwitch(SwitchConfig cfg = {})
      : net(make_star(3, {100'000'000'000, kPsPerUs}), with_bfc(cfg), NicConfig{}, 1),
        bfc(static_cast<Bfc&>(net.switch_at(0).flow_control())) {
    // No flows, but the NICs get BFC's part, which takes the switch's periodic frames.
    DefaultParams none;
    net.install_flows({}, *CcRegistry::find("none")->make(none));
  }
  static SwitchConfig with_bfc(SwitchConfig c) {
    c.flow_control = "bfc";
    return c;
  }
  // A data packet of `flow` that left upstream queue `upstream`, arriving at port `in` for port 0.
  Packet* packet(std::uint32_t flow, std::uint16_t upstream, std::uint16_t in = 1) {
    Packet* p = net.switch_at(0).new_packet();
    p->flow_id = flow;
    p->priority = 3;
    p->wire_bytes = 1048;
    p->ext_init(net.slots().bind(kBfcHop)) = BfcHop{upstream, false};
    p->in_port = in;
    return p;
  }
  BfcQueues& egress() { return bfc.queues(0); }
  Packet* dequeue() {
    TimePs retry = kTimeNever;
    return egress().dequeue(0, 0, retry);
  }
};

TEST(Bfc, FlowsTakeEmptyQueuesAndKeepThem) {
  BfcSwitch s;
  s.egress().enqueue(s.packet(7, 0), 1);
  s.egress().enqueue(s.packet(8, 1), 1);
  const int a = s.egress().queue_of(7), b = s.egress().queue_of(8);
  ASSERT_GE(a, 0);
  ASSERT_GE(b, 0);
  EXPECT_NE(a, b);
  s.egress().enqueue(s.packet(7, 0), 1);
  EXPECT_EQ(s.egress().queue(a).count(), 2u);
  EXPECT_EQ(s.egress().nonempty_queues(), (std::uint64_t{1} << a) | (std::uint64_t{1} << b));
  // A packet leaving carries its queue's id to the next hop.
  for (int i = 0; i < 3; ++i) {
    Packet* p = s.dequeue();
    EXPECT_EQ(p->ext(s.net.slots().bind(kBfcHop)).queue, p->flow_id == 7 ? a : b);
    s.net.switch_at(0).free_packet(p);
  }
  // Drained, flow 7 keeps its queue for `sticky` (6 us) after its last arrival, then has none.
  EXPECT_EQ(s.egress().queue_of(7), a);
  s.net.sim().run(7 * kPsPerUs);
  EXPECT_EQ(s.egress().queue_of(7), -1);
}

TEST(Bfc, PauseTheUpstreamQueueAboveTheThresholdUntilItsPacketsLeave) {
  BfcSwitch s;
  // Th = 1.5 x 100 Gb/s x 2 us / 1 active queue = 37.5 KB: the 36th packet of 1048 B is above it.
  for (int i = 0; i < 35; ++i) s.egress().enqueue(s.packet(7, 5), 1);
  EXPECT_FALSE(s.bfc.upstream_paused(1, 5));
  s.egress().enqueue(s.packet(7, 5), 1);
  EXPECT_TRUE(s.bfc.upstream_paused(1, 5));
  s.egress().enqueue(s.packet(7, 5), 1);
  EXPECT_EQ(s.bfc.pause_requests(1, 5), 2u);
  EXPECT_FALSE(s.bfc.upstream_paused(2, 5));  // per ingress port
  // The bit stays set while a packet that asked for the pause is in the switch.
  for (int i = 0; i < 36; ++i) s.net.switch_at(0).free_packet(s.dequeue());
  EXPECT_TRUE(s.bfc.upstream_paused(1, 5));
  s.net.switch_at(0).free_packet(s.dequeue());
  EXPECT_FALSE(s.bfc.upstream_paused(1, 5));
  EXPECT_EQ(s.bfc.pause_requests(1, 5), 0u);
}

TEST(Bfc, ThresholdSharedAmongActiveUnpausedQueues) {
  BfcSwitch s;
  s.egress().enqueue(s.packet(8, 1), 1);
  s.egress().enqueue(s.packet(8, 1), 1);
  // Two active queues: Th = 18.75 KB, exceeded by the 18th packet.
  for (int i = 0; i < 17; ++i) s.egress().enqueue(s.packet(7, 5), 1);
  EXPECT_FALSE(s.bfc.upstream_paused(1, 5));
  s.egress().enqueue(s.packet(7, 5), 1);
  EXPECT_TRUE(s.bfc.upstream_paused(1, 5));
}

TEST(Bfc, QueuesPausedByTheDownstreamBitmapAreNotServed) {
  BfcSwitch s;
  s.egress().enqueue(s.packet(7, 0), 1);
  s.egress().enqueue(s.packet(8, 0), 2);
  const int a = s.egress().queue_of(7);
  BfcBitmap bm{};
  bm.words[a / 64] |= std::uint64_t{1} << (a % 64);
  EXPECT_FALSE(s.egress().set_remote(bm));
  Packet* p = s.dequeue();
  EXPECT_EQ(p->flow_id, 8u);
  s.net.switch_at(0).free_packet(p);
  EXPECT_EQ(s.dequeue(), nullptr);
  // A paused queue is not given to a new flow either.
  s.egress().enqueue(s.packet(9, 0), 1);
  EXPECT_NE(s.egress().queue_of(9), a);
  EXPECT_TRUE(s.egress().set_remote(BfcBitmap{}));  // resumed
  EXPECT_NE(s.dequeue(), nullptr);
}

TEST(BfcNic, LowestFreeQueueIdsAndPerFlowPause) {
  BfcSwitch s;
  RdmaNic& nic = s.net.nic(0);
  CcEnv env{s.net.sim(), s.net.nic_config(), 0, 0, nic, 1, 0, 0, true, s.net.slots()};
  BfcNic part(BfcParams{}, nic, env);
  SenderQp q[3];
  for (auto& qp : q) {
    qp.send_limit_bytes = 1000;
    part.on_flow_start(qp);
  }
  EXPECT_EQ(part.queue_of(q[0]), 0);
  EXPECT_EQ(part.queue_of(q[1]), 1);
  EXPECT_EQ(part.queue_of(q[2]), 2);
  part.on_flow_finish(q[1]);
  SenderQp later;
  part.on_flow_start(later);
  EXPECT_EQ(part.queue_of(later), 1);
  // The first switch pauses queue 0: the NIC sends from the others.
  Packet frame;
  frame.type = kBfcPause;
  const Slot<BfcBitmap> bitmap = s.net.slots().bind(kBfcBitmap);
  frame.ext_init(bitmap) = BfcBitmap{};
  frame.ext(bitmap).words[0] = 1;
  part.on_packet(frame);
  std::vector<SenderQp*> active{&q[0], &q[2]};
  TimePs earliest = kTimeNever;
  EXPECT_EQ(part.pick(active, 0, earliest), &q[2]);
  EXPECT_EQ(part.pick(active, 0, earliest), &q[2]);
}

TEST(BfcNic, ASharedQueueIdStaysTakenUntilItsLastFlowFinishes) {
  BfcSwitch s;
  RdmaNic& nic = s.net.nic(0);
  CcEnv env{s.net.sim(), s.net.nic_config(), 0, 0, nic, 1, 0, 0, true, s.net.slots()};
  BfcParams p;
  p.nic_queues = 2;
  BfcNic part(p, nic, env);
  SenderQp q[5];
  for (auto& qp : q) part.on_flow_start(qp);
  // Every id taken: the later flows share them in turn (0, 1, 0).
  EXPECT_EQ(part.queue_of(q[2]), 0);
  EXPECT_EQ(part.queue_of(q[3]), 1);
  EXPECT_EQ(part.queue_of(q[4]), 0);
  part.on_flow_finish(q[2]);  // q[0] and q[4] still hold id 0
  part.on_flow_finish(q[1]);
  part.on_flow_finish(q[3]);  // id 1 is free now
  SenderQp later;
  part.on_flow_start(later);
  EXPECT_EQ(part.queue_of(later), 1);
}

}  // namespace
}  // namespace lossless
