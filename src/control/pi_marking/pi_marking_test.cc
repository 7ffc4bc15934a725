#include "control/pi_marking/pi_marking.h"

#include <gtest/gtest.h>

namespace lossless {
namespace {

TEST(PiMarking, DiscreteUpdateOfTheFluidModel) {
  // p[k] = p[k-1] + a (q[k] - q_ref) - b (q[k-1] - q_ref), q in KB, every interval (1 us).
  const double a = 2e-3, b = 1e-3;
  PiController c(a, b, 200, kPsPerUs);
  c.advance(kPsPerUs, 300'000);  // first update: q = 300 KB, q_old = 0
  EXPECT_NEAR(c.probability(), a * 100 - b * (0 - 200), 1e-12);
  const double p1 = c.probability();
  c.advance(kPsPerUs + 10, 300'000);  // no update due
  EXPECT_DOUBLE_EQ(c.probability(), p1);
  // The queue held 250 KB until 4 us: updates at 2, 3 and 4 us; the first sees q_old = 300.
  c.advance(4 * kPsPerUs, 250'000);
  const double p2 = p1 + a * 50 - b * 100;
  EXPECT_NEAR(c.probability(), p2 + 2 * (a - b) * 50, 1e-12);
}

TEST(PiMarking, ClippedToProbabilitiesWithoutWindup) {
  PiController c(1e-3, 0.9e-3, 200, kPsPerUs);
  // A long empty queue drives p to 0 and keeps it there (the stored value is clipped).
  c.advance(1000 * kPsPerUs, 0);
  EXPECT_DOUBLE_EQ(c.probability(), 0.0);
  // As soon as the queue is above q_ref, p rises: nothing to unwind.
  c.advance(1001 * kPsPerUs, 400'000);
  EXPECT_NEAR(c.probability(), 1e-3 * 200 - 0.9e-3 * (0 - 200), 1e-12);
  c.advance(100'000 * kPsPerUs, 10'000'000);
  EXPECT_DOUBLE_EQ(c.probability(), 1.0);
}

TEST(PiMarking, ModelGainsGiveATenMillisecondIntegralTime) {
  PiMarkingParams p;
  EXPECT_NEAR(p.b / (p.a - p.b) * static_cast<double>(p.interval) / kPsPerMs, 10.0, 1e-6);
}

}  // namespace
}  // namespace lossless
