// Regression tests for issue 20 (what fuzzing and a new user's mistakes found): every malformed input exits
// with status 2 and one message naming the file, the line and the key; never a crash, a hang, an internal
// error or a silently accepted value. Each TEST is one class of the issue.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "test_util.h"

namespace lossless::test {
namespace {

constexpr const char* kBase = R"(name: base
topology: {type: star, hosts: 4}
workload: [{type: flows, flows: [{src: 1, dst: 0, size: 10KB, start: 0}]}]
)";

std::string write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// The input file `text` in a fresh folder (tag), and its path.
std::string scenario(const std::string& tag, const std::string& text) {
  return write_file(temp_dir("bad_" + tag) + "/s.yaml", text);
}

// `lossless ARGS` exits 2 with a message holding every one of `expect` and no "internal error".
void expect_bad(const std::string& args, const std::vector<std::string>& expect) {
  std::string err;
  const int code = run_cli(args, &err);
  EXPECT_EQ(code, 2) << args << "\n" << err;
  for (const auto& e : expect)
    EXPECT_NE(err.find(e), std::string::npos) << args << "\nwanted: " << e << "\n" << err;
  EXPECT_EQ(err.find("internal error"), std::string::npos) << args << "\n" << err;
  if (err.find("command line") == std::string::npos) {  // usage errors add the usage text
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << "one message line: " << err;
  }
}

// validate of `text` exits 2 naming s.yaml:LINE and KEY.
void expect_bad_scenario(const std::string& tag, const std::string& text, int line, const std::string& key,
                         const std::string& reason = "") {
  const std::string path = scenario(tag, text);
  std::vector<std::string> want{path + ":" + std::to_string(line) + ": " + (key.empty() ? "" : key + ": ")};
  if (!reason.empty()) want.push_back(reason);
  expect_bad("validate " + path, want);
}

// A small HPCC-simulator case (config, topology and flow files) with `extra` config lines.
std::string hpcc_case(const std::string& tag, const std::string& extra, const std::string& cc_mode = "3",
                      const std::string& topo =
                          "4 1 3\n3\n0 3 100Gbps 1000ns 0\n1 3 100Gbps 1000ns 0\n"
                          "2 3 100Gbps 1000ns 0\n",
                      const std::string& flows = "2\n0 2 3 100 30000 2.0\n1 2 3 100 30000 2.0\n") {
  const std::string dir = temp_dir("bad_" + tag);
  write_file(dir + "/topo.txt", topo);
  write_file(dir + "/flow.txt", flows);
  write_file(dir + "/config.txt",
             "ENABLE_QCN 1\nPACKET_PAYLOAD_SIZE 1000\nTOPOLOGY_FILE topo.txt\n"
             "FLOW_FILE flow.txt\nSIMULATOR_STOP_TIME 2.01\nCC_MODE " +
                 cc_mode + "\n" + extra);
  return dir;
}

void expect_bad_hpcc(const std::string& dir, const std::vector<std::string>& expect) {
  expect_bad("hpcc " + dir + "/config.txt -o " + dir + "/out --quiet", expect);
}

// Class: a zero unit or period divided by zero or looped forever (RoCC delta_f/delta_q/period, DCQCN
// alpha_timer and its HPCC-variant timers, TIMELY's gradient normaliser): each declares itself positive.
TEST(BadInput, ZeroUnitsAndPeriodsAreRejectedByTheirParameter) {
  const std::string rocc = "switch: {mechanism: rocc, params: {X}}\ncc: {algorithm: rocc}\n";
  struct Case {
    const char* key;
    std::string section;
  };
  for (const Case& c :
       {Case{"delta_f: 0bps", rocc}, Case{"delta_q: 0B", rocc}, Case{"period: 0", rocc},
        Case{"alpha_timer: 0", "cc: {algorithm: dcqcn, params: {X}}\n"},
        Case{"rate_increase_timer: 0", "cc: {algorithm: dcqcn, params: {variant: hpcc, X}}\n"},
        Case{"rate_decrease_interval: 0", "cc: {algorithm: dcqcn, params: {variant: hpcc, X}}\n"},
        Case{"min_rtt: 0", "cc: {algorithm: timely, params: {X}}\n"},
        Case{"min_rate: 0bps", "cc: {algorithm: hpcc, params: {X}}\n"}}) {
    std::string section = c.section;
    section.replace(section.find('X'), 1, c.key);
    const std::string name = std::string(c.key).substr(0, std::string(c.key).find(':'));
    const std::string prefix = c.section == rocc ? "switch.params." : "cc.params.";
    expect_bad_scenario("zero_" + name, std::string(kBase) + section, 4, prefix + name, "must be positive");
  }
}

// A rate that may be `auto` (TIMELY's delta) still has to be a positive rate when given.
TEST(BadInput, RateOrAutoMustBeAPositiveRate) {
  for (const char* value : {"0", "fast"})
    expect_bad_scenario(std::string("timely_rate_ai_") + value,
                        std::string(kBase) + "cc: {algorithm: timely, params: {rate_ai: " + value + "}}\n", 4,
                        "cc.params.rate_ai", "must be 'auto' or a positive rate");
}

// Per-rate static PFC thresholds: a resume threshold above the pause threshold of its rate.
TEST(BadInput, XonByRateAboveXoffByRateIsRejected) {
  expect_bad_scenario("xon_by_rate",
                      std::string(kBase) +
                          "switch: {pfc: {threshold: static, xoff_by_rate: {40Gbps: 500KB}, xon_by_rate: "
                          "{40Gbps: 600KB}}}\n",
                      4, "switch.pfc.xon_by_rate", "must not exceed");
}

TEST(BadInput, HpccConfigZeroTimersNameTheConfigKeyAndLine) {
  for (const char* key : {"ALPHA_RESUME_INTERVAL", "RP_TIMER", "RATE_DECREASE_INTERVAL"}) {
    const std::string dir = hpcc_case(std::string("zero_") + key, std::string(key) + " 0\n", "1");
    expect_bad_hpcc(dir, {dir + "/config.txt:7: " + key + ": 0 is out of range"});
  }
}

// `lossless hpcc` without its file said "missing the scenario file", and given a YAML scenario it said
// "FILE:LINE: -: given twice" (the list items of `workload:`): each now says what the file is and what is
// wrong.
TEST(BadInput, HpccNamesItsConfigFileAndRefusesAYamlScenarioAsSuch) {
  for (const char* args : {"hpcc", "hpcc -o out --quiet"})
    expect_bad(args, {"command line: missing the HPCC config file (CONFIG.txt"});
  expect_bad("sweep -j 2", {"command line: missing the sweep file (SWEEP.yaml)"});
  expect_bad("validate", {"command line: missing the scenario or sweep file"});
  expect_bad("run --quiet", {"command line: missing the scenario file (SCENARIO.yaml)"});
  // A YAML scenario (its list items were each a key '-'), and one whose first line is a mapping key.
  const std::string listed = scenario(
      "hpcc_yaml_list", "# a scenario\nworkload:\n  - {type: flows, flows: []}\n  - {type: flows}\n");
  expect_bad("hpcc " + listed + " --quiet",
             {listed + ":2: reads as YAML ('workload:'), not as an HPCC config file", "lossless run"});
  const std::string yaml = scenario("hpcc_yaml", kBase);
  expect_bad("hpcc " + yaml + " --quiet", {yaml + ":1: reads as YAML ('name:')"});
  // A key the format does not have is named as unknown even when it repeats (not "given twice").
  std::string dir = hpcc_case("hpcc_unknown_twice", "NO_SUCH_KEY 1\nNO_SUCH_KEY 2\n");
  expect_bad_hpcc(dir, {dir + "/config.txt:7: NO_SUCH_KEY: unknown key of the HPCC config format"});
  dir = hpcc_case("hpcc_twice", "CC_MODE 1\n");
  expect_bad_hpcc(dir, {dir + "/config.txt:7: CC_MODE: given twice (first on line 6)"});
}

// An incast naming a sender twice ran it as one sender (the host set was merged): a 3:1 incast written
// [1, 2, 2] ran 2:1, silently. README does not allow it: an error naming the host (a poisson entry's hosts
// and dst_hosts are sets of senders and destinations, where a repeat changes nothing, and stay merged).
TEST(BadInput, AnIncastSenderNamedTwiceIsAnErrorNamingTheHost) {
  const std::string topo = "topology: {type: star, hosts: 4}\n";
  expect_bad_scenario("incast_twice",
                      topo + "workload: [{type: incast, receiver: 0, senders: [1, 2, 2], size: 10KB}]\n", 2,
                      "workload.0.senders", "host 2 is named twice: an incast sends one flow per sender");
  expect_bad_scenario("incast_overlap",
                      topo + "workload:\n  - {type: incast, receiver: 0, senders: [1-3, 2], size: 10KB}\n", 3,
                      "workload.0.senders", "host 2 is named twice (in '1-3' and '2')");
  std::string err;
  const std::string poisson = scenario(
      "poisson_hosts_twice",
      topo + "workload: [{type: poisson, hosts: [0-2, 1], dst_hosts: [3, 3], load: 0.5, duration: 1ms}]\n");
  EXPECT_EQ(run_cli("validate " + poisson, &err), 0) << err;
}

// A lossless fabric whose explicit PFC headroom cannot hold what arrives after a pause in the worst case may
// drop packets and, with nic.rto off (its default there), leave the flows that lost their last packets
// unfinished: validate and run warn, naming the port and the bytes it needs (README "Flow control"). Not an
// error: the need is the worst case, and smaller headrooms can run without a drop.
TEST(BadInput, AnExplicitPfcHeadroomBelowTheWorstCaseIsAWarningNamingThePortAndTheBytes) {
  const std::string head =
      "topology: {type: star, hosts: 5, host_link: {rate: 100Gbps, delay: 2us}}\n"
      "workload: [{type: incast, receiver: 0, senders: 1-4, size: 500KB}]\n";
  const std::string why =
      "switch.pfc.headroom: 4KB is less than what can arrive at port 0 of s0 (the 100Gbps 2us link to h0) "
      "after it pauses in the worst case: 53208 B, 2 x rate x delay + 3 maximum packets + a pause frame";
  std::string err;
  const std::string small =
      scenario("headroom_small", head + "switch: {buffer: 1MB, pfc: {headroom: 4KB}}\n");
  EXPECT_EQ(run_cli("validate " + small, &err), 0) << err;
  EXPECT_NE(err.find("lossless: warning: " + small + ":3: " + why), std::string::npos) << err;
  EXPECT_EQ(run_cli("run " + small + " --quiet --set stop=5us -o " + temp_dir("headroom_small_out"), &err), 0)
      << err;
  EXPECT_NE(err.find("lossless: warning: " + small + ":3: " + why), std::string::npos) << err;
  // 2 x 25000 B + 3 x 1048 B + 64 B is enough; a lossy fabric has no headroom to check.
  const std::string enough = scenario("headroom_enough", head + "switch: {pfc: {headroom: 53208B}}\n");
  EXPECT_EQ(run_cli("validate " + enough, &err), 0) << err;
  EXPECT_EQ(err.find("warning"), std::string::npos) << err;
  const std::string lossy =
      scenario("headroom_lossy", head + "switch: {flow_control: none, pfc: {headroom: 4KB}}\n");
  EXPECT_EQ(run_cli("validate " + lossy, &err), 0) << err;
  EXPECT_EQ(err.find("warning"), std::string::npos) << err;
  EXPECT_EQ(run_cli("validate " + enough + " --set switch.pfc.headroom=53207B", &err), 0) << err;
  EXPECT_NE(err.find("--set switch.pfc.headroom=53207B: "), std::string::npos) << err;
  EXPECT_NE(err.find("53208 B"), std::string::npos) << err;
}

// Of several ports that need the same most, the warning named the first in the order of the links (here s1's,
// listed first); it names the lowest switch and port, whatever order the links were given in.
TEST(BadInput, AHeadroomWarningNamesTheLowestOfThePortsThatNeedTheMost) {
  const std::string s = scenario(
      "headroom_tie",
      "topology: {type: custom, hosts: 2, switches: 2, links: [[h1, s1, 100Gbps, 2us], [s1, s0, 100Gbps, "
      "1us], [h0, s0, 100Gbps, 2us]]}\n"
      "workload: [{type: flows, flows: [{src: 1, dst: 0, size: 10KB}]}]\n"
      "switch: {buffer: 1MB, pfc: {headroom: 4KB}}\n");
  std::string err;
  EXPECT_EQ(run_cli("validate " + s, &err), 0) << err;
  EXPECT_NE(err.find("4KB is less than what can arrive at port 1 of s0 (the 100Gbps 2us link to h0) after it "
                     "pauses in the worst case: 53208 B"),
            std::string::npos)
      << err;
}

// Class: a CDF whose sizes are all zero made the Poisson generator loop in validate.
TEST(BadInput, CdfOfZeroSizesIsRejected) {
  const std::string dir = temp_dir("bad_cdf_zero");
  write_file(dir + "/zero.txt", "0 0\n0 0.5\n0 1\n");
  write_file(dir + "/s.yaml", "topology: {type: star, hosts: 3}\nworkload: [{type: poisson, cdf: " + dir +
                                  "/zero.txt, load: 0.3}]\n");
  expect_bad("validate " + dir + "/s.yaml", {dir + "/zero.txt: ", "all below 1 byte"});
  write_file(dir + "/huge.txt", "1 0\n1e300 1\n");
  write_file(dir + "/h.yaml", "topology: {type: star, hosts: 3}\nworkload: [{type: poisson, cdf: " + dir +
                                  "/huge.txt, load: 0.3}]\n");
  expect_bad("validate " + dir + "/h.yaml", {dir + "/huge.txt: ", "CDF sizes go above"});
  // Fuzz finding (tests/fuzz/findings/cdf/): every probability on size 0, a last point of 190 B at no
  // probability; the mean Poisson arrivals are spaced by was 0.
  const std::string finding =
      std::string(LOSSLESS_SOURCE_DIR) + "/tests/fuzz/findings/cdf/mean-below-one-byte.txt";
  write_file(dir + "/m.yaml", "topology: {type: star, hosts: 3}\nworkload: [{type: poisson, cdf: " + finding +
                                  ", load: 0.3}]\n");
  expect_bad("validate " + dir + "/m.yaml", {finding + ": ", "mean flow size is below 1 byte"});
}

// Class: topology and workload sizes were unbounded (32-bit products overflowed, allocation ran away).
TEST(BadInput, TopologyAndWorkloadSizesBeyondTheLimits) {
  const std::string wl = "workload: [{type: flows, flows: [{src: 1, dst: 0, size: 10KB}]}]\n";
  expect_bad_scenario("star_huge", "topology: {type: star, hosts: 1000000}\n" + wl, 1, "topology", "Limits");
  expect_bad_scenario("leaf_overflow",
                      "topology: {type: leaf_spine, leaves: 1000000, hosts_per_leaf: 1000000}\n" + wl, 1,
                      "topology", "Limits");
  expect_bad_scenario("fat_tree_k", "topology: {type: fat_tree, k: 128}\n" + wl, 1, "topology", "Limits");
  expect_bad_scenario("fat_tree_explicit",
                      "topology: {type: fat_tree, pods: 1000000, tors_per_pod: 1000000, hosts_per_tor: "
                      "1000000}\n" +
                          wl,
                      1, "topology", "Limits");
  expect_bad_scenario("custom_huge",
                      "topology: {type: custom, hosts: 1000000, switches: 1000000, links: [[h0, s0, 1Gbps, "
                      "1us]]}\n" +
                          wl,
                      1, "topology", "Limits");
  expect_bad_scenario(
      "poisson_flows",
      "topology: {type: star, hosts: 64}\nworkload: [{type: poisson, load: 1, duration: 100s}]\n", 2,
      "workload.0.duration", "at most 5000000");
  expect_bad_scenario(
      "incast_rounds",
      "topology: {type: star, hosts: 64}\nworkload: [{type: incast, receiver: 0, senders: 1-63, "
      "size: 1KB, count: 1000000, period: 1us}]\n",
      2, "workload.0.count", "at most 5000000");
  expect_bad_scenario(
      "incast_time",
      "topology: {type: star, hosts: 4}\nworkload: [{type: incast, receiver: 0, senders: 1-3, "
      "size: 1KB, count: 2000, period: 1000s}]\n",
      2, "workload.0.period", "would start after");
  expect_bad_scenario("time_limit", std::string(kBase) + "stop: 2000000s\n", 4, "stop",
                      "beyond the largest time accepted, 1000000s (README \"Limits\")");
  expect_bad_scenario("size_limit", std::string(kBase) + "switch: {buffer: 1000001GB}\n", 4, "switch.buffer",
                      "beyond the largest size accepted");
  expect_bad_scenario("rate_limit",
                      "topology: {type: star, hosts: 4, host_link: {rate: 1001Tbps}}\n"
                      "workload: [{type: flows, flows: [{src: 1, dst: 0, size: 10KB, start: 0}]}]\n",
                      1, "topology.host_link.rate", "beyond the largest rate accepted");
  // HPCC files: counts the first line merely claims allocate nothing.
  const std::string big_topo = hpcc_case("topo_claims", "", "3", "4000000000 1 3\n3\n");
  expect_bad_hpcc(big_topo, {big_topo + "/topo.txt:1: ", "Limits"});
  const std::string big_flows = hpcc_case("flows_claims", "", "3",
                                          "4 1 3\n3\n0 3 100Gbps 1000ns 0\n"
                                          "1 3 100Gbps 1000ns 0\n2 3 100Gbps 1000ns 0\n",
                                          "999999999999999999\n0 2 3 100 3000 2.0\n");
  expect_bad_hpcc(big_flows, {big_flows + "/flow.txt:1: ", "at most 5000000"});
}

// Class: NaN (and empty) values in ECN tables and scheme gains were accepted; NaN gains overflowed.
TEST(BadInput, NanAndEmptyValuesInTablesAndGains) {
  const std::string b = kBase;
  expect_bad_scenario("pmax_nan", b + "switch: {ecn: {pmax: {100Gbps: nan}}}\n", 4, "switch.ecn.pmax",
                      "not a number");
  expect_bad_scenario("pmax_dotnan", b + "switch: {ecn: {pmax: .nan}}\n", 4, "switch.ecn.pmax",
                      "not a number");
  expect_bad_scenario("pmax_empty", b + "switch: {ecn: {pmax: {100Gbps: ''}}}\n", 4, "switch.ecn.pmax",
                      "not a number");
  expect_bad_scenario("kmin_empty", b + "switch: {ecn: {kmin: {100Gbps: }}}\n", 4, "switch.ecn.kmin",
                      "expected a value");
  expect_bad_scenario(
      "alpha0_nan",
      b + "switch: {mechanism: rocc, params: {alpha0: {100Gbps: nan}}}\ncc: {algorithm: rocc}\n", 4,
      "switch.params.alpha0", "not a number");
  expect_bad_scenario("gain_nan", b + "cc: {params: {g: nan}}\n", 4, "cc.params.g", "not a number");
  expect_bad_scenario("gain_empty", b + "cc: {params: {g: }}\n", 4, "cc.params.g", "has no value");
  const std::string dir = hpcc_case("hpcc_nan", "PMAX_MAP 1 100000000000 nan\n");
  expect_bad_hpcc(dir, {dir + "/config.txt:7: PMAX_MAP: ", "malformed value 'nan'"});
  const std::string gain = hpcc_case("hpcc_gain_nan", "EWMA_GAIN nan\n", "1");
  expect_bad_hpcc(gain, {gain + "/config.txt:7: EWMA_GAIN: ", "not a number"});
}

// Class: 20-digit numbers in node names, port lists, flow lists and --set indices were an internal error
// (stoull/stoi out of range).
TEST(BadInput, TwentyDigitNumbersAreOrdinaryErrors) {
  const std::string big = "99999999999999999999";
  expect_bad_scenario(
      "node_name",
      "topology: {type: custom, hosts: 2, links: [[h" + big +
          ", s0, 1Gbps, 1us], [h1, s0, 1Gbps, 1us]]}\nworkload: [{type: flows, flows: [{src: 1, "
          "dst: 0, size: 1KB}]}]\n",
      1, "topology.links.0", "is not h<i>, s<j> or a node id below 3");
  expect_bad_scenario(
      "node_id",
      "topology: {type: custom, hosts: 2, links: [[" + big +
          ", s0, 1Gbps, 1us], [h1, s0, 1Gbps, 1us]]}\nworkload: [{type: flows, flows: [{src: 1, "
          "dst: 0, size: 1KB}]}]\n",
      1, "topology.links.0", "is not h<i>, s<j> or a node id");
  const std::string b = kBase;
  expect_bad_scenario("monitor_switch", b + "monitor: {queues: {where: [\"s" + big + ":1\"]}}\n", 4,
                      "monitor.queues.where", "does not name a switch port");
  expect_bad_scenario("monitor_port", b + "monitor: {queues: {where: [\"s0:" + big + "\"]}}\n", 4,
                      "monitor.queues.where", "port must be a number or *");
  expect_bad_scenario("flow_ids", b + "monitor: {flow_rates: {flows: [" + big + "]}}\n", 4,
                      "monitor.flow_rates.flows", "is not a flow id below 1");
  expect_bad_scenario("host_list",
                      "topology: {type: star, hosts: 4}\nworkload: [{type: poisson, hosts: [" + big + "]}]\n",
                      2, "workload.0.hosts", "is not a host id or range");
  expect_bad_scenario("count", b + "seed: " + big + "\n", 4, "seed", "not a non-negative integer");
  const std::string path = scenario("set_index", kBase);
  expect_bad("validate " + path + " --set workload." + big + ".load=0.5",
             {"--set: workload." + big + ".load: '" + big + "' is not an index"});
  expect_bad("validate " + path + " --set workload.0.flows." + big + "=1",
             {"--set: workload.0.flows." + big + ": '" + big + "' is not an index"});
}

// Class: a directory given as a scenario or sweep file; a path or CDF name over 255 bytes.
TEST(BadInput, DirectoriesAndOverlongPaths) {
  const std::string dir = temp_dir("bad_dirs");
  expect_bad("validate " + dir, {dir + ": is a directory"});
  expect_bad("run " + dir + " --quiet", {dir + ": is a directory"});
  expect_bad("sweep " + dir + " --quiet", {dir + ": is a directory"});
  const std::string name(300, 'a');
  expect_bad("validate " + dir + "/" + name + ".yaml", {"longer than 255 bytes"});
  expect_bad_scenario("cdf_name",
                      "topology: {type: star, hosts: 3}\nworkload: [{type: poisson, cdf: " + name + "}]\n", 2,
                      "workload.0.cdf", "longer than 255 bytes");
  expect_bad_scenario("cdf_dir",
                      "topology: {type: star, hosts: 3}\nworkload: [{type: poisson, cdf: " + dir + "/}]\n", 2,
                      "workload.0.cdf", "is a directory");
  expect_bad_scenario("topo_path",
                      "topology: {type: hpcc_file, path: " + name + "}\n" +
                          std::string(kBase).substr(std::string(kBase).find("workload")),
                      1, "topology.path", "longer than 255 bytes");
  // Devices and pipes could be read forever.
  expect_bad("validate /dev/zero", {"/dev/zero: is not a regular file"});
  expect_bad_scenario("cdf_device",
                      "topology: {type: star, hosts: 3}\nworkload: [{type: poisson, cdf: /dev/zero}]\n", 2,
                      "workload.0.cdf", "is not a regular file");
  expect_bad_scenario("topo_device",
                      "topology: {type: hpcc_file, path: /dev/zero}\n" +
                          std::string(kBase).substr(std::string(kBase).find("workload")),
                      1, "topology.path", "is not a regular file");
  const std::string path = scenario("out_long", kBase);
  expect_bad("run " + path + " --quiet -o " + dir + "/" + name, {"-o: ", "longer than 255 bytes"});
}

// Class: duplicate YAML keys (yaml-cpp keeps the first), a second document, non-scalar keys (a raw yaml-cpp
// message without a line).
TEST(BadInput, DuplicateKeysSecondDocumentsAndNonScalarKeys) {
  expect_bad_scenario("dup_top", std::string(kBase) + "name: again\n", 4, "name", "given twice");
  expect_bad_scenario("dup_nested",
                      "topology: {type: star, hosts: 4, hosts: 8}\n" +
                          std::string(kBase).substr(std::string(kBase).find("workload")),
                      1, "topology.hosts", "first on line 1");
  expect_bad_scenario("dup_in_list",
                      "topology: {type: star, hosts: 4}\nworkload:\n  - type: flows\n    flows:\n"
                      "      - {src: 1, dst: 0, size: 1KB, size: 2KB}\n",
                      5, "workload.0.flows.0.size", "given twice");
  expect_bad_scenario("second_doc", std::string(kBase) + "---\nname: other\n", 4, "", "second YAML document");
  expect_bad_scenario("seq_key", std::string(kBase) + "? [a, b]\n: 1\n", 4, "",
                      "a key must be a plain value");
  expect_bad_scenario("map_key", std::string(kBase) + "cc: {? {a: 1} : 2}\n", 4, "cc",
                      "a key must be a plain value");
  // Aliases that expand to billions of values ("billion laughs") are cut off, not walked.
  std::string bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 10; ++i)
    bomb += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [" + std::string("*a") +
            std::to_string(i - 1) + ", *a" + std::to_string(i - 1) + ", *a" + std::to_string(i - 1) + ", *a" +
            std::to_string(i - 1) + ", *a" + std::to_string(i - 1) + ", *a" + std::to_string(i - 1) + ", *a" +
            std::to_string(i - 1) + ", *a" + std::to_string(i - 1) + ", *a" + std::to_string(i - 1) + ", *a" +
            std::to_string(i - 1) + "]\n";
  const std::string bomb_path = scenario("alias_bomb", std::string(kBase) + bomb);
  expect_bad("validate " + bomb_path, {bomb_path + ":", "expands to more than 10000000 values"});
  const std::string path = scenario("set_dup", kBase);
  expect_bad("validate " + path + " --set 'switch={buffer: 1MB, buffer: 2MB}'",
             {"--set:1: switch.buffer: given twice"});
  // A sweep file too.
  const std::string dir = temp_dir("bad_sweep_dup");
  write_file(dir + "/base.yaml", kBase);
  write_file(dir + "/sweep.yaml", "scenario: base.yaml\ncases: [{name: a}]\nout: x\nout: y\n");
  expect_bad("validate " + dir + "/sweep.yaml", {dir + "/sweep.yaml:4: out: given twice"});
}

// Fuzz finding (tests/fuzz/findings/scenario/yamlcpp-loadall-endless-documents.yaml): on this malformed text
// yaml-cpp's LoadAll, which looked for a second document, yields empty documents without end (validate hung).
// The text after the flow sequence that starts line 4 (at its column 32) is the syntax error.
TEST(BadInput, FuzzFindingEndlessDocumentsTerminate) {
  const std::string path = std::string(LOSSLESS_SOURCE_DIR) +
                           "/tests/fuzz/findings/scenario/yamlcpp-loadall-endless-documents.yaml";
  std::string err;
  EXPECT_EQ(run_cli("validate " + path, &err, 60), 2) << err;
  EXPECT_NE(err.find(path + ":4: YAML syntax error: text after the end of the document's value (column 32)"),
            std::string::npos)
      << err;
  // Fuzz finding (tests/fuzz/findings/scenario/name-not-utf8.yaml): a name of bytes that are not UTF-8 was
  // read as it was but written to scenario.yaml as escapes of other characters (the re-run differed).
  const std::string bad_name = scenario("not_utf8_raw", std::string("name: a\xff\xfa\n") + (kBase + 11));
  expect_bad("validate " + bad_name, {bad_name + ":1: name: byte 2 of the value is not UTF-8 text"});
  const std::string bad_key = scenario("not_utf8_key", std::string(kBase) + "cc: {\xc0\xaf: 1}\n");
  expect_bad("validate " + bad_key, {bad_key + ":4: cc: byte 1 of the value is not UTF-8 text"});
  const std::string ok =
      scenario("utf8_ok", std::string("name: \"d\xc3\xa9j\xc3\xa0 \xf0\x9f\x98\x80\"\n") + (kBase + 11));
  EXPECT_EQ(run_cli("validate " + ok, &err), 0) << err;
  expect_bad_scenario("junk_after_value", "[a, b], [c]\n", 1, "", "YAML syntax error: text after the end");
  expect_bad_scenario("not_a_mapping", "\n- a\n- b\n", 2, "", "a scenario is a YAML mapping");
}

// Class: duplicate rates in a per-rate table (the second silently replaced or shadowed the first).
TEST(BadInput, DuplicateRatesInPerRateTables) {
  expect_bad_scenario("dup_rate",
                      std::string(kBase) + "switch: {ecn: {kmin: {100Gbps: 1KB, 100000Mbps: 2KB}}}\n", 4,
                      "switch.ecn.kmin", "given twice in the table");
  const std::string dir = hpcc_case("hpcc_dup_rate", "KMIN_MAP 2 100000000000 100 100000000000 200\n");
  expect_bad_hpcc(dir, {dir + "/config.txt:7: KMIN_MAP: rate 100000000000 is given twice"});
}

// Class: HPCC flow-file ids >= 2^32 wrapped to another host; extra tokens and lines in flow and topology
// files were ignored.
TEST(BadInput, HpccFlowAndTopologyFilesAreReadExactly) {
  const std::string topo = "4 1 3\n3\n0 3 100Gbps 1000ns 0\n1 3 100Gbps 1000ns 0\n2 3 100Gbps 1000ns 0\n";
  std::string dir = hpcc_case("flow_id_wrap", "", "3", topo, "1\n4294967296 2 3 100 3000 2.0\n");
  expect_bad_hpcc(dir, {dir + "/flow.txt:2: ", "src '4294967296' is not a host"});
  dir = hpcc_case("flow_extra_token", "", "3", topo, "1\n0 2 3 100 3000 2.0 7\n");
  expect_bad_hpcc(dir, {dir + "/flow.txt:2: ", "six fields, it has 7"});
  dir = hpcc_case("flow_extra_line", "", "3", topo, "1\n0 2 3 100 3000 2.0\n1 2 3 100 3000 2.0\n");
  expect_bad_hpcc(dir, {dir + "/flow.txt:3: ", "a line after the 1 flows"});
  dir = hpcc_case("flow_count_token", "", "3", topo, "1 2\n0 2 3 100 3000 2.0\n");
  expect_bad_hpcc(dir, {dir + "/flow.txt:1: ", "number of flows"});
  dir = hpcc_case("topo_extra_token", "", "3", "4 1 3\n3\n0 3 100Gbps 1000ns 0 9\n1 3 100Gbps 1000ns 0\n");
  expect_bad_hpcc(dir, {dir + "/topo.txt:3: ", "link line"});
  dir = hpcc_case("topo_extra_line", "", "3", topo + "0 1 100Gbps 1000ns 0\n");
  expect_bad_hpcc(dir, {dir + "/topo.txt:6: ", "a line after the 3 links"});
  dir = hpcc_case("topo_switch_line", "", "3", "4 1 3\n3 2\n0 3 100Gbps 1000ns 0\n");
  expect_bad_hpcc(dir, {dir + "/topo.txt:2: ", "exactly 1 ids"});
  dir = hpcc_case("topo_header", "", "3", "4 1 3 9\n3\n");
  expect_bad_hpcc(dir, {dir + "/topo.txt:1: ", "first line"});
  dir = hpcc_case("topo_dup_switch", "", "3", "4 2 3\n3 3\n");
  expect_bad_hpcc(dir, {dir + "/topo.txt:2: ", "listed twice"});
}

// Class: fractional or overflowing numbers in HPCC configs were truncated (CC_MODE 1.9 ran DCQCN), a rate
// with a unit in a rate map was read as bps, and keys the CC_MODE does not use were never checked.
TEST(BadInput, HpccConfigNumbersAreCheckedByKind) {
  struct Case {
    const char* line;
    const char* mode;
    const char* expect;
  };
  for (const Case& c :
       {Case{"", "1.9", "CC_MODE: '1.9' is not a non-negative integer"},
        Case{"BUFFER_SIZE 1e30\n", "3", "BUFFER_SIZE: '1e30' is not a non-negative integer"},
        Case{"BUFFER_SIZE 99999999999999999999\n", "3", "BUFFER_SIZE: '99999999999999999999' is not"},
        Case{"KMAX_MAP 1 100Gbps 1600\n", "3", "KMAX_MAP: malformed rate '100Gbps'"},
        Case{"RATE_HAI fast\n", "3", "RATE_HAI: malformed rate 'fast'"},  // unused by HPCC, still checked
        Case{"EWMA_GAIN 2\n", "3", "EWMA_GAIN: 2 is out of range"},       // idem
        Case{"HAS_WIN 2\n", "3", "HAS_WIN: '2' is not 0 or 1"},
        Case{"MI_THRESH 1.5\n", "3", "MI_THRESH: '1.5' is not a non-negative integer"},
        Case{"SIMULATOR_STOP_TIME2 1\n", "3", "SIMULATOR_STOP_TIME2: unknown key"}}) {
    const std::string dir = hpcc_case("hpcc_kind", c.line, c.mode);
    const int line = std::string(c.line).empty() ? 6 : 7;
    expect_bad_hpcc(dir, {dir + "/config.txt:" + std::to_string(line) + ": " + c.expect});
  }
}

// Class: HPCC config errors found in the translated scenario named the scenario key with the translated value
// instead of the config's own key and line.
TEST(BadInput, HpccConfigErrorsNameTheConfigKeyAndLine) {
  const std::string dir =
      hpcc_case("hpcc_origin", "KMIN_MAP 1 100000000000 400\nKMAX_MAP 1 100000000000 100\n");
  expect_bad_hpcc(dir, {dir + "/config.txt:8: KMAX_MAP: must not be below kmin",
                        "(read as the scenario's switch.ecn.kmax)"});
  const std::string mtu = hpcc_case("hpcc_origin_mtu", "", "3");
  write_file(mtu + "/config.txt",
             "PACKET_PAYLOAD_SIZE 1000\nTOPOLOGY_FILE nowhere.txt\nFLOW_FILE flow.txt\n"
             "CC_MODE 3\n");
  expect_bad_hpcc(mtu, {mtu + "/config.txt:2: TOPOLOGY_FILE: no such file"});
}

// Class: topology checks said what was wrong but not where.
TEST(BadInput, TopologyChecksNameTheLine) {
  expect_bad_scenario("host_two_links",
                      "topology:\n  type: custom\n  hosts: 2\n  switches: 2\n  links:\n"
                      "    - [h0, s0, 1Gbps, 1us]\n    - [h1, s0, 1Gbps, 1us]\n    - [h0, s1, 1Gbps, 1us]\n"
                      "workload: [{type: flows, flows: [{src: 1, dst: 0, size: 1KB}]}]\n",
                      8, "topology", "has a second link");
  const std::string dir = hpcc_case("topo_disconnected", "", "3",
                                    "5 2 3\n3 4\n0 3 100Gbps 1000ns 0\n1 3 100Gbps 1000ns 0\n"
                                    "2 4 100Gbps 1000ns 0\n");
  expect_bad_hpcc(dir, {dir + "/topo.txt:5: topology: ", "disconnected"});
}

// Class: a NUL byte in a value cut the printed message short.
TEST(BadInput, NulBytesInValuesArePrintedEscaped) {
  expect_bad_scenario("nul", std::string(kBase) + "cc: {algorithm: \"dc\\0qcn\"}\n", 4, "cc.algorithm",
                      "unknown scheme 'dc\\x00qcn'");
}

// Class: sweep case names that repeat, are empty or escape the output folder; `-o ''`.
TEST(BadInput, SweepCaseNamesAndEmptyOutputFolders) {
  const std::string dir = temp_dir("bad_sweep_names");
  write_file(dir + "/base.yaml", kBase);
  struct Case {
    const char* cases;
    const char* expect;
  };
  for (const Case& c :
       {Case{"[{name: a}, {name: a}]", "cases.a: two cases have this name"},
        Case{"[{name: ''}]", "cases.0.name: a case name must not be empty"},
        Case{"[{name: ../up}]", "cases.0.name: case name '../up' is not one folder name"},
        Case{"[{name: /tmp/abs}]", "is not one folder name"}, Case{"[{name: ..}]", "is not one folder name"},
        Case{"[{name: case1}, {}]", "cases.case1: two cases have this name"}}) {
    write_file(dir + "/sweep.yaml", std::string("scenario: base.yaml\ncases: ") + c.cases + "\n");
    expect_bad("validate " + dir + "/sweep.yaml", {dir + "/sweep.yaml", c.expect});
  }
  write_file(dir + "/grid.yaml", "scenario: base.yaml\ngrid: {name: [a/b, a_b]}\n");
  expect_bad("validate " + dir + "/grid.yaml", {"two cases have this name"});
  write_file(dir + "/out.yaml", "scenario: base.yaml\nout: ''\ncases: [{name: a}]\n");
  expect_bad("validate " + dir + "/out.yaml", {dir + "/out.yaml:2: out: must name a folder"});
  expect_bad("run " + dir + "/base.yaml -o ''", {"command line: -o needs a directory, not an empty path"});
  expect_bad("sweep " + dir + "/out.yaml -o ''", {"-o needs a directory"});
}

// The headroom warning of a sweep's case names the sweep file and the case, not a --set nobody typed, and is
// printed by `validate` as by `sweep`, once a case.
TEST(BadInput, ASweepCasesHeadroomWarningNamesTheSweepAndTheCase) {
  const std::string dir = temp_dir("headroom_sweep");
  write_file(dir + "/base.yaml",
             "topology: {type: star, hosts: 3, host_link: {rate: 100Gbps, delay: 2us}}\n"
             "workload: [{type: incast, receiver: 0, senders: 1-2, size: 10KB}]\nstop: 20us\n");
  write_file(dir + "/sweep.yaml",
             "scenario: base.yaml\ncases:\n  - {name: small, set: {switch.pfc.headroom: 4KB}}\n"
             "  - {name: fine, set: {switch.pfc.headroom: auto}}\n");
  const std::string warning = "lossless: warning: " + dir +
                              "/sweep.yaml: cases.small: switch.pfc.headroom: 4KB is less than what can "
                              "arrive at port 0 of s0";
  for (const std::string& cmd :
       {"validate " + dir + "/sweep.yaml", "sweep " + dir + "/sweep.yaml --quiet -o " + dir + "/out"}) {
    std::string err;
    EXPECT_EQ(run_cli(cmd, &err), 0) << cmd << "\n" << err;
    const std::size_t at = err.find(warning);
    EXPECT_NE(at, std::string::npos) << cmd << "\n" << err;
    EXPECT_EQ(err.find("warning", at + warning.size()), std::string::npos) << cmd << "\n"
                                                                           << err;  // once, and not "fine"
    EXPECT_EQ(err.find("--set"), std::string::npos) << cmd << "\n" << err;
  }
}

// Class: --seed 18446744073709551615 (a valid 64-bit seed) was rejected.
TEST(BadInput, LargestSeedIsAccepted) {
  const std::string path = scenario("seed_max", kBase);
  const std::string out = temp_dir("seed_max_out");
  std::string err;
  ASSERT_EQ(run_cli("run " + path + " --quiet --seed 18446744073709551615 -o " + out, &err), 0) << err;
  std::ifstream in(out + "/scenario.yaml");
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_NE(ss.str().find("seed: 18446744073709551615"), std::string::npos) << ss.str();
  expect_bad("run " + path + " --quiet --seed 18446744073709551616", {"--seed takes an integer from 0 to"});
}

// Class: write errors were ignored (exit 0 with summary.json missing, an FCT file on a full disk). A run's
// files are staged beside the output folder and moved in when complete, so a full disk is a file-size limit
// here (ulimit -f, SIGXFSZ ignored: writes past it fail as on a full disk): the run exits 2 naming the file
// as it would have been in the output folder, and the folder keeps the previous run's outputs.
TEST(BadInput, WriteErrorsOnAFullDiskExitTwo) {
  std::string many = std::string(kBase) + "output: {hpcc_fct: true}\n";
  std::string flows = "workload: [{type: flows, flows: [";
  for (int i = 0; i < 20; ++i)
    flows += (i ? ", " : "") + std::string("{src: 1, dst: 0, size: 1KB, start: 0}");
  many.replace(many.find("workload:"), many.find("\n", many.find("workload:")) - many.find("workload:"),
               flows + "]}]");
  for (const auto& [text, file] :
       {std::pair{std::string(kBase), "scenario.yaml"}, std::pair{many, "fct.csv"}}) {
    const std::string path = scenario(std::string("full_disk_") + file, text);
    const std::string out = temp_dir(std::string("full_") + file);
    ASSERT_EQ(run_cli("run " + path + " --quiet -o " + out), 0);
    const std::string before = std::to_string(std::filesystem::file_size(out + "/summary.json"));
    const std::string errfile = out + ".stderr";
    const std::string cmd = "sh -c \"trap '' XFSZ; ulimit -f 1; " + std::string(LOSSLESS_BINARY) + " run " +
                            path + " --quiet -o " + out + "\" 2> " + errfile;
    const int status = std::system(cmd.c_str());
    std::ifstream in(errfile);
    const std::string err((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 2) << err;
    EXPECT_NE(err.find(out + "/" + file + ": writing the output file failed"), std::string::npos) << err;
    EXPECT_EQ(std::to_string(std::filesystem::file_size(out + "/summary.json")), before)
        << "previous run kept";
    for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(out).parent_path()))
      EXPECT_EQ(e.path().filename().string().find(".partial-"), std::string::npos)
          << "staging left: " << e.path();
  }
  const std::string dir = hpcc_case("hpcc_full", "FCT_OUTPUT_FILE /dev/full\n");
  expect_bad_hpcc(dir, {"/dev/full: writing the output file failed"});
  // A sweep's table of cases.
  const std::string sweep = temp_dir("full_sweep");
  write_file(sweep + "/base.yaml", kBase);
  write_file(sweep + "/sweep.yaml", "scenario: base.yaml\nout: " + sweep + "/out\ncases: [{name: a}]\n");
  std::filesystem::create_directories(sweep + "/out");
  ASSERT_EQ(::symlink("/dev/full", (sweep + "/out/sweep.json").c_str()), 0);
  std::string err;
  EXPECT_EQ(run_cli("sweep " + sweep + "/sweep.yaml --quiet", &err), 2) << err;
  EXPECT_NE(err.find("sweep.json: writing the output file failed"), std::string::npos) << err;
}

// Class: validate and run disagreed: a monitor port that does not exist passed validate.
TEST(BadInput, ValidateRejectsWhatRunWouldReject) {
  expect_bad_scenario("monitor_no_port", std::string(kBase) + "monitor: {queues: {where: [\"s0:4\"]}}\n", 4,
                      "monitor.queues.where", "'s0:4': s0 has ports 0-3");
  const std::string ok =
      scenario("monitor_port_ok", std::string(kBase) + "monitor: {queues: {where: [\"s0:3\"]}}\n");
  std::string err;
  EXPECT_EQ(run_cli("run " + ok + " --quiet -o " + temp_dir("monitor_port_ok_out"), &err), 0) << err;
}

}  // namespace
}  // namespace lossless::test
