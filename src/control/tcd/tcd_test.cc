#include "control/tcd/tcd.h"

#include <gtest/gtest.h>

#include "control/cc_test_harness.h"
#include "control/tcd/dcqcn_tcd.h"
#include "control/tcd/tcd_mark.h"

namespace lossless {
namespace {

constexpr TimePs kUs = kPsPerUs;
using State = TcdPortState::State;

TcdPortState port() {
  TcdPortState::Setting s;
  s.threshold_bytes = 160'000;
  s.max_ton_ps = 20 * kUs;
  s.sample_interval_ps = 10 * kUs;
  return TcdPortState(s);
}

TEST(TcdPort, NeverPausedLongQueueIsCongestionShortIsNot) {
  auto p = port();
  EXPECT_EQ(p.on_dequeue(1 * kUs, 100'000), State::kNonCongestion);
  EXPECT_EQ(p.on_dequeue(2 * kUs, 200'000), State::kCongestion);
  EXPECT_EQ(p.on_dequeue(3 * kUs, 100'000), State::kNonCongestion);
}

TEST(TcdPort, RecentlyPausedIsUndeterminedUntilOnForMaxTon) {
  auto p = port();
  p.on_pause();
  p.on_resume(100 * kUs);
  EXPECT_EQ(p.on_dequeue(101 * kUs, 300'000), State::kUndetermined);
  EXPECT_EQ(p.on_dequeue(120 * kUs, 300'000), State::kUndetermined);  // ON for exactly max(T_on)
  // ON for longer: a long queue that does not drain (sampled at 101 and 120 us: 300 KB both) is congestion.
  EXPECT_EQ(p.on_dequeue(121 * kUs, 300'000), State::kCongestion);
  p.on_pause();
  p.on_resume(130 * kUs);
  EXPECT_EQ(p.on_dequeue(131 * kUs, 300'000), State::kUndetermined);
}

TEST(TcdPort, UndeterminedQueueDrainingAfterThePausesIsNotCongestion) {
  auto p = port();
  p.on_pause();
  p.on_resume(100 * kUs);
  EXPECT_EQ(p.on_dequeue(101 * kUs, 400'000), State::kUndetermined);
  EXPECT_EQ(p.on_dequeue(111 * kUs, 350'000), State::kUndetermined);   // sample: decreasing
  EXPECT_EQ(p.on_dequeue(121 * kUs, 300'000), State::kNonCongestion);  // ON > max(T_on), decreasing
}

TEST(TcdPort, MaxTonFromThePauseLoop) {
  // 40G, 4 us link, 64 B PFC frame, 1048 B packet, 2 KB hysteresis: 2 x (8 + 0.0128 + 0.2096 + 0.4) us.
  EXPECT_EQ(TcdSwitch::auto_max_ton_ps(4 * kUs, 40'000'000'000, 64, 1048, 2000, 2.0), 17'244'800);
}

Packet ue_cnp() {
  Packet p;
  p.type = kTcdUeCnp;
  return p;
}

struct Harness : test::CcHarness<DcqcnTcdParams, DcqcnTcdSender, DcqcnTcd> {
  explicit Harness(const std::string& reaction) : CcHarness(params(reaction)) {}
  static DcqcnTcdParams params(const std::string& reaction) {
    DcqcnTcdParams p;
    p.ue_reaction = reaction;
    return p;
  }
};

TEST(DcqcnTcd, UeCnpHoldsTheIncreaseWithoutACut) {
  auto params = Harness::params("hold");
  params.ue_hold = 60 * kUs;
  test::CcHarness<DcqcnTcdParams, DcqcnTcdSender, DcqcnTcd> h(params);
  const TimePs t0 = h.sim.now();
  h.cc().on_cnp(Packet{});  // CE: DCQCN's cut
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 50e9);
  h.cc().on_packet(ue_cnp());  // no cut; increases held until t0 + 60 us
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 50e9);
  EXPECT_TRUE(h.cc().held());
  h.sim.run(t0 + 55 * kUs);  // the increase timer fires while held: no fast-recovery step
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 50e9);
  h.sim.run(t0 + 110 * kUs);  // the next firing, no longer held: the first fast-recovery step
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 75e9);
}

TEST(DcqcnTcd, IgnoreReactsToCeOnly) {
  Harness h("ignore");
  const TimePs t0 = h.sim.now();
  h.cc().on_cnp(Packet{});
  h.cc().on_packet(ue_cnp());
  h.sim.run(t0 + 55 * kUs);
  EXPECT_DOUBLE_EQ(h.qp().rate_bps, 75e9);
}

TEST(DcqcnTcd, SenderClearsTheMarkOfEveryPacket) {
  Harness h("hold");
  Packet data;
  const Slot<TcdMark> mark = h.slot(kTcdMark);
  data.ext_init(mark).ue = true;
  h.cc().on_sent(data);
  EXPECT_FALSE(data.ext(mark).ue);
  EXPECT_EQ(DcqcnTcdParams{}.hints().required_mechanism, "tcd");
  const auto hints = TcdParams{}.hints();  // kept: find() points into it
  const std::string* ecn = hints.defaults.find("switch.ecn.enabled");
  ASSERT_TRUE(ecn);
  EXPECT_EQ(*ecn, "false");
}

}  // namespace
}  // namespace lossless
