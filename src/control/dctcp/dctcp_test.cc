#include "control/dctcp/dctcp.h"

#include <gtest/gtest.h>

#include "control/cc_test_harness.h"

namespace lossless {
namespace {

using Harness = test::CcHarness<DctcpParams, DctcpSender>;

TEST(Dctcp, AlphaFollowsTheMarkedFraction) {
  for (double fraction : {0.0, 0.25, 0.6}) {
    Harness h(DctcpParams{});
    const Bytes mtu = 1000;
    Bytes seq = 0;
    // Windows of 20 packets; in each, `fraction` of the ACKs carry the ECN echo.
    for (int w = 0; w < 200; ++w) {
      h.qp().snd_nxt = seq + 20 * mtu;
      int marked = static_cast<int>(fraction * 20 + 0.5);
      for (int i = 0; i < 20; ++i) {
        seq += mtu;
        h.cc().on_ack(h.ack(seq, 0, i < marked));
      }
    }
    EXPECT_NEAR(h.cc().alpha(), fraction, 0.06) << fraction;
  }
}

TEST(Dctcp, CutsOncePerWindowAndGrowsWithoutMarks) {
  Harness h(DctcpParams{});
  h.qp().snd_nxt = 20'000;
  h.cc().on_ack(h.ack(1000, 0, true));  // first ACK: alpha 1 -> rate halves, enter CWR
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 50e9);
  h.cc().on_ack(h.ack(2000, 0, true));  // still in CWR: no second cut
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 50e9);
  h.qp().snd_nxt = 40'000;
  h.cc().on_ack(h.ack(20'001, 0, false));  // past high_seq: leave CWR, new window -> + rate_ai
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 50e9 + 615e6);
}

}  // namespace
}  // namespace lossless
