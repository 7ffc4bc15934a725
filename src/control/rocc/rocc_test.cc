#include <gtest/gtest.h>

#include "control/cc_test_harness.h"
#include "control/rocc/fair_rate_packet.h"
#include "control/rocc/rocc_cp.h"
#include "control/rocc/rocc_rp.h"

namespace lossless {
namespace {

RoccController controller_40g(std::int64_t f) {
  RoccCpParams p;
  return RoccController(RoccController::for_link(p, 40'000'000'000), f);
}

TEST(RoccCp, FixedPointSettingsPerLinkSpeed) {
  RoccCpParams p;
  auto s = RoccController::for_link(p, 40'000'000'000);
  EXPECT_EQ(s.f_max, 4000);
  EXPECT_EQ(s.q_ref, 250);  // 150 KB / 600 B
  EXPECT_EQ(s.q_mid, 500);
  EXPECT_EQ(s.q_max, 600);
  auto h = RoccController::for_link(p, 100'000'000'000);
  EXPECT_EQ(h.f_max, 10000);
  EXPECT_EQ(h.q_ref, 500);
  EXPECT_DOUBLE_EQ(h.alpha0, 0.45);
}

TEST(RoccCp, QueueAboveQmaxResetsToFmin) {
  auto c = controller_40g(1000);  // > F_max/8 = 500
  EXPECT_EQ(c.update(360'000, 600), 10);
  auto low = controller_40g(400);  // not above F_max/8: the PI branch instead
  EXPECT_GT(low.update(360'000, 600), 10);
}

TEST(RoccCp, FastQueueGrowthHalves) {
  auto c = controller_40g(3000);
  EXPECT_EQ(c.update(0, 600), 3075);        // empty queue: + 0.3 x Q_ref (250)
  EXPECT_EQ(c.update(300'000, 600), 1537);  // grew by Q_mid = 500 units in one period: F / 2
}

TEST(RoccCp, PiWithAutoTunedGains) {
  // F = 100 of F_max 4000: level reaches 64, ratio 32, alpha = 0.3/32, beta = 1.5/32.
  auto c = controller_40g(100);
  EXPECT_EQ(c.update(0, 600), 102);  // 100 + 0.009375 x 250 = 102.34, truncated
  // F = 2000 = F_max/2: full gains. A jump of the queue to Q_ref costs beta x 250; holding there changes
  // nothing.
  auto h = controller_40g(2000);
  EXPECT_EQ(h.update(150'000, 600), 2000 - 375);
  EXPECT_EQ(h.update(150'000, 600), 1625);
  // Below F_max/2 the gains halve (ratio 2): queue 60 KB above Q_ref, grown by 60 KB.
  EXPECT_EQ(h.update(210'000, 600), 1625 - 15 - 75);
  // Fractions of a unit do not move F, in either direction: at ratio 32 the queue must sit 107 units (64 KB)
  // off Q_ref before alpha alone moves F by one.
  auto s = controller_40g(100);
  EXPECT_EQ(s.update(150'600, 600), 89);  // Q jumps to 251 units: 0.009 + 0.047 x 251 = 11.8 -> 11
  EXPECT_EQ(s.update(150'600, 600), 89);  // held 1 unit above Q_ref: 0.009 -> 0
  auto u = controller_40g(100);
  EXPECT_EQ(u.update(87'000, 600), 95);  // Q jumps to 145: -0.98 + 6.80 -> 5
  EXPECT_EQ(u.update(87'000, 600), 95);  // held 105 units below Q_ref: -0.98 -> 0
  EXPECT_EQ(u.update(85'800, 600), 96);  // 107 below and falling by 2: -1.003 - 0.094 -> -1
}

RoccController controller_40g_with(std::int64_t f, const std::string& rounding, bool low_queue_full_gain) {
  RoccCpParams p;
  p.pi_rounding = rounding;
  p.low_queue_full_gain = low_queue_full_gain;
  return RoccController(RoccController::for_link(p, 40'000'000'000), f);
}

TEST(RoccCp, RoundingTheResultFloorsEverySmallCut) {
  // F = 100 (ratio 32, alpha = 0.009375): the queue held 53 units (31.8 KB) above Q_ref asks for a cut of
  // 0.497 units. Truncating the adjustment leaves F; truncating F - adjustment (the authors' model) floors
  // it.
  for (const char* mode : {"adjustment", "result"}) {
    auto c = controller_40g_with(100, mode, false);
    c.update(181'800,
             600);  // Q = 303 units: the jump costs beta x 303 = 14.2 (+ alpha x 53 = 0.5) either way
    const std::int64_t f = c.fair_rate();
    EXPECT_EQ(f, std::string(mode) == "result" ? 85 : 86) << mode;
    EXPECT_EQ(c.update(181'800, 600), std::string(mode) == "result" ? f - 1 : f) << mode;
  }
  // A small raise is dropped both ways (F - (-0.98) truncates to F).
  auto r = controller_40g_with(100, "result", false);
  r.update(87'000, 600);
  const std::int64_t f = r.fair_rate();
  EXPECT_EQ(r.update(87'000, 600), f);
}

TEST(RoccCp, LowQueueFullGainClimbsAtRatioOneWhileTheQueueIsNearlyEmpty) {
  // Empty queue at F = 100: the auto-tune gives ratio 32 (+2 units), the sensitivity switch ratio 1 (+75).
  EXPECT_EQ(controller_40g_with(100, "adjustment", false).update(0, 600), 102);
  EXPECT_EQ(controller_40g_with(100, "adjustment", true).update(0, 600), 175);
  // Q_ref / 8 = 31 units: at 31 units the queue is no longer nearly empty.
  auto c = controller_40g_with(100, "adjustment", true);
  c.update(18'000, 600);  // 30 units, and (30 + 0) / 2 = 15 < 31: ratio 1: 100 + 0.3 x 220 - 1.5 x 30 = 121
  EXPECT_EQ(c.fair_rate(), 121);
  // 31 units: the auto-tuned ratio again (32 at F = 121): 121 + trunc(0.009375 x 219 - 0.047) = 123.
  EXPECT_EQ(c.update(18'600, 600), 123);
}

using Harness = test::CcHarness<RoccRpParams, RoccSender>;

Packet cnp(Harness& h, double rate_bps, std::uint32_t origin) {
  Packet p;
  p.type = kRoccFairRate;
  p.ext_init(h.slot(kRoccFairRateSlot)) = {static_cast<std::uint64_t>(rate_bps), origin};
  return p;
}

TEST(RoccRp, AcceptanceRulesAndReactionDelay) {
  Harness h(RoccRpParams{});
  h.cc().on_packet(cnp(h, 30e9, 1));         // first CNP: accepted even though it is the first
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 100e9);  // not before the 15 us reaction delay
  h.sim.run(h.sim.now() + 15 * kPsPerUs);
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 30e9);
  h.cc().on_packet(cnp(h, 50e9, 2));  // higher, from another CP: ignored
  h.sim.run(h.sim.now() + 15 * kPsPerUs);
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 30e9);
  h.cc().on_packet(cnp(h, 40e9, 1));  // higher, from the CP that set the rate: accepted
  h.sim.run(h.sim.now() + 15 * kPsPerUs);
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 40e9);
  h.cc().on_packet(cnp(h, 20e9, 3));  // lower, from anywhere: accepted
  h.sim.run(h.sim.now() + 15 * kPsPerUs);
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 20e9);
  EXPECT_TRUE(h.cc().limited());
}

TEST(RoccRp, RecoveryDoublesUntilLineRateRemovesTheLimiter) {
  Harness h(RoccRpParams{});
  h.cc().on_packet(cnp(h, 20e9, 1));
  h.sim.run(h.sim.now() + 15 * kPsPerUs);
  h.sim.run(h.sim.now() + 55 * kPsPerUs);
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 40e9);
  h.sim.run(h.sim.now() + 55 * kPsPerUs);
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 80e9);
  h.sim.run(h.sim.now() + 55 * kPsPerUs);
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 100e9);
  EXPECT_FALSE(h.cc().limited());
}

TEST(RoccRp, EcnCnpsAreNotRoccFeedback) {
  Harness h(RoccRpParams{});
  Packet p;
  p.type = PacketType::kCnp;
  h.cc().on_cnp(p);
  h.sim.run(h.sim.now() + 20 * kPsPerUs);
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 100e9);
}

}  // namespace
}  // namespace lossless
