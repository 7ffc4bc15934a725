#include "control/swift/swift.h"

#include <gtest/gtest.h>

#include <cmath>

#include "control/cc_test_harness.h"

namespace lossless {
namespace {

using Harness = test::CcHarness<SwiftParams, SwiftSender, Swift>;

// An ACK of everything up to `seq` whose data packet left `rtt` ago, stamped with the receiver's end-host
// delay.
Packet swift_ack(Harness& h, Bytes seq, TimePs rtt, TimePs endpoint = 0) {
  Packet p = h.ack(seq, h.sim.now() - rtt);
  p.ext_init(h.slot(kSwiftEndpointDelay)).delay_ps = endpoint;
  h.qp().snd_una = seq;  // the NIC advances snd_una before the scheme hears of the ACK
  return p;
}

// Moves the harness's clock `dt` on (the paused NIC has no events of its own).
void advance(Harness& h, TimePs dt) {
  const TimePs at = h.sim.now() + dt;
  Timer t(nullptr, [](void*) {});
  t.arm_at(h.sim, at);
  h.sim.run(at);
}

SwiftParams params(double init_cwnd) {
  SwiftParams p;
  p.init_cwnd = init_cwnd;
  p.max_cwnd = 1000;
  return p;
}

TEST(Swift, AdditiveIncreaseBelowTheTargetIsAiPerRtt) {
  Harness h(params(10));
  advance(h, 100 * kPsPerUs);
  // Ten ACKs of one packet each below the target: + ai / cwnd each, about ai for the window.
  for (int i = 1; i <= 10; ++i) h.cc().on_ack(swift_ack(h, i * 1000, 5 * kPsPerUs));
  EXPECT_NEAR(h.cc().cwnd(), 11.0, 0.05);
  EXPECT_EQ(h.qp().window_bytes, static_cast<Bytes>(h.cc().cwnd() * 1000));
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 100e9);  // from one packet up: line rate within the window
  // Below one packet of window the increase is ai per packet acknowledged.
  Harness small(params(0.5));
  advance(small, 100 * kPsPerUs);
  small.cc().on_ack(swift_ack(small, 1000, 5 * kPsPerUs));
  EXPECT_DOUBLE_EQ(small.cc().cwnd(), 1.5);
}

TEST(Swift, MultiplicativeDecreaseIsBoundedAndAtMostOncePerRtt) {
  Harness h(params(40));
  advance(h, 100 * kPsPerUs);
  const double target = h.cc().fabric_target_ps();
  // A delay 25 % above the target: cut by beta x 0.2 = 16 %.
  const TimePs delay = static_cast<TimePs>(target * 1.25);
  h.cc().on_ack(swift_ack(h, 1000, delay));
  EXPECT_NEAR(h.cc().cwnd(), 40 * (1 - 0.8 * 0.2), 1e-4);
  const double after_first = h.cc().cwnd();
  // Within the RTT (the latest sample) no further cut.
  advance(h, delay - 1);
  h.cc().on_ack(swift_ack(h, 2000, delay));
  EXPECT_DOUBLE_EQ(h.cc().cwnd(), after_first);
  // One RTT after the cut: a delay ten times the target cuts by max_mdf (0.5) at most.
  advance(h, 1);
  h.cc().on_ack(swift_ack(h, 3000, 10 * delay));
  EXPECT_DOUBLE_EQ(h.cc().cwnd(), after_first * 0.5);
}

TEST(Swift, BelowOnePacketOfWindowItPacesOnePacketPerRttOverCwnd) {
  Harness h(params(0.25));
  advance(h, 100 * kPsPerUs);
  // Above the target: the window stays below one packet; the QP keeps one packet in flight and paces.
  const TimePs rtt = 200 * kPsPerUs;
  h.cc().on_ack(swift_ack(h, 1000, rtt));
  const double cwnd = h.cc().cwnd();
  ASSERT_LT(cwnd, 1.0);
  EXPECT_EQ(h.qp().window_bytes, 1000u);
  // One 1048-byte packet every rtt / cwnd.
  const double gap_s = static_cast<double>(rtt) / cwnd / kPsPerSec;
  EXPECT_NEAR(h.qp().rate_bps, 1048 * 8 / gap_s, 1.0);
  // min_cwnd bounds it.
  for (int i = 2; i < 40; ++i) {
    advance(h, rtt);
    h.cc().on_ack(swift_ack(h, i * 1000, rtt));
  }
  EXPECT_DOUBLE_EQ(h.cc().cwnd(), 0.001);
}

TEST(Swift, FabricTargetScalesWithHopsAndWithSmallWindows) {
  SwiftParams p = params(100);  // at fs_max_cwnd: no flow scaling
  Harness h(p);
  // One switch on the star's path: base_target + 1 x hop_scale.
  EXPECT_DOUBLE_EQ(h.cc().fabric_target_ps(), 7.0 * kPsPerUs);
  Harness h2(params(0.1));  // at fs_min_cwnd: + fs_range
  EXPECT_NEAR(h2.cc().fabric_target_ps(), 27.0 * kPsPerUs, 1.0);
  // In between: alpha / sqrt(cwnd) + beta with alpha = fs_range / (1/sqrt(0.1) - 1/sqrt(100)).
  Harness h3(params(4));
  const double alpha = 20.0 * kPsPerUs / (1 / std::sqrt(0.1) - 0.1);
  EXPECT_NEAR(h3.cc().fabric_target_ps(), 7.0 * kPsPerUs + alpha / 2 - alpha * 0.1, 1.0);
}

TEST(Swift, EndHostDelayDrivesTheEndpointWindowAndLeavesTheFabricDelay) {
  Harness h(params(20));
  advance(h, 100 * kPsPerUs);
  // RTT 30 us of which 25 us at the receiving host: the fabric delay (5 us) is below its target, the end-host
  // delay above the end-host target (5 us): fabric window grows, end-host window is cut.
  h.cc().on_ack(swift_ack(h, 1000, 30 * kPsPerUs, 25 * kPsPerUs));
  EXPECT_GT(h.cc().fcwnd(), 20.0);
  EXPECT_LT(h.cc().ecwnd(), 20.0);
  EXPECT_DOUBLE_EQ(h.cc().cwnd(), h.cc().ecwnd());
  EXPECT_EQ(h.qp().window_bytes, static_cast<Bytes>(h.cc().ecwnd() * 1000));
}

}  // namespace
}  // namespace lossless
