// Homa as the paper reports it (issue 14's "Show" list): SRPT at the receiver lets a short message finish at
// its standalone FCT beside a long one; unscheduled bytes leave at once and reach the receiver within the
// first RTT; the fat tree's WebSearch traffic completes with no drop on a lossless fabric, and on a lossy
// one the RESEND timers recover what the switches drop.
#include <gtest/gtest.h>

#include <string>

#include "test_util.h"

namespace lossless::test {
namespace {

constexpr const char* kTwoToOne = R"(
topology: {type: star, hosts: 3, host_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: homa}
workload: [{type: flows, flows: [{src: 1, dst: 0, size: 4MB, start: 0}, {src: 2, dst: 0, size: 500KB, start: 30us}, {src: 2, dst: 0, size: 20KB, start: 200us}]}]
)";

double fct_us(const RunOutput& out, std::size_t row) {
  return num(out.csv("fct.csv").at(row), "fct_ns") / 1000;
}

TEST(HomaScenario, AShortMessageBesideALongOneFinishesAtItsStandaloneFct) {
  auto both = run_yaml(kTwoToOne, "homa_2to1");
  ASSERT_EQ(both.result.flows_completed, 3u);
  EXPECT_EQ(both.result.counters.drops, 0u);
  // Each short message alone on the fabric.
  auto alone = run_yaml(R"(
topology: {type: star, hosts: 3, host_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: homa}
workload: [{type: flows, flows: [{src: 2, dst: 0, size: 500KB, start: 30us}, {src: 2, dst: 0, size: 20KB, start: 200us}]}]
)",
                        "homa_alone");
  // 500 KB needs grants: the receiver ranks it above the 4 MB message (SRPT) and its packets overtake the
  // long one's at the switch (strict priority). 20 KB goes unscheduled at the top priority.
  EXPECT_LT(fct_us(both, 1), 1.03 * fct_us(alone, 0));
  EXPECT_LT(fct_us(both, 2), 1.1 * fct_us(alone, 1));
  EXPECT_LT(num(alone.csv("fct.csv")[0], "slowdown"), 1.02);  // standalone = the ideal FCT
  // The long message is not starved: it finishes once the short ones are through (its ideal is 335 us).
  EXPECT_LT(fct_us(both, 0), 335 + 45 + 5 + 20);
  // Without Homa (line rate, round-robin switch queues) the 500 KB message shares the link: about twice.
  auto shared = run_yaml(kTwoToOne, "homa_2to1_none", {{"cc.algorithm", "none"}});
  EXPECT_GT(fct_us(shared, 1), 1.5 * fct_us(alone, 0));
}

TEST(HomaScenario, UnscheduledBytesReachTheReceiverInTheFirstRtt) {
  // One 1 MB message on an idle 2-host star: base RTT 4.16 us, RTTbytes = 52 KB at 100 G. The unscheduled
  // bytes leave back to back and are all delivered one one-way latency after they were sent; the first
  // grant arrives as they run out, so the message never stalls (FCT = its ideal).
  auto out = run_yaml(R"(
topology: {type: star, hosts: 2, host_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: homa}
workload: [{type: flows, flows: [{src: 1, dst: 0, size: 1MB, start: 0}]}]
monitor: {flow_rates: {interval: 1us, flows: all}}
)",
                      "homa_unsched");
  ASSERT_EQ(out.result.flows_completed, 1u);
  double delivered = 0;
  for (const auto& row : out.csv("flow_rates.csv")) {
    if (num(row, "time_ns") > 4'160 + 1'000) break;  // the first RTT (plus the last sample's interval)
    delivered += num(row, "rate_bps") * 1e-6 / 8;
  }
  // 52 KB serialize in 4.2 us (1048-B frames: 50 packets = 52.4 KB on the wire); data sent in the first RTT
  // less the one-way latency (2.08 us) has arrived by its end: at least half of RTTbytes.
  EXPECT_GT(delivered, 0.45 * 52'000);
  EXPECT_LT(num(out.csv("fct.csv")[0], "slowdown"), 1.01);
  // A message of RTTbytes needs no grant at all.
  auto one_rtt = run_yaml(R"(
topology: {type: star, hosts: 2, host_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: homa}
workload: [{type: flows, flows: [{src: 1, dst: 0, size: 52KB, start: 0}]}]
)",
                          "homa_one_rtt");
  EXPECT_LT(num(one_rtt.csv("fct.csv")[0], "slowdown"), 1.01);
  // No grant: the only control packet is the ACK, counted where it is sent (the NIC) and at the switch.
  EXPECT_EQ(one_rtt.result.counters.control_packets, 2u);
  EXPECT_GT(out.result.counters.control_packets, 2u);  // the 1 MB message had grants
}

TEST(HomaScenario, AMessageTheReceiverSetAsideIsGrantedAgain) {
  // One message granted at a time (overcommitment 1), RTTbytes 52.5 KB (grants end mid-packet). The 1 MB
  // message's window drains while the receiver grants the 200 KB one; its last packet goes 500 B beyond the
  // grant. Once the short message is through, the long one is granted again and completes (before the fix
  // it never was: the run ended with 1 of 2 messages done).
  auto out = run_yaml(R"(
topology: {type: star, hosts: 3, host_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: homa, params: {rtt_bytes: 52500, overcommitment: 1}}
workload: [{type: flows, flows: [{src: 1, dst: 0, size: 1MB, start: 0}, {src: 2, dst: 0, size: 200KB, start: 20us}]}]
)",
                      "homa_set_aside");
  ASSERT_EQ(out.result.flows_completed, 2u);
  // Both back to back on h0's link: 1.2 MB in about 100 us; the long one is not left waiting.
  EXPECT_LT(fct_us(out, 0), 110);
}

TEST(HomaScenario, LeafSpineWebSearchCompletesEveryMessage) {
  // Issue 26's case: an 18.6 MB message (flow 86, h6 -> h12) received nothing after 4.4 ms and the run
  // ended with 348 of 349 messages done (RTTbytes 102.5 KB here, so grants end mid-packet).
  auto out = run_yaml(R"(
seed: 3
topology: {type: leaf_spine, leaves: 2, spines: 2, hosts_per_leaf: 8, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 400Gbps, delay: 1us}}
switch: {buffer: 32MB}
cc: {algorithm: homa}
workload: [{type: poisson, cdf: WebSearch, load: 0.3, duration: 10ms}]
)",
                      "homa_leaf_spine");
  EXPECT_EQ(out.result.flows_total, 349u);
  EXPECT_EQ(out.result.flows_completed, out.result.flows_total);
  EXPECT_EQ(out.result.counters.drops, 0u);
}

constexpr const char* kFatTreeWebSearch = R"(
seed: 2
topology: {type: fat_tree, k: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 400Gbps, delay: 1us}}
cc: {algorithm: homa}
workload: [{type: poisson, cdf: WebSearch, load: 0.3, duration: 1ms}]
)";

TEST(HomaScenario, FatTreeWebSearchCompletesWithoutDropsWhenLossless) {
  auto out = run_yaml(kFatTreeWebSearch, "homa_fattree");
  EXPECT_GT(out.result.flows_total, 20u);
  EXPECT_EQ(out.result.flows_completed, out.result.flows_total);
  EXPECT_EQ(out.result.counters.drops, 0u);
  EXPECT_EQ(out.result.counters.retransmitted_bytes, 0u);
  EXPECT_EQ(out.result.counters.nacks, 0u);
  // With packets sprayed over the core, as HomaSimulation routes: they arrive out of order, the receiver
  // reassembles (no NACK, no retransmission) and every message completes.
  auto sprayed = run_yaml(kFatTreeWebSearch, "homa_fattree_spray", {{"switch.routing", "spray"}});
  EXPECT_EQ(sprayed.result.flows_completed, sprayed.result.flows_total);
  EXPECT_EQ(sprayed.result.counters.drops, 0u);
  EXPECT_EQ(sprayed.result.counters.nacks, 0u);
  EXPECT_EQ(sprayed.result.counters.retransmitted_bytes, 0u);
}

TEST(HomaScenario, LossyFabricRecoversDropsWithResends) {
  // Tail drop at 150 KB per port queue and an incast: packets are lost; RESENDs (and the senders' timeouts
  // for messages the receiver never saw) bring every message home.
  auto out = run_yaml(R"(
seed: 3
topology: {type: fat_tree, k: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 400Gbps, delay: 1us}}
switch: {buffer: 600KB, flow_control: none}
cc: {algorithm: homa}
workload: [{type: poisson, cdf: WebSearch, load: 0.3, duration: 200us}, {type: incast, receiver: 0, senders: 1-15, size: 100KB, start: 20us}]
)",
                      "homa_lossy");
  EXPECT_GT(out.result.counters.drops, 0u);
  EXPECT_GT(out.result.counters.retransmitted_bytes, 0u);
  EXPECT_EQ(out.result.flows_completed, out.result.flows_total);
}

}  // namespace
}  // namespace lossless::test
