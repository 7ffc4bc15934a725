// Scenario tests of the schemes RoCC is compared with (issue 17): QCN, DCQCN+PI and BFC, on the scenarios
// the RoCC paper (Fig. 11) and the schemes' own papers use to show what they do.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "core/error.h"
#include "test_util.h"

namespace lossless::test {
namespace {

// N flows from their own 40G hosts into one 40G link (RoCC Fig. 11's setting at N = 10).
const char* kTenFlows = R"(
topology: {type: star, hosts: 11, host_link: {rate: 40Gbps, delay: 1us}}
workload: [{type: incast, receiver: 0, senders: 1-10, size: 10GB, start: 0}]
monitor: {queues: {interval: 10us, where: ["s0:0"]}, flow_rates: {interval: 100us}}
)";

std::vector<std::pair<std::string, std::string>> n_flows(
    int n, const std::string& stop, std::vector<std::pair<std::string, std::string>> sets) {
  sets.push_back({"stop", stop});
  sets.push_back({"topology.hosts", std::to_string(n + 1)});
  sets.push_back({"workload.0.senders", "1-" + std::to_string(n)});
  return sets;
}

struct QueueStats {
  double mean = 0, min = 1e18, max = 0;
};
QueueStats queue_after(const RunOutput& out, double from_ns) {
  QueueStats s;
  double n = 0;
  for (auto& row : out.csv("queues.csv"))
    if (num(row, "time_ns") > from_ns) {
      const double b = num(row, "bytes");
      s.mean += b, n += 1, s.min = std::min(s.min, b), s.max = std::max(s.max, b);
    }
  s.mean /= n;
  return s;
}

// Mean wire rate per flow (payload + 48 B per 1000 B) over (from_ns, end].
std::map<int, double> wire_rates(const RunOutput& out, double from_ns) {
  std::map<int, double> sum, n;
  for (auto& row : out.csv("flow_rates.csv"))
    if (num(row, "time_ns") > from_ns) {
      const int id = static_cast<int>(num(row, "flow_id"));
      sum[id] += num(row, "rate_bps") * 1048.0 / 1000.0;
      n[id] += 1;
    }
  for (auto& [id, s] : sum) s /= n[id];
  return sum;
}

TEST(Qcn, TenFlowsHoldTheQueueAtQeqAndFillTheLink) {
  // Q_eq = 33 KB at 10G scaled to 40G: 132 KB. The queue settles just above Q_eq (feedback needs Fb < 0 and
  // |Fb| of at least one quantum, Q_eq (1 + 2w) / 64 = 10 KB), the link is full and no pause is needed.
  auto out = run_yaml(kTenFlows, "qcn_ten",
                      n_flows(10, "60ms", {{"cc.algorithm", "qcn"}, {"switch.mechanism", "qcn"}}));
  const QueueStats q = queue_after(out, 20e6);
  EXPECT_NEAR(q.mean / 132e3, 1.0, 0.15) << "mean queue " << q.mean;
  EXPECT_LT(q.max, 132e3 + 5 * 10.3e3);
  auto r = wire_rates(out, 20e6);
  ASSERT_EQ(r.size(), 10u);
  double total = 0, squares = 0;
  for (auto& [id, rate] : r) total += rate, squares += rate * rate;
  EXPECT_GT(total, 0.97 * 40e9);
  EXPECT_EQ(out.result.counters.pause_frames, 0u);
  // QCN shares the link, but unevenly over tens of ms (as in RoCC's Fig. 11(a)): per byte sent, a flow's cuts
  // (CNMs go to the sources of sampled bytes) and its byte-counter stages come at the same rate whatever its
  // rate, so only R_AI = 5 Mb/s per active-increase stage and the 15 ms timer pull flows together, and with
  // 802.1Qau's 10G constants at 40G that takes far longer than this run. Measured: per-flow rates 2.0-10.5
  // Gb/s, unchanged between 20-40 and 40-60 ms, Jain's index 0.69 (experiments/rocc/README.md). The issue's
  // "every flow within 15 % of fair share" does not hold for QCN at 40G; the bound below guards against a
  // collapse.
  const double jain = total * total / (10 * squares);
  EXPECT_GT(jain, 0.6);
  for (auto& [id, rate] : r) EXPECT_GT(rate, 0.4 * 4e9) << "flow " << id;
}

TEST(DcqcnPi, MeanQueueAtTheReferenceWhereRedsDependsOnLoad) {
  const std::vector<std::pair<std::string, std::string>> dcqcn{{"cc.algorithm", "dcqcn"}};
  auto pi = run_yaml(kTenFlows, "dcqcnpi_10",
                     n_flows(10, "80ms", {{"cc.algorithm", "dcqcn"}, {"switch.ecn.marking", "pi"}}));
  // q_ref = 200 KB at 40G (the fluid model's).
  const QueueStats p = queue_after(pi, 40e6);
  EXPECT_NEAR(p.mean / 200e3, 1.0, 0.20) << "DCQCN+PI mean queue " << p.mean;
  auto r = wire_rates(pi, 40e6);
  for (auto& [id, rate] : r) EXPECT_NEAR(rate / 4e9, 1.0, 0.25) << "flow " << id;
  // RED's queue sits where its marking probability matches what the flows need, which grows with their
  // number: 2 flows settle lower than 10.
  auto red10 = run_yaml(kTenFlows, "dcqcnred_10", n_flows(10, "60ms", dcqcn));
  auto red2 = run_yaml(kTenFlows, "dcqcnred_2", n_flows(2, "60ms", dcqcn));
  const double q10 = queue_after(red10, 30e6).mean, q2 = queue_after(red2, 30e6).mean;
  EXPECT_GT(q10, q2 * 1.10) << "RED: N = 10 " << q10 << ", N = 2 " << q2;
  EXPECT_GT(pi.result.counters.ecn_marks, 0u);
}

// 16:1 incast into h0 on one switch; h1, one of the incast senders, also sends to h17: the victim shares its
// first hop (h1's link and the switch's ingress port) with an incast flow. Its fair rate is what h1's link
// leaves beside h1's incast flow: 40 - 40 / 16 = 37.5 Gb/s.
const char* kVictim = R"(
stop: 3ms
topology: {type: star, hosts: 18, host_link: {rate: 40Gbps, delay: 1us}}
switch: {ecn: {enabled: false}}
cc: {algorithm: none}
workload:
  - {type: incast, receiver: 0, senders: 1-16, size: 10GB, start: 0}
  - {type: flows, flows: [{src: 1, dst: 17, size: 10GB, start: 0}]}
monitor: {flow_rates: {interval: 100us}}
)";

TEST(Bfc, IncastWithoutPausesWhileTheVictimKeepsItsRate) {
  auto bfc = run_yaml(kVictim, "bfc_victim", {{"switch.flow_control", "bfc"}});
  EXPECT_EQ(bfc.result.counters.pause_frames, 0u);
  EXPECT_EQ(bfc.result.counters.drops, 0u);
  auto r = wire_rates(bfc, 0.5e6);
  EXPECT_GT(r.at(16) / 37.5e9, 0.80) << "victim " << r.at(16);
  for (int i = 0; i < 16; ++i) EXPECT_NEAR(r.at(i) / 2.5e9, 1.0, 0.15) << "incast flow " << i;
  // Under PFC the victim waits behind h1's paused incast traffic (head-of-line blocking).
  auto pfc = run_yaml(kVictim, "pfc_victim");
  EXPECT_GT(pfc.result.counters.pause_frames, 0u);
  EXPECT_LT(wire_rates(pfc, 0.5e6).at(16) / 37.5e9, 0.5);
}

TEST(Bfc, CannotShareTheNicWithACongestionControlThatHasItsOwnPart) {
  // docs/extending.md's receiver-window example has a per-NIC part, as BFC has.
  try {
    run_yaml(kVictim, "bfc_nicpart",
             {{"switch.flow_control", "bfc"}, {"cc.algorithm", "example_receiver_window"}});
    FAIL() << "accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("switch.flow_control"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace lossless::test
