#include "control/rcc/rcc.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "control/cc_scheme.h"
#include "net/network.h"

namespace lossless {
namespace {

constexpr double kUs = 1e-6;

RccFlowRules::Config config(bool ewa = true, bool pid = true) {
  RccFlowRules::Config c;
  c.base_s = 2 * kUs;  // threshold 2.4 us, target 2.2 us
  c.n = 3;
  c.delta = 0.2;
  c.kp = 1e4;
  c.kd = 1e5;
  c.mtu_bytes = 1000;
  c.entry_from_sample = false;  // E(t-1) = 0 at entry: the first step's U is (Kp + Kd) E
  c.ewa = ewa;
  c.pid = pid;
  return c;
}

TEST(RccRules, ThresholdAndTargetFollowDelta) {
  RccFlowRules r(config(), 50'000);
  EXPECT_DOUBLE_EQ(r.threshold_s(), 2.4 * kUs);
  EXPECT_DOUBLE_EQ(r.target_s(), 2.2 * kUs);
}

TEST(RccRules, NConsecutiveSamplesOverTheThresholdEnterPid) {
  RccFlowRules r(config(), 50'000);
  EXPECT_FALSE(r.on_sample(3 * kUs, false, 50'000));
  EXPECT_FALSE(r.on_sample(3 * kUs, false, 50'000));
  EXPECT_FALSE(r.on_sample(2.3 * kUs, false, 50'000));  // under base x 1.2: the count starts again
  EXPECT_EQ(r.consecutive(), 0u);
  EXPECT_FALSE(r.on_sample(3 * kUs, false, 50'000));
  EXPECT_FALSE(r.on_sample(3 * kUs, false, 50'000));
  EXPECT_FALSE(r.in_pid());
  EXPECT_DOUBLE_EQ(r.window_bytes(), 50'000);  // not congested in the network: the EWA share
  EXPECT_TRUE(r.on_sample(3 * kUs, false, 50'000));
  EXPECT_TRUE(r.in_pid());
  // Exactly at the threshold is not over it.
  RccFlowRules at(config(), 50'000);
  for (int i = 0; i < 5; ++i) EXPECT_FALSE(at.on_sample(2.4 * kUs, false, 50'000));
}

TEST(RccRules, SaturatedLastHopAssignsTheShareAndResetsDetection) {
  RccFlowRules r(config(), 50'000);
  r.on_sample(3 * kUs, false, 50'000);
  r.on_sample(3 * kUs, false, 50'000);
  EXPECT_FALSE(r.on_sample(3 * kUs, true, 25'000));  // last hop busy: last-hop congestion
  EXPECT_DOUBLE_EQ(r.window_bytes(), 25'000);
  EXPECT_EQ(r.consecutive(), 0u);
  EXPECT_FALSE(r.on_sample(3 * kUs, false, 25'000));
  EXPECT_FALSE(r.in_pid());
}

TEST(RccRules, PidStepWithEInSeconds) {
  RccFlowRules r(config(), 50'000);
  r.on_sample(3 * kUs, false, 50'000);
  r.on_sample(3 * kUs, false, 50'000);
  ASSERT_TRUE(r.on_sample(3 * kUs, false, 50'000));
  // Entry takes one step: E = 3 - 2.2 = 0.8 us, E_prev = 0: U = (Kp + Kd) E.
  const double e1 = 0.8 * kUs;
  double u = (1e4 + 1e5) * e1;
  EXPECT_NEAR(r.control_factor(), u, 1e-12);
  double w = 50'000 * (1 - std::tanh(u));
  EXPECT_NEAR(r.window_bytes(), w, 1e-6);
  // Next period the delay is on target: E = 0, the derivative term takes back Kd x E1.
  r.on_sample(2.2 * kUs, false, 50'000);
  r.pid_step(50'000);
  u += 0 + 1e5 * (0 - e1);
  w *= 1 - std::tanh(u);
  EXPECT_NEAR(r.control_factor(), u, 1e-12);
  EXPECT_NEAR(r.window_bytes(), w, 1e-6);
  // Below target: U falls, the window grows (1 - tanh(U) > 1).
  r.on_sample(2.0 * kUs, false, 50'000);
  r.pid_step(50'000);
  const double e3 = -0.2 * kUs;
  u += 1e4 * e3 + 1e5 * (e3 - 0);
  EXPECT_NEAR(r.control_factor(), u, 1e-12);
  EXPECT_LT(u, 0);
  EXPECT_NEAR(r.window_bytes(), w * (1 - std::tanh(u)), 1e-6);
}

TEST(RccRules, PidWindowIsFlooredAtOneMtuAndCappedByTheShare) {
  RccFlowRules r(config(), 50'000);
  for (int i = 0; i < 3; ++i) r.on_sample(100 * kUs, false, 50'000);  // a deep queue: U ~ 10
  ASSERT_TRUE(r.in_pid());
  EXPECT_DOUBLE_EQ(r.window_bytes(), 1000);
  // An empty path for long: the integral term unwinds (0.002 per period at E = -0.2 us, from U ~ 1 after the
  // derivative's kick back), then U turns negative and the window grows up to the share.
  for (int i = 0; i < 400; ++i) {
    r.on_sample(2.0 * kUs, false, 50'000);
    r.pid_step(50'000);
  }
  EXPECT_DOUBLE_EQ(r.window_bytes(), 1000);  // still wound up
  EXPECT_GT(r.control_factor(), 0);
  for (int i = 0; i < 1600; ++i) {
    r.on_sample(2.0 * kUs, false, 50'000);
    r.pid_step(50'000);
  }
  EXPECT_DOUBLE_EQ(r.window_bytes(), 50'000);
  // In PID for good: a smaller share caps it at once, a larger one does not lift it.
  EXPECT_FALSE(r.on_sample(2.0 * kUs, true, 20'000));
  EXPECT_TRUE(r.in_pid());
  EXPECT_DOUBLE_EQ(r.window_bytes(), 20'000);
  r.on_sample(2.0 * kUs, true, 40'000);
  EXPECT_DOUBLE_EQ(r.window_bytes(), 20'000);
}

TEST(RccRules, EntryDerivativeFromTheLastMeasuredDelay) {
  RccFlowRules::Config c = config();
  c.entry_from_sample = true;
  RccFlowRules r(c, 50'000);
  r.on_sample(2.5 * kUs, false, 50'000);
  r.on_sample(2.8 * kUs, false, 50'000);
  ASSERT_TRUE(r.on_sample(3 * kUs, false, 50'000));
  // E(t-1) is the error of the sample before (2.8 us), not 0: U = Kp E + Kd (E - E_prev), no kick of Kd E.
  const double e = 0.8 * kUs, e_prev = 0.6 * kUs;
  EXPECT_NEAR(r.control_factor(), 1e4 * e + 1e5 * (e - e_prev), 1e-12);
  // With n = 1 the entry sample is the first: no sample before, no derivative term.
  c.n = 1;
  RccFlowRules first(c, 50'000);
  ASSERT_TRUE(first.on_sample(3 * kUs, false, 50'000));
  EXPECT_NEAR(first.control_factor(), 1e4 * e, 1e-12);
}

TEST(RccRules, AntiWindupStopsTheIntegralAtTheFloor) {
  RccFlowRules::Config c = config();
  c.anti_windup = true;
  RccFlowRules r(c, 50'000);
  for (int i = 0; i < 3; ++i) r.on_sample(100 * kUs, false, 50'000);  // a deep queue: the floor at once
  ASSERT_TRUE(r.in_pid());
  EXPECT_DOUBLE_EQ(r.window_bytes(), 1000);
  EXPECT_EQ(r.held(), RccFlowRules::Held::kFloor);
  // U is the factor that took 50 KB to 1 KB, not the ~10 the error integrated to.
  EXPECT_NEAR(r.control_factor(), std::atanh(1 - 1000.0 / 50'000), 1e-9);
  for (int i = 0; i < 5; ++i) r.pid_step(50'000);  // the queue stays: held at the floor, U = 0
  EXPECT_NEAR(r.control_factor(), 0, 1e-9);
  EXPECT_EQ(r.floor_steps(), 6u);
  // The path empties: the window grows at the next step (without anti-windup U would first unwind ~10).
  r.on_sample(2.0 * kUs, false, 50'000);
  r.pid_step(50'000);
  EXPECT_LT(r.control_factor(), 0);
  EXPECT_GT(r.window_bytes(), 1000);
  EXPECT_EQ(r.held(), RccFlowRules::Held::kNone);
  // Held at the cap: U stays at the factor that reaches the cap instead of running to -infinity.
  for (int i = 0; i < 200; ++i) r.pid_step(50'000);
  EXPECT_DOUBLE_EQ(r.window_bytes(), 50'000);
  EXPECT_EQ(r.held(), RccFlowRules::Held::kCap);
  EXPECT_NEAR(r.control_factor(), 0, 1e-9);
  EXPECT_EQ(r.pid_steps(), 207u);
}

// The behaviour issue 25 settled: after a long in-network episode has put the window on the one-MTU floor
// (the analysis' gains cut slowly: U grows by 16 x E per step, so it takes a few hundred steps of 20 us), the
// window leaves the floor as soon as the queue is gone with the defaults (base RTT, Kp 16, Kd 7e3): the
// error at an empty queue is one-way - 1.1 x base RTT, about -0.6 x base RTT, and the integral 16 x sum(E)
// stays small. With the one-way base and the evaluation's gains the integral of the episode (1e4 x sum(E))
// must first unwind at 1e4 x 0.1 x one-way per step: the window sits at the floor for hundreds of steps.
TEST(RccRules, WindowLeavesTheFloorWhenTheQueueIsGoneWithTheDefaultsNotWithTheOldReadings) {
  const double one_way = 6.25 * kUs, rtt = 12.27 * kUs;  // the fat tree's cross-pod path
  RccFlowRules::Config now = config();
  now.base_s = rtt;
  now.kp = 16;
  now.kd = 7e3;
  now.entry_from_sample = true;
  RccFlowRules::Config before = config();
  before.base_s = one_way;
  auto episode = [&](RccFlowRules& r) {
    for (int i = 0; i < 3; ++i) r.on_sample(one_way + 20 * kUs, false, 150'000);  // 250 KB of queue at 100G
    EXPECT_TRUE(r.in_pid());
    for (int i = 0; i < 400; ++i) r.pid_step(150'000);  // 400 base RTTs (5 ms) of it
    EXPECT_EQ(r.held(), RccFlowRules::Held::kFloor);
    r.on_sample(one_way, false, 150'000);  // the queue is gone
    int steps = 0;
    while (r.held() == RccFlowRules::Held::kFloor && steps < 2000) r.pid_step(150'000), ++steps;
    return steps;
  };
  RccFlowRules a(now, 150'000), b(before, 150'000);
  EXPECT_LE(episode(a), 1);
  EXPECT_GT(episode(b), 300);
  // From the floor back to the share within a few hundred base RTTs (about 3.5 % per step).
  int steps = 0;
  while (a.held() != RccFlowRules::Held::kCap && steps < 1000) a.pid_step(150'000), ++steps;
  EXPECT_LT(steps, 300);
}

TEST(RccRules, WithoutPidAlwaysTheShareWithoutEwaAlwaysDetection) {
  RccFlowRules ewa_only(config(true, false), 50'000);
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(ewa_only.on_sample(10 * kUs, false, 30'000));
  EXPECT_DOUBLE_EQ(ewa_only.window_bytes(), 30'000);
  RccFlowRules pid_only(config(false, true), 50'000);
  pid_only.on_sample(3 * kUs, true, 50'000);  // a busy last hop does not matter without the EWA
  pid_only.on_sample(3 * kUs, true, 50'000);
  EXPECT_TRUE(pid_only.on_sample(3 * kUs, true, 50'000));
}

// A star of `hosts` (100G, 1 us) with RCC flows installed; senders held, so only hand-made packets reach the
// receivers.
struct RccNet {
  Network net;
  RccParams params;
  std::unique_ptr<CcFactoryOf<Rcc>> factory;
  RccNet(std::uint32_t hosts, std::vector<Flow> flows, RccParams p = {})
      : net(make_star(hosts, {100'000'000'000, kPsPerUs}), SwitchConfig{}, NicConfig{}, 7), params(p) {
    factory = std::make_unique<CcFactoryOf<Rcc>>(params);
    for (std::size_t i = 0; i < flows.size(); ++i) flows[i].id = static_cast<std::uint32_t>(i);
    net.install_flows(flows, *factory);
    for (std::uint32_t h = 0; h < hosts; ++h) net.nic(h).port.paused_mask = 0xff;
    net.sim().run(1);
  }
  RccReceiver& rx(std::uint32_t id) { return *static_cast<RccReceiver*>(net.receiver(id).control); }
  RccNic& nic(std::uint32_t host) { return *static_cast<RccNic*>(net.nic(host).control()); }
  Slot<RccFields> fields() const { return net.slots().bind(kRccFields); }
  // A data packet of flow `id` at byte `seq`, sent `one_way` ago.
  void deliver(std::uint32_t id, Bytes seq, TimePs one_way) {
    Packet p;
    p.type = PacketType::kData;
    p.flow_id = id;
    p.seq = seq;
    p.payload_bytes = 1000;
    p.wire_bytes = 1048;
    p.sent_ps = net.sim().now() - one_way;
    p.ext_init(fields()).stamp_ps = static_cast<std::int64_t>(p.sent_ps);
    net.receiver(id).control->on_data(p);
  }
  // Moves the clock on by `dt` (running what falls due), also when nothing is pending.
  void advance(TimePs dt) {
    const TimePs to = net.sim().now() + dt;
    net.sim().at(
        to, [](void*, std::uint64_t) {}, nullptr);
    net.sim().run(to);
  }
};

Flow flow(std::uint32_t src, std::uint32_t dst, Bytes size) {
  Flow f;
  f.src = src;
  f.dst = dst;
  f.size_bytes = size;
  return f;
}

// Star, 100G, 1 us links: a data packet takes 2 x (1 us + 1048 B x 80 ps) one way, an ACK 2 x (1 us + 64 x
// 80 ps) back; C x base_rtt at 100G.
constexpr TimePs kDataOneWay = 2 * (kPsPerUs + 1048 * 80);
constexpr TimePs kBaseRtt = kDataOneWay + 2 * (kPsPerUs + 64 * 80);
constexpr double kBdp = 100e9 / 8 * static_cast<double>(kBaseRtt) * 1e-12;

TEST(RccReceiverRules, EwaShareFollowsTheHostsActiveFlows) {
  RccNet t(4, {flow(1, 0, 1'000'000), flow(2, 0, 3000), flow(3, 0, 1'000'000)});
  t.deliver(0, 0, kDataOneWay);
  EXPECT_EQ(t.nic(0).active_flows, 1u);
  EXPECT_NEAR(t.rx(0).window_bytes(), kBdp, 1e-6);
  t.deliver(1, 0, kDataOneWay);  // a second flow's first packet
  t.deliver(0, 1000, kDataOneWay);
  EXPECT_NEAR(t.rx(0).window_bytes(), kBdp / 2, 1e-6);
  t.deliver(2, 0, kDataOneWay);
  t.deliver(0, 2000, kDataOneWay);
  EXPECT_NEAR(t.rx(0).window_bytes(), kBdp / 3, 1e-6);
  t.deliver(1, 2000, kDataOneWay);  // flow 1's last packet (3000 B): it leaves
  EXPECT_EQ(t.nic(0).active_flows, 2u);
  t.deliver(0, 3000, kDataOneWay);
  EXPECT_NEAR(t.rx(0).window_bytes(), kBdp / 2, 1e-6);
  // Another receiver's flows do not count.
  EXPECT_EQ(t.nic(1).active_flows, 0u);
}

TEST(RccReceiverRules, AckCarriesTheWindow) {
  RccNet t(3, {flow(1, 0, 1'000'000), flow(2, 0, 1'000'000)});
  t.deliver(0, 0, kDataOneWay);
  t.deliver(1, 0, kDataOneWay);
  Packet ack;
  ack.type = PacketType::kAck;
  ack.ext_init(t.fields()).stamp_ps = 0;
  t.rx(1).on_ack(ack);
  EXPECT_NEAR(ack.ext(t.fields()).window_bytes, kBdp / 2, 1e-6);
}

TEST(RccReceiverRules, OneWayDelayDetectsInNetworkCongestionAndThePidRunsOncePerBaseRtt) {
  RccNet t(2, {flow(1, 0, 100'000'000)});
  // Defaults: RTT_base = the base RTT (threshold 1.2, target 1.1 x kBaseRtt, compared with the one-way
  // delay), Kp 16, Kd 7e3, E(t-1) at entry from the sample before. One packet per base RTT: the host
  // receives far less than eta C base_rtt, so delay decides. The queue adds 4 us: one way 6.17 us, over
  // 1.2 x 4.33 us = 5.2 us.
  const TimePs delay = kDataOneWay + 4 * kPsPerUs;
  for (int i = 0; i < 2; ++i) {
    t.deliver(0, 1000 * i, delay);
    t.advance(kBaseRtt);
  }
  EXPECT_FALSE(t.rx(0).rules().in_pid());
  t.deliver(0, 2000, delay);
  ASSERT_TRUE(t.rx(0).rules().in_pid());
  const double e = static_cast<double>(delay) * 1e-12 - 1.1 * static_cast<double>(kBaseRtt) * 1e-12;
  EXPECT_NEAR(t.rx(0).rules().control_factor(), 16 * e, 1e-12);  // the same delay before: no derivative
  // The timer takes the next step one base RTT later, from the latest sample.
  const double u1 = t.rx(0).rules().control_factor();
  t.advance(kBaseRtt - 1);
  EXPECT_DOUBLE_EQ(t.rx(0).rules().control_factor(), u1);
  t.advance(1);
  EXPECT_NEAR(t.rx(0).rules().control_factor(), u1 + 16 * e, 1e-12);
  t.advance(kBaseRtt);
  EXPECT_NEAR(t.rx(0).rules().control_factor(), u1 + 32 * e, 1e-12);
  // The one-way reading (paper §III-C) detects 1 us of queueing, which the default does not.
  RccParams one_way;
  one_way.base = "one_way";
  RccNet o(2, {flow(1, 0, 100'000'000)}, one_way);
  RccNet r(2, {flow(1, 0, 100'000'000)});
  for (int i = 0; i < 3; ++i) {
    o.deliver(0, 1000 * i, kDataOneWay + kPsPerUs);
    r.deliver(0, 1000 * i, kDataOneWay + kPsPerUs);
    o.advance(kBaseRtt);
    r.advance(kBaseRtt);
  }
  EXPECT_TRUE(o.rx(0).rules().in_pid());
  EXPECT_FALSE(r.rx(0).rules().in_pid());
}

TEST(RccReceiverRules, SaturatedLastHopIsLastHopCongestion) {
  RccNet t(2, {flow(1, 0, 100'000'000)});
  // Back-to-back packets at line rate (1048 B every 83.84 ns): after one base RTT B_R reaches C x base_rtt;
  // then a queue builds in front of the receiver, and the deep delay is the last hop's: the flow keeps the
  // EWA share.
  Bytes seq = 0;
  for (TimePs t0 = 0; t0 < 4 * kBaseRtt; t0 += 1048 * 80) {
    t.deliver(0, seq, kDataOneWay + (t0 < kBaseRtt ? 0 : 5 * kPsPerUs));
    seq += 1000;
    t.advance(1048 * 80);
  }
  EXPECT_FALSE(t.rx(0).rules().in_pid());
  EXPECT_NEAR(t.rx(0).window_bytes(), kBdp, 1e-6);
  // The same delays at a tenth of the rate: in-network congestion.
  for (int i = 0; i < 3 * 3; ++i) {
    t.deliver(0, seq, kDataOneWay + 5 * kPsPerUs);
    seq += 1000;
    t.advance(10 * 1048 * 80);
  }
  EXPECT_TRUE(t.rx(0).rules().in_pid());
}

TEST(RccReceiverRules, BaseIsTheRoundTripOrTheOneWayDelay) {
  RccParams rtt;
  rtt.base = "rtt";
  RccNet a(2, {flow(1, 0, 100'000'000)}, rtt);
  EXPECT_NEAR(a.rx(0).rules().threshold_s(), 1.2 * static_cast<double>(kBaseRtt) * 1e-12, 1e-15);
  EXPECT_NEAR(a.rx(0).rules().target_s(), 1.1 * static_cast<double>(kBaseRtt) * 1e-12, 1e-15);
  RccParams one_way;
  one_way.base = "one_way";
  RccNet b(2, {flow(1, 0, 100'000'000)}, one_way);
  EXPECT_NEAR(b.rx(0).rules().threshold_s(), 1.2 * static_cast<double>(kDataOneWay) * 1e-12, 1e-15);
  // RCC-sender measures the RTT: its base is the round trip whatever `base` says.
  one_way.variant = "sender";
  RccNet c(2, {flow(1, 0, 100'000'000)}, one_way);
  EXPECT_NEAR(static_cast<RccSender*>(c.net.qp(0).cc)->rules().threshold_s(),
              1.2 * static_cast<double>(kBaseRtt) * 1e-12, 1e-15);
}

TEST(RccTraceRows, TimeAtTheFloorAndAtTheCapWhileInPid) {
  RccParams p;
  p.base = "one_way";
  p.kp = 1e4;  // the evaluation's gains with E(t-1) = 0: the first step goes to the floor
  p.kd = 1e5;
  p.entry_derivative = "zero";
  p.trace = true;
  RccNet t(2, {flow(1, 0, 100'000'000)}, p);
  // Three samples 100 us over base: in PID, the first step takes the window to the floor.
  Bytes seq = 0;
  for (int i = 0; i < 3; ++i) {
    t.deliver(0, seq, kDataOneWay + 100 * kPsPerUs);
    seq += 1000;
  }
  ASSERT_TRUE(t.rx(0).rules().in_pid());
  const TimePs entry = t.net.sim().now();
  EXPECT_EQ(t.rx(0).trace().entry_ps, entry);
  EXPECT_EQ(t.rx(0).rules().held(), RccFlowRules::Held::kFloor);
  t.advance(10 * kBaseRtt);  // ten PID steps at the floor (the last sample stays 100 us over)
  t.deliver(0, seq, kDataOneWay + 100 * kPsPerUs);
  EXPECT_EQ(t.rx(0).trace().floor_ps, t.net.sim().now() - entry);
  EXPECT_EQ(t.rx(0).trace().cap_ps, 0u);
  EXPECT_EQ(t.rx(0).rules().pid_steps(), 11u);
  EXPECT_EQ(t.rx(0).rules().floor_steps(), 11u);
}

TEST(RccNicState, BytesReceivedOverASlidingWindow) {
  RccNet t(2, {flow(1, 0, 100'000'000)});
  RccNic& nic = t.nic(0);
  nic.keep_at_least(10 * kPsPerUs);
  nic.record_arrival(10 * kPsPerUs, 1000);
  nic.record_arrival(12 * kPsPerUs, 500);
  nic.record_arrival(15 * kPsPerUs, 250);
  EXPECT_EQ(nic.received_within(15 * kPsPerUs, 4 * kPsPerUs), 750u);  // (11, 15] us
  EXPECT_EQ(nic.received_within(15 * kPsPerUs, 5 * kPsPerUs), 750u);  // (10, 15]
  EXPECT_EQ(nic.received_within(15 * kPsPerUs, 6 * kPsPerUs), 1750u);
  EXPECT_EQ(nic.received_within(16 * kPsPerUs, 1 * kPsPerUs), 0u);
  // Arrivals older than the longest window asked for are forgotten, their bytes still counted out.
  nic.record_arrival(30 * kPsPerUs, 100);
  EXPECT_EQ(nic.received_within(30 * kPsPerUs, 10 * kPsPerUs), 100u);
  EXPECT_EQ(nic.received_within(30 * kPsPerUs, 30 * kPsPerUs), 100u);
}

TEST(RccSenderRules, WindowAndPaceFromTheAck) {
  RccNet t(2, {flow(1, 0, 100'000'000)});
  SenderQp& qp = t.net.qp(0);
  EXPECT_EQ(qp.window_bytes, static_cast<Bytes>(std::ceil(kBdp)));  // starts with one BDP at line rate
  EXPECT_DOUBLE_EQ(qp.rate_bps, 100e9);
  Packet ack;
  ack.type = PacketType::kAck;
  ack.seq = 0;
  ack.ext_init(t.fields()).window_bytes = kBdp / 4;
  qp.cc->on_ack(ack);
  EXPECT_EQ(qp.window_bytes, static_cast<Bytes>(std::ceil(kBdp / 4)));
  EXPECT_NEAR(qp.rate_bps, 25e9, 1);
  // A share under one packet: the window lets one packet out, the pace follows the share.
  ack.ext(t.fields()).window_bytes = 100;
  qp.cc->on_ack(ack);
  EXPECT_EQ(qp.window_bytes, 1000u);
  EXPECT_NEAR(qp.rate_bps, 100 * 8 / (static_cast<double>(kBaseRtt) * 1e-12), 1);
  // A NACK carries no window.
  Packet nack;
  nack.type = PacketType::kNack;
  nack.ext_init(t.fields()).window_bytes = 1e9;
  qp.cc->on_ack(nack);
  EXPECT_EQ(qp.window_bytes, 1000u);
}

TEST(RccClock, JitterAndOffsetStayWithinTheirBoundsAndFollowTheSeed) {
  RccParams p;
  p.clock_jitter = 400 * kPsPerNs;
  p.clock_offset = 1000 * kPsPerNs;
  RccNet a(2, {flow(1, 0, 1'000'000)}, p);
  RccNet b(2, {flow(1, 0, 1'000'000)}, p);
  double lo = 1e18, hi = -1e18;
  bool varies = false;
  std::int64_t first = 0;
  for (int i = 0; i < 2000; ++i) {
    std::int64_t ra = a.nic(0).clock_reading(kPsPerMs);
    EXPECT_EQ(ra, b.nic(0).clock_reading(kPsPerMs));  // the same seed: the same draws
    double e = static_cast<double>(ra - static_cast<std::int64_t>(kPsPerMs));
    lo = std::min(lo, e), hi = std::max(hi, e);
    if (i == 0) first = ra;
    varies = varies || ra != first;
  }
  EXPECT_TRUE(varies);
  EXPECT_LE(hi - lo, 400e3);  // the jitter spans at most J
  EXPECT_GT(hi - lo, 300e3);
  EXPECT_LE(std::abs((hi + lo) / 2), 500e3 + 1);  // centred on the host's offset, within O/2
  // Exact clocks without either.
  RccNet exact(2, {flow(1, 0, 1'000'000)});
  EXPECT_EQ(exact.nic(0).clock_reading(kPsPerMs), static_cast<std::int64_t>(kPsPerMs));
}

TEST(RccSenderVariant, RttAndPidAtTheSender) {
  RccParams p;
  p.variant = "sender";
  RccNet t(2, {flow(1, 0, 100'000'000)}, p);
  // The receiver only computes the share.
  t.deliver(0, 0, kDataOneWay + 50 * kPsPerUs);
  EXPECT_FALSE(t.rx(0).rules().in_pid());
  SenderQp& qp = t.net.qp(0);
  auto& sender = *static_cast<RccSender*>(qp.cc);
  Packet ack;
  ack.type = PacketType::kAck;
  ack.ext_init(t.fields()) = {0, kBdp, false};
  for (int i = 0; i < 3; ++i) {
    t.advance(kBaseRtt);
    ack.sent_ps = t.net.sim().now() - kBaseRtt - 2 * kPsPerUs;  // RTT 2 us over base (> base x 1.2)
    qp.cc->on_ack(ack);
  }
  EXPECT_TRUE(sender.rules().in_pid());
  EXPECT_LT(qp.window_bytes, static_cast<Bytes>(kBdp));
}

}  // namespace
}  // namespace lossless
