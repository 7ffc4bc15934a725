#include "control/homa/homa.h"

#include <gtest/gtest.h>

#include <cmath>

#include "control/cc_scheme.h"
#include "net/network.h"

namespace lossless {
namespace {

// A star of hosts at 100 G with Homa installed for `flows` (none started): data, grants and RESENDs are
// delivered to the NICs by hand.
struct HomaNet {
  Network net;
  std::unique_ptr<CcFactoryOf<Homa>> factory;
  HomaNet(const HomaParams& p, std::vector<Flow> flows, std::uint32_t hosts, bool lossless = true)
      : net(make_star(hosts, {100'000'000'000, kPsPerUs}), switch_config(lossless), NicConfig{}, 1),
        factory(std::make_unique<CcFactoryOf<Homa>>(p)) {
    for (std::uint32_t i = 0; i < flows.size(); ++i) flows[i].id = i;
    net.install_flows(flows, *factory);
  }
  static SwitchConfig switch_config(bool lossless) {
    SwitchConfig c;
    if (!lossless) {
      c.flow_control = "none";
      c.pfc_enabled = false;
    }
    return c;
  }
  HomaReceiver& rx(std::uint32_t id) { return static_cast<HomaReceiver&>(*net.receiver(id).control); }
  HomaSender& tx(std::uint32_t id) { return static_cast<HomaSender&>(*net.qp(id).cc); }
  HomaNic& nic(std::uint32_t host) { return static_cast<HomaNic&>(*net.nic(host).control()); }
  // A data packet of flow `id` at byte `seq` arrives at its receiver.
  void deliver(std::uint32_t id, Bytes seq, Bytes payload = 1000) {
    const Flow& f = net.flow(id);
    Packet* p = net.partition(0).pool.get();
    p->type = PacketType::kData;
    p->flow_id = id;
    p->src = f.src;
    p->dst = f.dst;
    p->seq = seq;
    p->payload_bytes = static_cast<std::uint32_t>(payload);
    p->wire_bytes = static_cast<std::uint32_t>(payload + 48);
    p->priority = 1;
    RdmaNic::arrive_event(&net.nic(f.dst).port, reinterpret_cast<std::uint64_t>(p));
  }
  // A scheme packet toward the sender of `id`.
  template <class Field>
  void to_sender(std::uint32_t id, PacketType kind, const PacketSlot<Field>& slot, Field field) {
    const Flow& f = net.flow(id);
    Packet* p = net.partition(0).pool.get();
    p->type = kind;
    p->flow_id = id;
    p->src = f.dst;
    p->dst = f.src;
    p->wire_bytes = 64;
    p->ext_init(net.slots().bind(slot)) = field;
    RdmaNic::arrive_event(&net.nic(f.src).port, reinterpret_cast<std::uint64_t>(p));
  }
};

Flow flow(std::uint32_t src, std::uint32_t dst, Bytes size) {
  Flow f;
  f.src = src;
  f.dst = dst;
  f.size_bytes = size;
  return f;
}

HomaParams params(std::uint64_t scheduled_levels, std::uint64_t overcommitment, Bytes rtt = 100'000) {
  HomaParams p;
  p.rtt_bytes = rtt;
  p.scheduled_levels = scheduled_levels;
  p.overcommitment = overcommitment;
  return p;
}

TEST(HomaCutoffs, SplitTheUnscheduledBytesEvenly) {
  // Sizes uniform on [0, 100 KB]: bytes of messages <= s grow as s^2, so two levels split at 100 KB /
  // sqrt(2).
  const std::vector<std::pair<double, double>> uniform{{0, 0}, {100'000, 1}};
  auto two = homa_unscheduled_cutoffs(uniform, 1'000'000, 2);
  ASSERT_EQ(two.size(), 1u);
  EXPECT_NEAR(static_cast<double>(two[0]), 100'000 / std::sqrt(2.0), 500);
  // Four levels: s^2 = k/4 of the total.
  auto four = homa_unscheduled_cutoffs(uniform, 1'000'000, 4);
  ASSERT_EQ(four.size(), 3u);
  for (int k = 1; k <= 3; ++k)
    EXPECT_NEAR(static_cast<double>(four[k - 1]), 100'000 * std::sqrt(k / 4.0), 500);
  // Only the first RTTbytes of a message are unscheduled: with a 10 KB cap, every message above 10 KB
  // brings the same 10 KB, so the bytes grow almost linearly in the sizes above it and the cut-off moves
  // down.
  auto capped = homa_unscheduled_cutoffs(uniform, 10'000, 2);
  // Unscheduled bytes of messages <= s, per message: s^2 / 200000 up to 10 KB (500 there), then
  // 500 + 0.1 (s - 10000): 9500 in all, half of it at s = 10000 + 4250 / 0.1 = 52500.
  EXPECT_NEAR(static_cast<double>(capped[0]), 52'500, 500);
  EXPECT_TRUE(homa_unscheduled_cutoffs(uniform, 10'000, 1).empty());
}

TEST(HomaSender, UnscheduledBytesGoAtOnceAndGrantsOpenTheRest) {
  HomaNet h(params(3, 3), {flow(1, 0, 1'000'000), flow(1, 0, 50'000)}, 3);
  SenderQp& big = h.net.qp(0);
  SenderQp& small = h.net.qp(1);
  // RTTbytes = 100 KB go without a grant; a message below it is open entirely.
  EXPECT_EQ(big.send_limit_bytes, 100'000u);
  EXPECT_EQ(small.send_limit_bytes, 50'000u);
  // Unscheduled packets: one of the 4 unscheduled levels (priorities 1-4) by size, smaller never lower.
  EXPECT_GE(h.tx(0).unscheduled_priority(), h.tx(1).unscheduled_priority());
  EXPECT_LE(h.tx(0).unscheduled_priority(), 4);
  EXPECT_EQ(big.priority, h.tx(0).unscheduled_priority());
  // A grant moves the gate and names the priority of the scheduled packets.
  big.snd_nxt = 100'000;  // the unscheduled bytes are out
  h.to_sender(0, kHomaGrant, kHomaGrantField, HomaGrantField{180'000, 6});
  EXPECT_EQ(big.send_limit_bytes, 180'000u);
  EXPECT_EQ(big.priority, 6);
  // An older grant (lower offset) cannot shrink it.
  h.to_sender(0, kHomaGrant, kHomaGrantField, HomaGrantField{150'000, 5});
  EXPECT_EQ(big.send_limit_bytes, 180'000u);
}

TEST(HomaSender, TheNicSendsTheMessageWithTheFewestBytesLeftFirst) {
  HomaNet h(params(3, 3), {flow(1, 0, 80'000), flow(1, 2, 30'000), flow(1, 0, 60'000)}, 3);
  std::vector<SenderQp*> active{&h.net.qp(0), &h.net.qp(1), &h.net.qp(2)};
  TimePs earliest = kTimeNever;
  EXPECT_EQ(h.nic(1).pick(active, 0, earliest), &h.net.qp(1));
  h.net.qp(0).snd_nxt = 75'000;  // 5 KB left
  EXPECT_EQ(h.nic(1).pick(active, 0, earliest), &h.net.qp(0));
  // A message held at its gate is skipped.
  h.net.qp(0).snd_nxt = 80'000;
  EXPECT_EQ(h.nic(1).pick(active, 0, earliest), &h.net.qp(1));
}

TEST(HomaReceiver, GrantsGoBySrptToTheBestMessagesOnTheLowestScheduledLevels) {
  // Receiver h0; 3 scheduled levels (priorities 5-7 of 1-7), 2 messages granted at once.
  HomaNet h(params(3, 2), {flow(1, 0, 1'000'000), flow(2, 0, 500'000), flow(3, 0, 2'000'000)}, 4);
  h.deliver(0, 0);
  // Alone: granted on the lowest level, RTTbytes beyond what arrived.
  EXPECT_EQ(h.rx(0).granted_bytes(), 1'000u + 100'000u);
  EXPECT_EQ(h.rx(0).last_grant_priority(), 7);
  h.deliver(2, 0);  // 2 MB: third by SRPT once the 500 KB one arrives
  h.deliver(1, 0);  // 500 KB: the best
  ASSERT_EQ(h.nic(0).granted().size(), 2u);
  EXPECT_EQ(h.nic(0).granted()[0], &h.rx(1));
  EXPECT_EQ(h.nic(0).granted()[1], &h.rx(0));
  // Two granted: levels 6 and 7 (the highest scheduled level, 5, stays free for a shorter message).
  EXPECT_EQ(h.rx(1).last_grant_priority(), 6);
  EXPECT_EQ(h.rx(1).granted_bytes(), 1'000u + 100'000u);
  // The 2 MB message was granted while it was one of the two best, and no more since.
  const Bytes granted_big = h.rx(2).granted_bytes();
  h.deliver(2, 1'000);
  EXPECT_EQ(h.rx(2).granted_bytes(), granted_big);
  // RTTbytes stay outstanding: each arrival of a granted message grants one more packet.
  h.deliver(1, 1'000);
  EXPECT_EQ(h.rx(1).granted_bytes(), 2'000u + 100'000u);
}

TEST(HomaReceiver, OneMessagePerSenderIsGranted) {
  // h1 sends two messages to h0; h2 one. With 3 granted at once, h1's larger message still waits.
  HomaNet h(params(3, 3), {flow(1, 0, 1'000'000), flow(1, 0, 400'000), flow(2, 0, 2'000'000)}, 3);
  h.deliver(0, 0);
  h.deliver(2, 0);
  h.deliver(1, 0);
  ASSERT_EQ(h.nic(0).granted().size(), 2u);
  EXPECT_EQ(h.nic(0).granted()[0], &h.rx(1));
  EXPECT_EQ(h.nic(0).granted()[1], &h.rx(2));
}

TEST(HomaReceiver, AMessageWhoseSenderWentBeyondItsGrantIsGrantedAgain) {
  // RTTbytes 100.5 KB: grants end mid-packet, and the sender sends the whole packet the gate cuts (as
  // Homa's Linux sender does), so a message whose granted bytes all arrive while the receiver grants
  // another has received more than it was granted. It must be granted again when its turn comes (it was
  // left stalled for good when "granted - received" wrapped around).
  HomaNet h(params(3, 3, 100'500), {flow(1, 0, 1'000'000), flow(1, 0, 150'000)}, 2);
  h.deliver(0, 0);
  EXPECT_EQ(h.rx(0).granted_bytes(), 101'500u);
  h.deliver(1, 0);  // same sender, fewer bytes to grant: granted instead of message 0
  ASSERT_EQ(h.nic(0).granted().size(), 1u);
  EXPECT_EQ(h.nic(0).granted()[0], &h.rx(1));
  // Message 0's window drains, the last packet [101000, 102000) 500 B beyond its grant; no grant for it.
  for (Bytes seq = 1'000; seq <= 101'000; seq += 1'000) h.deliver(0, seq);
  EXPECT_EQ(h.rx(0).granted_bytes(), 101'500u);
  EXPECT_EQ(h.rx(0).received_bytes(), 102'000u);
  EXPECT_EQ(h.rx(0).outstanding_bytes(), 0u);
  // Message 1 is granted in full; at the next arrival it leaves the scheduler and message 0 is granted
  // RTTbytes beyond what arrived.
  for (Bytes seq = 1'000; seq < 50'000; seq += 1'000) h.deliver(1, seq);
  EXPECT_EQ(h.rx(1).granted_bytes(), 150'000u);
  h.deliver(1, 50'000);
  EXPECT_EQ(h.rx(0).granted_bytes(), 102'000u + 100'500u);
}

TEST(HomaReceiver, TheTailOfAMessageTravelsAtItsUnscheduledPriority) {
  // 250 KB: after 150 KB granted only 100 KB remain to grant (< RTTbytes): boosted to the unscheduled level
  // its remaining size gives (a single unscheduled level here: priority 1).
  HomaParams p = params(6, 6);
  HomaNet boosted(p, {flow(1, 0, 250'000)}, 2);
  boosted.deliver(0, 0);
  EXPECT_EQ(boosted.rx(0).granted_bytes(), 101'000u);
  EXPECT_EQ(boosted.rx(0).last_grant_priority(), 7);  // 150 KB still to grant: scheduled level
  for (Bytes seq = 1'000; seq < 60'000; seq += 1'000) boosted.deliver(0, seq);
  EXPECT_EQ(boosted.rx(0).last_grant_priority(), 1);  // < 100 KB left to grant
  p.boost_tail = false;
  HomaNet plain(p, {flow(1, 0, 250'000)}, 2);
  for (Bytes seq = 0; seq < 60'000; seq += 1'000) plain.deliver(0, seq);
  EXPECT_EQ(plain.rx(0).last_grant_priority(), 7);
}

TEST(HomaReceiver, ReassemblesAndAcknowledgesOnlyTheWholeMessage) {
  HomaNet h(params(6, 6), {flow(1, 0, 5'000)}, 2);
  ReceiverContext& rx = h.net.receiver(0);
  // Packets 3, 1, 4 arrive before 0 and 2: held, never NACKed.
  for (Bytes seq : {3'000, 1'000, 4'000}) h.deliver(0, seq);
  EXPECT_EQ(rx.expected, 0u);
  EXPECT_EQ(h.rx(0).received_bytes(), 3'000u);
  h.deliver(0, 1'000);  // a duplicate counts once
  EXPECT_EQ(h.rx(0).received_bytes(), 3'000u);
  h.deliver(0, 0);
  EXPECT_EQ(rx.expected, 2'000u);  // 0 and the held 1
  h.deliver(0, 2'000);
  EXPECT_EQ(rx.expected, 5'000u);
  EXPECT_EQ(rx.delivered(), 5'000u);
  // One reply left the receiver's NIC: the ACK of the whole message (no NACK, no grant: 5 KB is unscheduled).
  const NetCounters c = h.net.counters();
  EXPECT_EQ(c.nacks, 0u);
  EXPECT_EQ(c.control_packets, 1u);
}

TEST(HomaLossRecovery, AReceiverAsksForWhatItMissesAndTheSenderGoesBackForIt) {
  HomaParams p = params(6, 6);
  p.resend_timeout = 20 * kPsPerUs;
  HomaNet h(p, {flow(1, 0, 10'000)}, 2, /*lossless=*/false);
  // The sender had sent everything; packet 2 was lost.
  SenderQp& qp = h.net.qp(0);
  qp.snd_nxt = 10'000;
  h.to_sender(0, kHomaResend, kHomaResendField, HomaResendField{2'000, 3'000});
  EXPECT_EQ(qp.snd_nxt, 2'000u);
  // One packet later it carries on where it was.
  Packet data;
  qp.snd_nxt = 3'000;
  qp.cc->on_sent(data);
  EXPECT_EQ(qp.snd_nxt, 10'000u);
}

TEST(HomaLossRecovery, ASilentIncompleteMessageTriggersAResend) {
  HomaParams p = params(6, 6);
  p.resend_timeout = 20 * kPsPerUs;
  HomaNet h(p, {flow(1, 0, 10'000)}, 2, /*lossless=*/false);
  h.net.nic(1).port.paused_mask = 0xff;  // keep the sender quiet: only hand-made packets
  for (Bytes seq : {0, 1'000, 3'000}) h.deliver(0, seq);
  // 20 us of silence: a RESEND for [2000, 3000) goes to the sender, which goes back to 2000.
  h.net.qp(0).snd_nxt = 10'000;
  h.net.sim().run(30 * kPsPerUs);
  EXPECT_EQ(h.net.qp(0).snd_nxt, 2'000u);
}

TEST(HomaSwitch, StrictPriorityServesTheLowestNumberFirstAndSkipsPausedOnes) {
  StrictPriorityQueues q;
  Packet a, b, c, d;
  a.priority = 5;
  b.priority = 2;
  c.priority = 7;
  d.priority = 2;
  for (Packet* p : {&a, &b, &c, &d}) {
    p->wire_bytes = 100;
    ASSERT_TRUE(q.enqueue(p, 0));
  }
  EXPECT_EQ(q.bytes(2), 200u);
  TimePs retry = kTimeNever;
  EXPECT_EQ(q.dequeue(1u << 2, 0, retry), &a);  // priority 2 paused
  EXPECT_EQ(q.dequeue(0, 0, retry), &b);
  EXPECT_EQ(q.dequeue(0, 0, retry), &d);
  EXPECT_EQ(q.dequeue(0, 0, retry), &c);
  EXPECT_EQ(q.dequeue(0, 0, retry), nullptr);
  EXPECT_EQ(retry, kTimeNever);
}

}  // namespace
}  // namespace lossless
