#include "control/pacc/pacc.h"

#include <gtest/gtest.h>

namespace lossless {
namespace {

PaccPort port(std::uint64_t cap = 1) {
  PaccPort::Setting s;
  s.q_ref_bytes = 100'000;
  s.a = 0.25;
  s.b = 0.5;
  s.flow_threshold = 0.5;
  s.max_cnps_per_flow = cap;
  return PaccPort(s);
}

TEST(Pacc, PiUpdateOnTheQueueClippedToZeroOne) {
  auto p = port();
  p.end_period(150'000);  // 0.25 x 0.5 + 0.5 x 1.5
  EXPECT_DOUBLE_EQ(p.x(), 0.875);
  p.end_period(150'000);  // + 0.125 + 0 -> 1 (clipped)
  EXPECT_DOUBLE_EQ(p.x(), 1.0);
  p.end_period(50'000);  // 1 - 0.125 - 0.5
  EXPECT_DOUBLE_EQ(p.x(), 0.375);
  p.end_period(0);  // 0.375 - 0.25 - 0.25 -> 0 (clipped)
  EXPECT_DOUBLE_EQ(p.x(), 0.0);
}

void traffic(PaccPort& p) {
  for (int i = 0; i < 60; ++i) p.on_enqueue(7, 1000);
  for (int i = 0; i < 30; ++i) p.on_enqueue(3, 1000);
  for (int i = 0; i < 10; ++i) p.on_enqueue(5, 1000);  // below half the fair share (33 packets)
}

TEST(Pacc, CnpsToTheFlowsAboveTheThresholdAtMostOneEach) {
  auto p = port();
  traffic(p);
  const auto& a = p.end_period(200'000);  // x = 1: 100 CNPs to split, one per contributor
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].flow, 3u);
  EXPECT_EQ(a[0].cnps, 1u);
  EXPECT_EQ(a[1].flow, 7u);
  EXPECT_EQ(a[1].cnps, 1u);
}

TEST(Pacc, CnpsSplitByByteShareWithLargestRemainders) {
  auto p = port(1000);
  traffic(p);
  const auto& a = p.end_period(200'000);  // 100 CNPs over 60 : 30 KB -> 66.7 and 33.3 -> 67 and 33
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].cnps, 33u);
  EXPECT_EQ(a[1].cnps, 67u);
}

TEST(Pacc, NoCnpsWithAnEmptyQueueAndTheTableClearsEachPeriod) {
  auto p = port();
  traffic(p);
  EXPECT_TRUE(p.end_period(0).empty());  // x clipped at 0
  p.end_period(300'000);                 // x = 1, but no packet arrived in this period
  EXPECT_DOUBLE_EQ(p.x(), 1.0);
  EXPECT_TRUE(p.end_period(300'000).empty());
}

TEST(Pacc, NeitherMarksNorReceiverCnps) {
  const auto hints = PaccParams{}.hints();  // kept: find() points into it
  const std::string* ecn = hints.defaults.find("switch.ecn.enabled");
  ASSERT_TRUE(ecn);
  EXPECT_EQ(*ecn, "false");
}

}  // namespace
}  // namespace lossless
