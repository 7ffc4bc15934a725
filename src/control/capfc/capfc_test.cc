#include "control/capfc/capfc.h"

#include <gtest/gtest.h>

#include <set>
#include <utility>

namespace lossless {
namespace {

constexpr std::uint8_t kPrio = 3;

// A 4-port switch; WARN at 100 KB (off below 50 KB), per-input pause at 20 KB, resume below 10 KB.
struct CapfcEngineTest : ::testing::Test {
  CapfcEngine e{{100'000, 50'000, 20'000, 10'000}, 4};
  std::set<std::uint16_t> held;
  int holds = 0, releases = 0;
  void admit(std::uint16_t in, std::uint16_t out, Bytes b) {
    e.admit(in, kPrio, out, b, [this](std::uint16_t port, std::uint8_t prio) {
      EXPECT_EQ(prio, kPrio);
      EXPECT_TRUE(held.insert(port).second) << "held twice";
      ++holds;
    });
  }
  void release(std::uint16_t in, std::uint16_t out, Bytes b) {
    e.release(in, kPrio, out, b, [this](std::uint16_t port, std::uint8_t prio) {
      EXPECT_EQ(prio, kPrio);
      EXPECT_EQ(held.erase(port), 1u) << "released without a hold";
      ++releases;
    });
  }
};

TEST(CapfcThresholds, AutoValuesFollowTheSharedPool) {
  auto t = CapfcEngine::resolve(CapfcParams{}, 4'000'000);
  EXPECT_EQ(t.warn, 1'000'000u);
  EXPECT_EQ(t.warn_off, 500'000u);
  EXPECT_EQ(t.warn_xoff, 62'500u);
  EXPECT_EQ(t.warn_xon, 31'250u);
  CapfcParams p;
  p.warn = 300'000;
  p.warn_xon = 1000;
  t = CapfcEngine::resolve(p, 4'000'000);
  EXPECT_EQ(t.warn, 300'000u);
  EXPECT_EQ(t.warn_off, 150'000u);
  EXPECT_EQ(t.warn_xoff, 18'750u);
  EXPECT_EQ(t.warn_xon, 1000u);
}

TEST_F(CapfcEngineTest, NoPauseBelowWarnWhateverTheCounters) {
  admit(0, 3, 60'000);  // counter far above warn_xoff, but the egress queue is below WARN
  admit(1, 3, 30'000);
  EXPECT_FALSE(e.in_warn(3, kPrio));
  EXPECT_EQ(holds, 0);
}

TEST_F(CapfcEngineTest, EnteringWarnPausesTheInputsAboveWarnXoffOnly) {
  admit(0, 3, 60'000);
  admit(1, 3, 25'000);
  admit(2, 3, 15'000);  // the queue reaches 100 KB: WARN
  EXPECT_TRUE(e.in_warn(3, kPrio));
  EXPECT_EQ(held, (std::set<std::uint16_t>{0, 1}));
  admit(2, 3, 5'000);  // port 2 reaches warn_xoff while the queue is in WARN
  EXPECT_EQ(held, (std::set<std::uint16_t>{0, 1, 2}));
  admit(2, 3, 5'000);  // already paused: no second hold
  EXPECT_EQ(holds, 3);
}

TEST_F(CapfcEngineTest, ResumesAnInputBelowWarnXonAndAllWhenWarnEnds) {
  admit(0, 3, 60'000);
  admit(1, 3, 40'000);  // WARN: both paused
  ASSERT_EQ(held.size(), 2u);
  release(1, 3, 25'000);  // port 1 at 15 KB: above warn_xon, still paused
  EXPECT_EQ(held.count(1), 1u);
  release(1, 3, 6'000);  // 9 KB < warn_xon: resumed (the queue, 69 KB, is still in WARN)
  EXPECT_EQ(held, (std::set<std::uint16_t>{0}));
  EXPECT_TRUE(e.in_warn(3, kPrio));
  release(0, 3, 20'000);  // the queue at 49 KB < warn_off: WARN ends, port 0 (40 KB) resumed
  EXPECT_FALSE(e.in_warn(3, kPrio));
  EXPECT_TRUE(held.empty());
  EXPECT_EQ(releases, 2);
}

TEST_F(CapfcEngineTest, AnInputStaysPausedWhileAnotherWarnQueueHoldsItsBytes) {
  admit(0, 3, 60'000);
  admit(1, 3, 40'000);  // egress 3 in WARN
  admit(0, 2, 30'000);
  admit(2, 2, 70'000);  // egress 2 in WARN: port 0 holds 30 KB there
  EXPECT_EQ(held, (std::set<std::uint16_t>{0, 1, 2}));
  release(0, 3, 55'000);  // port 0 below warn_xon in egress 3 (the queue 45 KB: WARN ends there too)
  EXPECT_EQ(held.count(0), 1u) << "egress 2 still holds 30 KB of port 0";
  EXPECT_EQ(held.count(1), 0u) << "egress 3 left WARN and port 1 is held nowhere else";
  release(0, 2, 25'000);  // 5 KB left in egress 2
  EXPECT_EQ(held.count(0), 0u);
  EXPECT_EQ(held.count(2), 1u);
}

TEST_F(CapfcEngineTest, PrioritiesAreIndependent) {
  e.admit(0, 5, 3, 120'000, [](std::uint16_t, std::uint8_t prio) { EXPECT_EQ(prio, 5); });
  EXPECT_TRUE(e.in_warn(3, 5));
  EXPECT_FALSE(e.in_warn(3, kPrio));
  EXPECT_TRUE(e.paused(0, 5));
  EXPECT_FALSE(e.paused(0, kPrio));
}

}  // namespace
}  // namespace lossless
