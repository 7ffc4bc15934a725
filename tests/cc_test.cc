// Scenario tests of the baselines on small fabrics, and the HPCC-simulator compatibility command.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "test_util.h"

namespace lossless::test {
namespace {

TEST(Hpcc, TwoToOneBottleneckKeepsQueueNearZeroAtHighUtilisation) {
  for (const char* preset : {"none", "hpcc_paper"}) {
    auto out = run_yaml(R"(
stop: 4ms
topology: {type: star, hosts: 3, host_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: hpcc}
workload: [{type: flows, flows: [{src: 1, dst: 0, size: 1GB, start: 0}, {src: 2, dst: 0, size: 1GB, start: 0}]}]
monitor: {queues: {interval: 10us, where: ["s0:0"]}, flow_rates: {interval: 100us}}
)",
                        std::string("hpcc21_") + preset, {{"cc.params.preset", preset}});
    double q = 0, nq = 0;
    for (auto& row : out.csv("queues.csv"))
      if (num(row, "time_ns") > 1e6) q += num(row, "bytes"), ++nq;
    double payload = 0, nr = 0;
    for (auto& row : out.csv("flow_rates.csv"))
      if (num(row, "time_ns") > 1e6) payload += num(row, "rate_bps"), ++nr;
    ASSERT_GT(nq, 0);
    EXPECT_LT(q / nq, 5000) << preset << ": mean queue bytes";
    // Wire utilisation of the receiver link: payload plus 48 B header and two 8 B INT records per 1000 B.
    double wire = payload / (nr / 2) * 1064.0 / 1000.0;
    EXPECT_GT(wire / 100e9, 0.90) << preset;
    EXPECT_EQ(out.result.counters.pause_frames, 0u);
  }
}

TEST(Hpcc, IntRecordsCountOnTheWire) {
  // One packet-sized flow across two switches: the data packet carries 2 INT records (16 B), the ACK echoes
  // them.
  auto out = run_yaml(R"(
topology: {type: dumbbell, left: 1, right: 1, host_link: {rate: 100Gbps, delay: 1us}, core_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: hpcc}
workload: [{type: flows, flows: [{src: 0, dst: 1, size: 1000B, start: 0}]}]
)",
                      "int_wire");
  auto rows = out.csv("fct.csv");
  ASSERT_EQ(rows.size(), 1u);
  // data: 1048 B on h0->s0, 1056 B on s0->s1, 1064 B on s1->h1; ack: 64 + 16 = 80 B on each of 3 links.
  double expect_ns = 6000 + (1048 + 1056 + 1064) * 8 / 100.0 + 3 * 80 * 8 / 100.0;
  EXPECT_NEAR(num(rows[0], "fct_ns"), expect_ns, 1);
}

// DCQCN's notification point (nic.cnp_timing): `immediate` (the DCQCN paper) sends the first CNP as soon as a
// marked packet arrives; `periodic` (the DCQCN authors' ns-3) only at checks every cnp_interval from the
// flow's first packet. A 3:1 incast at 40G (Kmin 40 KB, Kmax 200 KB, Pmax 1, alpha 1): the queue grows at 2 x
// 40G = 10 KB per us from ~2 us. With immediate CNPs the senders halve their rates once marks arrive (~10 us:
// RED marks few packets just above Kmin), then the queue grows at 3 x 20G - 40G = 2.5 KB per us and holds
// ~190 KB at 40 us; with periodic CNPs no rate changes before the first check at ~52 us, so at 40 us the
// queue holds 10 KB x ~38.5 us = ~385 KB.
TEST(DcqcnNotificationPoint, PeriodicTimingSendsTheFirstCnpOnlyAtTheFirstCheck) {
  auto queue_at = [](const RunOutput& out, double us) {
    for (auto& row : out.csv("queues.csv"))
      if (num(row, "time_ns") >= us * 1e3) return num(row, "bytes");
    return -1.0;
  };
  std::map<std::string, RunOutput> runs;
  for (const char* timing : {"immediate", "periodic"})
    runs[timing] = run_yaml(R"(
stop: 10ms
topology: {type: star, hosts: 4, host_link: {rate: 40Gbps, delay: 1us}}
switch: {ecn: {kmin: {40Gbps: 40KB}, kmax: {40Gbps: 200KB}, pmax: {40Gbps: 1.0}}}
cc: {algorithm: dcqcn, params: {variant: paper, initial_alpha: 1.0}}
workload: [{type: incast, receiver: 0, senders: 1-3, size: 1MB, start: 0}]
monitor: {queues: {interval: 1us, where: ["s0:0"]}}
)",
                            std::string("np_") + timing, {{"nic.cnp_timing", timing}});
  const double immediate = queue_at(runs["immediate"], 40), periodic = queue_at(runs["periodic"], 40);
  EXPECT_NEAR(periodic, 385e3, 30e3);
  EXPECT_LT(immediate, 250e3);
  // Both send at most one CNP per flow per 50 us: 3 flows over the ~300 us they are marked.
  for (auto& [timing, out] : runs) {
    EXPECT_EQ(out.result.flows_completed, 3u) << timing;
    EXPECT_GT(out.result.counters.cnps, 0u) << timing;
    EXPECT_LE(out.result.counters.cnps, 3u * (out.result.sim_time_ps / (50 * kPsPerUs) + 1)) << timing;
  }
}

TEST(Baselines, EveryAlgorithmCompletesAnIncastWithoutLoss) {
  for (const char* cc : {"dcqcn", "hpcc", "timely", "dctcp"}) {
    auto out =
        run_yaml(R"(
topology: {type: star, hosts: 9, host_link: {rate: 100Gbps, delay: 1us}}
switch: {buffer: 4MB}
workload: [{type: incast, receiver: 0, senders: 1-8, size: 500KB, start: 0}]
)",
                 std::string("incast_") + cc, {{"cc.algorithm", cc}, {"cc.params.preset", "hpcc_paper"}});
    EXPECT_EQ(out.result.flows_completed, 8u) << cc;
    EXPECT_EQ(out.result.counters.drops, 0u) << cc;
  }
}

std::string write_hpcc_case(const std::string& tag, const std::string& extra) {
  std::string dir = temp_dir(tag);
  std::ofstream(dir + "/topo.txt")
      << "4 1 3\n3\n0 3 100Gbps 1000ns 0\n1 3 100Gbps 1000ns 0\n2 3 100Gbps 1000ns 0\n";
  std::ofstream(dir + "/flow.txt") << "2\n0 2 3 100 300000 2.0\n1 2 3 100 300000 2.0\n";
  std::ofstream(dir + "/config.txt")
      << "ENABLE_QCN 1\nUSE_DYNAMIC_PFC_THRESHOLD 1\nPACKET_PAYLOAD_SIZE 1000\n"
         "TOPOLOGY_FILE topo.txt\nFLOW_FILE flow.txt\nFCT_OUTPUT_FILE out.fct\n"
         "PFC_OUTPUT_FILE out.pfc\nSIMULATOR_STOP_TIME 3.0\nCC_MODE 3\nHAS_WIN 1\n"
         "VAR_WIN 1\nRATE_AI 40Mb/s\nMIN_RATE 1000Mb/s\nL2_ACK_INTERVAL 1\n"
         "KMAX_MAP 1 100000000000 1600\nKMIN_MAP 1 100000000000 400\n"
         "PMAX_MAP 1 100000000000 0.2\nBUFFER_SIZE 32\n"
      << extra;
  return dir;
}

TEST(HpccCommand, RunsAConfigAndWritesItsFiles) {
  std::string dir = write_hpcc_case("hpcc_cmd", "");
  std::string err;
  ASSERT_EQ(run_cli("hpcc " + dir + "/config.txt -o " + dir + "/ours --quiet", &err), 0) << err;
  std::ifstream fct(dir + "/out.fct");
  std::string line;
  int n = 0;
  while (std::getline(fct, line)) ++n;
  EXPECT_EQ(n, 2);
  EXPECT_TRUE(std::ifstream(dir + "/out.pfc").good());
  EXPECT_TRUE(std::ifstream(dir + "/ours/summary.json").good());
  std::ifstream resolved(dir + "/ours/scenario.yaml");
  std::stringstream ss;
  ss << resolved.rdbuf();
  EXPECT_NE(ss.str().find("algorithm: hpcc"), std::string::npos);
  EXPECT_NE(ss.str().find("window: bdp"), std::string::npos);
  // The HPCC simulator's HPCC: its one RATE_AI for every flow and its NIC-scaled queue term.
  EXPECT_NE(ss.str().find("queue_term: nic_scaled"), std::string::npos) << ss.str();
  EXPECT_NE(ss.str().find("expected_flows: 0"), std::string::npos) << ss.str();
}

TEST(HpccParams, RateAiAndExpectedFlowsAreAlternatives) {
  const std::string base = R"(topology: {type: star, hosts: 3}
workload: [{type: flows, flows: [{src: 1, dst: 0, size: 10KB, start: 0}]}]
)";
  std::string err;
  const std::string dir = temp_dir("hpcc_params");
  std::ofstream(dir + "/both.yaml")
      << base << "cc: {algorithm: hpcc, params: {rate_ai: 20Mbps, expected_flows: 10}}\n";
  EXPECT_EQ(run_cli("validate " + dir + "/both.yaml", &err), 2);
  EXPECT_NE(err.find("rate_ai"), std::string::npos) << err;
  std::ofstream(dir + "/rate.yaml") << base << "cc: {algorithm: hpcc, params: {rate_ai: 20Mbps}}\n";
  ASSERT_EQ(run_cli("run " + dir + "/rate.yaml -o " + dir + "/out --quiet", &err), 0) << err;
  std::ifstream resolved(dir + "/out/scenario.yaml");
  std::stringstream ss;
  ss << resolved.rdbuf();
  EXPECT_NE(ss.str().find("expected_flows: 0"), std::string::npos) << ss.str();
}

TEST(HpccCommand, RejectsUnknownAndUnsupportedKeysByName) {
  struct Case {
    const char* extra;
    const char* expect;
  };
  for (const Case& c :
       {Case{"FOO_BAR 1\n", "FOO_BAR: unknown key"}, Case{"L2_BACK_TO_ZERO 1\n", "L2_BACK_TO_ZERO"},
        Case{"MULTI_RATE 1\n", "MULTI_RATE"}, Case{"ERROR_RATE_PER_LINK 0.01\n", "ERROR_RATE_PER_LINK"},
        Case{"LINK_DOWN 1 0 3\n", "LINK_DOWN"}}) {
    std::string dir = write_hpcc_case("hpcc_bad", c.extra);
    std::string err;
    EXPECT_EQ(run_cli("hpcc " + dir + "/config.txt -o " + dir + "/ours --quiet", &err), 2) << c.extra;
    EXPECT_NE(err.find(c.expect), std::string::npos) << err;
  }
}

}  // namespace
}  // namespace lossless::test
