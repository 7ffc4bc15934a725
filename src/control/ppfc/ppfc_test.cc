#include "control/ppfc/ppfc.h"

#include <gtest/gtest.h>

#include <map>

namespace lossless {
namespace {

constexpr RateBps k40G = 40'000'000'000;
constexpr TimePs kUs = kPsPerUs;

// Algorithm 1: remaining = free / (growth / interval) against T, strictly below.
TEST(PpfcAlgorithm1, PredictsWhenThePoolFillsWithinTheHorizon) {
  // 16:1 at 40G: 15 x 40G of growth = 75 KB per us; 4 MB free fill in 53 us < 100 us.
  EXPECT_TRUE(ppfc_predicts_fill(4'000'000, 75'000, kUs, 100 * kUs));
  // 4:1: 15 KB per us fill 4 MB in 267 us; 2.5 MB free in 167 us: no prediction at T = 100 us.
  EXPECT_FALSE(ppfc_predicts_fill(4'000'000, 15'000, kUs, 100 * kUs));
  EXPECT_FALSE(ppfc_predicts_fill(2'500'000, 15'000, kUs, 100 * kUs));
  // 6:1 (25 KB per us) predicts once the free pool is below T x growth = 2.5 MB.
  EXPECT_FALSE(ppfc_predicts_fill(2'500'000, 25'000, kUs, 100 * kUs));  // exactly T: not below
  EXPECT_TRUE(ppfc_predicts_fill(2'499'999, 25'000, kUs, 100 * kUs));
  EXPECT_TRUE(ppfc_predicts_fill(2'499'999 * 3 / 2, 25'000, kUs, 150 * kUs));
  // No growth, or a shrinking buffer, never predicts; a full pool with growth always does.
  EXPECT_FALSE(ppfc_predicts_fill(0, 0, kUs, 100 * kUs));
  EXPECT_FALSE(ppfc_predicts_fill(0, -1000, kUs, 100 * kUs));
  EXPECT_TRUE(ppfc_predicts_fill(0, 1, kUs, 100 * kUs));
}

// Algorithm 3: (bytes in the egress queue + increment) / egress rate, in 512-bit quanta at the ingress rate.
TEST(PpfcAlgorithm3, PauseLastsTheTimeTheBytesTakeToLeave) {
  // 64 B = 512 bits: one quantum at equal rates; rounded up.
  EXPECT_EQ(ppfc_pause_quanta(64, k40G, k40G), 1);
  EXPECT_EQ(ppfc_pause_quanta(65, k40G, k40G), 2);
  EXPECT_EQ(ppfc_pause_quanta(17'187, k40G, k40G), 269);
  // A 10G ingress into a 40G egress: the bytes leave 4x faster than 10G quanta tick.
  EXPECT_EQ(ppfc_pause_quanta(64'000, k40G, 10'000'000'000), 250);
  // A 40G ingress into a 10G egress: 4x longer.
  EXPECT_EQ(ppfc_pause_quanta(64'000, 10'000'000'000, k40G), 4000);
  EXPECT_EQ(ppfc_pause_quanta(0, k40G, k40G), 1);
  EXPECT_EQ(ppfc_pause_quanta(100'000'000, k40G, k40G), 65535);
}

// Algorithm 3 with drain_rate share (the default, ruling of issue 25): an ingress holding `from` of a FIFO
// egress queue of `queue` bytes sees its bytes leave at egress rate x from / queue, so its last byte has left
// when the whole queue ahead of it has drained; the pause covers its bytes plus its increment at that rate.
TEST(PpfcAlgorithm3, ShareDrainRateLastsUntilTheIngressBytesHaveLeftTheQueue) {
  // A quarter of a 400 KB queue at 40G: its 100 KB leave at 10G, in 80 us = 6250 quanta of 12.8 ns.
  EXPECT_EQ(ppfc_share_pause_quanta(100'000, 100'000, 400'000, k40G, k40G), 6250);
  // Plus an increment of 20 KB: 120 KB at 10G = 96 us = 7500 quanta.
  EXPECT_EQ(ppfc_share_pause_quanta(120'000, 100'000, 400'000, k40G, k40G), 7500);
  // The whole queue is its own: the egress rate (the egress reading gives the same).
  EXPECT_EQ(ppfc_share_pause_quanta(400'000, 400'000, 400'000, k40G, k40G),
            ppfc_pause_quanta(400'000, k40G, k40G));
  // Quanta tick at the ingress link's rate: a 10G ingress, 4x fewer quanta for the same time.
  EXPECT_EQ(ppfc_share_pause_quanta(100'000, 100'000, 400'000, k40G, 10'000'000'000), 1563);  // 1562.5 up
  // Rounded up once, on the exact time: 64 B x 7/3 is 149.3 B, 3 quanta (2 if the bytes were truncated
  // first).
  EXPECT_EQ(ppfc_share_pause_quanta(64, 3, 7, k40G, k40G), 3);
  // Clamped to the 16-bit field, also where the product would not fit 128 bits.
  EXPECT_EQ(ppfc_share_pause_quanta(1'000'000, 1'000, 4'000'000, k40G, k40G), 65535);
  EXPECT_EQ(
      ppfc_share_pause_quanta(1'000'000'000'000'000, 1, 1'000'000'000'000'000, 1, 1'000'000'000'000'000),
      65535);
  EXPECT_EQ(ppfc_share_pause_quanta(0, 1, 1, k40G, k40G), 1);
}

TEST(PpfcParams, TheRulingsReadingsAreTheDefaults) {
  const PpfcParams p;
  EXPECT_EQ(p.drain_rate, "share");
  EXPECT_EQ(p.egress_queues, "most_congested");
  EXPECT_EQ(p.horizon, 100 * kUs);  // Table 2
  EXPECT_EQ(p.fraction, 0.8);
  EXPECT_EQ(p.interval, 1 * kUs);
}

// Algorithm 2: picks in proportion to the share until R is covered.
TEST(PpfcAlgorithm2, PicksInProportionToTheShareUntilRIsCovered) {
  // Fig. 5: A holds 80 %, B and C 10 % each; A is picked first about 80 % of the time; R = 0.8 is covered by
  // A alone, or by the others plus A.
  const std::vector<Bytes> abc = {800, 100, 100};
  RngStream rng(7, "test");
  std::map<std::size_t, int> first;
  const int n = 20000;
  for (int i = 0; i < n; ++i) {
    auto picked = ppfc_choose(abc, 1000, 0.8, rng);
    ASSERT_FALSE(picked.empty());
    ++first[picked[0]];
    Bytes covered = 0;
    for (auto c : picked) covered += abc[c];
    EXPECT_GE(covered, 800u);
    if (picked[0] == 0) {
      EXPECT_EQ(picked.size(), 1u);  // A alone covers R
    }
  }
  EXPECT_NEAR(first[0] / double(n), 0.8, 0.02);
  EXPECT_NEAR(first[1] / double(n), 0.1, 0.02);
  EXPECT_NEAR(first[2] / double(n), 0.1, 0.02);
}

TEST(PpfcAlgorithm2, StopsWhenNoCandidateIsLeftAndNeverPicksTwice) {
  RngStream rng(1, "test");
  // The candidates hold only 30 % of the queue (the rest comes from shrinking ingresses): all are picked,
  // once.
  auto picked = ppfc_choose({100, 200}, 1000, 0.8, rng);
  ASSERT_EQ(picked.size(), 2u);
  EXPECT_NE(picked[0], picked[1]);
  EXPECT_TRUE(ppfc_choose({}, 1000, 0.8, rng).empty());
  EXPECT_TRUE(ppfc_choose({100, 200}, 1000, 0.0, rng).empty());
  EXPECT_EQ(ppfc_choose({100, 200, 300}, 600, 1.0, rng).size(), 3u);
}

// A 4-port switch: ports 0-2 send to port 3 (the congested egress), Kmax 200 KB, 40G everywhere.
struct PpfcEngineTest : ::testing::Test {
  PpfcParams params;
  std::vector<PpfcEngine::PortInfo> ports{4, {200'000, k40G}};
  std::vector<PpfcEngine::Pause> frames;
  static constexpr std::uint8_t kPrio = 3;
  PpfcEngine engine() { return PpfcEngine(params, ports, RngStream(1, "ppfc-test")); }
  static bool none_held(std::uint16_t, std::uint8_t) { return false; }
};

TEST_F(PpfcEngineTest, NothingBelowKmaxWhateverTheGrowth) {
  PpfcEngine e = engine();
  for (std::uint16_t in = 0; in < 3; ++in) e.admit(in, kPrio, 3, 60'000);  // 180 KB queued, 180 KB growth
  e.end_interval(0, 10'000, none_held, frames);  // the pool fills in 0.06 us, but the gate is closed
  EXPECT_TRUE(frames.empty());
  EXPECT_EQ(e.predictions(), 0u);
  EXPECT_EQ(e.increment(0, kPrio), 0);  // every interval starts from zero
}

TEST_F(PpfcEngineTest, PausesGrowingIngressesForTheirBytesPlusIncrement) {
  params.fraction = 1.0;  // every growing ingress
  params.drain_rate = "egress";
  PpfcEngine e = engine();
  e.admit(0, kPrio, 3, 150'000);
  e.admit(1, kPrio, 3, 100'000);
  e.admit(2, kPrio, 3, 50'000);
  e.end_interval(0, 4'000'000, none_held, frames);  // the first interval: 300 KB of growth, 13 us to fill
  ASSERT_EQ(frames.size(), 3u);
  std::map<std::uint16_t, std::uint16_t> quanta;
  for (auto& f : frames) {
    EXPECT_EQ(f.prio, kPrio);
    quanta[f.port] = f.quanta;
  }
  // (bytes from it in the queue + its increment) / 40G: 300 KB -> 4688 quanta, 200 KB -> 3125, 100 KB ->
  // 1563.
  EXPECT_EQ(quanta[0], ppfc_pause_quanta(300'000, k40G, k40G));
  EXPECT_EQ(quanta[1], ppfc_pause_quanta(200'000, k40G, k40G));
  EXPECT_EQ(quanta[2], ppfc_pause_quanta(100'000, k40G, k40G));
  EXPECT_EQ(e.predictions(), 1u);
  // drain_rate share (the default): each one's bytes leave at 40G x its share of the 300 KB queue, so each
  // pause lasts (its bytes + increment) x 300 KB / its bytes at 40G: here 2 x 300 KB = 600 KB, 15 us, for
  // all.
  params.drain_rate = "share";
  PpfcEngine share = engine();
  share.admit(0, kPrio, 3, 150'000);
  share.admit(1, kPrio, 3, 100'000);
  share.admit(2, kPrio, 3, 50'000);
  share.end_interval(0, 4'000'000, none_held, frames);
  ASSERT_EQ(frames.size(), 3u);
  for (auto& f : frames) EXPECT_EQ(f.quanta, ppfc_pause_quanta(600'000, k40G, k40G)) << f.port;
}

TEST_F(PpfcEngineTest, ShrinkingAndInnocentIngressesAreNeverPaused) {
  params.fraction = 1.0;
  PpfcEngine e = engine();
  e.admit(0, kPrio, 3, 200'000);
  e.admit(1, kPrio, 3, 100'000);
  e.admit(2, kPrio, 0, 100'000);  // port 2 sends elsewhere (port 0's egress, not congested)
  e.end_interval(0, 4'000'000, none_held, frames);
  for (auto& f : frames) EXPECT_NE(f.port, 2) << "innocent ingress paused";
  // Next interval: port 1's queue shrinks, port 0's grows.
  e.release(1, kPrio, 3, 20'000);
  e.admit(0, kPrio, 3, 120'000);
  e.end_interval(200 * kUs, 100'000, none_held, frames);  // after the first pauses (120 us) ran out
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(frames[0].port, 0);
}

TEST_F(PpfcEngineTest, SuppressionBitBlocksANewPauseUntilTheLastOneRanOut) {
  params.fraction = 1.0;
  PpfcEngine e = engine();
  e.admit(0, kPrio, 3, 300'000);
  e.end_interval(0, 4'000'000, none_held, frames);
  ASSERT_EQ(frames.size(), 1u);
  const TimePs duration = SerializationClock(k40G).tx_time(std::uint64_t{frames[0].quanta} * 64);
  EXPECT_EQ(duration, 120 * kUs);  // 600 KB at 40G
  EXPECT_TRUE(e.suppressed(0, kPrio, duration - 1));
  EXPECT_FALSE(e.suppressed(0, kPrio, duration));
  e.admit(0, kPrio, 3, 10'000);
  e.end_interval(duration - 1, 0, none_held, frames);
  EXPECT_TRUE(frames.empty());
  e.admit(0, kPrio, 3, 10'000);
  e.end_interval(duration, 0, none_held, frames);
  EXPECT_EQ(frames.size(), 1u);
}

TEST_F(PpfcEngineTest, AnIngressPausedByStandardPfcCountsTowardRButGetsNoFrame) {
  params.fraction = 0.5;
  int only_port0_picked = 0, others_paused = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    PpfcEngine e(params, ports, RngStream(seed, "ppfc-test"));
    e.admit(0, kPrio, 3, 600'000);  // 60 % of the queue: covers R alone
    e.admit(1, kPrio, 3, 200'000);
    e.admit(2, kPrio, 3, 200'000);
    e.end_interval(
        0, 0, [](std::uint16_t port, std::uint8_t) { return port == 0; }, frames);
    for (auto& f : frames) EXPECT_NE(f.port, 0) << "a predictive pause would replace standard PFC's";
    only_port0_picked += frames.empty();
    others_paused += !frames.empty();
  }
  // Port 0 picked first (probability 0.6) covers R: then nobody is paused.
  EXPECT_GT(only_port0_picked, 10);
  EXPECT_GT(others_paused, 5);
}

TEST_F(PpfcEngineTest, MostCongestedEgressFirstAndGrowthModes) {
  params.fraction = 1.0;
  params.egress_queues = "all";
  PpfcEngine e = engine();
  e.admit(0, kPrio, 3, 300'000);  // egress 3: 300 KB
  e.admit(1, kPrio, 2, 250'000);  // egress 2: 250 KB
  e.end_interval(0, 4'000'000, none_held, frames);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[0].port, 0);
  EXPECT_EQ(frames[1].port, 1);
  // Growth: +50 KB on port 2, -40 KB on port 0. With 1 MB free and T = 100 us the pool fills in 20 us
  // (positive growth) or 100 us (net growth: not below T).
  for (const char* mode : {"positive", "net"}) {
    params.growth = mode;
    PpfcEngine g = engine();
    g.admit(0, kPrio, 3, 300'000);
    g.end_interval(0, 4'000'000, none_held, frames);
    g.release(0, kPrio, 3, 40'000);
    g.admit(2, kPrio, 3, 50'000);
    g.end_interval(10 * kPsPerMs, 1'000'000, none_held, frames);
    EXPECT_EQ(g.predictions(), std::string(mode) == "positive" ? 2u : 1u) << mode;
  }
}

TEST_F(PpfcEngineTest, MostCongestedOnlyLeavesTheLessCongestedQueuesAlone) {
  params.fraction = 1.0;  // egress_queues: most_congested, the default
  PpfcEngine e = engine();
  e.admit(0, kPrio, 3, 300'000);  // egress 3: 300 KB
  e.admit(1, kPrio, 2, 250'000);  // egress 2: 250 KB, also above Kmax
  e.end_interval(0, 4'000'000, none_held, frames);
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(frames[0].port, 0);
}

TEST_F(PpfcEngineTest, FixedAndShareOfTheQueueDurations) {
  params.fraction = 1.0;
  params.pause_time = 50 * kUs;
  PpfcEngine fixed = engine();
  fixed.admit(0, kPrio, 3, 300'000);
  fixed.end_interval(0, 4'000'000, none_held, frames);
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_EQ(frames[0].quanta, 3907);  // 50 us / 12.8 ns, rounded up
  EXPECT_EQ(quanta_for(50 * kUs, k40G), 3907);
  // drain_rate share: port 1 holds a quarter of the queue, so its bytes leave at a quarter of 40G: its pause
  // lasts (its bytes + increment) x 4 / 40G.
  params.pause_time = kTimeNever;
  params.drain_rate = "share";
  PpfcEngine share = engine();
  share.admit(0, kPrio, 3, 300'000);
  share.admit(1, kPrio, 3, 100'000);
  share.end_interval(0, 4'000'000, none_held, frames);
  bool port1 = false;
  for (auto& f : frames) {
    if (f.port != 1) continue;
    port1 = true;
    EXPECT_EQ(f.quanta, ppfc_pause_quanta(800'000, k40G, k40G));
  }
  EXPECT_TRUE(port1);
}

}  // namespace
}  // namespace lossless
