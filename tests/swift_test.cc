// Scenario tests of Swift (Kumar et al., SIGCOMM'20) beside the paper's claims: a queue held near the target
// delay at full utilisation with fair shares, and an incast of a hundred flows without loss or a PFC storm.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "test_util.h"

namespace lossless::test {
namespace {

// The star's unloaded RTT at 100G with 1-us links: a 1048-B data packet over two links and a 64-B ACK back.
constexpr double kUnloadedRttUs = 2 * (1 + 1048 * 8 / 100e3) + 2 * (1 + 64 * 8 / 100e3);

// Swift's fabric target on the star (one switch) for a window of `cwnd` packets, with the default parameters:
// 5 us + 1 x 2 us + clamp(alpha / sqrt(cwnd) + beta, 0, 20 us).
double target_us(double cwnd) {
  const double alpha = 20 / (1 / std::sqrt(0.1) - 1 / std::sqrt(100.0)), beta = -alpha / std::sqrt(100.0);
  return 7 + std::clamp(alpha / std::sqrt(cwnd) + beta, 0.0, 20.0);
}

TEST(Swift, TenFlowsIntoOnePortUseItFairlyWithTheQueueNearTheTarget) {
  auto out = run_yaml(R"(
stop: 5ms
topology: {type: star, hosts: 11, host_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: swift}
workload: [{type: incast, receiver: 0, senders: 1-10, size: 10GB, start: 0}]
monitor: {queues: {interval: 10us, where: ["s0:0"]}, flow_rates: {interval: 100us}}
)",
                      "swift_ten");
  // From 1 ms (the line-rate start's first windows have drained).
  double q = 0, nq = 0;
  for (auto& row : out.csv("queues.csv"))
    if (num(row, "time_ns") > 1e6) q += num(row, "bytes"), ++nq;
  std::map<int, double> sum, n;
  for (auto& row : out.csv("flow_rates.csv"))
    if (num(row, "time_ns") > 1e6) {
      const int id = static_cast<int>(num(row, "flow_id"));
      sum[id] += num(row, "rate_bps") * 1048.0 / 1000.0;  // wire rate: 48 B of headers per 1000 B
      n[id] += 1;
    }
  ASSERT_EQ(sum.size(), 10u);
  ASSERT_GT(nq, 0);
  double total = 0, squares = 0;
  for (auto& [id, s] : sum) {
    const double r = s / n[id];
    total += r;
    squares += r * r;
  }
  const double jain = total * total / (10 * squares);
  EXPECT_GE(total / 100e9, 0.95) << total / 1e9 << " Gb/s";
  EXPECT_GE(jain, 0.95);
  // The RTT the mean queue gives, against the target at the window each flow then holds (its share of the
  // path's bytes in flight).
  const double rtt_us = kUnloadedRttUs + q / nq * 8 / 100e3;
  const double cwnd = 100e3 * rtt_us / 8 / 1048 / 10;
  EXPECT_NEAR(rtt_us / target_us(cwnd), 1.0, 0.15)
      << "mean queue " << q / nq << " B, RTT " << rtt_us << " us, target " << target_us(cwnd) << " us";
  EXPECT_EQ(out.result.counters.pause_frames, 0u);
  EXPECT_EQ(out.result.counters.drops, 0u);
}

TEST(Swift, HundredToOneIncastWithoutAPauseStorm) {
  // 100 senders of 500 KB each into one 100G port. Without congestion control the port's queue reaches tens
  // of MB and the switch pauses the senders' links; Swift's windows fall below one packet (100 flows share a
  // ~52-packet BDP) and the flows pace, holding the queue near the flow-scaled target.
  std::map<std::string, RunOutput> runs;
  for (const char* cc : {"swift", "none"})
    runs[cc] = run_yaml(R"(
stop: 20ms
topology: {type: star, hosts: 101, host_link: {rate: 100Gbps, delay: 1us}}
workload: [{type: incast, receiver: 0, senders: 1-100, size: 500KB, start: 0}]
monitor: {queues: {interval: 10us, where: ["s0:0"]}}
)",
                        std::string("swift_incast_") + cc, {{"cc.algorithm", cc}});
  const auto& swift = runs["swift"];
  EXPECT_EQ(swift.result.counters.pause_frames, 0u);
  EXPECT_EQ(swift.result.counters.drops, 0u);
  EXPECT_EQ(swift.csv("fct.csv").size(), 100u);
  EXPECT_GT(runs["none"].result.counters.pause_frames, 100u);
  // 1-3 ms: windows of one to two packets and a target of ~11 us. Each flow adds ai (one packet) per RTT
  // below the target and is cut at most once per RTT, so the 100 flows together overshoot the target by up to
  // 100 packets (8.4 us at 100G) per RTT: the mean RTT lies above the target by about half that. Without
  // congestion control the queue holds tens of MB.
  double q = 0, nq = 0;
  for (auto& row : swift.csv("queues.csv"))
    if (num(row, "time_ns") > 1e6 && num(row, "time_ns") < 3e6) q += num(row, "bytes"), ++nq;
  ASSERT_GT(nq, 0);
  const double rtt_us = kUnloadedRttUs + q / nq * 8 / 100e3;
  const double overshoot_us = 100 * 1048 * 8 / 100e3;
  EXPECT_NEAR(rtt_us - target_us(100e3 * rtt_us / 8 / 1048 / 100), overshoot_us / 2, overshoot_us / 2)
      << q / nq << " B";
}

}  // namespace
}  // namespace lossless::test
