// The checker itself (net/invariants.h, net/deadlock.h, net/state_check.h), on fabrics built by hand and put
// into states no correct run reaches: each invariant fires, names what broke, and is quiet once it holds
// again.
#include "net/invariants.h"

#include <gtest/gtest.h>

#include "net/deadlock.h"
#include "net/fabric_run.h"
#include "net/network.h"
#include "net/state_check.h"

namespace lossless {
namespace {

constexpr LinkSpec kLink{100'000'000'000, kPsPerUs};

// The violation `f` throws: its invariant and message ("" when nothing fires).
template <class F>
std::pair<std::string, std::string> violation(F&& f) {
  try {
    f();
  } catch (const InvariantViolation& e) {
    return {e.invariant(), e.what()};
  }
  return {"", ""};
}

// A ring of `n` switches with one host each (h_i on s_i); `open` leaves out the link s(n-1)-s0 (a line).
Topology ring(std::uint32_t n, bool open = false) {
  Topology t;
  t.hosts = n;
  t.switches = n;
  for (std::uint32_t i = 0; i < n; ++i) t.links.push_back({i, n + i, kLink.rate_bps, kLink.delay_ps});
  for (std::uint32_t i = 0; i + (open ? 1 : 0) < n; ++i)
    t.links.push_back({n + i, n + (i + 1) % n, kLink.rate_bps, kLink.delay_ps});
  return t;
}

TEST(StateCheck, KeepsTheFirstFailedConditionAndRejectsNaN) {
  StateCheck c;
  c.non_negative("credits", 0);
  c.positive("rate", 1e9);
  c.in_range("alpha", 0.5, 0, 1);
  c.require(true, "fine");
  EXPECT_FALSE(c.failed());
  c.in_range("alpha", std::nan(""), 0, 1);
  c.non_negative("credits", -1);
  ASSERT_TRUE(c.failed());
  EXPECT_EQ(c.failure(), "alpha = nan, outside [0, 1]");
  c.clear();
  c.non_negative("credits", -2);
  EXPECT_EQ(c.failure(), "credits = -2 < 0");
  c.clear();
  c.positive("window", 0);
  EXPECT_EQ(c.failure(), "window = 0, not > 0");
  c.clear();
  c.finite("utilization", std::nan(""));
  EXPECT_EQ(c.failure(), "utilization = nan, not a finite number");
  c.clear();
  c.require(false, "granted within the message");
  EXPECT_EQ(c.failure(), "granted within the message");
}

TEST(FabricChecker, AFreshFabricHoldsEveryInvariant) {
  Network net(make_star(4, kLink), SwitchConfig{}, NicConfig{}, 1);
  FabricChecker check(net);
  EXPECT_EQ(violation([&] { check.check(0, false); }).first, "");
  EXPECT_EQ(violation([&] { check.check(0, true); }).first, "");
  EXPECT_EQ(check.passes(), 2u);
}

TEST(FabricChecker, BufferBytesWithoutPacketsAreNamedByIngressPortAndPriority) {
  Network net(make_star(4, kLink), SwitchConfig{}, NicConfig{}, 1);
  FabricChecker check(net);
  Switch& sw = net.switch_at(0);
  ASSERT_TRUE(sw.mmu.admit(2, 3, 1048, 0));
  auto [name, what] = violation([&] { check.check(5 * kPsPerUs, false); });
  EXPECT_EQ(name, "buffer");
  EXPECT_NE(what.find("s0 ingress port 2 priority 3 at 0.005000 ms"), std::string::npos) << what;
  EXPECT_NE(what.find("the buffer counts 1048 B"), std::string::npos) << what;
  EXPECT_NE(what.find("come to 0 B"), std::string::npos) << what;
  sw.mmu.release(2, 3, 1048, 0);
  EXPECT_EQ(violation([&] { check.check(5 * kPsPerUs, false); }).first, "");
}

TEST(FabricChecker, APortCounterThatDisagreesWithItsQueuesIsNamed) {
  Network net(make_star(3, kLink), SwitchConfig{}, NicConfig{}, 1);
  FabricChecker check(net);
  Port& port = net.switch_at(0).ports[1];
  port.queued_bytes += 64;
  auto [name, what] = violation([&] { check.check(0, false); });
  EXPECT_EQ(name, "queue bytes");
  EXPECT_NE(what.find("s0 port 1 (to h1)"), std::string::npos) << what;
  EXPECT_NE(what.find("counts 64 B queued but holds 0 B"), std::string::npos) << what;
  port.queued_bytes -= 64;
  EXPECT_EQ(violation([&] { check.check(0, false); }).first, "");
}

TEST(FabricChecker, APauseMustBeInForceUntilItsTimeRunsOut) {
  Network net(make_star(3, kLink), SwitchConfig{}, NicConfig{}, 1);
  FabricChecker check(net);
  Port& nic = net.nic(1).port;
  nic.on_pfc(3, 1000, 0);  // 1000 quanta = 512000 bits: 5.12 us at 100 G
  ASSERT_TRUE(nic.paused(3));
  EXPECT_EQ(nic.pause_until(3), 5'120'000u);
  EXPECT_EQ(violation([&] { check.check(5 * kPsPerUs, false); }).first, "");
  // Its expiry never ran: at 6 us it is still paused.
  auto [name, what] = violation([&] { check.check(6 * kPsPerUs, false); });
  EXPECT_EQ(name, "pause");
  EXPECT_NE(what.find("h1 port 0 (to s0) priority 3"), std::string::npos) << what;
  EXPECT_NE(what.find("pause ran out at 0.005120 ms"), std::string::npos) << what;
  // With no event left nothing can end it.
  EXPECT_NE(violation([&] { check.check(kPsPerUs, true); }).second.find("when no event is left"),
            std::string::npos);
  net.sim().run(kTimeNever - 1);  // the expiry
  EXPECT_FALSE(nic.paused(3));
  EXPECT_EQ(violation([&] { check.check(6 * kPsPerUs, true); }).first, "");
}

TEST(FabricChecker, APauseASwitchHoldsIsInForceUpstreamOrOnItsWay) {
  Network net(make_star(3, kLink), SwitchConfig{}, NicConfig{}, 1);
  FabricChecker check(net);
  Switch& sw = net.switch_at(0);
  sw.mmu.set_paused(1, 3, true);
  auto [name, what] = violation([&] { check.check(0, false); });
  EXPECT_EQ(name, "pause");
  EXPECT_NE(what.find("s0 ingress port 1 priority 3"), std::string::npos) << what;
  EXPECT_NE(what.find("upstream h1 port 0 (to s0), which is not paused"), std::string::npos) << what;
  // The frame queued at the port: on its way.
  sw.queue_pause_frame(1, 3, 65535);
  EXPECT_EQ(violation([&] { check.check(0, false); }).first, "");
  // On the wire (its delivery pending), then in force at the NIC.
  sw.ports[1].kick_or_wait();
  EXPECT_EQ(violation([&] { check.check(0, false); }).first, "");
  net.sim().run(2 * kPsPerUs);
  EXPECT_TRUE(net.nic(1).port.paused(3));
  EXPECT_EQ(violation([&] { check.check(2 * kPsPerUs, false); }).first, "");
}

TEST(DeadlockDetector, WatchesOnlyFabricsWhoseRoutesCanFormACycle) {
  // Up-down routes (star, leaf-spine, fat tree) and a line cannot; a ring of four can (2-hop routes turn
  // at every switch the same way round).
  for (const Topology& t : {make_star(4, kLink), make_leaf_spine(4, 2, 4, kLink, kLink),
                            make_fat_tree_k(4, kLink, kLink), ring(4, true), ring(3)}) {
    Network net(t, SwitchConfig{}, NicConfig{}, 1);
    EXPECT_FALSE(DeadlockDetector(net).watching()) << t.switches << " switches";
  }
  Network net(ring(4), SwitchConfig{}, NicConfig{}, 1);
  DeadlockDetector d(net);
  EXPECT_TRUE(d.watching());
  EXPECT_TRUE(d.reports().empty());
}

TEST(RunEnd, Names) {
  EXPECT_STREQ(run_end_name(RunEnd::kAllDone), "all_done");
  EXPECT_STREQ(run_end_name(RunEnd::kDrained), "drained");
  EXPECT_STREQ(run_end_name(RunEnd::kStop), "stop");
  EXPECT_STREQ(run_end_name(RunEnd::kViolation), "violation");
  EXPECT_EQ(format_sim_time(1'234'567'000), "1.234567 ms");
}

}  // namespace
}  // namespace lossless
