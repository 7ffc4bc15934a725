#include <gtest/gtest.h>

#include "control/cc_test_harness.h"
#include "control/mercury/mercury_cc.h"
#include "control/mercury/mercury_cnp.h"
#include "control/mercury/mercury_switch.h"

namespace lossless {
namespace {

constexpr TimePs kUs = kPsPerUs;

// A 40G port with a 160 KB threshold (Kmin at 40G) and T = 10 us.
MercuryPortState port_40g() {
  MercuryPortState::Setting s;
  s.threshold_bytes = 160'000;
  s.rate_bps = 40'000'000'000;
  s.check_period_ps = 10 * kUs;
  return MercuryPortState(s);
}

TEST(MercuryPort, StartsDetermined) {
  auto p = port_40g();
  EXPECT_TRUE(p.determined());
  EXPECT_FALSE(p.congested(100'000));
  EXPECT_TRUE(p.congested(200'000));  // a long queue at a port never paused: the port itself is overloaded
}

// The Show item: a port whose queue only comes from PFC pauses (downstream congestion) is never congested.
// Scripted like the victim port P1 of the paper's Fig. 2: each pause lets less arrive than the port drains
// in the pause time (its senders together offer less than its rate), the queue after the resume is long and
// drains, and pauses come back before it has drained.
TEST(MercuryPort, APortOnlyPausedByPfcIsNeverCongested) {
  auto p = port_40g();
  TimePs t = 100 * kUs;
  Bytes q = 0;
  for (int cycle = 0; cycle < 20; ++cycle) {
    p.on_pause(t);
    EXPECT_FALSE(p.determined());
    // 30 us of pause at an arrival rate of 36 Gb/s (90 % of the port's): 135 KB, 150 KB drainable.
    for (int i = 0; i < 135; ++i) {
      p.on_enqueue(1000);
      q += 1000;
      EXPECT_FALSE(p.congested(q)) << "cycle " << cycle;
    }
    t += 30 * kUs;
    p.on_resume(t, q);
    // Long queue, less arrived than drainable: undetermined (a short one is determined, and not congested).
    if (q > 160'000) {
      EXPECT_FALSE(p.determined()) << "cycle " << cycle << ", queue " << q;
    }
    // 20 us ON: departures at 40G (5 per us) and arrivals at 36G shrink the queue by 1 KB per 2.5 us.
    for (int us = 1; us <= 20; ++us) {
      t += kUs;
      for (int k = 0; k < 5; ++k) p.on_dequeue(t, q -= 1000);
      for (int k = 0; k < 4; ++k) {
        p.on_enqueue(1000);
        q += 1000;
      }
      EXPECT_FALSE(p.congested(q)) << "cycle " << cycle << " at " << us << " us, queue " << q;
    }
  }
  EXPECT_GT(q, 160'000u);  // the queue stayed above the threshold: only the state kept it from congestion
}

TEST(MercuryPort, MoreArrivingThanDrainableDuringThePauseIsCongestion) {
  auto p = port_40g();
  p.on_pause(0);
  for (int i = 0; i < 300; ++i) p.on_enqueue(1000);  // 300 KB in 50 us: 48 Gb/s > 40
  p.on_resume(50 * kUs, 300'000);
  EXPECT_TRUE(p.determined());
  EXPECT_TRUE(p.congested(300'000));
}

TEST(MercuryPort, AShortQueueAtTheResumeIsDeterminedButNotCongested) {
  auto p = port_40g();
  p.on_pause(0);
  for (int i = 0; i < 300; ++i) p.on_enqueue(1000);
  p.on_resume(50 * kUs, 150'000);  // below the threshold: determined (not congested) whatever arrived
  EXPECT_TRUE(p.determined());
  EXPECT_FALSE(p.congested(150'000));
}

TEST(MercuryPort, PeriodicCheckEndsUndeterminedUnlessTheQueueShrinks) {
  auto p = port_40g();
  p.on_pause(0);
  p.on_enqueue(100'000);
  p.on_resume(10 * kUs, 250'000);  // 10 us at 40G drain 50 KB; 100 KB arrived: congested
  EXPECT_TRUE(p.determined());
  p.on_pause(20 * kUs);
  p.on_enqueue(10'000);
  p.on_resume(30 * kUs, 250'000);  // 10 KB < 50 KB: undetermined
  ASSERT_FALSE(p.determined());
  p.on_dequeue(39 * kUs, 200'000);  // before T: no check
  EXPECT_FALSE(p.determined());
  p.on_dequeue(40 * kUs, 200'000);  // T after the resume, shrank from 250 KB: still undetermined
  EXPECT_FALSE(p.determined());
  p.on_dequeue(50 * kUs, 200'000);  // did not shrink since the last check: determined (and congested)
  EXPECT_TRUE(p.determined());
  EXPECT_TRUE(p.congested(200'000));
}

TEST(MercuryPort, PeriodicCheckWithAShortQueueIsDetermined) {
  auto p = port_40g();
  p.on_pause(0);
  p.on_resume(10 * kUs, 250'000);
  ASSERT_FALSE(p.determined());
  p.on_dequeue(20 * kUs, 100'000);  // shrank, but below the threshold
  EXPECT_TRUE(p.determined());
  EXPECT_FALSE(p.congested(100'000));
}

struct Harness : test::CcHarness<MercuryCcParams, MercurySender, Mercury> {
  explicit Harness(const std::string& variant) : CcHarness(params(variant)) {}
  static MercuryCcParams params(const std::string& variant) {
    MercuryCcParams p;
    static_cast<DcqcnParams&>(p) = DcqcnParams::for_variant(variant);
    return p;
  }
};

Packet mercury_cnp(Harness& h, std::uint32_t window) {
  Packet p;
  p.type = kMercuryCnp;
  p.ext_init(h.slot(kMercuryCnpSlot)).window_bytes = window;
  return p;
}

TEST(MercurySender, StartsWithLineRateTimesBaseRtt) {
  Harness h("paper");
  // 100 Gb/s x (2 x 2 us + 2 x 80 ns) = 52 KB.
  EXPECT_EQ(h.qp().window_bytes, 52'000u);
  EXPECT_FALSE(h.qp().window_follows_rate);
}

TEST(MercurySender, CnpCutsAsDcqcnAndSetsTheWindow) {
  Harness h("paper");
  h.cc().on_packet(mercury_cnp(h, 10'000));
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 50e9);  // DCQCN's first cut (alpha 1)
  EXPECT_EQ(h.qp().window_bytes, 10'000u);
  h.cc().on_packet(mercury_cnp(h, 20));  // never below min_window
  EXPECT_EQ(h.qp().window_bytes, 1000u);
  h.cc().on_cnp(Packet{});  // a standard CNP is DCQCN's alone
  EXPECT_EQ(h.qp().window_bytes, 1000u);
}

TEST(MercurySender, WindowRestoredWhenTheIncreaseTimerFiresWithoutCnp) {
  Harness h("paper");
  const TimePs t0 = h.sim.now();
  h.cc().on_packet(mercury_cnp(h, 10'000));
  h.sim.run(t0 + 54 * kUs);
  EXPECT_EQ(h.qp().window_bytes, 10'000u);
  h.sim.run(t0 + 55 * kUs);  // the 55 us rate-increase timer
  EXPECT_EQ(h.qp().window_bytes, 52'000u);
}

TEST(MercurySender, NoRestoreWhenACnpCameDuringTheTimersPeriod) {
  // HPCC-code DCQCN: the increase timer (300 us) runs from the cut, and a CNP is acted on at the next 4 us
  // decrease check; a CNP 2 us before the timer fires has not cut yet, but it came during the period.
  Harness h("hpcc");
  const TimePs t0 = h.sim.now();
  h.cc().on_packet(mercury_cnp(h, 10'000));
  h.sim.run(t0);  // the first decrease check: the cut, the increase timer armed for t0 + 300 us
  h.sim.run(t0 + 298 * kUs);
  h.cc().on_packet(mercury_cnp(h, 8'000));
  h.sim.run(t0 + 300 * kUs);
  EXPECT_EQ(h.qp().window_bytes, 8'000u);
  h.sim.run(t0 + 600 * kUs);  // the next firing, 300 us after that CNP's cut
  EXPECT_EQ(h.qp().window_bytes, 52'000u);
}

TEST(MercuryParams, ExpectTheirSwitchAndNoEcn) {
  MercuryCcParams cc;
  EXPECT_EQ(cc.hints().required_mechanism, "mercury");
  EXPECT_FALSE(cc.hints().ecn_enabled);
  MercuryParams sw;
  EXPECT_FALSE(sw.hints().ecn_enabled);
}

}  // namespace
}  // namespace lossless
