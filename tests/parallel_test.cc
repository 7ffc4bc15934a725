// Scenario tests of the partitioned run (DESIGN §4.2): the fabric split over two threads gives byte-identical
// outputs to the run on one thread, with PFC pauses, drops and retransmissions, INT and switch mechanisms.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "test_util.h"

namespace lossless::test {
namespace {

// summary.json without the lines that measure the process (wall time, memory, threads).
std::string simulation_summary(const RunOutput& out) {
  std::string s = out.read("summary.json");
  for (const char* key : {"\"wall_seconds\"", "\"memory\"", "\"threads\"", "\"outputs\""}) {
    auto i = s.find(key);
    if (i == std::string::npos) continue;
    s.erase(i, s.find('\n', i) - i);
  }
  return s;
}

struct ParallelCase {
  const char* name;
  const char* yaml;
};

class Parallel : public ::testing::TestWithParam<ParallelCase> {};

TEST_P(Parallel, TwoThreadsGiveTheOutputsOfOne) {
  const ParallelCase& c = GetParam();
  auto one = run_yaml(c.yaml, std::string("par1_") + c.name);
  auto two = run_yaml(c.yaml, std::string("par2_") + c.name, {}, 2);
  ASSERT_EQ(one.result.threads, 1u);
  ASSERT_EQ(two.result.threads, 2u) << "the run was not partitioned";
  EXPECT_GT(one.result.flows_completed, 0u);
  EXPECT_EQ(one.read("fct.csv"), two.read("fct.csv"));
  EXPECT_EQ(one.read("pfc.csv"), two.read("pfc.csv"));
  EXPECT_EQ(simulation_summary(one), simulation_summary(two));
  EXPECT_EQ(one.result.events, two.result.events);
  EXPECT_EQ(one.result.sim_time_ps, two.result.sim_time_ps);
}

INSTANTIATE_TEST_SUITE_P(
    Schemes, Parallel,
    ::testing::Values(
        // Incast under PFC: pause frames cross between the threads (checked below to be there).
        ParallelCase{"dcqcn_pfc", R"(
seed: 3
topology: {type: leaf_spine, leaves: 4, spines: 2, hosts_per_leaf: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
switch: {buffer: 2MB}
cc: {algorithm: dcqcn}
workload: [{type: poisson, cdf: WebSearch, load: 0.6, duration: 1ms}, {type: incast, receiver: 0, senders: 1-15, size: 200KB, start: 50us}, {type: incast, receiver: 9, senders: 0-7, size: 64KB, start: 20us, count: 20, period: 50us}]
monitor: {pfc: true}
)"},
        // Lossy fabric: drops, NACKs and go-back-N; HPCC's INT records written by switches of both threads.
        ParallelCase{"hpcc_lossy", R"(
seed: 4
topology: {type: fat_tree, k: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
switch: {buffer: 1MB, flow_control: none}
cc: {algorithm: hpcc}
workload: [{type: poisson, cdf: WebSearch, load: 0.7, duration: 1ms}, {type: incast, receiver: 0, senders: 1-15, size: 200KB, start: 50us}, {type: incast, receiver: 9, senders: 0-7, size: 64KB, start: 20us, count: 20, period: 50us}]
)"},
        // A switch mechanism with its own timers (RoCC's CP) on both threads.
        ParallelCase{"rocc", R"(
seed: 5
topology: {type: leaf_spine, leaves: 2, spines: 2, hosts_per_leaf: 8, host_link: {rate: 40Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
switch: {mechanism: rocc}
cc: {algorithm: rocc}
workload: [{type: poisson, cdf: WebSearch, load: 0.5, duration: 1ms}, {type: incast, receiver: 3, senders: 8-15, size: 64KB, start: 20us, count: 20, period: 50us}]
)"},
        // RCC: receivers' PID timers, per-NIC flow counts and clock draws on both threads.
        ParallelCase{"rcc", R"(
seed: 7
topology: {type: fat_tree, k: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: rcc, params: {clock_jitter: 200ns}}
workload: [{type: poisson, cdf: WebSearch, load: 0.6, duration: 1ms}, {type: incast, receiver: 0, senders: 8-15, size: 64KB, start: 20us, count: 20, period: 50us}]
)"},
        // Flow-control policies with timers and pause frames of their own kinds (P-PFC, CaPFC).
        ParallelCase{"ppfc", R"(
seed: 7
topology: {type: leaf_spine, leaves: 4, spines: 2, hosts_per_leaf: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
switch: {buffer: 4MB, flow_control: ppfc, ecn: {kmin: {100Gbps: 40KB}, kmax: {100Gbps: 200KB}}}
cc: {algorithm: dcqcn}
workload: [{type: poisson, cdf: WebSearch, load: 0.5, duration: 500us}, {type: incast, receiver: 0, senders: 1-15, size: 200KB, start: 50us}, {type: incast, receiver: 9, senders: 0-7, size: 64KB, start: 20us, count: 10, period: 50us}]
monitor: {pfc: true}
)"},
        ParallelCase{"capfc", R"(
seed: 8
topology: {type: leaf_spine, leaves: 4, spines: 2, hosts_per_leaf: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
switch: {buffer: 4MB, flow_control: capfc}
cc: {algorithm: dcqcn}
workload: [{type: poisson, cdf: WebSearch, load: 0.5, duration: 500us}, {type: incast, receiver: 0, senders: 1-15, size: 200KB, start: 50us}, {type: incast, receiver: 9, senders: 0-7, size: 64KB, start: 20us, count: 10, period: 50us}]
monitor: {pfc: true}
)"},
        // QCN's congestion points and DCQCN+PI's marking on both threads.
        ParallelCase{"qcn", R"(
seed: 7
topology: {type: leaf_spine, leaves: 2, spines: 2, hosts_per_leaf: 8, host_link: {rate: 40Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
switch: {mechanism: qcn}
cc: {algorithm: qcn}
workload: [{type: poisson, cdf: WebSearch, load: 0.5, duration: 1ms}, {type: incast, receiver: 3, senders: 8-15, size: 64KB, start: 20us, count: 20, period: 50us}]
)"},
        ParallelCase{"dcqcn_pi", R"(
seed: 8
topology: {type: leaf_spine, leaves: 2, spines: 2, hosts_per_leaf: 8, host_link: {rate: 40Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
switch: {ecn: {marking: pi}}
cc: {algorithm: dcqcn}
workload: [{type: poisson, cdf: WebSearch, load: 0.5, duration: 1ms}, {type: incast, receiver: 3, senders: 8-15, size: 64KB, start: 20us, count: 20, period: 50us}]
)"},
        // BFC's pause bitmaps cross between the threads, and its NIC parts obey them.
        ParallelCase{"bfc", R"(
seed: 9
topology: {type: leaf_spine, leaves: 2, spines: 2, hosts_per_leaf: 8, host_link: {rate: 40Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
switch: {flow_control: bfc, ecn: {enabled: false}}
cc: {algorithm: none}
workload: [{type: poisson, cdf: WebSearch, load: 0.5, duration: 1ms}, {type: incast, receiver: 3, senders: 8-15, size: 64KB, start: 20us, count: 20, period: 50us}]
)"},
        // Mercury's port states (pause hooks), flow tables and CNPs; PACC's timers; TCD's marks and UE-CNPs.
        ParallelCase{"mercury", R"(
seed: 7
topology: {type: leaf_spine, leaves: 4, spines: 2, hosts_per_leaf: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
switch: {buffer: 2MB, mechanism: mercury}
cc: {algorithm: mercury}
workload: [{type: poisson, cdf: WebSearch, load: 0.6, duration: 1ms}, {type: incast, receiver: 0, senders: 1-15, size: 200KB, start: 50us}, {type: incast, receiver: 9, senders: 0-7, size: 64KB, start: 20us, count: 20, period: 50us}]
)"},
        ParallelCase{"pacc", R"(
seed: 8
topology: {type: leaf_spine, leaves: 4, spines: 2, hosts_per_leaf: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
switch: {buffer: 2MB, mechanism: pacc}
cc: {algorithm: dcqcn}
workload: [{type: poisson, cdf: WebSearch, load: 0.6, duration: 1ms}, {type: incast, receiver: 0, senders: 1-15, size: 200KB, start: 50us}]
)"},
        ParallelCase{"dcqcn_tcd", R"(
seed: 9
topology: {type: leaf_spine, leaves: 4, spines: 2, hosts_per_leaf: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
switch: {buffer: 2MB, mechanism: tcd}
cc: {algorithm: dcqcn_tcd}
workload: [{type: poisson, cdf: WebSearch, load: 0.6, duration: 1ms}, {type: incast, receiver: 0, senders: 1-15, size: 200KB, start: 50us}, {type: incast, receiver: 9, senders: 0-7, size: 64KB, start: 20us, count: 20, period: 50us}]
)"},
        // The VOQ switch with RCM: CNs between switches of both threads, adaptive routing per packet.
        ParallelCase{"voq_rcm", R"(
seed: 7
topology: {type: fat_tree, k: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
switch: {architecture: voq, mechanism: rcm}
cc: {algorithm: dcqcn}
workload: [{type: poisson, cdf: WebSearch, load: 0.5, duration: 400us}, {type: incast, receiver: 0, senders: 4-15, size: 100KB, start: 50us}]
monitor: {pfc: true}
)"},
        ParallelCase{"timely", R"(
seed: 6
topology: {type: fat_tree, k: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 2us}}
cc: {algorithm: timely}
workload: [{type: poisson, cdf: WebSearch, load: 0.5, duration: 1ms}, {type: incast, receiver: 0, senders: 8-15, size: 64KB, start: 20us, count: 20, period: 50us}]
)"},
        // Swift: windows and pacing below one packet from the ACKs' delays and end-host stamps.
        ParallelCase{"swift", R"(
seed: 9
topology: {type: fat_tree, k: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: swift}
workload: [{type: poisson, cdf: WebSearch, load: 0.5, duration: 1ms}, {type: incast, receiver: 0, senders: 4-15, size: 64KB, start: 20us, count: 20, period: 50us}]
)"},
        // Receiver-driven schemes: grants and credits cross between the threads; Homa's switch queues and
        // RESEND timers (lossy), ExpressPass's credit limiters at every switch and NIC.
        ParallelCase{"homa_lossy", R"(
seed: 7
topology: {type: fat_tree, k: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 400Gbps, delay: 1us}}
switch: {buffer: 600KB, flow_control: none}
cc: {algorithm: homa}
workload: [{type: poisson, cdf: WebSearch, load: 0.5, duration: 300us}, {type: incast, receiver: 0, senders: 8-15, size: 200KB, start: 20us}]
)"},
        ParallelCase{"expresspass", R"(
seed: 8
topology: {type: fat_tree, k: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 400Gbps, delay: 1us}}
cc: {algorithm: expresspass}
workload: [{type: poisson, cdf: WebSearch, load: 0.5, duration: 300us}, {type: incast, receiver: 0, senders: 8-15, size: 200KB, start: 20us}]
)"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(ParallelRun, IncastCasesExerciseWhatTheyClaim) {
  auto pfc = run_yaml(R"(
seed: 3
topology: {type: leaf_spine, leaves: 4, spines: 2, hosts_per_leaf: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
switch: {buffer: 2MB}
cc: {algorithm: dcqcn}
workload: [{type: poisson, cdf: WebSearch, load: 0.6, duration: 300us}, {type: incast, receiver: 0, senders: 1-15, size: 200KB, start: 50us}]
)",
                      "par_pfc_check", {}, 2);
  EXPECT_GT(pfc.result.counters.pause_frames, 0u);
  auto lossy = run_yaml(R"(
seed: 4
topology: {type: fat_tree, k: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
switch: {buffer: 1MB, flow_control: none}
cc: {algorithm: hpcc}
workload: [{type: poisson, cdf: WebSearch, load: 0.7, duration: 300us}, {type: incast, receiver: 0, senders: 1-15, size: 200KB, start: 50us}]
)",
                        "par_lossy_check", {}, 2);
  EXPECT_GT(lossy.result.counters.drops, 0u);
  EXPECT_GT(lossy.result.counters.retransmitted_bytes, 0u);
  // The P-PFC and CaPFC cases send pauses of their own kinds (not standard) across the threads.
  for (const char* fc : {"ppfc", "capfc"}) {
    auto r = run_yaml(R"(
seed: 7
topology: {type: leaf_spine, leaves: 4, spines: 2, hosts_per_leaf: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
switch: {buffer: 4MB, ecn: {kmin: {100Gbps: 40KB}, kmax: {100Gbps: 200KB}}}
cc: {algorithm: dcqcn}
workload: [{type: incast, receiver: 0, senders: 1-15, size: 200KB, start: 50us}]
)",
                      std::string("par_check_") + fc, {{"switch.flow_control", fc}}, 2);
    const auto& by_kind = r.result.counters.pause_frames_by_kind;
    EXPECT_GT(r.result.counters.pause_frames, by_kind[0]) << fc << ": no pause of the policy's own kind";
  }
}

TEST(ParallelRun, MorePartitionsThanCoresGiveTheSameOutputs) {
  const char* yaml = R"(
seed: 9
topology: {type: fat_tree, k: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
switch: {buffer: 2MB}
cc: {algorithm: dcqcn}
workload: [{type: poisson, cdf: WebSearch, load: 0.6, duration: 500us}, {type: incast, receiver: 0, senders: 4-15, size: 64KB, start: 20us, count: 10, period: 50us}]
monitor: {pfc: true}
)";
  auto one = run_yaml(yaml, "par_many_1");
  for (unsigned threads : {3u, 4u}) {
    auto many = run_yaml(yaml, "par_many_" + std::to_string(threads), {}, threads);
    EXPECT_EQ(many.result.threads, threads);
    EXPECT_EQ(one.read("fct.csv"), many.read("fct.csv")) << threads;
    EXPECT_EQ(one.read("pfc.csv"), many.read("pfc.csv")) << threads;
    EXPECT_EQ(simulation_summary(one), simulation_summary(many)) << threads;
  }
}

TEST(ParallelRun, MonitorsOfTheWholeFabricRunOnOneThread) {
  auto out = run_yaml(R"(
topology: {type: leaf_spine, leaves: 2, spines: 2, hosts_per_leaf: 4}
workload: [{type: poisson, cdf: WebSearch, load: 0.5, duration: 100us}]
monitor: {queues: {interval: 10us}}
)",
                      "par_monitor", {}, 2);
  EXPECT_EQ(out.result.threads, 1u);
  EXPECT_FALSE(out.read("queues.csv").empty());
}

TEST(ParallelRun, LinksWithoutDelayLeaveNoLookaheadAndRunOnOneThread) {
  auto out = run_yaml(R"(
topology: {type: star, hosts: 4, host_link: {rate: 100Gbps, delay: 0us}}
workload: [{type: flows, flows: [{src: 1, dst: 0, size: 100KB, start: 0}, {src: 2, dst: 3, size: 100KB, start: 0}]}]
)",
                      "par_nodelay", {}, 2);
  EXPECT_EQ(out.result.threads, 1u);
  EXPECT_EQ(out.result.flows_completed, 2u);
  // And the command line says so, as it does for monitors.
  const std::string dir = temp_dir("par_nodelay_cli");
  std::ofstream(dir + "/s.yaml")
      << "topology: {type: star, hosts: 4, host_link: {rate: 100Gbps, delay: 0us}}\n"
         "workload: [{type: flows, flows: [{src: 1, dst: 0, size: 100KB, start: 0}]}]\n";
  std::string err;
  EXPECT_EQ(run_cli("run " + dir + "/s.yaml -o " + dir + "/out --threads 2", &err), 0) << err;
  EXPECT_NE(err.find("a link without delay leaves no lookahead: one thread"), std::string::npos) << err;
}

}  // namespace
}  // namespace lossless::test
