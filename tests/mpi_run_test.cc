// One fabric over MPI ranks (`mpirun -n R lossless run`, net/network.h, net/rank_exchange.h): the outputs of
// R processes x T threads are byte-identical to one thread's (summary.json apart from what measures the
// processes); bad input ends every rank with status 2 and one message; a rank that dies or is interrupted
// stops the others, within a timeout. Skipped, with the reason, where mpirun is missing or the build does not
// link MPI (CMake LOSSLESS_MPI).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"
#include "topo/partitioning.h"

namespace lossless::test {
namespace {

using Cli = ShellResult;

// Runs a shell command line in `dir`, killed after `timeout_s` (status 124: a hang).
Cli shell(const std::string& dir, const std::string& line, int timeout_s = 120) {
  return shell_in(dir, line, timeout_s);
}

std::string bin() { return LOSSLESS_BINARY; }

std::string mpirun(int ranks) { return mpirun_line(ranks) + "--bind-to none "; }

// Why these tests cannot run here (empty: they can).
std::string skip_reason() {
#ifndef LOSSLESS_TEST_MPI
  return "this build does not link MPI (the sanitizer build leaves it out; elsewhere CMake found none: "
         "scripts/install-deps.sh --test installs "
         "libopenmpi-dev; or -DLOSSLESS_MPI=ON)";
#else
  if (std::system("command -v mpirun > /dev/null") != 0)
    return "mpirun not found: scripts/install-deps.sh --test installs Debian's openmpi-bin";
  return "";
#endif
}

#define SKIP_WITHOUT_MPI()                                          \
  do {                                                              \
    const std::string why = skip_reason();                          \
    if (!why.empty()) GTEST_SKIP() << "MPI tests skipped: " << why; \
  } while (0)

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// summary.json without what measures the processes (wall time, memory, threads, ranks, the exchange). The
// invariants stay: over ranks they are checked at the end of the run, as on one process (one pass).
std::string simulation_summary(const std::string& path) {
  std::string s = slurp(path);
  for (const char* key :
       {"\"wall_seconds\"", "\"memory\"", "\"threads\"", "\"ranks\"", "\"exchange\"", "\"outputs\""}) {
    auto i = s.find(key);
    if (i == std::string::npos) continue;
    const auto line = s.rfind('\n', i) + 1;
    s.erase(line, s.find('\n', i) + 1 - line);
  }
  return s;
}

struct MpiCase {
  const char* name;
  const char* yaml;
  bool stalls = false;  // the run ends with stalled flows, listed in summary.json
};

class MpiRun : public ::testing::TestWithParam<MpiCase> {};

TEST_P(MpiRun, RanksGiveTheOutputsOfOneThread) {
  SKIP_WITHOUT_MPI();
  const MpiCase& c = GetParam();
  const std::string dir = temp_dir(std::string("mpi_run_") + c.name);
  write(dir + "/s.yaml", c.yaml);
  const Cli one = shell(dir, bin() + " run s.yaml -o one --quiet");
  ASSERT_EQ(one.status, 0) << one.err;
  if (c.stalls) {
    ASSERT_NE(slurp(dir + "/one/summary.json").find("\"stalls\": [\n    {\"flow\""), std::string::npos)
        << "no stall listed";
  }
  for (const auto& [ranks, threads] : {std::pair{2, 1}, std::pair{3, 2}}) {
    const std::string out = "r" + std::to_string(ranks) + "t" + std::to_string(threads);
    const Cli r = shell(dir, mpirun(ranks) + bin() + " run s.yaml -o " + out + " --quiet --threads " +
                                 std::to_string(threads));
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string summary = slurp(dir + "/" + out + "/summary.json");
    EXPECT_NE(summary.find("\"ranks\": " + std::to_string(ranks)), std::string::npos) << summary;
    EXPECT_NE(summary.find("\"by_rank\""), std::string::npos) << summary;
    for (const char* f : {"fct.csv", "pfc.csv"})
      EXPECT_EQ(slurp(dir + "/one/" + f), slurp(dir + "/" + out + "/" + f)) << out << " " << f;
    EXPECT_EQ(simulation_summary(dir + "/one/summary.json"),
              simulation_summary(dir + "/" + out + "/summary.json"))
        << out;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Schemes, MpiRun,
    ::testing::Values(
        // Incast under PFC: pause frames cross between ranks; pfc.csv gathers every rank's log.
        MpiCase{"dcqcn_pfc", R"(
seed: 3
topology: {type: leaf_spine, leaves: 4, spines: 2, hosts_per_leaf: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
switch: {buffer: 2MB}
cc: {algorithm: dcqcn}
stop: 400us
workload: [{type: poisson, cdf: WebSearch, load: 0.6, duration: 300us}, {type: incast, receiver: 0, senders: 1-15, size: 200KB, start: 50us}, {type: incast, receiver: 9, senders: 0-7, size: 64KB, start: 20us, count: 5, period: 50us}]
monitor: {pfc: true}
)"},
        // Lossy fat tree: drops and go-back-N across ranks; HPCC's INT records (packet slots) cross with
        // their packets.
        MpiCase{"hpcc_lossy", R"(
seed: 4
topology: {type: fat_tree, k: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
switch: {buffer: 1MB, flow_control: none}
cc: {algorithm: hpcc}
stop: 400us
workload: [{type: poisson, cdf: WebSearch, load: 0.7, duration: 300us}, {type: incast, receiver: 0, senders: 1-15, size: 200KB, start: 50us}]
)"},
        // A switch mechanism with timers on every rank (RoCC's CP), its traces gathered on rank 0.
        MpiCase{"rocc", R"(
seed: 5
topology: {type: leaf_spine, leaves: 2, spines: 2, hosts_per_leaf: 8, host_link: {rate: 40Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
switch: {mechanism: rocc}
cc: {algorithm: rocc}
stop: 400us
workload: [{type: poisson, cdf: WebSearch, load: 0.5, duration: 300us}, {type: incast, receiver: 3, senders: 8-15, size: 64KB, start: 20us, count: 5, period: 50us}]
)"},
        // Receiver timers and clock draws (RCC) on hosts of every rank.
        MpiCase{"rcc", R"(
seed: 7
topology: {type: fat_tree, k: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: rcc, params: {clock_jitter: 200ns}}
stop: 400us
workload: [{type: poisson, cdf: WebSearch, load: 0.6, duration: 300us}, {type: incast, receiver: 0, senders: 8-15, size: 64KB, start: 20us, count: 5, period: 50us}]
)"},
        // Stopped in the incasts' pauses with a short stall_after: stalled flows listed (what they wait for,
        // delivered and in-flight bytes summed over ranks, the paused port on their path) as on one process.
        MpiCase{"stalls", R"(
seed: 3
topology: {type: leaf_spine, leaves: 4, spines: 2, hosts_per_leaf: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
switch: {buffer: 2MB}
cc: {algorithm: dcqcn}
stop: 120us
check: {stall_after: 3us}
workload: [{type: poisson, cdf: WebSearch, load: 0.6, duration: 300us}, {type: incast, receiver: 0, senders: 1-15, size: 200KB, start: 50us}, {type: incast, receiver: 9, senders: 0-7, size: 64KB, start: 20us, count: 5, period: 50us}]
)",
                true}),
    [](const auto& info) { return std::string(info.param.name); });

constexpr const char* kSmall = R"(
seed: 3
topology: {type: fat_tree, k: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: dcqcn}
workload: [{type: poisson, cdf: WebSearch, load: 0.5, duration: 200us}]
)";

// What samples or checks the whole fabric between windows, and a fabric without lookahead, run whole on rank
// 0 while the other ranks follow its windows (README "One fabric over several processes"). Each ended in an
// internal error ("run-time checks look at the whole fabric") until the end-of-window observer was allowed
// with a rank link on an unsplit fabric.
TEST(MpiRunWhole, FabricCasesRunOnRankZeroWithTheOutputsOfOneProcess) {
  SKIP_WITHOUT_MPI();
  const std::string dir = temp_dir("mpi_whole");
  write(dir + "/s.yaml", kSmall);
  const struct {
    const char* name;
    const char* options;
    const char* why;
  } cases[] = {{"monitor", "--set monitor.queues.interval=1us", "monitor.queues"},
               {"check", "--check", "--check looks at the whole fabric"},
               {"nodelay", "--set topology.fabric_link.delay=0ns", "a link without delay"}};
  for (const auto& c : cases) {
    const std::string one = std::string("one_") + c.name, two = std::string("two_") + c.name;
    const Cli a = shell(dir, bin() + " run s.yaml -o " + one + " --quiet " + c.options);
    ASSERT_EQ(a.status, 0) << c.name << ": " << a.err;
    const Cli b = shell(dir, mpirun(2) + bin() + " run s.yaml -o " + two + " " + c.options);
    ASSERT_EQ(b.status, 0) << c.name << ": " << b.err;
    EXPECT_NE(b.err.find(std::string(c.why)), std::string::npos) << b.err;
    EXPECT_NE(b.err.find("the fabric runs on rank 0 alone"), std::string::npos) << b.err;
    EXPECT_FALSE(slurp(dir + "/" + one + "/fct.csv").empty()) << c.name;
    EXPECT_EQ(slurp(dir + "/" + one + "/fct.csv"), slurp(dir + "/" + two + "/fct.csv")) << c.name;
    if (std::string(c.name) == "monitor") {
      EXPECT_EQ(slurp(dir + "/" + one + "/queues.csv"), slurp(dir + "/" + two + "/queues.csv"));
    }
    EXPECT_EQ(simulation_summary(dir + "/" + one + "/summary.json"),
              simulation_summary(dir + "/" + two + "/summary.json"))
        << c.name;
  }
}

// summary.json's headroom_drops object, whole (one line).
std::string headroom_drops_json(const std::string& summary_path) {
  const std::string s = slurp(summary_path);
  const auto at = s.find("\"headroom_drops\"");
  if (at == std::string::npos) return "";
  return s.substr(at, s.find('\n', at) - at);
}

// Two racks of five hosts, each leaf with its own rank; rack 1's incast (h6-h9 to h5) starts at 0, rack 0's
// (h1-h4 to h0) is added after this.
constexpr const char* kTwoRacks = R"(
topology: {type: leaf_spine, leaves: 2, spines: 1, hosts_per_leaf: 5, host_link: {rate: 100Gbps, delay: 2us}, fabric_link: {rate: 100Gbps, delay: 2us}}
switch: {buffer: 1MB, pfc: {headroom: 4000B}}
cc: {algorithm: none}
stop: 2ms
workload:
  - {type: incast, receiver: 5, senders: 6-9, size: 500KB, start: 0ns}
)";

// The ranks' headroom drops merge as partitions' do (NetCounters::add after the counters travel as bytes,
// Network::combine_ranks): the count summed, the first drop the earliest, then the lowest switch, port and
// priority. Physics.HeadroomDropsAreReportedAlikeOnOneThreadAndOnTwoThatBothDrop's two racks, each with an
// incast inside it and a 4000-byte headroom (53208 B needed), one leaf per rank: at the same time the lower
// switch's drop is the first (rank 0's), with rack 0 starting 1 us later rank 1's leaf's.
TEST(MpiRunHeadroomDrops, TwoRanksThatBothDropReportWhatOneProcessReports) {
  SKIP_WITHOUT_MPI();
  const std::string dir = temp_dir("mpi_headroom_drops");
  const struct {
    const char* name;
    const char* start0;  // rack 0's incast
    const char* first;   // the switch of the first drop
  } cases[] = {{"tie", "0ns", "s0"}, {"rack1_first", "1us", "s1"}};
  std::string first_time[2];
  for (int k = 0; k < 2; ++k) {
    const auto& c = cases[k];
    const std::string yaml = std::string(c.name) + ".yaml";
    write(dir + "/" + yaml,
          std::string(kTwoRacks) +
              "  - {type: incast, receiver: 0, senders: 1-4, size: 500KB, start: " + c.start0 + "}\n");
    testing::internal::CaptureStderr();  // validation's warning about the small headroom
    const Scenario sc = load_scenario(dir + "/" + yaml, ScenarioOverrides{});
    testing::internal::GetCapturedStderr();
    const std::string one = std::string("one_") + c.name;
    const Cli a = shell(dir, bin() + " run " + yaml + " -o " + one + " --quiet");
    ASSERT_EQ(a.status, 0) << c.name << ": " << a.err;
    const std::string drops = headroom_drops_json(dir + "/" + one + "/summary.json");
    EXPECT_NE(drops.find("\"switch\": \"" + std::string(c.first) + "\", "), std::string::npos) << drops;
    EXPECT_NE(drops.find("\"headroom_bytes\": 4000, \"needed_bytes\": 53208}"), std::string::npos) << drops;
    const auto t = drops.find("\"time_ns\": ");
    ASSERT_NE(t, std::string::npos) << drops;
    first_time[k] = drops.substr(t, drops.find(',', t) - t);
    // Leaf s0 (with its hosts) on rank 0, leaf s1 on rank 1 (two ranks of one partition each).
    const std::vector<std::uint8_t> rank = split_nodes(sc.topology, 2, 2);
    EXPECT_EQ(rank[sc.topology.switch_node(0)], 0) << c.name;
    EXPECT_EQ(rank[sc.topology.switch_node(1)], 1) << c.name;
    const std::string two = std::string("two_") + c.name;
    const Cli b = shell(dir, mpirun(2) + bin() + " run " + yaml + " -o " + two + " --quiet");
    ASSERT_EQ(b.status, 0) << c.name << ": " << b.err;
    EXPECT_NE(slurp(dir + "/" + two + "/summary.json").find("\"ranks\": 2"), std::string::npos) << c.name;
    EXPECT_EQ(drops, headroom_drops_json(dir + "/" + two + "/summary.json")) << c.name;
  }
  // Rack 1's incast is the same in both cases and shares no traffic with rack 0: its first drop (rank 1's,
  // reported in rack1_first) is at the time of the tie's, so in the tie both ranks drop first at that time.
  EXPECT_EQ(first_time[0], first_time[1]);
}

// Runs longer than the tests wait: a rank is stopped in the middle of it.
constexpr const char* kLong = R"(
seed: 3
topology: {type: fat_tree, k: 4, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: dcqcn}
workload: [{type: poisson, cdf: WebSearch, load: 0.5, duration: 1s}]
)";

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto i = text.find(what); i != std::string::npos; i = text.find(what, i + 1)) ++n;
  return n;
}

// Runs `lossless run s.yaml` in `dir` on two ranks, each writing its exit status to a file of its own, and
// expects bad input's outcome: no rank hung, both exited 2, and one error message in all.
Cli run_bad_on_two_ranks(const std::string& dir) {
  const Cli r = shell(dir, mpirun(2) + "sh -c \"" + bin() +
                               " run s.yaml -o out --quiet; echo \\$? > status.\\$OMPI_COMM_WORLD_RANK\"");
  EXPECT_NE(r.status, 124) << "a rank hung";
  EXPECT_EQ(slurp(dir + "/status.0"), "2\n");
  EXPECT_EQ(slurp(dir + "/status.1"), "2\n");
  EXPECT_EQ(count(r.err, "lossless: error:"), 1u) << r.err;
  return r;
}

TEST(MpiRunErrors, BadInputExitsTwoOnEveryRankWithOneMessage) {
  SKIP_WITHOUT_MPI();
  const std::string dir = temp_dir("mpi_bad");
  write(dir + "/s.yaml", std::string(kSmall) + "no_such_key: 1\n");
  const Cli r = run_bad_on_two_ranks(dir);
  EXPECT_NE(r.err.find("no_such_key"), std::string::npos) << r.err;
}

TEST(MpiRunErrors, MoreRanksThanHostsIsABadInput) {
  SKIP_WITHOUT_MPI();
  const std::string dir = temp_dir("mpi_many");
  write(dir + "/s.yaml", R"(
topology: {type: leaf_spine, leaves: 1, spines: 1, hosts_per_leaf: 2, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: dcqcn}
workload: [{type: incast, receiver: 0, senders: 1, size: 64KB}]
)");
  const Cli r = shell(dir, mpirun(3) + bin() + " run s.yaml -o out --quiet");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(count(r.err, "lossless: error:"), 1u) << r.err;
  EXPECT_NE(r.err.find("at most one rank per host"), std::string::npos) << r.err;
}

// What only the built fabric checks (two schemes that each give every port its own queue set) on a split
// fabric: the ranks said "switch: ... cannot be combined" without the file and left an empty output folder,
// where one process names the file and creates none (BadInput.RunNamesTheFileForFabricErrorsAndCreates...).
TEST(MpiRunErrors, AFabricErrorNamesTheFileAndLeavesNoOutputFolder) {
  SKIP_WITHOUT_MPI();
  const std::string dir = temp_dir("mpi_fabric_error");
  write(dir + "/s.yaml", R"(
topology: {type: leaf_spine, leaves: 2, spines: 1, hosts_per_leaf: 2, host_link: {rate: 100Gbps, delay: 1us}, fabric_link: {rate: 100Gbps, delay: 1us}}
cc: {algorithm: homa}
switch: {flow_control: bfc}
workload: [{type: incast, receiver: 0, senders: 1-3, size: 64KB}]
)");
  const Cli r = run_bad_on_two_ranks(dir);
  EXPECT_NE(r.err.find("lossless: error: s.yaml: switch: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cannot be combined"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/out")) << "an empty output folder was left behind";
}

TEST(MpiRunErrors, ARankThatDiesStopsTheOthers) {
  SKIP_WITHOUT_MPI();
  const std::string dir = temp_dir("mpi_die");
  write(dir + "/s.yaml", kLong);
  // Rank 1 is killed 2 s into its run; rank 0 waits for its packets then, until mpirun ends it.
  const Cli r =
      shell(dir,
            mpirun(2) + "sh -c \"" + bin() +
                " run s.yaml -o out --quiet & p=\\$!; if [ \\$OMPI_COMM_WORLD_RANK = 1 ]; then sleep 2; "
                "kill -KILL \\$p; fi; wait \\$p\"",
            60);
  EXPECT_NE(r.status, 124) << "the other rank hung";
  EXPECT_NE(r.status, 0) << r.err;
  EXPECT_FALSE(std::ifstream(dir + "/out/summary.json").good()) << "no outputs from a failed run";
}

TEST(MpiRunErrors, AnInterruptOfOneRankStopsEveryRankAtOneWindow) {
  SKIP_WITHOUT_MPI();
  const std::string dir = temp_dir("mpi_int");
  write(dir + "/s.yaml", kLong);
  const Cli r =
      shell(dir,
            mpirun(2) + "sh -c \"" + bin() +
                " run s.yaml -o out --quiet & p=\\$!; if [ \\$OMPI_COMM_WORLD_RANK = 1 ]; then sleep 2; "
                "kill -INT \\$p; fi; wait \\$p\"",
            60);
  EXPECT_EQ(r.status, 130) << r.err;
  EXPECT_EQ(count(r.err, "lossless: interrupted (SIGINT)"), 1u) << r.err;
  EXPECT_FALSE(std::ifstream(dir + "/out/summary.json").good()) << "an interrupted run writes no output";
}

}  // namespace
}  // namespace lossless::test
