// Scenario tests: physical invariants of the fabric (DESIGN.md §2) on small topologies.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "test_util.h"
#include "topo/partitioning.h"

namespace lossless::test {
namespace {

TEST(Physics, LoneFlowAcrossTwoSwitchesMatchesIdealFct) {
  auto out = run_yaml(R"(
topology: {type: dumbbell, left: 1, right: 1, host_link: {rate: 100Gbps, delay: 1us}, core_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: dcqcn}
workload: [{type: flows, flows: [{src: 0, dst: 1, size: 1MB, start: 0}]}]
)",
                      "lone");
  auto rows = out.csv("fct.csv");
  ASSERT_EQ(rows.size(), 1u);
  double fct = num(rows[0], "fct_ns"), ideal = num(rows[0], "ideal_fct_ns");
  // ideal = 2 x 3 us + 3 x 80 ns + 1,048,000 B at 100G
  EXPECT_NEAR(ideal, 6000 + 240 + 83840, 1);
  EXPECT_NEAR(fct / ideal, 1.0, 0.01);
  // Exactly the store-and-forward pipeline: the last of 1,000 packets of 1,048 B leaves the sender at 83,840
  // ns, is serialized again by each of the two switches (83.84 ns each), and its 64-byte ACK is serialized on
  // the three links back (5.12 ns each); six 1 us delays. 56.96 ns below the ideal, which counts one
  // 1,000-byte serialization (80 ns) on every hop, the first included
  // (UnloadedFlowsFinishJustBelowTheIdealFct).
  EXPECT_NEAR(fct, 83840 + 2 * 83.84 + 3 * 5.12 + 6000, 0.01);
  EXPECT_EQ(out.result.counters.drops, 0u);
}

// The ideal FCT is the HPCC simulator's standalone FCT (README "Outputs": base RTT = 2 x propagation + one
// MTU payload's serialization per hop, plus the flow's wire bytes at the bottleneck). An unloaded flow takes
// less: the bottleneck term already includes the first hop's serialization, the later hops serialize only
// the last packet (shorter than an MTU for a short flow), and the ACK's serialization is smaller than the
// MTU's. So unloaded slowdowns sit just below 1, as in the HPCC simulator's own results
// (experiments/hpcc-ws30/ns3_dctcp_fct.txt.gz: 1,086 of 6,984 flows below their standalone FCT, down to 0.982
// for a 327-byte flow).
TEST(Physics, UnloadedFlowsFinishJustBelowTheIdealFct) {
  auto out = run_yaml(R"(
topology: {type: dumbbell, left: 1, right: 1, host_link: {rate: 100Gbps, delay: 1us}, core_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: dcqcn}
workload: [{type: flows, flows: [{src: 0, dst: 1, size: 500B, start: 0}]}]
)",
                      "lone-short");
  auto rows = out.csv("fct.csv");
  ASSERT_EQ(rows.size(), 1u);
  const double fct = num(rows[0], "fct_ns"), ideal = num(rows[0], "ideal_fct_ns");
  // One packet of 548 B (43.84 ns at 100G) on three links, its ACK of 64 B (5.12 ns) on three links back.
  EXPECT_NEAR(fct, 6000 + 3 * 43.84 + 3 * 5.12, 0.01);
  // The ideal: three 1,000-byte serializations and the 548 wire bytes once.
  EXPECT_NEAR(ideal, 6000 + 3 * 80 + 43.84, 0.01);
  EXPECT_NEAR(num(rows[0], "slowdown"), 6146.88 / 6283.84, 1e-6);
}

// A link, or a flow's `rate` cap, below a scheme's min_rate (100 Mbps for DCQCN): the rate's range was
// [min_rate, line rate] with the floor above the ceiling - std::clamp's undefined case - and the run ended in
// "internal error: ... rate_bps = 5e+07, outside [1e+08, 5e+07]". The floor is now the lower of the two, so
// the flow runs at its line rate.
TEST(Physics, RateFloorsAboveALinkOrFlowCapLeaveTheFlowAtThatRate) {
  const char* yaml = R"(
topology: {type: star, hosts: 3, host_link: {rate: 100Gbps, delay: 1us}}
workload: [{type: flows, flows: [{src: 1, dst: 0, size: 20KB, start: 0, rate: 50Mbps}]}]
)";
  for (const char* cc : {"dcqcn", "hpcc", "timely", "qcn"}) {
    std::vector<std::pair<std::string, std::string>> sets = {{"cc.algorithm", cc}};
    if (std::string(cc) == "qcn") sets.push_back({"switch.mechanism", "qcn"});
    auto out = run_yaml(yaml, std::string("floor-") + cc, sets);
    auto rows = out.csv("fct.csv");
    ASSERT_EQ(rows.size(), 1u) << cc;
    ASSERT_FALSE(rows[0].at("finish_ns").empty()) << cc;
    // 20 packets of 1,048 B paced at 50 Mbps (167.68 us apart; the link serializes each in 84 ns): the last
    // leaves at 19 gaps, then a few microseconds to the ACK.
    const double fct = num(rows[0], "fct_ns");
    EXPECT_GT(fct, 19 * 1048 * 8 / 0.05) << cc;
    EXPECT_LT(fct, 19 * 1048 * 8 / 0.05 + 10000) << cc;
  }
}

TEST(Physics, DataExtraBytesLengthenTheWireButNotTheIdealFct) {
  const char* yaml = R"(
topology: {type: dumbbell, left: 1, right: 1, host_link: {rate: 100Gbps, delay: 1us}, core_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: dcqcn}
workload: [{type: flows, flows: [{src: 0, dst: 1, size: 1MB, start: 0}]}]
)";
  auto plain = run_yaml(yaml, "extra0");
  auto extra = run_yaml(yaml, "extra8", {{"nic.data_extra", "8B"}});
  auto a = plain.csv("fct.csv"), b = extra.csv("fct.csv");
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(num(a[0], "ideal_fct_ns"), num(b[0], "ideal_fct_ns"));
  // 1000 packets of 1056 B instead of 1048 B: 8,000 B more at 100G (640 ns), plus the last packet's 8 B on
  // the two further hops (1.28 ns).
  EXPECT_NEAR(num(b[0], "fct_ns") - num(a[0], "fct_ns"), 640 + 1.28, 2);
}

// nic.ack_priority, three ways of carrying a receiver's ACKs. Host 9 is paused by the switch much of the time
// (its own flow joins a 9:1 incast under small static PFC thresholds) and the ACKs it sends for short flows
// from host 10 cross the switch's congested egress toward host 10 (a 2:1 incast). high: priority 0 at the NIC
// and in the switch, never waiting. data_unpaused (the HPCC simulator's ACK_HIGH_PRIO 1): sent by the paused
// NIC at once, then queued behind data at the switch. data: held by the NIC while paused, then behind data.
TEST(Physics, AckPriorityModesHoldAcksWhereTheySay) {
  const char* yaml = R"(
topology: {type: star, hosts: 13, host_link: {rate: 100Gbps, delay: 1us}}
switch: {pfc: {threshold: static, xoff: 40KB, xon: 20KB}}
cc: {algorithm: dcqcn}
workload: [{type: incast, receiver: 0, senders: 1-9, size: 4MB, start: 0}, {type: incast, receiver: 10, senders: 11-12, size: 4MB, start: 0}, {type: incast, receiver: 9, senders: 10, size: 10KB, start: 100us, count: 20, period: 10us}]
)";
  auto mean_short_fct_us = [&](const std::string& mode) {
    auto out = run_yaml(yaml, "ackprio_" + mode, {{"nic.ack_priority", mode}});
    double sum = 0;
    int n = 0;
    for (const auto& row : out.csv("fct.csv"))
      if (row.at("src") == "10") sum += num(row, "fct_ns") / 1000, ++n;
    EXPECT_EQ(n, 20) << mode;
    EXPECT_EQ(out.result.counters.drops, 0u) << mode;
    return sum / n;
  };
  const double high = mean_short_fct_us("high");
  const double unpaused = mean_short_fct_us("data_unpaused");
  const double data = mean_short_fct_us("data");
  // 10 KB at 100G over two 1-us links: 0.9 us of serialization plus 4 us of round trip.
  EXPECT_LT(high, 5.5);
  EXPECT_GT(unpaused, high + 2);  // behind the queue toward host 10
  EXPECT_GT(data, unpaused + 5);  // and held at host 9 during its pauses
}

constexpr const char* kIncast = R"(
topology: {type: star, hosts: 17, host_link: {rate: 40Gbps, delay: 1us}}
switch: {buffer: 2MB}
cc: {algorithm: none}
workload: [{type: incast, receiver: 0, senders: 1-16, size: 1MB, start: 0}]
)";

TEST(Physics, IncastWithPfcIsLosslessAndKeepsReceiverBusy) {
  auto out = run_yaml(kIncast, "incast_pfc");
  const auto& r = out.result;
  EXPECT_EQ(r.counters.drops, 0u);
  EXPECT_GT(r.counters.pause_frames, 0u);
  EXPECT_EQ(r.flows_completed, 16u);
  // Receiver link busy from first to last byte: all wire bytes at 40G over the span of the transfer.
  auto rows = out.csv("fct.csv");
  double last = 0;
  for (auto& row : rows) last = std::max(last, num(row, "finish_ns"));
  double busy_ns = 16 * 1'048'000 * 8 / 40.0;
  double span_ns =
      last - 2 * 1000 - 2 * 1048 * 8 / 40.0;  // first byte reaches the receiver after one path latency
  EXPECT_GT(busy_ns / span_ns, 0.95) << "last finish " << last;
  EXPECT_GT(out.csv("pfc.csv").size(), 0u);
}

// A lossless fabric that dropped packets at a full headroom (here one too small, set after validation, which
// warns about it) said only that its flows stalled; it now says why, where, and which keys to change,
// on stderr and in summary.json (README "Flow control").
TEST(Physics, ALosslessFabricThatDropsPacketsSaysWhyAndWhichKeyToChange) {
  const std::string dir = temp_dir("headroom_drops");
  std::ofstream(dir + "/s.yaml")
      << "topology: {type: star, hosts: 5, host_link: {rate: 100Gbps, delay: 2us}}\n"
         "switch: {buffer: 1MB}\ncc: {algorithm: none}\nstop: 2ms\n"
         "workload: [{type: incast, receiver: 0, senders: 1-4, size: 500KB}]\n";
  RunOptions opts;
  opts.quiet = true;
  ScenarioOverrides ov;
  ov.out_dir = dir + "/auto";
  Scenario sc = load_scenario(dir + "/s.yaml", ov);
  testing::internal::CaptureStderr();
  run_scenario(sc, opts);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_NE(slurp(dir + "/auto/summary.json")
                .find("\"headroom_drops\": {\"packets\": 0, \"first\": null, \"warning\": null}"),
            std::string::npos);

  ov.out_dir = dir + "/small";
  sc = load_scenario(dir + "/s.yaml", ov);
  sc.sw.headroom_bytes = 4000;  // each port needs 2 x 25000 + 3 x 1048 + 64 = 53208 B
  testing::internal::CaptureStderr();
  run_scenario(sc, opts);
  const std::string err = testing::internal::GetCapturedStderr();
  const std::string warning = "lossless: warning: " + dir + "/small: ";
  ASSERT_NE(err.find(warning), std::string::npos) << err;
  const std::string line =
      err.substr(err.find(warning), err.find('\n', err.find(warning)) - err.find(warning));
  for (const char* want :
       {"packets (",
        "of them data) were dropped at a full PFC headroom on this lossless fabric, the first at ",
        " of s0 (priority 3, the 100Gbps 2us link from h",
        "), whose headroom of 4000 B is less than the 53208 B that can arrive after a pause there",
        "set switch.pfc.headroom to at least 53208B",
        "; nic.rto is 0 (off), so a flow whose last packets were lost", "(4 flows stalled)",
        ": set nic.rto (e.g. 1ms) to recover them"})
    EXPECT_NE(line.find(want), std::string::npos) << want << "\n" << line;
  // The warning comes before the stalled flows it explains.
  EXPECT_LT(err.find(warning), err.find("flows stalled (unfinished")) << err;
  const std::string summary = slurp(dir + "/small/summary.json");
  for (const char* want :
       {"\"headroom_drops\": {\"packets\": ", "\"first\": {\"time_ns\": ", "\"switch\": \"s0\", ",
        "\"priority\": 3, ", "\"headroom_bytes\": 4000, \"needed_bytes\": 53208}", "\"warning\": \"",
        "set switch.pfc.headroom to at least 53208B"})
    EXPECT_NE(summary.find(want), std::string::npos) << want << "\n" << summary;
  // The same report on two threads: HeadroomDropsAreReportedAlikeOnOneThreadAndOnTwoThatBothDrop.
  // switch.pfc.headroom is one size for every port: the advice is the most any port needs (here an idle
  // host's longer link), not only the dropping port's need.
  std::ofstream(dir + "/six.yaml")
      << "topology: {type: star, hosts: 6, host_link: {rate: 100Gbps, delay: 2us}}\n"
         "switch: {buffer: 1MB}\ncc: {algorithm: none}\nstop: 2ms\n"
         "workload: [{type: incast, receiver: 0, senders: 1-4, size: 500KB}]\n";
  ov.out_dir = dir + "/longer";
  sc = load_scenario(dir + "/six.yaml", ov);
  sc.sw.headroom_bytes = 4000;
  bool changed = false;
  for (TopoLink& l : sc.topology.links)
    if (l.a == 5 || l.b == 5) {
      l.delay_ps = 4'000'000;  // h5's link: 2 x 50000 + 3 x 1048 + 64 = 103208 B
      changed = true;
    }
  ASSERT_TRUE(changed);
  opts.threads = 1;
  testing::internal::CaptureStderr();
  run_scenario(sc, opts);
  const std::string longer = testing::internal::GetCapturedStderr();
  EXPECT_NE(longer.find("is less than the 53208 B that can arrive after a pause there"), std::string::npos)
      << longer;
  EXPECT_NE(longer.find("set switch.pfc.headroom to at least 103208B (one size for every port: the most any "
                        "port of the fabric needs)"),
            std::string::npos)
      << longer;
}

// A run on two threads merges its partitions' headroom drops: the count summed, the first drop the earliest
// of either, then the lowest switch, port and priority (NetCounters::add). Two racks of a leaf-spine, each
// with an incast inside it and a headroom too small, drop on both threads (leaf s0 and its hosts in one
// partition, leaf s1 and its hosts in the other); the racks share no traffic, so each drops as it does alone.
TEST(Physics, HeadroomDropsAreReportedAlikeOnOneThreadAndOnTwoThatBothDrop) {
  const std::string dir = temp_dir("headroom_drops_two");
  // Rack 0's incast (h1-h4 to h0) at `start0`, rack 1's (h6-h9 to h5) at `start1`; empty: that rack idle.
  auto write = [&](const std::string& name, const std::string& start0, const std::string& start1) {
    std::ofstream f(dir + "/" + name + ".yaml");
    f << "topology: {type: leaf_spine, leaves: 2, spines: 1, hosts_per_leaf: 5, host_link: {rate: 100Gbps, "
         "delay: 2us}, fabric_link: {rate: 100Gbps, delay: 2us}}\n"
         "switch: {buffer: 1MB}\ncc: {algorithm: none}\nstop: 2ms\nworkload:\n";
    if (!start0.empty())
      f << "  - {type: incast, receiver: 0, senders: 1-4, size: 500KB, start: " << start0 << "}\n";
    if (!start1.empty())
      f << "  - {type: incast, receiver: 5, senders: 6-9, size: 500KB, start: " << start1 << "}\n";
  };
  struct Drops {
    RunResult::HeadroomDrops drops;
    std::string json;  // summary.json's headroom_drops object, whole
  };
  auto run = [&](const std::string& name, unsigned threads) {
    ScenarioOverrides ov;
    ov.out_dir = dir + "/" + name + "-" + std::to_string(threads);
    Scenario sc = load_scenario(dir + "/" + name + ".yaml", ov);
    sc.sw.headroom_bytes = 4000;  // each port needs 53208 B
    if (threads == 2) {           // the two leaves run on different threads
      const std::vector<std::uint8_t> part = split_nodes(sc.topology, 2);
      EXPECT_NE(part[sc.topology.switch_node(0)], part[sc.topology.switch_node(1)]);
    }
    RunOptions opts;
    opts.quiet = true;
    opts.threads = threads;
    testing::internal::CaptureStderr();
    const RunResult r = run_scenario(sc, opts);
    testing::internal::GetCapturedStderr();
    EXPECT_EQ(r.threads, threads);
    const std::string summary = slurp(ov.out_dir + "/summary.json");
    const auto at = summary.find("\"headroom_drops\"");
    EXPECT_NE(at, std::string::npos) << summary;
    return Drops{r.headroom_drops, summary.substr(at, summary.find('\n', at) - at)};
  };
  // Each rack alone drops, at its own leaf, and at the same time when its incast starts at the same time.
  write("rack0", "0ns", "");
  write("rack1", "", "0ns");
  const RunResult::HeadroomDrops rack0 = run("rack0", 1).drops, rack1 = run("rack1", 1).drops;
  ASSERT_GT(rack0.packets, 0u);
  ASSERT_GT(rack1.packets, 0u);
  EXPECT_EQ(rack0.first_switch, "s0");
  EXPECT_EQ(rack1.first_switch, "s1");
  EXPECT_EQ(rack0.first_ps, rack1.first_ps);
  // Both racks at once: the drops of both, on one thread and on two. At the same time the lower switch's is
  // the first; with rack 0 starting later, rack 1's leaf's, on the second thread.
  struct Case {
    const char* name;
    const char* start0;
    const char* first;
    TimePs first_ps;
  };
  for (const Case& c :
       {Case{"tie", "0ns", "s0", rack0.first_ps}, Case{"rack1_first", "1us", "s1", rack1.first_ps}}) {
    write(c.name, c.start0, "0ns");
    const Drops one = run(c.name, 1), two = run(c.name, 2);
    EXPECT_EQ(one.drops.packets, rack0.packets + rack1.packets) << c.name;
    EXPECT_EQ(one.drops.first_switch, c.first) << c.name;
    EXPECT_EQ(one.drops.first_ps, c.first_ps) << c.name;
    EXPECT_NE(one.json.find("\"switch\": \"" + std::string(c.first) + "\""), std::string::npos) << one.json;
    EXPECT_EQ(one.json, two.json) << c.name;
  }
}

TEST(Physics, IncastWithDcqcnAndPfcCompletesWithoutDrops) {
  auto out = run_yaml(kIncast, "incast_dcqcn", {{"cc.algorithm", "dcqcn"}});
  EXPECT_EQ(out.result.counters.drops, 0u);
  EXPECT_GT(out.result.counters.pause_frames, 0u);
  EXPECT_EQ(out.result.flows_completed, 16u);
  EXPECT_GT(out.result.counters.cnps, 0u);
}

TEST(Physics, LossyIncastDropsAndRecoversWithGoBackN) {
  auto out = run_yaml(kIncast, "incast_lossy",
                      {{"switch.flow_control", "none"}, {"switch.buffer", "1MB"}, {"cc.algorithm", "dcqcn"}});
  EXPECT_GT(out.result.counters.drops, 0u);
  EXPECT_EQ(out.result.flows_completed, 16u);
  EXPECT_GT(out.result.counters.retransmitted_bytes, 0u);
  EXPECT_EQ(out.result.counters.pause_frames, 0u);
}

// One flow sprayed packet by packet over two paths, one 4 us longer: its packets arrive out of order.
constexpr const char* kReordered = R"(
topology:
  type: custom
  hosts: 2
  switches: 4
  links: [[h0, s0, 100Gbps, 1us], [s0, s1, 100Gbps, 1us], [s0, s2, 100Gbps, 5us], [s1, s3, 100Gbps, 1us],
          [s2, s3, 100Gbps, 1us], [h1, s3, 100Gbps, 1us]]
switch: {routing: spray}
cc: {algorithm: none}
workload: [{type: flows, flows: [{src: 0, dst: 1, size: 200KB, start: 0}]}]
)";

TEST(Physics, ReorderedDataIsNackedWithGoBackNOrPlaced) {
  // go_back_n (the default): every packet beyond the expected one is NACKed and dropped, the sender goes
  // back; the flow still completes, several times slower than its ideal.
  auto gbn = run_yaml(kReordered, "reorder_gbn");
  ASSERT_EQ(gbn.result.flows_completed, 1u);
  EXPECT_GT(gbn.result.counters.nacks, 0u);
  EXPECT_GT(gbn.result.counters.retransmitted_bytes, 0u);
  // place: out-of-order data is kept, the cumulative ACK of the packet that fills a gap covers it; no NACK,
  // nothing sent twice, and the flow takes about the long path's latency plus its bytes at line rate.
  auto placed = run_yaml(kReordered, "reorder_place", {{"nic.out_of_order", "place"}});
  ASSERT_EQ(placed.result.flows_completed, 1u);
  EXPECT_EQ(placed.result.counters.nacks, 0u);
  EXPECT_EQ(placed.result.counters.retransmitted_bytes, 0u);
  EXPECT_EQ(placed.result.counters.data_packets, 200u);
  const double fct_gbn = num(gbn.csv("fct.csv").at(0), "fct_ns");
  const double fct_placed = num(placed.csv("fct.csv").at(0), "fct_ns");
  // 200 x 1048 B at 100G = 16.8 us, plus at most 2 x 8 us of round trip on the long path and 3 hops.
  EXPECT_LT(fct_placed, 16'768 + 2 * 8'000 + 1'000);
  EXPECT_GT(fct_gbn, 3 * fct_placed);
}

TEST(Physics, PlacedDataLostInALossyFabricIsRecoveredByTheTimeout) {
  // With place nothing is NACKed: a drop leaves a gap that only the sender's timeout (nic.rto, 1ms lossy)
  // closes, going back to the first unacknowledged byte; the receiver keeps what it placed beyond the gap.
  auto out = run_yaml(kIncast, "incast_lossy_place",
                      {{"switch.flow_control", "none"},
                       {"switch.buffer", "1MB"},
                       {"cc.algorithm", "dcqcn"},
                       {"nic.out_of_order", "place"}});
  EXPECT_GT(out.result.counters.drops, 0u);
  EXPECT_EQ(out.result.flows_completed, 16u);
  EXPECT_EQ(out.result.counters.nacks, 0u);
  EXPECT_GT(out.result.counters.timeouts, 0u);
}

TEST(Physics, TimeoutIsArmedWhereGoBackNReceiversMaySeeReordering) {
  // nic.rto auto: a go-back-N receiver NACKs only when a later packet arrives, so where a flow's last packets
  // may be lost (lossy) or overtaken and discarded (per-packet routing, a mechanism that moves flows under
  // way) the sender needs its timeout; not on a lossless fabric with one path per flow, not with receivers
  // that place out-of-order data, not for a scheme with its own timers.
  auto rto = [](const std::string& extra) {
    const std::string yaml = std::string(R"(
topology: {type: leaf_spine, leaves: 2, spines: 2, hosts_per_leaf: 2}
workload: [{type: flows, flows: [{src: 0, dst: 2, size: 10KB, start: 0}]}]
)") + extra;
    return parse_scenario(YAML::Load(yaml), "test.yaml", ScenarioOverrides{}).nic.rto_ps;
  };
  EXPECT_EQ(rto(""), 0u);
  EXPECT_EQ(rto("switch: {flow_control: none}"), kPsPerMs);
  EXPECT_EQ(rto("switch: {routing: spray}"), kPsPerMs);
  EXPECT_EQ(rto("switch: {routing: spray}\nnic: {out_of_order: place}"), 0u);
  EXPECT_EQ(rto("switch: {routing: spray}\ncc: {algorithm: homa}"), 0u);
  EXPECT_EQ(rto("switch: {architecture: voq, mechanism: rcm}"), kPsPerMs);
  EXPECT_EQ(rto("switch: {architecture: voq, mechanism: rcm, params: {sar_flows: new}}"), 0u);
  EXPECT_EQ(rto("switch: {architecture: voq, mechanism: rcm, params: {sar: false}}"), 0u);
  EXPECT_EQ(rto("switch: {routing: spray}\nnic: {rto: 0}"), 0u);
  // Homa's default (nic.rto 0ns) takes the place of an explicit auto too; a value the scenario sets wins.
  EXPECT_EQ(rto("switch: {flow_control: none}\ncc: {algorithm: homa}\nnic: {rto: auto}"), 0u);
  EXPECT_EQ(rto("switch: {flow_control: none}\ncc: {algorithm: homa}\nnic: {rto: 2ms}"), 2 * kPsPerMs);
}

TEST(Physics, SchemeDefaultsFillOnlyTheKeysTheScenarioLeavesOut) {
  auto parse = [](const std::string& extra) {
    return parse_scenario(YAML::Load(std::string(R"(
topology: {type: star, hosts: 3}
workload: [{type: flows, flows: [{src: 1, dst: 0, size: 10KB, start: 0}]}]
)") + extra),
                          "test.yaml", ScenarioOverrides{});
  };
  // DCTCP: CNP on every marked ACK, step marking at K = 300 KB at 100G; Swift, PACC: no RED marks.
  const Scenario dctcp = parse("cc: {algorithm: dctcp}");
  EXPECT_EQ(dctcp.nic.cnp_interval_ps, 0u);
  EXPECT_EQ(dctcp.resolved["switch"]["ecn"]["kmin"]["100Gbps"].as<std::string>(), "300KB");
  EXPECT_EQ(parse("cc: {algorithm: dctcp}\nnic: {cnp_interval: 4us}").nic.cnp_interval_ps, 4 * kPsPerUs);
  EXPECT_EQ(parse("cc: {algorithm: dctcp}\nnic: {cnp_interval: auto}").nic.cnp_interval_ps, 0u);
  EXPECT_EQ(parse("cc: {algorithm: dcqcn}").nic.cnp_interval_ps, 50 * kPsPerUs);
  EXPECT_FALSE(parse("cc: {algorithm: swift}").sw.ecn_enabled);
  EXPECT_TRUE(parse("cc: {algorithm: swift}\nswitch: {ecn: {enabled: true}}").sw.ecn_enabled);
  EXPECT_FALSE(parse("switch: {mechanism: pacc}").sw.ecn_enabled);
  EXPECT_TRUE(parse("").sw.ecn_enabled);
}

TEST(Physics, BytesConservedEveryFlowDeliversItsSize) {
  auto out = run_yaml(R"(
topology: {type: leaf_spine, leaves: 2, spines: 2, hosts_per_leaf: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: dcqcn}
workload: [{type: poisson, cdf: WebSearch, load: 0.5, duration: 1ms}]
)",
                      "conserve");
  EXPECT_EQ(out.result.flows_completed, out.result.flows_total);
  EXPECT_GT(out.result.flows_total, 5u);
  EXPECT_EQ(out.result.counters.drops, 0u);
  EXPECT_EQ(out.result.counters.retransmitted_bytes, 0u);
  // No flow beats its ideal by more than the ideal's allowance of one full MTU serialization per hop (a flow
  // shorter than one MTU serializes less than that).
  for (auto& row : out.csv("fct.csv")) EXPECT_GT(num(row, "slowdown"), 0.95);
}

TEST(Physics, TwoDcqcnFlowsConvergeToFairShare) {
  for (const char* variant : {"paper", "hpcc"}) {
    auto out = run_yaml(R"(
stop: 30ms
topology: {type: star, hosts: 3, host_link: {rate: 40Gbps, delay: 1us}}
cc: {algorithm: dcqcn}
workload: [{type: flows, flows: [{src: 1, dst: 0, size: 1GB, start: 0}, {src: 2, dst: 0, size: 1GB, start: 1ms}]}]
monitor: {flow_rates: {interval: 1ms}}
)",
                        std::string("fair_") + variant, {{"cc.params.variant", variant}});
    double sum[2] = {0, 0};
    for (auto& row : out.csv("flow_rates.csv")) {
      double t = num(row, "time_ns");
      if (t > 10e6) sum[static_cast<int>(num(row, "flow_id"))] += num(row, "rate_bps");
    }
    ASSERT_GT(sum[0], 0);
    ASSERT_GT(sum[1], 0);
    EXPECT_NEAR(sum[0] / sum[1], 1.0, 0.10) << variant;
    // Together they use the link well.
    EXPECT_GT((sum[0] + sum[1]) / 20 / 40e9, 0.85) << variant;
  }
}

TEST(Physics, PfcSpreadsUpstreamFromCongestedTor) {
  // Hosts of leaf s0 (h0-h3) and h5 of leaf s1 send to h4 under s1. The ToR s1 pauses the spine s2 and its
  // own hosts; the spine's queue toward s1 then fills and it pauses s0, which pauses its hosts: a chain of
  // pauses.
  auto out = run_yaml(R"(
topology: {type: leaf_spine, leaves: 2, spines: 1, hosts_per_leaf: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
switch: {buffer: 1MB}
cc: {algorithm: none}
workload: [{type: incast, receiver: 4, senders: [0-3, 5-7], size: 2MB, start: 0}]
)",
                      "spread");
  std::set<std::string> paused_nodes;
  for (auto& row : out.csv("pfc.csv"))
    if (row.at("event") == "pause") paused_nodes.insert(row.at("node"));
  EXPECT_TRUE(paused_nodes.count("s2")) << "spine paused by the congested ToR";
  EXPECT_TRUE(paused_nodes.count("s0")) << "remote ToR paused by the spine";
  EXPECT_TRUE(paused_nodes.count("h0")) << "remote host paused by its ToR";
  EXPECT_EQ(out.result.counters.drops, 0u);
  EXPECT_EQ(out.result.flows_completed, 7u);
}

TEST(Physics, SameSeedGivesByteIdenticalOutputs) {
  const char* yaml = R"(
seed: 7
topology: {type: leaf_spine, leaves: 2, spines: 2, hosts_per_leaf: 4}
cc: {algorithm: dcqcn, params: {variant: hpcc}}
workload: [{type: poisson, cdf: WebSearch, load: 0.6, duration: 300us}, {type: incast, receiver: 0, senders: 1-7, size: 100KB, start: 100us}]
monitor: {queues: {interval: 10us}}
)";
  auto a = run_yaml(yaml, "det_a");
  auto b = run_yaml(yaml, "det_b");
  EXPECT_EQ(a.read("fct.csv"), b.read("fct.csv"));
  EXPECT_EQ(a.read("pfc.csv"), b.read("pfc.csv"));
  EXPECT_EQ(a.read("queues.csv"), b.read("queues.csv"));
  auto strip_wall = [](std::string s) {  // the lines that measure the process, not the simulation
    for (const char* key : {"\"wall_seconds\"", "\"memory\"", "\"outputs\""}) {
      auto i = s.find(key);
      auto j = s.find('\n', i);
      s.erase(i, j - i);
    }
    return s;
  };
  EXPECT_EQ(strip_wall(a.read("summary.json")), strip_wall(b.read("summary.json")));
  auto c = run_yaml(yaml, "det_c", {{"seed", "8"}});
  EXPECT_NE(a.read("fct.csv"), c.read("fct.csv"));
}

TEST(Physics, ResolvedScenarioRepeatsTheRun) {
  const char* yaml = R"(
topology: {type: star, hosts: 5}
workload: [{type: poisson, cdf: WebSearch, load: 0.5, duration: 1ms}]
)";
  auto a = run_yaml(yaml, "resolved_a");
  auto b = run_yaml(a.read("scenario.yaml"), "resolved_b");
  EXPECT_EQ(a.read("fct.csv"), b.read("fct.csv"));
}

// A poisson entry with one sender and its own destinations (dst_hosts) was refused with "needs at least 2
// hosts" (and the generator drew nothing for one sender). It runs; what cannot be still exits 2.
TEST(Workload, ASingleSenderWithDstHostsSendsToTheListedDestinations) {
  const std::string dir = temp_dir("single_sender");
  std::ofstream(dir + "/sizes.txt") << "1000 0\n10000 1\n";
  const std::string head = "topology: {type: star, hosts: 4, host_link: {rate: 100Gbps, delay: 1us}}\n";
  const std::string entry =
      "workload: [{type: poisson, cdf: " + dir + "/sizes.txt, load: 0.5, duration: 50us, ";
  auto out = run_yaml(head + entry + "hosts: 1, dst_hosts: [2, 3]}]\n", "single_sender_run");
  const auto rows = out.csv("fct.csv");
  ASSERT_GT(rows.size(), 10u);
  std::set<std::string> dsts;
  for (const auto& row : rows) {
    EXPECT_EQ(row.at("src"), "1");
    dsts.insert(row.at("dst"));
    EXPECT_FALSE(row.at("finish_ns").empty()) << "flow " << row.at("flow_id") << " unfinished";
  }
  EXPECT_EQ(dsts, (std::set<std::string>{"2", "3"}));
  // Still refused: one sender with no destination (dst_hosts absent), or only itself, or no sender.
  const struct {
    const char* hosts;
    const char* want;
  } bad[] = {
      {"hosts: 1", "workload.0.hosts: needs at least 2 hosts"},
      {"hosts: 1, dst_hosts: 1", "workload.0.dst_hosts: a sender would have no destination but itself"},
      {"hosts: [], dst_hosts: [2, 3]", "workload.0.hosts: names no host"}};
  for (const auto& b : bad) {
    const std::string path = dir + "/bad.yaml";
    std::ofstream(path) << head << entry << b.hosts << "}]\n";
    std::string err;
    EXPECT_EQ(run_cli("validate " + path, &err), 2) << b.hosts << ": " << err;
    EXPECT_NE(err.find(path + ":2: " + b.want), std::string::npos) << b.hosts << ": " << err;
  }
}

// A CDF file beside the scenario whose name has neither a '/' nor ".txt" (`cdf: sizes.cdf`) was looked for
// only as a library name (data/cdf/sizes.cdf.txt) and refused; README: a name in data/cdf or a file path.
TEST(HpccFiles, ACdfFileOfAnyNameBesideTheScenarioIsFound) {
  const std::string dir = temp_dir("cdf_any_name");
  std::filesystem::create_directories(dir + "/in");
  std::ofstream(dir + "/in/sizes.cdf") << "1000 0\n1000 1\n";
  std::ofstream(dir + "/in/s.yaml")
      << "topology: {type: star, hosts: 4, host_link: {rate: 100Gbps, delay: 1us}}\n"
         "workload: [{type: poisson, cdf: sizes.cdf, load: 0.2, duration: 20us}]\n";
  const std::string bin = LOSSLESS_BINARY;
  ShellResult r = shell_in(dir, bin + " run in/s.yaml -o a --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(YAML::LoadFile(dir + "/a/scenario.yaml")["workload"][0]["cdf"].as<std::string>(),
            std::filesystem::absolute(dir + "/in/sizes.cdf").lexically_normal().string());
  EXPECT_NE(slurp(dir + "/a/fct.csv").find(",1000,"), std::string::npos);
  // A library name still wins over a file of that name.
  std::ofstream(dir + "/in/WebSearch") << "1000 0\n1000 1\n";
  std::ofstream(dir + "/in/w.yaml")
      << "topology: {type: star, hosts: 4, host_link: {rate: 100Gbps, delay: 1us}}\n"
         "workload: [{type: poisson, cdf: WebSearch, load: 0.5, duration: 2ms}]\n";
  r = shell_in(dir, bin + " run in/w.yaml -o b --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(YAML::LoadFile(dir + "/b/scenario.yaml")["workload"][0]["cdf"].as<std::string>(), "WebSearch");
}

// Homa's `cc.params.cdf` (the workload's sizes, for its unscheduled cut-offs) names a CDF as a workload's
// `cdf` does. It was resolved against the working folder only (run from elsewhere: "cannot open CDF file")
// and written back as given, so the resolved scenario.yaml failed when run from its output folder.
TEST(InputFiles, HomasCdfIsFoundBesideTheScenarioAndResolvedAsAnAbsolutePath) {
  const std::string dir = temp_dir("homa_cdf_beside");
  std::filesystem::create_directories(dir + "/in/cdf");
  std::ofstream(dir + "/in/sizes.cdf") << "1000 0\n1000 1\n";
  std::ofstream(dir + "/in/cdf/sizes.txt") << "2000 0\n2000 1\n";
  const std::string body =
      "topology: {type: star, hosts: 4, host_link: {rate: 100Gbps, delay: 1us}}\n"
      "workload: [{type: poisson, cdf: sizes.cdf, load: 0.2, duration: 20us}]\n";
  std::ofstream(dir + "/in/s.yaml") << "cc: {algorithm: homa, params: {cdf: sizes.cdf}}\n" << body;
  const std::string bin = LOSSLESS_BINARY;
  ShellResult r = shell_in(dir, bin + " run in/s.yaml -o a --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(YAML::LoadFile(dir + "/a/scenario.yaml")["cc"]["params"]["cdf"].as<std::string>(),
            std::filesystem::absolute(dir + "/in/sizes.cdf").lexically_normal().string());
  // The resolved scenario re-runs from its own folder.
  r = shell_in(dir + "/a", bin + " run scenario.yaml -o ../b --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(slurp(dir + "/a/fct.csv").empty());
  EXPECT_EQ(slurp(dir + "/a/fct.csv"), slurp(dir + "/b/fct.csv"));
  // A path with a '/', relative to the scenario's folder.
  r = shell_in(dir, bin + " run in/s.yaml -o c --quiet --set cc.params.cdf=cdf/sizes.txt");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(YAML::LoadFile(dir + "/c/scenario.yaml")["cc"]["params"]["cdf"].as<std::string>(),
            std::filesystem::absolute(dir + "/in/cdf/sizes.txt").lexically_normal().string());
  // A library name stays a name.
  r = shell_in(dir, bin + " run in/s.yaml -o d --quiet --set cc.params.cdf=WebSearch");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(YAML::LoadFile(dir + "/d/scenario.yaml")["cc"]["params"]["cdf"].as<std::string>(), "WebSearch");
  // A file found nowhere: exit 2 naming the file, line and key.
  std::ofstream(dir + "/in/t.yaml") << "cc: {algorithm: homa, params: {cdf: nope.cdf}}\n" << body;
  r = shell_in(dir, bin + " run in/t.yaml -o e --quiet");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("in/t.yaml:1: cc.params.cdf: "), std::string::npos) << r.err;
}

}  // namespace
}  // namespace lossless::test

namespace lossless::test {
namespace {

TEST(HpccFiles, TopologyAndFlowFilesWithAbsoluteStartTimes) {
  std::string dir = temp_dir("hpcc_files");
  // 3 hosts (ids 0, 1, 3) on switch 2; the file's ids are kept in fct.txt.
  std::ofstream(dir + "/topo.txt")
      << "4 1 3\n2\n0 2 100Gbps 1000ns 0\n1 2 100Gbps 1000ns 0\n3 2 100Gbps 1000ns 0\n";
  std::ofstream(dir + "/flows.txt") << "2\n0 3 3 100 50000 2.000000100\n1 3 3 100 20000 2.001\n";
  std::ofstream(dir + "/s.yaml") << "topology: {type: hpcc_file, path: topo.txt}\n"
                                    "workload: [{type: hpcc_flow_file, path: flows.txt}]\n"
                                    "output: {hpcc_fct: true}\n";
  ScenarioOverrides ov;
  ov.out_dir = dir + "/out";
  Scenario sc = load_scenario(dir + "/s.yaml", ov);
  ASSERT_EQ(sc.flows.size(), 2u);
  EXPECT_EQ(sc.flows[0].start_ps, 2'000'000'100'000u);
  EXPECT_EQ(sc.flows[1].dst, 2u);  // file id 3 is the third host
  RunOptions opts;
  opts.quiet = true;
  opts.check = true;
  RunResult r = run_scenario(sc, opts);
  EXPECT_EQ(r.flows_completed, 2u);
  std::ifstream in(dir + "/out/fct.txt");
  std::string sip, dip;
  unsigned sport, dport;
  unsigned long long size, start, fct, ideal;
  ASSERT_TRUE(in >> sip >> dip >> sport >> dport >> size >> start >> fct >> ideal);
  EXPECT_EQ(sip, "0b000001");
  EXPECT_EQ(dip, "0b000301");
  EXPECT_EQ(sport, 10000u);
  EXPECT_EQ(size, 50000u);
  EXPECT_EQ(start, 2'000'000'100u);
  EXPECT_NEAR(static_cast<double>(fct) / static_cast<double>(ideal), 1.0, 0.02);
}

// A scenario names its input files (hpcc_file, hpcc_flow_file, a CDF file) relative to its own folder; the
// resolved scenario.yaml, written in the output folder, names them by absolute path, so that running it from
// there (or anywhere) repeats the run (it kept them as written, and failed with exit 2 there).
TEST(HpccFiles, ResolvedScenarioReRunsFromItsOutputFolder) {
  const std::string dir = temp_dir("hpcc_files_rerun");
  std::filesystem::create_directories(dir + "/in");
  std::ofstream(dir + "/in/topo.txt")
      << "4 1 3\n2\n0 2 100Gbps 1000ns 0\n1 2 100Gbps 1000ns 0\n3 2 100Gbps 1000ns 0\n";
  std::ofstream(dir + "/in/flows.txt") << "2\n0 3 3 100 50000 0.000001\n1 3 3 100 20000 0.000002\n";
  std::ofstream(dir + "/in/sizes.txt") << "1000 0\n1000 1\n";
  std::ofstream(dir + "/in/s.yaml") << "topology: {type: hpcc_file, path: topo.txt}\n"
                                       "workload:\n"
                                       "  - {type: hpcc_flow_file, path: flows.txt}\n"
                                       "  - {type: poisson, cdf: ./sizes.txt, load: 0.2, duration: 20us}\n";
  // Run from the scenario's folder with a relative path, then from the output folder.
  const std::string bin = LOSSLESS_BINARY;
  ShellResult first = shell_in(dir + "/in", bin + " run s.yaml -o ../a --quiet");
  ASSERT_EQ(first.status, 0) << first.err;
  const YAML::Node resolved = YAML::LoadFile(dir + "/a/scenario.yaml");
  const std::string topo = resolved["topology"]["path"].as<std::string>();
  EXPECT_EQ(topo, std::filesystem::absolute(dir + "/in/topo.txt").lexically_normal().string());
  EXPECT_EQ(resolved["workload"][0]["path"].as<std::string>(),
            std::filesystem::absolute(dir + "/in/flows.txt").lexically_normal().string());
  EXPECT_EQ(resolved["workload"][1]["cdf"].as<std::string>(),
            std::filesystem::absolute(dir + "/in/sizes.txt").lexically_normal().string());
  ShellResult again = shell_in(dir + "/a", bin + " run scenario.yaml -o ../b --quiet");
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_EQ(slurp(dir + "/a/fct.csv"), slurp(dir + "/b/fct.csv"));
  EXPECT_FALSE(slurp(dir + "/a/fct.csv").empty());
}

}  // namespace
}  // namespace lossless::test
