// RCM's rules one by one: CRD's Fb (paper eq. 1) and its sampling, CFR's CAM, regional CC's window (eqs.
// 3-6).
#include "control/rcm/rcm.h"

#include <gtest/gtest.h>

namespace lossless {
namespace {

// Q_eq 25 KB, w 2, one sample per 15 KB when uncongested: Fb_max = 5 Q_eq = 125 KB.
const CongestionDetector::Setting kSetting{25'000, 2.0, 15'000};

TEST(RcmCrd, FbIsQueueOffsetPlusWeightedGrowthAtEachSample) {
  CongestionDetector d;
  // The first arrival is sampled: Q = 10 KB, grown by 10 KB: Fb = (10 - 25) + 2 x 10 = 5 KB.
  ASSERT_TRUE(d.on_arrival(1000, 10'000, kSetting));
  EXPECT_DOUBLE_EQ(d.fb(), 5'000);
  EXPECT_TRUE(d.congested());
  EXPECT_EQ(d.fb_q(), 3);  // ceil(63 x 5 / 125) = ceil(2.52)
  // The next sample comes after 15 KB x 63 / (63 + 9 x 3) = 10.5 KB of arrivals.
  EXPECT_EQ(CongestionDetector::sample_interval(3, 15'000), 10'500u);
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(d.on_arrival(1000, 10'000, kSetting));
  // Sampled at the 11th: Q = 20 KB, unchanged growth 10 KB: Fb = -5 + 20 = 15 KB.
  ASSERT_TRUE(d.on_arrival(1000, 20'000, kSetting));
  EXPECT_DOUBLE_EQ(d.fb(), 15'000);
  // Fb_q 8: the next sample after 15 KB x 63 / (63 + 72) = 7 KB. Below Q_eq and draining there: Fb < 0,
  // not congested.
  EXPECT_EQ(d.fb_q(), 8);
  for (int i = 0; i < 6; ++i) EXPECT_FALSE(d.on_arrival(1000, 20'000, kSetting));
  ASSERT_TRUE(d.on_arrival(1000, 12'000, kSetting));
  EXPECT_DOUBLE_EQ(d.fb(), (12'000.0 - 25'000) + 2 * (12'000.0 - 20'000));
  EXPECT_FALSE(d.congested());
  EXPECT_EQ(d.fb_q(), 0);
}

TEST(RcmCrd, QuantisedToSixBitsOverFbMax) {
  EXPECT_EQ(CongestionDetector::quantize(-1, 125'000), 0);
  EXPECT_EQ(CongestionDetector::quantize(0, 125'000), 0);
  EXPECT_EQ(CongestionDetector::quantize(1, 125'000), 1);
  EXPECT_EQ(CongestionDetector::quantize(62'500, 125'000), 32);  // ceil(31.5)
  EXPECT_EQ(CongestionDetector::quantize(125'000, 125'000), 63);
  EXPECT_EQ(CongestionDetector::quantize(1e9, 125'000), 63);
  // QCN: 1% of the bytes sampled when uncongested, 10% at the largest Fb.
  EXPECT_EQ(CongestionDetector::sample_interval(0, 15'000), 15'000u);
  EXPECT_EQ(CongestionDetector::sample_interval(63, 15'000), 1'500u);
}

TEST(RcmCrd, AnEmptiedQueueIsNotCongested) {
  CongestionDetector d;
  ASSERT_TRUE(d.on_arrival(1000, 60'000, kSetting));
  EXPECT_TRUE(d.congested());
  d.clear();
  EXPECT_FALSE(d.congested());
}

TEST(RcmCfr, TheCamKeepsTheLastSampledIdsCyclically) {
  FlowCam cam(4);
  cam.write(7, 1);
  cam.write(7, 1);
  cam.write(9, 2);
  EXPECT_EQ(cam.filled(), 3u);
  EXPECT_EQ(cam.hits(7), 2u);
  EXPECT_TRUE(cam.contains(9));
  EXPECT_FALSE(cam.contains(5));
  cam.write(5, 2);
  cam.write(5, 2);  // overwrites the oldest (7)
  EXPECT_EQ(cam.filled(), 4u);
  EXPECT_EQ(cam.hits(7), 1u);
  EXPECT_EQ(cam.hits(5), 2u);
  EXPECT_EQ(cam.distinct(), 3u);
  // The flows that came through input 2, most recent first (a CN's ids).
  EXPECT_EQ(cam.flows_from(2, 16), (std::vector<std::uint32_t>{5, 9}));
  EXPECT_EQ(cam.flows_from(2, 1), (std::vector<std::uint32_t>{5}));
  EXPECT_TRUE(cam.flows_from(3, 16).empty());
}

TEST(RcmCfr, HarmfulFlowsByTheirShareOfTheCam) {
  // A burst at half the port and four flows at an eighth each, as sampled in 16 entries.
  FlowCam cam(16);
  for (int i = 0; i < 8; ++i) cam.write(100, 1);
  for (std::uint32_t f = 1; f <= 4; ++f)
    for (int i = 0; i < 2; ++i) cam.write(f, 0);
  // The paper's literal rule (0): every flow in the CAM.
  for (std::uint32_t f : {100u, 1u, 2u, 3u, 4u}) EXPECT_TRUE(cam.harmful(f, 0));
  EXPECT_FALSE(cam.harmful(5, 0));
  // At least 1.5 x the mean share of the CAM's five flows (3.2 entries): only the burst (8).
  EXPECT_TRUE(cam.harmful(100, 1.5));
  EXPECT_TRUE(cam.harmful(100, 2.0));  // 8 entries = 2.5 x the mean
  for (std::uint32_t f : {1u, 2u, 3u, 4u}) EXPECT_FALSE(cam.harmful(f, 1.5));
  EXPECT_DOUBLE_EQ(cam.share([](std::uint32_t f) { return f == 100; }), 0.5);
  // Equal flows: none stands out.
  FlowCam even(16);
  for (int i = 0; i < 16; ++i) even.write(static_cast<std::uint32_t>(i % 4), 0);
  for (std::uint32_t f = 0; f < 4; ++f) EXPECT_FALSE(even.harmful(f, 1.5));
  // Overwriting the oldest entries keeps the counts: the burst's eight entries give way to flow 9.
  for (int i = 0; i < 8; ++i) cam.write(9, 2);
  EXPECT_EQ(cam.hits(100), 0u);
  EXPECT_EQ(cam.hits(9), 8u);
  EXPECT_EQ(cam.distinct(), 5u);
}

TEST(RcmRegionalCc, TheFirstWindowMeasuresWc) {
  RegionalWindow w;
  // W = 125 KB per 10 us (100 Gb/s).
  w.engage(0, 125'000, 10'000'000);
  EXPECT_TRUE(w.measuring());
  for (int i = 0; i < 100; ++i) EXPECT_TRUE(w.may_send_harmful(1000));  // nothing is held back yet
  EXPECT_FALSE(w.due(9'000'000));
  ASSERT_TRUE(w.due(10'000'000));
  // The harmful flows sent 62.5 KB of it: W_c.
  w.next(10'000'000, 62'500);
  EXPECT_FALSE(w.measuring());
  EXPECT_EQ(w.w_c(), 62'500u);
  EXPECT_EQ(w.w_nc(), 62'500u);
}

TEST(RcmRegionalCc, HarmfulFlowsUseAtMostWcOfEachWindow) {
  RegionalWindow w;
  w.engage(0, 125'000, 10'000'000);
  w.next(10'000'000, 62'500);
  Bytes harmful = 0;
  while (w.may_send_harmful(1000)) {
    w.sent(1000, true);
    harmful += 1000;
  }
  EXPECT_EQ(harmful, 62'000u);
  w.sent(50'000, false);  // the others go on
  EXPECT_FALSE(w.may_send_harmful(1000));
  EXPECT_FALSE(w.due(19'000'000));  // neither W bytes nor the period yet
  ASSERT_TRUE(w.due(20'000'000));   // the period is over: a new window, W_c unchanged (no new Fb)
  w.next(20'000'000, 0);
  EXPECT_EQ(w.w_c(), 62'500u);
  EXPECT_TRUE(w.may_send_harmful(1000));
  // W bytes moved before the period ended: the window is over too.
  w.sent(125'000, false);
  EXPECT_TRUE(w.due(21'000'000));
}

TEST(RcmRegionalCc, EachNewFbCutsWcByFbTimesGd) {
  RegionalWindow w;
  // The Fb that found the congestion is applied when the measuring window ends.
  w.new_fb(63);
  w.engage(0, 125'000, 10'000'000);
  w.next(10'000'000, 125'000);
  // Fb_max G_d = 1/2: the largest Fb halves W_c (paper eq. 4: at most 50%).
  EXPECT_EQ(w.w_c(), 62'500u);
  EXPECT_EQ(w.w_nc(), 62'500u);
  // Fb = 21/63 of Fb_max: W_c x (1 - 1/6), at the next window.
  w.new_fb(21);
  EXPECT_EQ(w.w_c(), 62'500u);
  w.next(20'000'000, 0);
  EXPECT_EQ(w.w_c(), 52'083u);
  // No new Fb: no cut.
  w.next(30'000'000, 0);
  EXPECT_EQ(w.w_c(), 52'083u);
  // One packet of a harmful flow always may move in a window, however small W_c is.
  RegionalWindow z;
  z.engage(0, 125'000, 10'000'000);
  z.next(10'000'000, 0);
  EXPECT_EQ(z.w_c(), 0u);
  EXPECT_TRUE(z.may_send_harmful(1048));
  z.sent(1048, true);
  EXPECT_FALSE(z.may_send_harmful(1048));
  // Ending the episode forgets a pending Fb.
  z.new_fb(63);
  z.disengage();
  z.engage(40'000'000, 125'000, 10'000'000);
  z.next(50'000'000, 100'000);
  EXPECT_EQ(z.w_c(), 100'000u);
}

// SAR at one switch with two candidate next hops, 1 (ECMP's) and 2; port 1's regional degree is 40, port 2's
// 10 unless a test changes them.
struct SarFixture {
  SarTable table;
  std::uint16_t cand[2] = {1, 2};
  double degree[3] = {0, 40, 10};
  bool harmful = false;
  std::uint16_t go(std::uint32_t flow, bool first, bool last, bool region, TimePs now) {
    return table.choose(
        flow, first, last, 1, cand, 2, region, now, [&](std::uint16_t port) { return degree[port]; },
        [&](std::uint16_t) { return harmful; });
  }
};
constexpr TimePs kHold = 100 * kPsPerUs;

TEST(RcmSar, AllFlowsAFlowUnderWayMovesToTheLeastCongestedNextHop) {
  // The paper's SAR (§3.4: "non-congested or new flows"): a flow already sending, with no choice yet, moves
  // when the switch is in a region; the choice holds for sar_hold, then is made again.
  SarFixture s{SarTable(kHold, false)};
  EXPECT_EQ(s.go(7, false, false, false, 0), 1);  // no region: ECMP
  EXPECT_EQ(s.go(7, false, false, true, 1), 2);   // in a region: moved although under way
  s.degree[2] = 50;
  EXPECT_EQ(s.go(7, false, false, true, kHold), 2);      // held
  EXPECT_EQ(s.go(7, false, false, true, kHold + 1), 1);  // made again: back to the less congested port
  // Outside the region an expired choice returns the flow to ECMP.
  s.degree[2] = 10;
  EXPECT_EQ(s.go(7, false, false, true, 3 * kHold), 2);
  EXPECT_EQ(s.go(7, false, false, false, 5 * kHold), 1);
  EXPECT_TRUE(s.table.empty());
  // A harmful flow is never moved.
  s.harmful = true;
  EXPECT_EQ(s.go(8, false, false, true, 6 * kHold), 1);
}

TEST(RcmSar, NewFlowsOnlyNeverMovesAFlowWithPacketsInFlight) {
  SarFixture s{SarTable(kHold, true)};
  // A flow under way without a choice keeps its ECMP next hop, however congested, in a region or not.
  EXPECT_EQ(s.go(7, true, false, false, 0), 1);
  for (TimePs t : {TimePs{1}, kHold, 10 * kHold}) EXPECT_EQ(s.go(7, false, false, true, t), 1);
  EXPECT_TRUE(s.table.empty());
  // A new flow in a region is steered at its first packet and every later packet follows, also long after
  // sar_hold and when the other next hop has become the less congested one ...
  EXPECT_EQ(s.go(9, true, false, true, 0), 2);
  s.degree[1] = 0;
  EXPECT_EQ(s.go(9, false, false, true, 50 * kHold), 2);
  EXPECT_EQ(s.go(9, false, false, false, 60 * kHold), 2);
  // ... to its last packet, which ends the choice.
  EXPECT_EQ(s.go(9, false, true, false, 70 * kHold), 2);
  EXPECT_TRUE(s.table.empty());
  // A one-packet flow leaves no choice behind; a harmful new flow keeps ECMP's next hop.
  s.degree[1] = 40;
  EXPECT_EQ(s.go(10, true, true, true, 0), 2);
  EXPECT_TRUE(s.table.empty());
  s.harmful = true;
  EXPECT_EQ(s.go(11, true, false, true, 0), 1);
}

}  // namespace
}  // namespace lossless
