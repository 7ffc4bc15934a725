// Outputs a user can trust (issue 31): a run folder never mixes two runs or holds a half-written file, an
// interrupted run leaves the previous outputs as they were, a sweep resumes where it was interrupted, and
// `lossless plot` refuses a folder whose files do not come from one complete run.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

#include "net/network.h"
#include "test_util.h"

namespace lossless::test {
namespace {

namespace fs = std::filesystem;

// A 2 MB 8:1 incast (about 1.4 ms simulated): long enough to be interrupted, with queue and rate monitors.
constexpr const char* kMonitored = R"(name: monitored
topology: {type: star, hosts: 9, host_link: {rate: 100Gbps, delay: 1us}}
workload: [{type: incast, receiver: 0, senders: 1-8, size: 2MB, start: 0}]
monitor: {queues: {interval: 1us, where: all_switch_ports}, flow_rates: {interval: 10us, flows: all}}
)";
constexpr const char* kPlain = R"(name: plain
topology: {type: star, hosts: 9, host_link: {rate: 100Gbps, delay: 1us}}
workload: [{type: incast, receiver: 0, senders: 1-8, size: 200KB, start: 0}]
)";
// Many small flows sampled every 10 ns: seconds of wall time with a queues.csv growing past 1 MiB, so that an
// interrupt lands while the monitors are writing.
constexpr const char* kLong = R"(name: long
topology: {type: star, hosts: 17, host_link: {rate: 100Gbps, delay: 1us}}
workload: [{type: poisson, cdf: WebSearch, load: 0.8, duration: 200ms, start: 0, hosts: all}]
monitor: {queues: {interval: 10ns, where: all_switch_ports}, flow_rates: {interval: 1us, flows: all}}
)";

std::string write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// Every file of a folder (not its subfolders) with its content.
std::map<std::string, std::string> files_of(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file()) out[e.path().filename().string()] = slurp(e.path().string());
  return out;
}

// Runs a shell command line; returns the exit status, stdout and stderr.
int shell(const std::string& cmd, std::string* out = nullptr, std::string* err = nullptr) {
  const ShellResult r = shell_in(".", cmd, 0, temp_dir("outputs-shell"));
  if (out) *out = r.out;
  if (err) *err = r.err;
  return r.status;
}

std::string bin() { return LOSSLESS_BINARY; }
std::string plot(const std::string& dirs) {
  return "/usr/bin/python3 " + std::string(LOSSLESS_SOURCE_DIR) + "/tools/plot.py " + dirs;
}

void expect_no_staging_left(const std::string& parent) {
  for (const auto& e : fs::directory_iterator(parent))
    EXPECT_EQ(e.path().filename().string().find(".partial"), std::string::npos)
        << "left behind: " << e.path();
}

TEST(Outputs, ASecondRunReplacesTheFirstsFilesInsteadOfMixingWithThem) {
  const std::string dir = temp_dir("outputs-mixed");
  const std::string a = write(dir + "/a.yaml", kMonitored), b = write(dir + "/b.yaml", kPlain);
  ASSERT_EQ(shell(bin() + " run " + a + " -o " + dir + "/X --quiet"), 0);
  ASSERT_EQ(shell(plot(dir + "/X")), 0);
  EXPECT_TRUE(fs::exists(dir + "/X/queues.csv") && fs::exists(dir + "/X/figures"));
  ASSERT_EQ(shell(bin() + " run " + b + " -o " + dir + "/X --quiet"), 0);
  // Only the second run's files: its monitors were off, and the figures drawn from the first run are gone.
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir + "/X")) names.insert(e.path().filename().string());
  EXPECT_EQ(names, (std::set<std::string>{"fct.csv", "pfc.csv", "scenario.yaml", "summary.json"}));
  const std::string summary = slurp(dir + "/X/summary.json");
  EXPECT_NE(summary.find("\"scenario\": \"plain\""), std::string::npos);
  EXPECT_NE(
      summary.find("{\"file\": \"fct.csv\", \"bytes\": " + std::to_string(fs::file_size(dir + "/X/fct.csv"))),
      std::string::npos)
      << summary;
  EXPECT_EQ(shell(plot(dir + "/X")), 0);
  expect_no_staging_left(dir);
}

TEST(Outputs, PlotRefusesAFolderMixingRunsOrHoldingACutFile) {
  const std::string dir = temp_dir("outputs-refuse");
  const std::string a = write(dir + "/a.yaml", kMonitored), b = write(dir + "/b.yaml", kPlain);
  ASSERT_EQ(shell(bin() + " run " + a + " -o " + dir + "/A --quiet"), 0);
  ASSERT_EQ(shell(bin() + " run " + b + " -o " + dir + "/B --quiet"), 0);
  fs::copy_file(dir + "/A/queues.csv",
                dir + "/B/queues.csv");  // what a careless copy or an old version leaves
  std::string err;
  EXPECT_EQ(shell(plot(dir + "/B"), nullptr, &err), 2);
  EXPECT_NE(err.find("mixes files of different runs: queues.csv"), std::string::npos) << err;
  EXPECT_FALSE(fs::exists(dir + "/B/figures")) << "nothing drawn from a refused folder";
  fs::remove(dir + "/B/queues.csv");
  fs::resize_file(dir + "/A/queues.csv", 1 << 10);  // cut mid-line
  EXPECT_EQ(shell(plot(dir + "/A"), nullptr, &err), 2);
  EXPECT_NE(err.find("queues.csv has 1024 bytes"), std::string::npos) << err;
  fs::remove(dir + "/B/summary.json");  // what an interrupted run of an older version left
  EXPECT_EQ(shell(plot(dir + "/B"), nullptr, &err), 2);
  EXPECT_NE(err.find("holds no complete run"), std::string::npos) << err;
}

// Damaged folders get exit 2 and a sentence, not a Python traceback (exit 1); a complete run whose flows all
// stalled is not "nothing to plot (no fct.csv ...)" when it has an fct.csv.
TEST(Outputs, PlotRefusesDamagedFilesWithoutATracebackAndSaysWhyNothingIsDrawn) {
  const std::string dir = temp_dir("outputs-damaged");
  const std::string b = write(dir + "/b.yaml", kPlain);
  ASSERT_EQ(shell(bin() + " run " + b + " -o " + dir + "/A --quiet"), 0);
  std::string err;
  // fct.csv of the right size but other content.
  fs::copy(dir + "/A", dir + "/C", fs::copy_options::recursive);
  write(dir + "/C/fct.csv", std::string(fs::file_size(dir + "/A/fct.csv"), 'x'));
  EXPECT_EQ(shell(plot(dir + "/C"), nullptr, &err), 2) << err;
  EXPECT_NE(err.find("fct.csv does not start with the header"), std::string::npos) << err;
  EXPECT_EQ(err.find("Traceback"), std::string::npos) << err;
  // A summary.json whose outputs lack their sizes.
  fs::copy(dir + "/A", dir + "/D", fs::copy_options::recursive);
  std::string summary = slurp(dir + "/D/summary.json");
  for (auto at = summary.find(", \"bytes\": "); at != std::string::npos; at = summary.find(", \"bytes\": "))
    summary.erase(at, summary.find('}', at) - at);
  write(dir + "/D/summary.json", summary);
  EXPECT_EQ(shell(plot(dir + "/D"), nullptr, &err), 2) << err;
  EXPECT_NE(err.find("not a run summary"), std::string::npos) << err;
  // A sweep.json without cases.
  fs::create_directories(dir + "/E");
  write(dir + "/E/sweep.json", "{}\n");
  EXPECT_EQ(shell(plot(dir + "/E"), nullptr, &err), 2) << err;
  EXPECT_NE(err.find("not a sweep's output"), std::string::npos) << err;
  // Every flow stalled in a PFC deadlock: nothing to draw, said as it is.
  ASSERT_EQ(shell(bin() + " run " + std::string(LOSSLESS_SOURCE_DIR) +
                  "/tests/inputs/view-deadlock-ring.yaml -o " + dir + "/R --quiet"),
            0);
  EXPECT_EQ(shell(plot(dir + "/R"), nullptr, &err), 0) << err;
  EXPECT_NE(err.find("no flow of the 10 in fct.csv finished"), std::string::npos) << err;
}

// A port or flow named twice in a monitor's list (["s0:3", "s0:*"], as DESIGN's example has it) gave two rows
// for the same (time, port) or (time, flow): sampled once, in the order first named.
TEST(Outputs, MonitorsSampleAPortOrFlowNamedTwiceOnce) {
  const std::string dir = temp_dir("outputs-dup-monitor");
  const std::string a = write(dir + "/a.yaml", kMonitored);
  ASSERT_EQ(shell(bin() + " run " + a + " -o " + dir +
                  "/X --quiet --set 'monitor.queues.where=[\"s0:3\", \"s0:*\", " +
                  "\"s0:3\"]' --set 'monitor.flow_rates.flows=[2, 2, 1]'"),
            0);
  std::istringstream q(slurp(dir + "/X/queues.csv"));
  std::string line;
  std::getline(q, line);
  std::vector<std::string> first_sample;
  while (std::getline(q, line) && line.rfind("0.000,", 0) == 0) first_sample.push_back(line.substr(6));
  ASSERT_EQ(first_sample.size(), 9u);  // the switch's nine ports, each once
  EXPECT_EQ(first_sample[0], "s0,3,0");
  EXPECT_EQ(first_sample[1], "s0,0,0");
  std::istringstream r(slurp(dir + "/X/flow_rates.csv"));
  std::getline(r, line);
  std::vector<std::string> first_rates;
  while (std::getline(r, line) && line.rfind("10000.000,", 0) == 0) first_rates.push_back(line.substr(10, 2));
  EXPECT_EQ(first_rates, (std::vector<std::string>{"2,", "1,"}));
}

TEST(Outputs, AnInterruptedRunLeavesThePreviousOutputsIntact) {
  const std::string dir = temp_dir("outputs-interrupt");
  const std::string b = write(dir + "/b.yaml", kPlain), big = write(dir + "/long.yaml", kLong);
  ASSERT_EQ(shell(bin() + " run " + b + " -o " + dir + "/X --quiet"), 0);
  const auto before = files_of(dir + "/X");
  std::string err;
  // SIGINT after 2 s, while the monitors stream megabytes; --preserve-status reports lossless's own status.
  EXPECT_EQ(shell("timeout --preserve-status -s INT 2 " + bin() + " run " + big + " -o " + dir + "/X --quiet",
                  nullptr, &err),
            130)
      << err;
  EXPECT_NE(err.find("interrupted (SIGINT) at simulated time"), std::string::npos) << err;
  EXPECT_NE(err.find("the previous run's outputs are intact in " + dir + "/X"), std::string::npos) << err;
  EXPECT_EQ(files_of(dir + "/X"), before) << "every file of the previous run, byte for byte, and no other";
  expect_no_staging_left(dir);
  EXPECT_EQ(shell(plot(dir + "/X")), 0);
  // SIGTERM does the same; into a new folder, nothing is left but the (empty) folder.
  EXPECT_EQ(
      shell("timeout --preserve-status -s TERM 1 " + bin() + " run " + big + " -o " + dir + "/Y --quiet",
            nullptr, &err),
      130)
      << err;
  EXPECT_NE(err.find("interrupted (SIGTERM)"), std::string::npos) << err;
  EXPECT_NE(err.find("there is no complete run in"), std::string::npos) << err;
  EXPECT_FALSE(fs::exists(dir + "/Y/summary.json"));
  expect_no_staging_left(dir);
}

// `timeout`, `kill -- -PGID` and job control signal a process and then its process group: one request
// arriving twice. The run must still stop cleanly (130), not die of the second copy (143) with its staging
// left behind.
TEST(Outputs, OneRequestDeliveredTwiceStillStopsTheRunCleanly) {
  const std::string dir = temp_dir("outputs-twice");
  const std::string big = write(dir + "/long.yaml", kLong);
  std::string err;
  // Two copies 1 ms apart from one shell, once the run has made its staging folder (its handlers are in place
  // by then): the handler has run for the first when the second arrives.
  EXPECT_EQ(
      shell("sh -c '" + bin() + " run " + big + " -o " + dir + "/Y --quiet & p=$!; while ! ls -d " + dir +
                "/.Y.partial-* > /dev/null 2>&1; do sleep 0.02; done; sleep 0.2; kill -TERM $p; sleep 0.001; "
                "kill -TERM $p; wait $p'",
            nullptr, &err),
      130)
      << err;
  EXPECT_NE(err.find("interrupted (SIGTERM)"), std::string::npos) << err;
  expect_no_staging_left(dir);
}

constexpr const char* kSweep = R"(scenario: base.yaml
grid: {workload.0.load: [0.3, 0.5, 0.7]}
)";
// About a second of wall time per case.
constexpr const char* kSweepBase = R"(name: base
topology: {type: star, hosts: 17, host_link: {rate: 100Gbps, delay: 1us}}
workload: [{type: poisson, cdf: WebSearch, load: 0.5, duration: 8ms, start: 0, hosts: all}]
)";

TEST(Outputs, AnInterruptedSweepResumesWithoutRerunningCompleteCases) {
  const std::string dir = temp_dir("outputs-resume");
  write(dir + "/base.yaml", kSweepBase);
  const std::string sweep = write(dir + "/sweep.yaml", kSweep);
  std::string whole, part, err;
  ASSERT_EQ(shell(bin() + " sweep " + sweep + " -o " + dir + "/whole --quiet", &whole, &err), 0) << err;
  // Interrupt once the first case is complete and before the last one is.
  const std::string out = dir + "/part";
  const std::string cmd = bin() + " sweep " + sweep + " -o " + out + " --quiet & pid=$!; while [ ! -e " +
                          out + "/load=0.3/summary.json ]; do sleep 0.02; done; kill -INT $pid; wait $pid";
  EXPECT_EQ(shell("sh -c '" + cmd + "'", nullptr, &err), 130) << err;
  // The hint repeats the command with its -o (a sweep file's `out:` may name another folder).
  EXPECT_NE(err.find("`lossless sweep " + sweep + " -o " + out + " --quiet --resume` runs the rest"),
            std::string::npos)
      << err;
  const std::string record = slurp(out + "/sweep.json");
  EXPECT_NE(record.find("\"name\": \"load=0.3\", \"dir\": \"" + out +
                        "/load=0.3\", \"ok\": true, \"status\": \"ok\""),
            std::string::npos)
      << record;
  EXPECT_EQ(record.find("\"name\": \"load=0.7\", \"dir\": \"" + out + "/load=0.7\", \"ok\": true"),
            std::string::npos)
      << record;
  const auto first = files_of(out + "/load=0.3");
  const auto first_time = fs::last_write_time(out + "/load=0.3/summary.json");
  ASSERT_EQ(shell(bin() + " sweep " + sweep + " -o " + out + " --resume", &part, &err), 0) << err;
  EXPECT_NE(err.find("--resume: 1 of 3 cases complete"), std::string::npos) << err;
  EXPECT_EQ(err.find("case load=0.3 ..."), std::string::npos) << "a complete case is not run again: " << err;
  EXPECT_EQ(files_of(out + "/load=0.3"), first);
  EXPECT_EQ(fs::last_write_time(out + "/load=0.3/summary.json"), first_time);
  // The table, without its last line (which names the folder), is the uninterrupted sweep's.
  auto table = [](const std::string& s) { return s.substr(0, s.rfind("outputs in")); };
  EXPECT_EQ(table(part), table(whole));
  for (const char* c : {"load=0.5", "load=0.7"})
    EXPECT_EQ(slurp(out + "/" + c + "/fct.csv"), slurp(dir + "/whole/" + c + "/fct.csv")) << c;
}

TEST(Outputs, ASecondSweepIntoAFolderInUseIsRefused) {
  const std::string dir = temp_dir("outputs-lock");
  write(dir + "/base.yaml", kSweepBase);
  const std::string sweep = write(dir + "/sweep.yaml", kSweep);
  fs::create_directories(dir + "/busy");
  const int fd = ::open((dir + "/busy").c_str(), O_RDONLY | O_DIRECTORY);  // as a running sweep holds it
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  std::string err;
  EXPECT_EQ(shell(bin() + " sweep " + sweep + " -o " + dir + "/busy --quiet", nullptr, &err), 2);
  EXPECT_NE(err.find("another sweep is writing into this folder"), std::string::npos) << err;
  EXPECT_FALSE(fs::exists(dir + "/busy/load=0.3"));
  ::close(fd);
}

TEST(Outputs, ErrorsNameTheSetAndSuggestTheNearestName) {
  const std::string dir = temp_dir("outputs-errors");
  const std::string b = write(dir + "/b.yaml", kPlain);
  std::string err;
  EXPECT_EQ(shell(bin() + " run " + b + " --set workload.0.size=-1", nullptr, &err), 2);
  EXPECT_NE(err.find("--set workload.0.size=-1: "), std::string::npos) << err;
  EXPECT_EQ(err.find("b.yaml"), std::string::npos) << "the value is not the file's: " << err;
  EXPECT_EQ(shell(bin() + " validate " + b + " --set cc.algorithm=hpc", nullptr, &err), 2);
  EXPECT_NE(err.find("(did you mean 'hpcc'?)"), std::string::npos) << err;
  EXPECT_EQ(shell(bin() + " validate " + b + " --set switch.pfc.alfa=0.5", nullptr, &err), 2);
  EXPECT_NE(err.find("unknown key (did you mean 'alpha'?)"), std::string::npos) << err;
  write(dir + "/typo.yaml", std::string(kPlain) + "montor: {pfc: true}\n");
  EXPECT_EQ(shell(bin() + " validate " + dir + "/typo.yaml", nullptr, &err), 2);
  EXPECT_NE(err.find("typo.yaml:4: montor: unknown key (did you mean 'monitor'?)"), std::string::npos) << err;
  // No flow can start before stop: not a table of zeros but an error naming stop.
  EXPECT_EQ(shell(bin() + " run " + b + " --set workload.0.start=50us --set stop=10us", nullptr, &err), 2);
  EXPECT_NE(
      err.find("--set stop=10us: 10us is not after the first flow's start (50.000 us): no flow could run"),
      std::string::npos)
      << err;
}

TEST(Outputs, EmptyBinsPrintADashNotZero) {
  const std::string dir = temp_dir("outputs-bins");
  const std::string b = write(dir + "/b.yaml", kPlain);
  std::string out;
  ASSERT_EQ(shell(bin() + " run " + b + " -o " + dir + "/X", &out), 0);
  EXPECT_NE(out.find("<10KB              0        -        -        -        -"), std::string::npos) << out;
  EXPECT_NE(out.find("100KB-1MB          8"), std::string::npos) << out;
}

// `lossless describe` names every port as the monitors take it, and each line agrees with the fabric's own
// port table (the peer the network forwards to).
TEST(Outputs, DescribeNamesEveryPortAndWhereItLeads) {
  const std::string dir = temp_dir("outputs-describe");
  const std::string d =
      write(dir + "/d.yaml",
            "name: d\ntopology: {type: dumbbell, left: 4, right: 4, core_link: {rate: 40Gbps, "
            "delay: 2us}}\nworkload: [{type: flows, flows: [{src: 1, dst: 5, size: 1MB, start: 0}]}]\n");
  std::string out, err;
  ASSERT_EQ(shell(bin() + " describe " + d, &out, &err), 0) << err;
  EXPECT_NE(out.find("s0:0  ->  h0:0  100Gbps 1us"), std::string::npos) << out;
  EXPECT_NE(out.find("s0:4  ->  s1:4  40Gbps 2us"), std::string::npos) << out;  // the core link
  ScenarioOverrides ov;
  Scenario sc = load_scenario(d, ov);
  Network net(sc.topology, sc.sw, sc.nic, sc.seed, 1);
  for (std::uint32_t n = 0; n < sc.topology.nodes(); ++n) {
    const std::string name = sc.topology.node_name(n);
    for (std::uint32_t p = 0;; ++p) {
      const std::string here = name + ":" + std::to_string(p) + "  ";
      const auto at = out.find("\n" + here);
      if (at == std::string::npos) break;
      const std::string peer = sc.topology.node_name(net.peer_node(n, p)) + ":";
      EXPECT_EQ(out.substr(at + 1 + here.size(), 4 + peer.size()), "->  " + peer) << here;
    }
  }
  EXPECT_EQ(shell(bin() + " describe " + d + " --node s7", &out, &err), 2);
  EXPECT_NE(err.find("'s7' is not a node of"), std::string::npos) << err;
  // An empty name printed every node; a second --node was called an unknown option; -o was ignored.
  EXPECT_EQ(shell(bin() + " describe " + d + " --node ''", &out, &err), 2);
  EXPECT_NE(err.find("--node needs a node name"), std::string::npos) << err;
  EXPECT_EQ(shell(bin() + " describe " + d + " --node h0 --node s0", &out, &err), 2);
  EXPECT_NE(err.find("--node given twice"), std::string::npos) << err;
  EXPECT_EQ(shell(bin() + " describe " + d + " -o x", &out, &err), 2);
  EXPECT_NE(err.find("unknown option '-o'"), std::string::npos) << err;
}

}  // namespace
}  // namespace lossless::test
