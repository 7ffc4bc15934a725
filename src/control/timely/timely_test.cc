#include "control/timely/timely.h"

#include <gtest/gtest.h>

#include <string>

#include "control/cc_test_harness.h"

namespace lossless {
namespace {

using Harness = test::CcHarness<TimelyParams, TimelySender>;

// Moves the clock (the harness holds the sender's data, so nothing else is scheduled).
void advance(Harness& h, TimePs by) {
  const TimePs t = h.sim.now() + by;
  h.sim.at(
      t, [](void*, std::uint64_t) {}, nullptr);
  h.sim.run(t);
}

// Feeds one ACK per "RTT" with the given RTT, advancing snd_nxt so every ACK passes the update boundary.
void feed(Harness& h, Bytes& seq, TimePs rtt) {
  advance(h, rtt);
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

// One completion event (paper variant, segment = 1 byte so that every ACK is one) `gap` after the previous
// one, with the given RTT.
void complete(Harness& h, Bytes& seq, TimePs gap, TimePs rtt) {
  advance(h, gap);
  seq += 1000;
  h.cc().on_ack(h.ack(seq, h.sim.now() - rtt));
}

TimelyParams paper_params() {
  TimelyParams p;
  p.segment = 1;
  return p;
}

TEST(Timely, PaperDeltaIsTenMbpsPerTenGbpsOfLineRate) {
  // The TIMELY author's additive increment is "10Mbps for 10Gbps line rate": 100 Mb/s on the harness's 100G
  // NIC, unless set; the hpcc variant keeps its 10 Mb/s.
  TimelyParams p = paper_params();
  EXPECT_DOUBLE_EQ(TimelySender::rate_ai_for(p, 100'000'000'000), 100e6);
  EXPECT_DOUBLE_EQ(TimelySender::rate_ai_for(p, 40'000'000'000), 40e6);
  Harness h(p);
  EXPECT_DOUBLE_EQ(h.cc().rate_ai_bps(), 100e6);
  Bytes seq = 0;
  h.qp().set_rate(10e9);
  complete(h, seq, 30 * kPsPerUs, 10 * kPsPerUs);  // below T_low, a full D_minRTT after the start: + delta
  EXPECT_NEAR(h.qp().rate_bps, 10e9 + 100e6, 1);
  p.rate_ai = 10'000'000;
  EXPECT_DOUBLE_EQ(TimelySender::rate_ai_for(p, 100'000'000'000), 10e6);
  TimelyParams hp;
  hp.variant = "hpcc";
  EXPECT_DOUBLE_EQ(TimelySender::rate_ai_for(hp, 100'000'000'000), 10e6);
}

TEST(Timely, PaperScalesEachChangeByTheShareOfMinRttSinceTheLastUpdate) {
  // TIMELY updates its rate at most once per D_minRTT: completions 5 us apart (D_minRTT 20 us) move the rate
  // by a quarter of a step, one 40 us after the last by a whole step.
  Harness h(paper_params());
  Bytes seq = 0;
  h.qp().set_rate(10e9);
  complete(h, seq, 30 * kPsPerUs, 10 * kPsPerUs);
  const double r0 = h.qp().rate_bps;
  complete(h, seq, 5 * kPsPerUs, 10 * kPsPerUs);
  EXPECT_NEAR(h.qp().rate_bps - r0, 0.25 * 100e6, 1);
  const double r1 = h.qp().rate_bps;
  complete(h, seq, 40 * kPsPerUs, 10 * kPsPerUs);
  EXPECT_NEAR(h.qp().rate_bps - r1, 100e6, 1);
  // A cut above T_high is scaled the same way: rate x (1 - f beta (1 - T_high / rtt)) with f = 1/2.
  const double r2 = h.qp().rate_bps;
  complete(h, seq, 10 * kPsPerUs, 1000 * kPsPerUs);
  EXPECT_NEAR(h.qp().rate_bps, r2 * (1 - 0.5 * 0.8 * (1 - 0.5)), 1e3);
  // update_scaling: none applies every change in full.
  TimelyParams p = paper_params();
  p.update_scaling = "none";
  Harness n(p);
  Bytes s2 = 0;
  n.qp().set_rate(10e9);
  complete(n, s2, 30 * kPsPerUs, 10 * kPsPerUs);
  const double q0 = n.qp().rate_bps;
  complete(n, s2, 5 * kPsPerUs, 10 * kPsPerUs);
  EXPECT_NEAR(n.qp().rate_bps - q0, 100e6, 1);
}

TEST(Timely, PaperHaiAfterFiveConsecutiveFallingRtts) {
  // In the gradient region (T_low <= rtt <= T_high) with a non-positive gradient the step is delta, and
  // N x delta (N = 5) once the last five raw RTT differences were all negative; a flat sample ends HAI.
  Harness h(paper_params());
  Bytes seq = 0;
  h.qp().set_rate(10e9);
  const TimePs gap = 30 * kPsPerUs;
  complete(h, seq, gap, 300 * kPsPerUs);  // first sample: its own predecessor, difference 0
  double prev = h.qp().rate_bps;
  for (int i = 1; i <= 6; ++i) {
    complete(h, seq, gap, (300 - 10 * i) * kPsPerUs);  // falling by 10 us per completion
    const double step = h.qp().rate_bps - prev;
    prev = h.qp().rate_bps;
    EXPECT_NEAR(step, (i >= 5 ? 5 : 1) * 100e6, 1) << "completion " << i;
  }
  complete(h, seq, gap, 240 * kPsPerUs);  // flat: the smoothed gradient is still negative, but HAI ends
  EXPECT_NEAR(h.qp().rate_bps - prev, 100e6, 1);
  prev = h.qp().rate_bps;
  complete(h, seq, gap, 230 * kPsPerUs);  // falling again: one in a row, no HAI
  EXPECT_NEAR(h.qp().rate_bps - prev, 100e6, 1);
}

TEST(Timely, PaperGradientIsTheSmoothedDifferenceOverMinRtt) {
  // rttDiff = (1 - alpha) rttDiff + alpha (rtt - prevRTT); gradient = rttDiff / D_minRTT; a positive
  // gradient cuts by beta x gradient.
  Harness h(paper_params());
  Bytes seq = 0;
  h.qp().set_rate(10e9);
  const TimePs gap = 30 * kPsPerUs;
  complete(h, seq, gap, 100 * kPsPerUs);
  const double r0 = h.qp().rate_bps;
  complete(h, seq, gap, 104 * kPsPerUs);  // +4 us: rttDiff = 0.875 x 4 us, gradient 0.175
  EXPECT_NEAR(h.cc().rtt_diff_ps(), 0.875 * 4e6, 1);
  EXPECT_NEAR(h.qp().rate_bps, r0 * (1 - 0.8 * 0.175), 1e3);
  const double r1 = h.qp().rate_bps;
  complete(h, seq, gap, 104 * kPsPerUs);  // flat: rttDiff = 0.125 x 3.5 us, still positive: a small cut
  EXPECT_NEAR(h.cc().rtt_diff_ps(), 0.125 * 0.875 * 4e6, 1);
  EXPECT_NEAR(h.qp().rate_bps, r1 * (1 - 0.8 * 0.125 * 0.875 * 4 / 20), 1e3);
  // A gradient beyond 1/beta cannot make the rate negative: it stops at min_rate.
  complete(h, seq, gap, 200 * kPsPerUs);
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 10e6);
}

TEST(Timely, PaperFlowStartsAtItsShareOfTheSendersActiveFlows) {
  // "If there are N active flows at a sender, a new flow starts at rate C/(N+1)": host 0 starts a flow at 0
  // (line rate) and a second one at 10 us (half of it); start_rate: line starts both at line rate.
  for (const char* start : {"share", "line"}) {
    TimelyParams p;
    p.start_rate = start;
    Network net(make_star(3, {100'000'000'000, kPsPerUs}), SwitchConfig{}, NicConfig{}, 1);
    CcFactoryOf<CcParts<TimelyParams, TimelySender>> factory(p);
    Flow a, b;
    a.id = 0;
    b.id = 1;
    a.src = b.src = 0;
    a.dst = 1;
    b.dst = 2;
    a.size_bytes = b.size_bytes = 1'000'000;
    b.start_ps = 10 * kPsPerUs;
    net.install_flows({a, b}, factory);
    net.nic(0).port.paused_mask = 0xff;  // hold the data: only the start rates matter
    net.sim().run(11 * kPsPerUs);
    EXPECT_DOUBLE_EQ(net.qp(0).rate_bps, 100e9) << start;
    EXPECT_DOUBLE_EQ(net.qp(1).rate_bps, std::string(start) == "share" ? 50e9 : 100e9) << start;
  }
}

}  // namespace
}  // namespace lossless
