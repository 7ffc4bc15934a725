#include "control/dcqcn/dcqcn.h"

#include <gtest/gtest.h>

#include "control/cc_test_harness.h"

namespace lossless {
namespace {

struct Harness : test::CcHarness<DcqcnParams, DcqcnSender> {
  explicit Harness(const std::string& variant) : CcHarness(DcqcnParams::for_variant(variant)) {}
};

TEST(DcqcnPaper, CnpCutsWithNewAlphaAndClampsTarget) {
  Harness h("paper");
  Packet cnp;
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 100e9);
  h.cc().on_cnp(cnp);
  // alpha = (1-g)*1 + g = 1: the first cut halves the rate; R_T = old R_C.
  EXPECT_DOUBLE_EQ(h.cc().alpha(), 1.0);
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 50e9);
  EXPECT_DOUBLE_EQ(h.cc().target_rate_bps(), 100e9);
}

TEST(DcqcnPaper, FastRecoveryThenAdditiveIncreaseOnTimer) {
  Harness h("paper");
  Packet cnp;
  h.cc().on_cnp(cnp);
  double rc = 50e9, rt = 100e9;
  // F = 5 timer events of fast recovery: R_C = (R_T + R_C)/2 with R_T fixed.
  for (int i = 1; i <= 5; ++i) {
    h.sim.run(h.sim.now() + 55 * kPsPerUs);
    if (i < 5) {
      rc = (rt + rc) / 2;
      EXPECT_NEAR(h.qp().rate_bps, rc, 1) << i;
    }
  }
  // 5th event: timer count reaches F, byte counter still 0 -> additive increase (R_T capped at line rate).
  EXPECT_NEAR(h.cc().target_rate_bps(), 100e9, 1);
}

TEST(DcqcnPaper, AlphaDecaysWithoutCnp) {
  Harness h("paper");
  Packet cnp;
  h.cc().on_cnp(cnp);
  h.sim.run(h.sim.now() + 55 * kPsPerUs * 10 + 1);
  EXPECT_NEAR(h.cc().alpha(), std::pow(1 - 1.0 / 256, 10), 1e-9);
}

TEST(DcqcnHpcc, FirstCnpStartsTimersAndDecreaseUsesUpdatedAlpha) {
  Harness h("hpcc");
  Packet cnp;
  h.cc().on_cnp(cnp);
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 100e9);  // rate_on_first_cnp = 1: no change until the decrease check
  const TimePs t0 = h.sim.now();
  h.sim.run(t0 + 4 * kPsPerUs - 1);  // the first check is one rate_decrease_interval later
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 100e9);
  h.sim.run(t0 + 4 * kPsPerUs);  // after the alpha update due at the same instant: alpha = (1-g)^4
  const double cut = 100e9 * (1 - std::pow(1 - 1.0 / 256, 4) / 2);
  EXPECT_NEAR(h.qp().rate_bps, cut, 1);
  // No further CNP: next checks do nothing; alpha decays every 1 us.
  h.sim.run(t0 + 14 * kPsPerUs);
  EXPECT_NEAR(h.qp().rate_bps, cut, 1);
  EXPECT_NEAR(h.cc().alpha(), std::pow(1 - 1.0 / 256, 14), 1e-9);
}

TEST(DcqcnHpcc, TimerOnlyIncreaseWithConstantHyperStep) {
  Harness h("hpcc");
  Packet cnp;
  h.cc().on_cnp(cnp);
  h.sim.run(h.sim.now() + 4 * kPsPerUs);  // the first decrease check
  const TimePs t0 = h.sim.now();
  const double cut = 100e9 * (1 - std::pow(1 - 1.0 / 256, 4) / 2);
  // F = 1: first timer event is fast recovery, the second additive (+20 Mbps), then hyper (+200 Mbps) each.
  h.sim.run(t0 + 300 * kPsPerUs);
  EXPECT_NEAR(h.qp().rate_bps, (cut + 100e9) / 2, 1);
  EXPECT_NEAR(h.cc().target_rate_bps(), 100e9, 1);
}

TEST(DcqcnHpcc, MinRateBoundsCuts) {
  Harness h("hpcc");
  Packet cnp;
  for (int i = 0; i < 40; ++i) {
    h.cc().on_cnp(cnp);
    h.sim.run(h.sim.now() + 4 * kPsPerUs);
  }
  EXPECT_GE(h.qp().rate_bps, 1e9);
}

}  // namespace
}  // namespace lossless
