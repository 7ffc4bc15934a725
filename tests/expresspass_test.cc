// ExpressPass as its paper reports it (issue 14's "Show" list): credits limited at every switch egress keep
// the bottleneck queue near empty, the link as full as the credit share allows and the flows fair; data
// retraces the credits' path; the fat tree's WebSearch traffic completes with no data drop on a lossless
// fabric while credits are dropped by design (summary.json packets.scheme_drops).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "control/cc_scheme.h"
#include "net/network.h"
#include "test_util.h"

namespace lossless::test {
namespace {

// 8 senders on the left switch, 8 receivers on the right, one 100 G link between them: flow i goes from h_i
// to h_{8+i}. The bottleneck is the left switch's port 8 (to the right switch). 20 MB each: about 14 ms.
constexpr const char* kEightToOneLink = R"(
topology: {type: dumbbell, left: 8, right: 8, host_link: {rate: 100Gbps, delay: 1us}, core_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: expresspass}
workload: [{type: flows, flows: [
  {src: 0, dst: 8, size: 20MB}, {src: 1, dst: 9, size: 20MB}, {src: 2, dst: 10, size: 20MB}, {src: 3, dst: 11, size: 20MB},
  {src: 4, dst: 12, size: 20MB}, {src: 5, dst: 13, size: 20MB}, {src: 6, dst: 14, size: 20MB}, {src: 7, dst: 15, size: 20MB}]}]
monitor: {queues: {interval: 1us, where: ["s0:8"]}, flow_rates: {interval: 100us, flows: all}}
)";

// Per-flow delivered bytes over consecutive windows of `window_ns` in (from_ns, to_ns], each as a fraction of
// the window's mean over the flows minus 1 (0 = exactly the fair share): one vector per window.
std::vector<std::vector<double>> share_deviations(const RunOutput& out, double from_ns, double to_ns,
                                                  double window_ns) {
  std::map<long, std::map<std::string, double>> bytes;  // window -> flow -> rate sum
  for (const auto& row : out.csv("flow_rates.csv")) {
    const double t = num(row, "time_ns");
    if (t <= from_ns || t > to_ns) continue;
    bytes[static_cast<long>((t - from_ns - 1) / window_ns)][row.at("flow_id")] += num(row, "rate_bps");
  }
  std::vector<std::vector<double>> dev;
  for (const auto& [w, flows] : bytes) {
    double total = 0;
    for (const auto& [id, b] : flows) total += b;
    std::vector<double> d;
    for (const auto& [id, b] : flows) d.push_back(b / (total / static_cast<double>(flows.size())) - 1);
    dev.push_back(d);
  }
  return dev;
}

TEST(ExpressPassScenario, EightLongFlowsKeepTheBottleneckQueueShortTheLinkFullAndTheShareFair) {
  auto out = run_yaml(kEightToOneLink, "xpass_8flows");
  ASSERT_EQ(out.result.flows_completed, 8u);
  EXPECT_EQ(out.result.counters.drops, 0u);
  EXPECT_EQ(out.result.counters.pause_frames, 0u);
  EXPECT_GT(out.result.counters.scheme_drops, 0u);  // credits beyond the share are dropped, by design
  // Queue at the bottleneck after the first few RTTs (base RTT 6.3 us): below 10 data packets.
  double max_queue = 0;
  for (const auto& row : out.csv("queues.csv"))
    if (num(row, "time_ns") > 50'000) max_queue = std::max(max_queue, num(row, "bytes"));
  EXPECT_LT(max_queue, 10 * 1048);
  // 1 ms .. 12 ms (all flows running): per-flow goodput and the link's utilisation. The credit feedback
  // control sees about 9 credits per RTT and flow, so single losses move rates a lot: over 200 us windows
  // flows range from 0.2x to 2x their share, and shares even out only over milliseconds.
  std::map<std::string, std::vector<double>> rates;
  for (const auto& row : out.csv("flow_rates.csv")) {
    const double t = num(row, "time_ns");
    if (t > 1'000'000 && t <= 12'000'000) rates[row.at("flow_id")].push_back(num(row, "rate_bps"));
  }
  ASSERT_EQ(rates.size(), 8u);
  std::vector<double> mean;
  for (const auto& [id, r] : rates) mean.push_back(std::accumulate(r.begin(), r.end(), 0.0) / r.size());
  const double total = std::accumulate(mean.begin(), mean.end(), 0.0);
  // Data fills the link up to what its credits leave: 1048 / (84 + 1048) of 100 G in payload frames, i.e.
  // 1000/1132 of 100 G as goodput (88.3 Gb/s).
  const double limit = 100e9 * 1000.0 / 1132;
  EXPECT_LT(total, 1.01 * limit);
  EXPECT_GT(total, 0.9 * limit);
  for (double m : mean) EXPECT_NEAR(m, total / 8, 0.1 * total / 8);
  // Over 1 ms windows the shares spread far wider: the authors' ns-2 model (XPass-ns2, the same 8-flow
  // dumbbell at 100 G / 1 us with its 10-credit queues, 4 runs) gives a standard deviation of 0.19-0.24 of
  // the fair share and single windows 0.47-0.86 off it; ours 0.21-0.26 and 0.52-0.73 (6 runs;
  // docs/model.md, "ExpressPass"). The bound is that spread with a margin: it fails if the control law
  // stops evening out the shares, not on the scheme's own noise.
  double sum_sq = 0;
  std::size_t n = 0;
  for (const auto& window : share_deviations(out, 1'000'000, 12'000'000, 1'000'000))
    for (double d : window) {
      sum_sq += d * d;
      ++n;
    }
  ASSERT_EQ(n, 88u);
  EXPECT_LT(std::sqrt(sum_sq / static_cast<double>(n)), 0.35);
}

TEST(ExpressPassScenario, TwoLongFlowsShareTheBottleneckEquallyInEveryMillisecond) {
  // Two flows through one 100 G link: each within 10 % of the fair share in every 1 ms window once the
  // first millisecond is over. The authors' ns-2 model in this setting keeps both within 4 % (1538-B
  // frames); ours within 1 % (1048-B frames, 4 % with 1538-B ones). With 8 flows neither does (above).
  auto out = run_yaml(R"(
topology: {type: dumbbell, left: 2, right: 2, host_link: {rate: 100Gbps, delay: 1us}, core_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: expresspass}
workload: [{type: flows, flows: [{src: 0, dst: 2, size: 40MB}, {src: 1, dst: 3, size: 40MB}]}]
monitor: {flow_rates: {interval: 100us, flows: all}}
)",
                      "xpass_2flows");
  ASSERT_EQ(out.result.flows_completed, 2u);
  const auto windows = share_deviations(out, 1'000'000, 7'000'000, 1'000'000);
  ASSERT_EQ(windows.size(), 6u);
  for (const auto& window : windows) {
    ASSERT_EQ(window.size(), 2u);
    for (double d : window) EXPECT_LT(std::abs(d), 0.1);
  }
}

Scenario load_scenario_text(const std::string& yaml) {
  return parse_scenario(YAML::Load(yaml), "test.yaml", ScenarioOverrides{});
}

// The path a packet takes from `from` host following per-switch egress ports `route` (null: stop at the
// first switch), as the node ids it visits.
std::vector<std::uint32_t> walk(Network& net, std::uint32_t from, const std::uint16_t* route) {
  std::vector<std::uint32_t> nodes{from};
  const Port* p = &net.peer_of(net.nic(from).port);
  for (std::uint32_t hop = 0;; ++hop) {
    nodes.push_back(p->node);
    if (net.topology().is_host(p->node)) return nodes;
    const Switch& sw = net.switch_at(p->node - net.topology().hosts);
    p = &net.peer_of(sw.ports[route[hop]]);
  }
}

TEST(ExpressPassScenario, CreditsAndRepliesRetraceTheDataPath) {
  // In a fat tree ECMP picks paths per direction; ExpressPass asks for symmetric routes.
  auto sc = load_scenario_text(R"(
topology: {type: fat_tree, k: 4}
cc: {algorithm: expresspass}
workload: [{type: poisson, cdf: WebSearch, load: 0.5, duration: 200us}]
)");
  Network net(sc.topology, sc.sw, sc.nic, sc.seed);
  std::vector<Flow> flows;
  for (std::uint32_t i = 0; i < 16; ++i)
    for (std::uint32_t j = 0; j < 16; ++j)
      if (i != j) {
        Flow f;
        f.id = static_cast<std::uint32_t>(flows.size());
        f.src = i;
        f.dst = j;
        f.size_bytes = 1000;
        f.sport = static_cast<std::uint16_t>(10000 + j);
        flows.push_back(f);
      }
  net.install_flows(flows, *sc.cc);
  std::uint32_t asymmetric_by_ecmp = 0;
  for (const Flow& f : flows) {
    auto forward = walk(net, f.src, net.forward_route(f.id));
    auto back = walk(net, f.dst, net.reverse_route(f.id));
    std::reverse(back.begin(), back.end());
    EXPECT_EQ(forward, back) << "flow " << f.id;
  }
  // Without the hint the reverse paths differ for some flows (so the check above can fail).
  auto plain = load_scenario_text(R"(
topology: {type: fat_tree, k: 4}
cc: {algorithm: none}
workload: [{type: poisson, cdf: WebSearch, load: 0.5, duration: 200us}]
)");
  Network other(plain.topology, plain.sw, plain.nic, plain.seed);
  other.install_flows(flows, *plain.cc);
  for (const Flow& f : flows) {
    auto forward = walk(other, f.src, other.forward_route(f.id));
    auto back = walk(other, f.dst, other.reverse_route(f.id));
    std::reverse(back.begin(), back.end());
    asymmetric_by_ecmp += forward != back;
  }
  EXPECT_GT(asymmetric_by_ecmp, 0u);
}

TEST(ExpressPassScenario, FatTreeWebSearchCompletesWithoutDataDropsWhenLossless) {
  auto out = run_yaml(R"(
seed: 2
topology: {type: fat_tree, k: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 400Gbps, delay: 1us}}
cc: {algorithm: expresspass}
workload: [{type: poisson, cdf: WebSearch, load: 0.3, duration: 1ms}]
)",
                      "xpass_fattree");
  EXPECT_GT(out.result.flows_total, 20u);
  EXPECT_EQ(out.result.flows_completed, out.result.flows_total);
  EXPECT_EQ(out.result.counters.drops, 0u);
  EXPECT_EQ(out.result.counters.nacks, 0u);
  EXPECT_GT(out.result.counters.scheme_drops, 0u);
  EXPECT_NE(out.read("summary.json").find("\"scheme_drops\": "), std::string::npos);
}

}  // namespace
}  // namespace lossless::test
