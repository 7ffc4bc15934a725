// RoCC scenario tests (seed paper 004): bandwidth allocation the paper reports, and PFC activity.
#include <gtest/gtest.h>

#include <fstream>

#include "test_util.h"

namespace lossless::test {
namespace {

// Mean wire rate per flow (payload + 48 B per 1000 B) over (from_ns, end].
std::map<int, double> wire_rates(const RunOutput& out, double from_ns) {
  std::map<int, double> sum, n;
  for (auto& row : out.csv("flow_rates.csv"))
    if (num(row, "time_ns") > from_ns) {
      int id = static_cast<int>(num(row, "flow_id"));
      sum[id] += num(row, "rate_bps") * 1048.0 / 1000.0;
      n[id] += 1;
    }
  for (auto& [id, s] : sum) s /= n[id];
  return sum;
}

TEST(Rocc, AsymmetricTopologySharesTheSinkEqually) {
  const char* yaml = R"(
stop: 8ms
topology:
  type: custom
  hosts: 8
  switches: 3
  links: [[h0, s0, 40Gbps, 1us], [h1, s0, 40Gbps, 1us], [h2, s0, 40Gbps, 1us], [h3, s0, 40Gbps, 1us], [h4, s0, 40Gbps, 1us],
          [h5, s1, 100Gbps, 1us], [h6, s1, 100Gbps, 1us], [s0, s2, 100Gbps, 1us], [s1, s2, 100Gbps, 1us], [h7, s2, 100Gbps, 1us]]
switch: {mechanism: rocc}
cc: {algorithm: rocc}
workload: [{type: incast, receiver: 7, senders: 0-6, size: 10GB, start: 0}]
monitor: {flow_rates: {interval: 100us}}
)";
  auto out = run_yaml(yaml, "rocc_asym");
  auto r = wire_rates(out, 4e6);
  ASSERT_EQ(r.size(), 7u);
  for (auto& [id, rate] : r) EXPECT_NEAR(rate / (100e9 / 7), 1.0, 0.10) << "flow " << id;
}

TEST(Rocc, MultiBottleneckGivesEachFlowItsMostCongestedShare) {
  // Paper Fig. 10: D0 (A0->B0) crosses both congestion points; D5 (B5->B0) shares B0's 10G link with it.
  const char* yaml = R"(
stop: 8ms
topology:
  type: custom
  hosts: 11
  switches: 2
  links: [[h0, s0, 10Gbps, 1us], [h1, s0, 10Gbps, 1us], [h2, s0, 10Gbps, 1us], [h3, s0, 10Gbps, 1us], [h4, s0, 10Gbps, 1us],
          [h5, s1, 10Gbps, 1us], [h6, s1, 10Gbps, 1us], [h7, s1, 10Gbps, 1us], [h8, s1, 10Gbps, 1us], [h9, s1, 10Gbps, 1us],
          [h10, s1, 10Gbps, 1us], [s0, s1, 40Gbps, 1us]]
switch: {mechanism: rocc}
cc: {algorithm: rocc}
workload:
  - {type: flows, flows: [{src: 0, dst: 5, size: 10GB, rate: 9Gbps}, {src: 1, dst: 6, size: 10GB, rate: 9Gbps},
                          {src: 2, dst: 7, size: 10GB, rate: 9Gbps}, {src: 3, dst: 8, size: 10GB, rate: 9Gbps},
                          {src: 4, dst: 9, size: 10GB, rate: 9Gbps}, {src: 10, dst: 5, size: 10GB, rate: 9Gbps}]}
monitor: {flow_rates: {interval: 100us}}
)";
  auto out = run_yaml(yaml, "rocc_multi");
  auto r = wire_rates(out, 4e6);
  EXPECT_NEAR(r[0] / 5e9, 1.0, 0.10);
  EXPECT_NEAR(r[5] / 5e9, 1.0, 0.10);
  for (int i = 1; i <= 4; ++i) EXPECT_NEAR(r[i] / 8.75e9, 1.0, 0.10) << "D" << i;
}

TEST(Rocc, FewerPfcPausesThanDcqcnOnAnIncast) {
  const char* yaml = R"(
topology: {type: star, hosts: 17, host_link: {rate: 40Gbps, delay: 1us}}
switch: {buffer: 2MB}
workload: [{type: incast, receiver: 0, senders: 1-16, size: 1MB, start: 0}]
)";
  auto dcqcn = run_yaml(yaml, "rocc_incast_dcqcn", {{"cc.algorithm", "dcqcn"}});
  auto rocc = run_yaml(yaml, "rocc_incast_rocc", {{"cc.algorithm", "rocc"}, {"switch.mechanism", "rocc"}});
  EXPECT_EQ(rocc.result.flows_completed, 16u);
  EXPECT_EQ(rocc.result.counters.drops, 0u);
  EXPECT_LT(rocc.result.counters.pause_frames, dcqcn.result.counters.pause_frames);
}

TEST(Rocc, ConvergesToTheFairShareWithTheQueueAtItsReference) {
  // N = 10 sources offering 90 % of 40G into one 40G link.
  const char* yaml = R"(
stop: 8ms
topology: {type: star, hosts: 11, host_link: {rate: 40Gbps, delay: 1us}}
switch: {mechanism: rocc}
cc: {algorithm: rocc}
workload: [{type: incast, receiver: 0, senders: 1-10, size: 1GB, start: 0, rate: 36Gbps}]
monitor: {queues: {interval: 10us, where: ["s0:0"]}, flow_rates: {interval: 100us}}
)";
  auto out = run_yaml(yaml, "rocc_n10");
  auto r = wire_rates(out, 4e6);
  ASSERT_EQ(r.size(), 10u);
  for (auto& [id, rate] : r) EXPECT_NEAR(rate / 4e9, 1.0, 0.10) << "flow " << id;
  double q = 0, n = 0;
  for (auto& row : out.csv("queues.csv"))
    if (num(row, "time_ns") > 4e6) q += num(row, "bytes"), ++n;
  EXPECT_NEAR(q / n / 150e3, 1.0, 0.20);
}

TEST(Rocc, NeedsItsSwitchMechanism) {
  std::string dir = temp_dir("rocc_nomech");
  std::ofstream(dir + "/s.yaml") << "topology: {type: star, hosts: 3}\ncc: {algorithm: rocc}\n"
                                    "workload: [{type: flows, flows: [{src: 1, dst: 0, size: 1MB}]}]\n";
  std::string err;
  EXPECT_EQ(run_cli("validate " + dir + "/s.yaml", &err), 2);
  EXPECT_NE(err.find("switch.mechanism"), std::string::npos) << err;
}

}  // namespace
}  // namespace lossless::test
