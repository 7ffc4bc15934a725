#include <gtest/gtest.h>

#include "control/cc_test_harness.h"
#include "control/qcn/qcn_cp.h"
#include "control/qcn/qcn_rp.h"

namespace lossless {
namespace {

TEST(QcnCp, FeedbackFromQueueOffsetAndGrowthQuantisedToSixBits) {
  QcnSampler s(33'000, 2, 6);
  EXPECT_EQ(s.sample(0), 0u);  // below Q_eq: Fb = +33 KB, no congestion
  // Jump to 2 Q_eq: Fb = -(33 + 2 x 66) KB = -Q_eq (1 + 2w): the largest level.
  EXPECT_EQ(s.sample(66'000), 63u);
  // Held at 40 KB after 66 KB: Fb = -(7 - 2 x 26) KB > 0 (the queue is falling).
  EXPECT_EQ(s.sample(40'000), 0u);
  // Held at 40 KB: Fb = -7 KB: 7 / 165 x 64 = 2.7 -> level 2.
  EXPECT_EQ(s.sample(40'000), 2u);
  // Far beyond saturation: still 63.
  EXPECT_EQ(s.sample(1'000'000), 63u);
}

using Harness = test::CcHarness<QcnRpParams, QcnSender>;

Packet cnm(Harness& h, unsigned fb) {
  Packet p;
  p.type = kQcnCnm;
  p.ext_init(h.slot(kQcnCnmSlot)) = {1, static_cast<std::uint8_t>(fb)};
  return p;
}

// A data packet of `bytes` on the wire, as the NIC would send it.
void send(Harness& h, std::uint32_t bytes) {
  Packet d;
  d.wire_bytes = bytes;
  h.cc().on_sent(d);
}

TEST(QcnRp, CutByFeedbackThenFastRecoveryThenActiveIncrease) {
  Harness h(QcnRpParams{});
  EXPECT_FALSE(h.cc().limited());
  send(h, 150'000);  // no limiter yet: the byte counter is idle
  h.cc().on_packet(cnm(h, 63));
  EXPECT_TRUE(h.cc().limited());
  EXPECT_DOUBLE_EQ(h.cc().target_rate_bps(), 100e9);
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 100e9 * (1 - 63.0 / 128));
  // Five byte-counter stages of fast recovery: CR halves its distance to TR each time.
  double cr = h.qp().rate_bps;
  for (int i = 0; i < 5; ++i) {
    send(h, 150'000);
    cr = (cr + 100e9) / 2;
    EXPECT_DOUBLE_EQ(h.qp().rate_bps, cr) << "stage " << i + 1;
    EXPECT_DOUBLE_EQ(h.cc().target_rate_bps(), 100e9);
  }
  // A CNM of the same cycle (a byte stage happened) resets TR to CR before the cut.
  h.cc().on_packet(cnm(h, 32));
  EXPECT_DOUBLE_EQ(h.cc().target_rate_bps(), cr);
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, cr * (1 - 32.0 / 128));
  // A second CNM before any stage keeps TR.
  h.cc().on_packet(cnm(h, 8));
  EXPECT_DOUBLE_EQ(h.cc().target_rate_bps(), cr);
}

// A cut, one fast-recovery stage, and a second cut: TR = CR below line rate, both counters at 0.
double cut_twice(Harness& h) {
  h.cc().on_packet(cnm(h, 63));
  send(h, 150'000);
  h.cc().on_packet(cnm(h, 63));
  return h.cc().target_rate_bps();
}

TEST(QcnRp, ActiveIncreaseOnceOneCounterPassesTheThreshold) {
  Harness h(QcnRpParams{});
  const double tr0 = cut_twice(h);
  EXPECT_LT(tr0, 100e9);
  for (int i = 0; i < 5; ++i) send(h, 150'000);  // fast recovery: TR holds
  EXPECT_DOUBLE_EQ(h.cc().target_rate_bps(), tr0);
  send(h, 150'000);  // byte stage 6: TR += R_AI
  EXPECT_DOUBLE_EQ(h.cc().target_rate_bps(), tr0 + 5e6);
  send(h, 74'000);  // past the threshold a stage takes BC / 2
  EXPECT_DOUBLE_EQ(h.cc().target_rate_bps(), tr0 + 5e6);
  send(h, 1'000);
  EXPECT_DOUBLE_EQ(h.cc().target_rate_bps(), tr0 + 10e6);
}

TEST(QcnRp, HyperIncreaseWhenBothCountersPassTheThreshold) {
  QcnRpParams p;
  p.timer = 10 * kPsPerUs;
  Harness h(p);
  const double tr0 = cut_twice(h);
  // Timer stages at 10, 20, ..., 60 us: five of fast recovery, the sixth an active increase.
  h.sim.run(h.sim.now() + 60 * kPsPerUs + 1);
  EXPECT_DOUBLE_EQ(h.cc().target_rate_bps(), tr0 + 5e6);
  // Byte stages 1-5: the timer counter is past the threshold: active increase each.
  for (int i = 0; i < 5; ++i) send(h, 150'000);
  EXPECT_DOUBLE_EQ(h.cc().target_rate_bps(), tr0 + 30e6);
  // Byte stage 6: both counters past it, i = min(6, 6) - 5 = 1: TR += R_HAI.
  send(h, 150'000);
  EXPECT_DOUBLE_EQ(h.cc().target_rate_bps(), tr0 + 80e6);
}

TEST(QcnRp, LimiterReleasedWithinOneAdditiveStepOfLineRate) {
  QcnRpParams p;
  p.timer = 1 * kPsPerUs;
  Harness h(p);
  h.cc().on_packet(cnm(h, 1));
  EXPECT_TRUE(h.cc().limited());
  // Fast recovery toward TR = line rate: the gap halves each timer stage until it is below R_AI.
  h.sim.run(h.sim.now() + 100 * kPsPerUs);
  EXPECT_FALSE(h.cc().limited());
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 100e9);
}

}  // namespace
}  // namespace lossless
