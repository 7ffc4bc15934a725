#include "control/timely/timely.h"

#include <gtest/gtest.h>

#include "control/cc_test_harness.h"

namespace lossless {
namespace {

using Harness = test::CcHarness<TimelyParams, TimelySender>;

// Feeds one ACK per "RTT" with the given RTT, advancing snd_nxt so every ACK passes the update boundary.
void feed(Harness& h, Bytes& seq, TimePs rtt) {
  h.sim.run(h.sim.now() + rtt);
  h.qp().snd_nxt = seq + 100'000;
  h.cc().on_ack(h.ack(seq + 100'000, h.sim.now() - rtt));
  seq += 100'000;
}

TEST(Timely, RisingRttGradientCutsTheRate) {
  for (const char* variant : {"paper", "hpcc"}) {
    TimelyParams p;
    p.variant = variant;
    p.segment = 1;
    Harness h(p);
    Bytes seq = 0;
    h.qp().set_rate(50e9);
    feed(h, seq, 60 * kPsPerUs);
    feed(h, seq, 60 * kPsPerUs);  // flat: gradient 0 -> increase
    double flat = h.qp().rate_bps;
    EXPECT_GT(flat, 50e9) << variant;
    for (int i = 0; i < 5; ++i) feed(h, seq, (80 + 20 * i) * kPsPerUs);  // rising by 20 us per sample
    EXPECT_GT(h.cc().rtt_diff_ps(), 0) << variant;
    EXPECT_LT(h.qp().rate_bps, flat * 0.5) << variant;
  }
}

TEST(Timely, BelowTLowIncreasesAndAboveTHighDecreases) {
  TimelyParams p;
  p.variant = "hpcc";
  Harness h(p);
  Bytes seq = 0;
  h.qp().set_rate(10e9);
  feed(h, seq, 10 * kPsPerUs);
  feed(h, seq, 30 * kPsPerUs);  // rising, but below T_low: still an increase of R_AI
  EXPECT_NEAR(h.qp().rate_bps, 10e9 + 10e6, 1);
  feed(h, seq, 600 * kPsPerUs);  // above T_high: rate x (1 - beta (1 - T_high/rtt))
  EXPECT_NEAR(h.qp().rate_bps, (10e9 + 10e6) * (1 - 0.8 * (1 - 500.0 / 600)), 1e3);
}

}  // namespace
}  // namespace lossless
