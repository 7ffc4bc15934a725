#include "net/shared_buffer_mmu.h"

#include <gtest/gtest.h>

#include <random>

#include "core/error.h"

namespace lossless {
namespace {

SwitchConfig small_switch() {
  SwitchConfig c;
  c.buffer_bytes = 1'000'000;
  c.reserve_bytes = 4096;
  c.resume_offset_bytes = 3072;
  c.alpha = 0.125;
  return c;
}

TEST(SharedBufferMmu, ReserveThenSharedThenPauseAtDynamicThreshold) {
  SharedBufferMmu mmu(small_switch(), {{50'000, 0.125}, {50'000, 0.125}}, true);
  EXPECT_EQ(mmu.shared_pool_bytes(), 1'000'000u - 100'000 - 2 * 4096);
  // Fill port 0 priority 3 until the threshold: alpha * free shared.
  int packets = 0;
  while (!mmu.should_pause(0, 3)) {
    ASSERT_TRUE(mmu.admit(0, 3, 1000));
    ++packets;
  }
  // The packet that crossed the threshold went to headroom and triggered the pause.
  EXPECT_EQ(mmu.headroom_used(0, 3), 1000u);
  Bytes used = mmu.shared_used(0, 3);
  EXPECT_GT(used + 1000, mmu.threshold(0));
  // Threshold T = (S - used)/8 is met when used ~ S/9.
  EXPECT_NEAR(static_cast<double>(used), static_cast<double>(mmu.shared_pool_bytes()) / 9, 1000);
  mmu.set_paused(0, 3, true);
  // Beyond the threshold, packets land in headroom until it is full, then drop.
  int in_headroom = 1;
  while (mmu.admit(0, 3, 1000)) ++in_headroom;
  EXPECT_EQ(in_headroom, 50);
  EXPECT_FALSE(mmu.should_resume(0, 3));
  // Drain: headroom first, then shared; resume once below threshold - offset.
  for (int i = 0; i < 50; ++i) mmu.release(0, 3, 1000);
  EXPECT_EQ(mmu.headroom_used(0, 3), 0u);
  for (int i = 0; i < packets && !mmu.should_resume(0, 3); ++i) mmu.release(0, 3, 1000);
  EXPECT_TRUE(mmu.should_resume(0, 3));
  EXPECT_LE(mmu.shared_used(0, 3) + 3072, mmu.threshold(0));
}

// A partition's switches keep their accounts in one slab: apart, and one priority's side by side over all of
// them (so that a fabric's packets, nearly all of one priority, touch few pages).
TEST(SharedBufferMmu, SwitchesOfOneSlabKeepTheirOwnAccountsOnePrioritySideBySide) {
  SharedBufferMmu::AccountSlab slab;
  slab.count_ports(2);
  slab.count_ports(3);
  SharedBufferMmu a(small_switch(), {{50'000, 0.125}, {50'000, 0.125}}, true, &slab);
  SharedBufferMmu b(small_switch(), {{50'000, 0.25}, {50'000, 0.25}, {50'000, 0.25}}, true, &slab);
  ASSERT_TRUE(a.admit(1, 3, 1000));
  ASSERT_TRUE(b.admit(0, 3, 700));
  ASSERT_TRUE(b.admit(2, 1, 300));
  EXPECT_EQ(a.ingress_bytes(1, 3), 1000u);
  EXPECT_EQ(b.ingress_bytes(0, 3), 700u);
  EXPECT_EQ(b.ingress_bytes(2, 1), 300u);
  for (std::uint16_t port = 0; port < 2; ++port)
    for (std::uint8_t prio = 0; prio < kPriorities; ++prio)
      if (!(port == 1 && prio == 3)) {
        EXPECT_EQ(a.ingress_bytes(port, prio), 0u) << port << " " << int{prio};
      }
  const auto* a1 = static_cast<const char*>(a.account_address(1, 3));
  EXPECT_EQ(
      static_cast<const char*>(b.account_address(0, 3)) - a1,
      static_cast<const char*>(a.account_address(1, 3)) - static_cast<const char*>(a.account_address(0, 3)));
  EXPECT_EQ(
      static_cast<const char*>(b.account_address(2, 3)) - static_cast<const char*>(a.account_address(0, 3)),
      4 * (a1 - static_cast<const char*>(a.account_address(0, 3))));
  // A switch counted after the slab was taken from, or one taking more ports than were counted, is a bug.
  EXPECT_THROW(slab.count_ports(1), InternalError);
  SharedBufferMmu::AccountSlab small;
  small.count_ports(1);
  EXPECT_THROW(SharedBufferMmu(small_switch(), {{50'000, 0.125}, {50'000, 0.125}}, true, &small),
               InternalError);
}

// A copy (a scheme's buffer built from the switch's) has accounts of its own.
TEST(SharedBufferMmu, ACopyHasItsOwnAccounts) {
  SharedBufferMmu::AccountSlab slab;
  slab.count_ports(2);
  SharedBufferMmu a(small_switch(), {{50'000, 0.125}, {50'000, 0.125}}, true, &slab);
  ASSERT_TRUE(a.admit(0, 3, 1000));
  SharedBufferMmu copy = a;
  ASSERT_TRUE(copy.admit(0, 3, 500));
  copy.release(0, 3, 1000);
  EXPECT_EQ(a.ingress_bytes(0, 3), 1000u);
  EXPECT_EQ(copy.ingress_bytes(0, 3), 500u);
  SharedBufferMmu assigned;
  assigned = a;
  a.release(0, 3, 1000);
  EXPECT_EQ(assigned.ingress_bytes(0, 3), 1000u);
  EXPECT_EQ(a.ingress_bytes(0, 3), 0u);
}

TEST(SharedBufferMmu, StaticThresholds) {
  SwitchConfig c = small_switch();
  c.threshold = PfcThreshold::kStatic;
  c.xoff_bytes = 20'000;
  c.xon_bytes = 10'000;
  SharedBufferMmu mmu(c, {{50'000, 0.125, c.static_xoff(40'000'000'000), c.static_xon(40'000'000'000)}},
                      true);
  for (int i = 0; i < 19; ++i) ASSERT_TRUE(mmu.admit(0, 1, 1000));
  EXPECT_FALSE(mmu.should_pause(0, 1));
  ASSERT_TRUE(mmu.admit(0, 1, 1000));
  EXPECT_TRUE(mmu.should_pause(0, 1));
  mmu.set_paused(0, 1, true);
  for (int i = 0; i < 10; ++i) mmu.release(0, 1, 1000);
  EXPECT_FALSE(mmu.should_resume(0, 1));
  mmu.release(0, 1, 1000);
  EXPECT_TRUE(mmu.should_resume(0, 1));
}

TEST(SharedBufferMmu, StaticThresholdsPerLinkRate) {
  // The RoCC paper's PFC thresholds: 500 KB at 40G ports, 800 KB at 100G.
  SwitchConfig c = small_switch();
  c.threshold = PfcThreshold::kStatic;
  c.xoff_bytes = 320'000;
  c.xon_bytes = 318'000;
  EXPECT_EQ(c.static_xoff(40'000'000'000), 320'000u);  // no table: xoff / xon for every port
  EXPECT_EQ(c.static_xon(40'000'000'000), 318'000u);
  c.xoff_by_rate = {{40'000'000'000, 500'000}, {100'000'000'000, 800'000}};
  EXPECT_EQ(c.static_xoff(40'000'000'000), 500'000u);
  EXPECT_EQ(c.static_xoff(100'000'000'000), 800'000u);
  EXPECT_EQ(c.static_xoff(400'000'000'000), 800'000u);  // the nearest listed rate, not scaled
  EXPECT_EQ(c.static_xoff(25'000'000'000), 500'000u);
  EXPECT_EQ(c.static_xon(40'000'000'000), 498'000u);  // xoff_by_rate - (xoff - xon)
  EXPECT_EQ(c.static_xon(100'000'000'000), 798'000u);
  c.xon_by_rate = {{40'000'000'000, 400'000}, {100'000'000'000, 700'000}};
  EXPECT_EQ(c.static_xon(100'000'000'000), 700'000u);
  // Each ingress port pauses at its own threshold.
  c.buffer_bytes = 4'000'000;
  SharedBufferMmu mmu(c,
                      {{50'000, 0.125, c.static_xoff(40'000'000'000), c.static_xon(40'000'000'000)},
                       {50'000, 0.125, c.static_xoff(100'000'000'000), c.static_xon(100'000'000'000)}},
                      true);
  EXPECT_EQ(mmu.threshold(0), 500'000u);
  EXPECT_EQ(mmu.threshold(1), 800'000u);
  for (int i = 0; i < 500; ++i) {
    ASSERT_TRUE(mmu.admit(0, 3, 1000));
    ASSERT_TRUE(mmu.admit(1, 3, 1000));
  }
  EXPECT_TRUE(mmu.should_pause(0, 3));
  EXPECT_FALSE(mmu.should_pause(1, 3));
  for (int i = 0; i < 300; ++i) ASSERT_TRUE(mmu.admit(1, 3, 1000));
  EXPECT_TRUE(mmu.should_pause(1, 3));
  mmu.set_paused(0, 3, true);
  for (int i = 0; i < 100; ++i) mmu.release(0, 3, 1000);
  EXPECT_FALSE(mmu.should_resume(0, 3));  // 400 KB held: resumes below 400 KB
  mmu.release(0, 3, 1000);
  EXPECT_TRUE(mmu.should_resume(0, 3));
}

TEST(SharedBufferMmu, LossyModeTailDropsAtThreshold) {
  SwitchConfig c = small_switch();
  c.pfc_enabled = false;
  SharedBufferMmu mmu(c, {{50'000, 0.125}}, false);
  EXPECT_EQ(mmu.total_headroom_bytes(), 0u);
  int admitted = 0;
  while (mmu.admit(0, 3, 1000)) ++admitted;
  EXPECT_GT(admitted, 50);
  EXPECT_EQ(mmu.headroom_used(0, 3), 0u);
  EXPECT_FALSE(mmu.should_pause(0, 3) && false);
}

TEST(SharedBufferMmu, PortsAndPrioritiesAreAccountedSeparately) {
  SharedBufferMmu mmu(small_switch(), {{50'000, 0.125}, {50'000, 0.125}}, true);
  ASSERT_TRUE(mmu.admit(0, 3, 10'000));
  EXPECT_EQ(mmu.ingress_bytes(0, 3), 10'000u);
  EXPECT_EQ(mmu.ingress_bytes(0, 4), 0u);
  EXPECT_EQ(mmu.ingress_bytes(1, 3), 0u);
  EXPECT_EQ(mmu.total_shared_used(), 10'000u - 4096);
  mmu.release(0, 3, 10'000);
  EXPECT_EQ(mmu.total_shared_used(), 0u);
}

// Each port's dynamic threshold uses its own alpha (the packet path reads a copy kept with each (port,
// priority) slot): a port with twice the alpha holds about twice the shared bytes before it pauses.
TEST(SharedBufferMmu, EachPortPausesAtItsOwnAlphasThreshold) {
  SharedBufferMmu mmu(small_switch(), {{50'000, 0.125}, {50'000, 0.25}, {50'000, 0.125}}, true);
  auto fill = [&](std::uint16_t port) {
    Bytes admitted = 0;
    while (!mmu.should_pause(port, 3)) {
      EXPECT_TRUE(mmu.admit(port, 3, 1000));
      admitted += 1000;
    }
    return admitted;
  };
  const Bytes low = fill(0);
  for (Bytes b = low; b > 0; b -= 1000) mmu.release(0, 3, 1000);
  const Bytes high = fill(1);
  for (Bytes b = high; b > 0; b -= 1000) mmu.release(1, 3, 1000);
  // Alone in the pool: T = alpha (S - used) is met at used = S alpha / (1 + alpha).
  const double s = static_cast<double>(mmu.shared_pool_bytes());
  EXPECT_NEAR(static_cast<double>(low), 4096 + s * 0.125 / 1.125, 2000);
  EXPECT_NEAR(static_cast<double>(high), 4096 + s * 0.25 / 1.25, 2000);
  // Paused, it resumes once its shared bytes fall to the threshold minus the offset.
  EXPECT_EQ(fill(2), low);
  mmu.set_paused(2, 3, true);
  EXPECT_FALSE(mmu.should_resume(2, 3));
  Bytes held = low;
  while (!mmu.should_resume(2, 3)) {
    mmu.release(2, 3, 1000);
    held -= 1000;
  }
  EXPECT_LE(mmu.shared_used(2, 3) + 3072, mmu.threshold(2));
  EXPECT_GT(held, 0u);
}

// What a packet passing an idle egress port skips (SwitchPath::receive): passes_unaccounted is true only
// when admitting the packet and releasing it at once would leave every account as it was, with no pause to
// send after the admit and no resume after the release. Checked against doing it, on copies, over random
// fills of a dynamic-threshold (two alphas, one so large that the pool fills to its last byte), a static and
// a lossy buffer.
TEST(SharedBufferMmu, PassesUnaccountedOnlyWhenAdmitAndReleaseWouldChangeNothing) {
  struct Case {
    SwitchConfig cfg;
    double alpha;
    bool lossless;
  };
  SwitchConfig statics = small_switch();
  statics.threshold = PfcThreshold::kStatic;
  statics.xoff_bytes = 3'000;  // below the reserve: a packet within it can pause
  statics.xon_bytes = 1'000;
  SwitchConfig tiny = small_switch();
  tiny.buffer_bytes = 40'000;
  const Case cases[] = {
      {small_switch(), 0.125, true}, {tiny, 1e9, true}, {statics, 0.125, true}, {tiny, 0.5, false}};
  std::mt19937_64 rng(7);
  int passed = 0, refused = 0;
  for (const Case& c : cases) {
    const std::vector<SharedBufferMmu::PortSetup> ports(
        3, {1'000, c.alpha, c.cfg.static_xoff(100'000'000'000), c.cfg.static_xon(100'000'000'000)});
    SharedBufferMmu mmu(c.cfg, ports, c.lossless);
    std::vector<std::vector<Bytes>> held(3);
    for (int step = 0; step < 20'000; ++step) {
      const auto port = static_cast<std::uint16_t>(rng() % 3);
      const auto bytes = static_cast<Bytes>(1 + rng() % 1'500);
      const bool passes = mmu.passes_unaccounted(port, 1, bytes);
      SharedBufferMmu copy = mmu;
      bool unchanged = copy.admit(port, 1, bytes) && !copy.should_pause(port, 1);
      copy.release(port, 1, bytes);
      unchanged = unchanged && !copy.should_resume(port, 1);
      for (std::uint16_t q = 0; q < 3; ++q) {
        unchanged = unchanged && copy.ingress_bytes(q, 1) == mmu.ingress_bytes(q, 1) &&
                    copy.headroom_used(q, 1) == mmu.headroom_used(q, 1);
      }
      unchanged = unchanged && copy.total_shared_used() == mmu.total_shared_used();
      if (passes) {
        ASSERT_TRUE(unchanged) << "step " << step << " port " << port << " bytes " << bytes;
        ++passed;
      } else {
        ++refused;
      }
      // Fill, drain, pause and resume as a switch would.
      if (rng() % 5 < 3) {
        if (mmu.admit(port, 1, bytes)) {
          held[port].push_back(bytes);
          if (c.lossless && mmu.should_pause(port, 1)) mmu.set_paused(port, 1, true);
        }
      } else if (!held[port].empty()) {
        mmu.release(port, 1, held[port].back());
        held[port].pop_back();
        if (mmu.should_resume(port, 1)) mmu.set_paused(port, 1, false);
      }
    }
  }
  // Both answers came up often.
  EXPECT_GT(passed, 1'000);
  EXPECT_GT(refused, 1'000);
}

// With nothing held and nothing paused the buffer answers from its counters: a packet passes when every
// port would let it (static Xoff above it, a dynamic threshold of at least a byte, within the reserve); a
// larger one is answered by its own account, as before.
TEST(SharedBufferMmu, AnEmptyBufferPassesWhatEveryPortLetsThroughAndAsksTheAccountOtherwise) {
  SwitchConfig statics = small_switch();
  statics.threshold = PfcThreshold::kStatic;
  SharedBufferMmu fixed(statics, {{1'000, 0.125, 3'000, 1'000}, {1'000, 0.125, 10'000, 5'000}}, true);
  EXPECT_TRUE(fixed.holds_nothing());
  EXPECT_TRUE(fixed.passes_unaccounted(0, 1, 2'999));
  EXPECT_FALSE(fixed.passes_unaccounted(0, 1, 3'000));  // reaches port 0's Xoff: it would pause
  EXPECT_TRUE(fixed.passes_unaccounted(1, 1, 3'500));   // port 1's Xoff is higher
  EXPECT_FALSE(fixed.passes_unaccounted(1, 1, 4'097));  // beyond the reserve
  ASSERT_TRUE(fixed.admit(1, 3, 100));
  EXPECT_FALSE(fixed.holds_nothing());
  EXPECT_TRUE(fixed.passes_unaccounted(0, 1, 2'000));  // from port 0's account, which is empty
  fixed.release(1, 3, 100);
  EXPECT_TRUE(fixed.holds_nothing());
  fixed.set_paused(0, 1, true);
  EXPECT_FALSE(fixed.holds_nothing());
  EXPECT_FALSE(fixed.passes_unaccounted(0, 1, 100));  // its account has paused the upstream
  EXPECT_TRUE(fixed.passes_unaccounted(1, 1, 100));
  fixed.set_paused(0, 1, true);  // again: still one paused account
  fixed.set_paused(0, 1, false);
  EXPECT_TRUE(fixed.holds_nothing());

  // A port whose threshold of the whole pool is below a byte pauses at any packet, so only the accounts
  // answer, and differently per port.
  SharedBufferMmu dynamic(small_switch(), {{1'000, 0.125}, {1'000, 1e-12}}, true);
  EXPECT_TRUE(dynamic.holds_nothing());
  EXPECT_TRUE(dynamic.passes_unaccounted(0, 1, 1'000));
  EXPECT_FALSE(dynamic.passes_unaccounted(1, 1, 1'000));
  ASSERT_TRUE(dynamic.admit(1, 1, 1'000));
  EXPECT_TRUE(dynamic.should_pause(1, 1));
}

// The pool full to its last byte: even a packet within its port's reserve must pause the upstream (the
// dynamic threshold is 0), so it cannot pass unaccounted.
TEST(SharedBufferMmu, APacketWithinItsReserveDoesNotPassUnaccountedWhenThePoolIsFull) {
  SwitchConfig c = small_switch();
  c.buffer_bytes = 40'000;
  SharedBufferMmu mmu(c, {{1'000, 1e9}, {1'000, 1e9}}, true);
  EXPECT_TRUE(mmu.passes_unaccounted(1, 2, 1'000));
  ASSERT_TRUE(mmu.admit(0, 2, 4'096));  // port 0's reserve, then the whole pool
  ASSERT_TRUE(mmu.admit(0, 2, mmu.shared_pool_bytes()));
  ASSERT_EQ(mmu.free_bytes(), 0u);
  EXPECT_FALSE(mmu.passes_unaccounted(1, 2, 1'000));
  ASSERT_TRUE(mmu.admit(1, 2, 1'000));
  EXPECT_TRUE(mmu.should_pause(1, 2));
}

}  // namespace
}  // namespace lossless
