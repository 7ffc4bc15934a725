#include "control/expresspass/expresspass.h"

#include <gtest/gtest.h>

#include "control/cc_scheme.h"
#include "net/network.h"

namespace lossless {
namespace {

// Two hosts on a switch at 100 G, ExpressPass installed for one flow h1 -> h0 of `size` bytes.
struct XpassNet {
  Network net;
  std::unique_ptr<CcFactoryOf<ExpressPass>> factory;
  explicit XpassNet(Bytes size, const ExpressPassParams& p = {})
      : net(make_star(2, {100'000'000'000, kPsPerUs}), SwitchConfig{}, NicConfig{}, 1),
        factory(std::make_unique<CcFactoryOf<ExpressPass>>(p)) {
    Flow f;
    f.src = 1;
    f.dst = 0;
    f.size_bytes = size;
    net.install_flows({f}, *factory);
  }
  // Runs the fabric up to `t` (and sets the clock there).
  void advance(TimePs t) {
    net.sim().at(
        t, [](void*, std::uint64_t) {}, nullptr);
    net.sim().run(t);
  }
  ExpressPassReceiver& rx() { return static_cast<ExpressPassReceiver&>(*net.receiver(0).control); }
  ExpressPassSender& tx() { return static_cast<ExpressPassSender&>(*net.qp(0).cc); }
  void credit_to_sender(std::uint64_t seq) {
    Packet* p = net.partition(0).pool.get();
    p->type = kXpassCredit;
    p->flow_id = 0;
    p->src = 0;
    p->dst = 1;
    p->wire_bytes = 84;
    p->ext_init(net.slots().bind(kXpassCreditField)) = {seq, net.sim().now()};
    RdmaNic::arrive_event(&net.nic(1).port, reinterpret_cast<std::uint64_t>(p));
  }
};

constexpr double kMaxRate = 100e9 / 8 * 84.0 / (84 + 1048);  // credit bytes per second at 100 G

TEST(ExpressPassParams, CreditShareFitsACreditAndADataFrameInTheLink) {
  ExpressPassParams p;
  EXPECT_DOUBLE_EQ(p.share(1538), 84.0 / 1622);  // the paper's frames: 5.2 %
  EXPECT_DOUBLE_EQ(p.share(1048), 84.0 / 1132);  // this fabric's default frames: 7.4 %
  p.credit_share = 0.05;
  EXPECT_DOUBLE_EQ(p.share(1048), 0.05);
}

TEST(ExpressPassLimiter, TokensReleaseCreditsAtTheRateAndAFullQueueRefuses) {
  CreditLimiter lim(1e9, 840, 840);  // 1 GB/s: one 84-B credit per 84 ns
  std::vector<Packet> credits(12);
  for (auto& c : credits) c.wire_bytes = 84;
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(lim.push(&credits[i]));
  EXPECT_FALSE(lim.push(&credits[10]));  // 10 credits (840 B) queued: the 11th is dropped
  TimePs retry = kTimeNever;
  for (int i = 0; i < 10; ++i) EXPECT_EQ(lim.pop(0, retry), &credits[i]);  // a full bucket: a burst of 10
  EXPECT_TRUE(lim.push(&credits[10]));
  EXPECT_EQ(lim.pop(0, retry), nullptr);  // no tokens left
  EXPECT_EQ(retry, 84'000u);              // 84 B at 1 GB/s
  EXPECT_EQ(lim.pop(84'000, retry), &credits[10]);
}

TEST(ExpressPassQueues, CreditsGoFirstWhenTokensAllowElseData) {
  ExpressPassParams p;
  XpassNet h(1000, p);
  const Port& port = h.net.switch_at(0).ports[0];
  ExpressPassQueues q(p, port, 1048);
  Packet data, credit[11];
  data.priority = 3;
  data.wire_bytes = 1048;
  for (auto& c : credit) {
    c.type = kXpassCredit;
    c.priority = 1;
    c.wire_bytes = 84;
  }
  ASSERT_TRUE(q.enqueue(&data, 0));
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(q.enqueue(&credit[i], 0));
  EXPECT_FALSE(q.enqueue(&credit[10], 0));  // the credit queue holds 10
  EXPECT_EQ(q.bytes(1), 840u);
  EXPECT_EQ(q.bytes(3), 1048u);
  TimePs retry = kTimeNever;
  EXPECT_EQ(q.dequeue(1u << 1, 0, retry), &data);  // credits' priority paused: data
  for (int i = 0; i < 10; ++i) EXPECT_EQ(q.dequeue(0, 0, retry), &credit[i]);
  ASSERT_TRUE(q.enqueue(&credit[10], 0));
  ASSERT_TRUE(q.enqueue(&data, 0));
  // The bucket is empty: data goes, the credit waits for its tokens (7.4 % of 100 G: 84 B in 90.6 ns).
  EXPECT_EQ(q.dequeue(0, 0, retry), &data);
  EXPECT_EQ(q.dequeue(0, 0, retry), nullptr);
  EXPECT_NEAR(static_cast<double>(retry), 84 / kMaxRate * 1e12, 2);
  EXPECT_EQ(q.dequeue(0, retry, retry), &credit[10]);
}

TEST(ExpressPassReceiver, StartsAtAlphaOfTheMaximumScaledForShortFlows) {
  XpassNet h(1'000'000);
  h.rx().start(100);
  EXPECT_NEAR(h.rx().max_rate(), kMaxRate, 1);
  EXPECT_NEAR(h.rx().credit_rate(), 0.5 * kMaxRate, 1);
  XpassNet s(10'000);
  s.rx().start(10);  // 10 packets: 10/40 of it
  EXPECT_NEAR(s.rx().credit_rate(), 0.5 * kMaxRate * 10 / 40, 1);
}

TEST(ExpressPassReceiver, LossAboveTargetCutsToWhatGotThroughAndHalvesW) {
  XpassNet h(1'000'000);
  ExpressPassReceiver& r = h.rx();
  r.start(100);
  r.set_rtt(10 * kPsPerUs);
  r.count_credits(100, 20);  // 20 % loss; target (1 - 0.5) x 0.125 = 6.25 %
  r.feedback_control(20 * kPsPerUs);
  // 80 credits of 84 B got through in 20 us, x (1 + target).
  EXPECT_NEAR(r.credit_rate(), 80 * 84 / 20e-6 * 1.0625, 1);
  EXPECT_DOUBLE_EQ(r.w(), 0.25);
  // Not yet an RTT since the update: nothing changes.
  r.count_credits(10, 0);
  r.feedback_control(25 * kPsPerUs);
  EXPECT_NEAR(r.credit_rate(), 80 * 84 / 20e-6 * 1.0625, 1);
  // No loss: the first period after a decrease keeps w, then w grows by 0.05.
  double rate = r.credit_rate();
  r.feedback_control(30 * kPsPerUs);
  rate = 0.25 * kMaxRate + 0.75 * rate;
  EXPECT_NEAR(r.credit_rate(), rate, 1);
  EXPECT_DOUBLE_EQ(r.w(), 0.25);
  r.count_credits(10, 0);
  r.feedback_control(40 * kPsPerUs);
  rate = 0.3 * kMaxRate + 0.7 * rate;
  EXPECT_NEAR(r.credit_rate(), rate, 1);
  EXPECT_DOUBLE_EQ(r.w(), 0.3);
}

TEST(ExpressPassReceiver, RateStaysBetweenOneCreditPerRttAndTheMaximum) {
  XpassNet h(1'000'000);
  ExpressPassReceiver& r = h.rx();
  r.start(100);
  r.set_rtt(10 * kPsPerUs);
  r.count_credits(50, 50);  // everything lost: one credit per RTT
  r.feedback_control(20 * kPsPerUs);
  EXPECT_NEAR(r.credit_rate(), 84 / 10e-6, 1);
  for (int i = 0; i < 200; ++i) {
    r.count_credits(10, 0);
    r.feedback_control((30 + 10 * i) * kPsPerUs);
  }
  EXPECT_NEAR(r.credit_rate(), kMaxRate, 1);
  EXPECT_DOUBLE_EQ(r.w(), 0.5);
}

TEST(ExpressPassReceiver, GapsInEchoedCreditSequenceCountAsLoss) {
  XpassNet h(1'000'000);
  ExpressPassReceiver& r = h.rx();
  r.start(100);
  Packet data;
  data.type = PacketType::kData;
  for (std::uint64_t seq : {0, 1, 4, 5, 9}) {
    data.ext_init(h.net.slots().bind(kXpassDataField)) = {seq, 0};
    r.on_data(data);
  }
  // 10 credits seen (0..9), 5 of them never came back: 50 % loss, far above target: a cut.
  r.set_rtt(10 * kPsPerUs);
  const double before = r.credit_rate();
  r.feedback_control(20 * kPsPerUs);
  EXPECT_NEAR(r.credit_rate(), std::min(before, 5 * 84 / 20e-6 * (1 + 0.0625)), 1);
}

TEST(ExpressPassSender, OneDataPacketPerCreditEchoingItThenStop) {
  XpassNet h(3'000);
  SenderQp& qp = h.net.qp(0);
  h.net.nic(1).port.paused_mask = 0xff;  // keep the sender's own packets in: only hand-made credits
  h.advance(kPsPerUs);
  EXPECT_EQ(qp.send_limit_bytes, 0u);  // nothing without a credit
  h.credit_to_sender(7);
  EXPECT_EQ(qp.send_limit_bytes, 1'000u);
  Packet data;
  const Slot<XpassDataField> echo = h.net.slots().bind(kXpassDataField);
  qp.cc->on_sent(data);
  EXPECT_EQ(data.ext(echo).credit_seq, 7u);
  h.credit_to_sender(8);
  EXPECT_FALSE(h.tx().stopped());
  h.credit_to_sender(9);
  EXPECT_EQ(qp.send_limit_bytes, 3'000u);
  EXPECT_TRUE(h.tx().stopped());  // every packet has its credit: CREDIT_STOP
  h.credit_to_sender(10);
  EXPECT_EQ(h.tx().credits_wasted(), 1u);
  qp.cc->on_sent(data);
  EXPECT_EQ(data.ext(echo).credit_seq, 8u);
}

TEST(ExpressPassSender, StopsEarlyWhenTheLastRttsCreditsCoverTheRest) {
  XpassNet h(4'000);
  h.net.nic(1).port.paused_mask = 0xff;
  h.advance(10 * kPsPerUs);  // the request went out at 0: the first credit measures a 10 us RTT
  h.credit_to_sender(0);
  EXPECT_FALSE(h.tx().stopped());  // 3 packets left, 1 credit this RTT
  h.advance(20 * kPsPerUs);
  h.credit_to_sender(1);
  EXPECT_TRUE(h.tx().stopped());  // 2 credits in the last RTT >= 2 packets left
  ExpressPassParams late;
  late.early_stop = false;
  XpassNet l(4'000, late);
  l.net.nic(1).port.paused_mask = 0xff;
  l.advance(10 * kPsPerUs);
  l.credit_to_sender(0);
  l.advance(20 * kPsPerUs);
  l.credit_to_sender(1);
  EXPECT_FALSE(l.tx().stopped());
}

}  // namespace
}  // namespace lossless
