// Sweeps as users run them: a grid of values, a case that fails, and the same sweep spread over MPI ranks
// (by mpirun, and by the launcher's environment alone) printing the table of `-j 2`.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_util.h"

namespace lossless::test {
namespace {

namespace fs = std::filesystem;

constexpr const char* kBase = R"(name: tiny
topology: {type: star, hosts: 8}
workload: [{type: poisson, cdf: WebSearch, load: 0.3, duration: 200us, start: 0, hosts: all}]
)";

// The default experiment's sweep, short enough for the suite (under the sanitizers too), with one incast
// round so that pfc-only pauses (the paused-time column is compared too).
constexpr const char* kDefaultSweep =
    "experiments/default/sweep.yaml --set workload.0.duration=600us --set workload.1.count=1";

using Cli = ShellResult;

// Runs a shell command line in `cwd`, capturing stdout and stderr in files of `capture`.
Cli shell(const std::string& cwd, const std::string& capture, const std::string& line) {
  return shell_in(cwd, line, 0, capture);
}

std::string bin() { return LOSSLESS_BINARY; }

// The table without its last line, which names the output directory.
std::string table(const std::string& out) { return out.substr(0, out.rfind("outputs in ")); }

std::string grid_dir(const std::string& tag, const std::string& grid) {
  const std::string dir = temp_dir(tag);
  std::ofstream(dir + "/base.yaml") << kBase;
  std::ofstream(dir + "/sweep.yaml") << "scenario: base.yaml\nout: " << dir << "/out\ngrid: " << grid << "\n";
  return dir;
}

TEST(Sweep, GridOfTwoByThreeNamesEachCaseByItsValues) {
  const std::string dir = grid_dir("grid", "{cc.algorithm: [dcqcn, hpcc], workload.0.load: [0.3, 0.5, 0.7]}");
  const Cli r = shell(dir, dir, bin() + " sweep sweep.yaml -j 2");
  ASSERT_EQ(r.status, 0) << r.err;
  std::size_t at = 0;
  for (const char* cc : {"dcqcn", "hpcc"})
    for (const char* load : {"0.3", "0.5", "0.7"}) {
      const std::string name = std::string("algorithm=") + cc + ",load=" + load;
      EXPECT_TRUE(fs::exists(dir + "/out/" + name + "/summary.json")) << name;
      const auto row = r.out.find("\n" + name + " ");
      ASSERT_NE(row, std::string::npos) << name << "\n" << r.out;
      EXPECT_GT(row, at) << "rows in grid order";
      at = row;
      const std::string resolved = slurp(dir + "/out/" + name + "/scenario.yaml");
      EXPECT_NE(resolved.find(std::string("algorithm: ") + cc), std::string::npos) << name;
    }
  EXPECT_NE(slurp(dir + "/out/sweep.json").find("\"name\": \"algorithm=hpcc,load=0.7\""), std::string::npos);
  std::string err;
  EXPECT_EQ(run_cli("validate " + dir + "/sweep.yaml", &err), 0) << err;
}

TEST(Sweep, BadGridKeyExitsTwoNamingTheKeyBeforeRunning) {
  const std::string dir =
      grid_dir("grid_bad_key", "{cc.algorithmm: [dcqcn, hpcc], workload.0.load: [0.3, 0.5]}");
  const Cli r = shell(dir, dir, bin() + " sweep sweep.yaml");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("sweep.yaml: grid.cc.algorithmm: not a key of the scenario"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("cc.algorithmm=dcqcn: unknown key (did you mean 'algorithm'?)"), std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir + "/out"));
  std::string err;
  EXPECT_EQ(run_cli("validate " + dir + "/sweep.yaml", &err), 2);
  EXPECT_NE(err.find("grid.cc.algorithmm"), std::string::npos) << err;
}

TEST(Sweep, FailingCaseExitsTwoNamingItAndKeepsTheOthers) {
  const std::string dir = grid_dir("grid_bad_case", "{cc.algorithm: [dcqcn, nope, hpcc]}");
  const Cli r = shell(dir, dir, bin() + " sweep sweep.yaml -j 2");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("cases.algorithm=nope: case failed:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("unknown scheme 'nope'"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("algorithm=nope     FAILED (bad input)"), std::string::npos) << r.out;
  for (const char* ok : {"algorithm=dcqcn", "algorithm=hpcc"}) {
    EXPECT_TRUE(fs::exists(dir + "/out/" + ok + "/summary.json")) << ok;
    EXPECT_NE(r.out.find(std::string("\n") + ok + "  "), std::string::npos) << r.out;
  }
  const std::string index = slurp(dir + "/out/sweep.json");
  EXPECT_NE(
      index.find("\"name\": \"algorithm=nope\", \"dir\": \"" + dir + "/out/algorithm=nope\", \"ok\": false"),
      std::string::npos)
      << index;
}

// Two processes given the environment mpirun gives its ranks: no MPI needed to test the exchange.
TEST(MpiSweep, RanksFromTheEnvironmentPrintTheTableOfJobs) {
  const std::string dir = temp_dir("mpi_env");
  const std::string src = LOSSLESS_SOURCE_DIR;
  const Cli jobs = shell(src, dir, bin() + " sweep " + kDefaultSweep + " -j 2 -o " + dir + "/jobs");
  ASSERT_EQ(jobs.status, 0) << jobs.err;
  const std::string env = "OMPI_COMM_WORLD_SIZE=2 PMIX_NAMESPACE=test-env ";
  const Cli ranks = shell(src, dir,
                          env + "OMPI_COMM_WORLD_RANK=1 " + bin() + " sweep " + kDefaultSweep + " -o " + dir +
                              "/ranks > /dev/null & " + env + "OMPI_COMM_WORLD_RANK=0 " + bin() + " sweep " +
                              kDefaultSweep + " -o " + dir + "/ranks; s=$?; wait; exit $s");
  ASSERT_EQ(ranks.status, 0) << ranks.err;
  EXPECT_EQ(table(ranks.out), table(jobs.out));
  EXPECT_NE(ranks.err.find("rank 1: case"), std::string::npos) << ranks.err;
  EXPECT_FALSE(fs::exists(dir + "/ranks/.mpi-sweep")) << "rank 0 removes the exchange folder";
}

TEST(MpiSweep, MpirunOfTheDefaultSweepPrintsTheTableOfJobs) {
  const std::string dir = temp_dir("mpirun");
  const std::string src = LOSSLESS_SOURCE_DIR;
  ASSERT_EQ(std::system("command -v mpirun > /dev/null"), 0)
      << "mpirun not found: scripts/install-deps.sh --test installs Debian's openmpi-bin";
  const Cli jobs = shell(src, dir, bin() + " sweep " + kDefaultSweep + " -j 2 -o " + dir + "/jobs");
  ASSERT_EQ(jobs.status, 0) << jobs.err;
  for (const char* n : {"2", "1"}) {
    const Cli mpi = shell(
        src, dir, mpirun_line(std::stoi(n)) + bin() + " sweep " + kDefaultSweep + " -o " + dir + "/mpi" + n);
    ASSERT_EQ(mpi.status, 0) << mpi.err;
    EXPECT_EQ(table(mpi.out), table(jobs.out)) << "mpirun -n " << n;
    EXPECT_NE(table(mpi.out).find("\nrocc "), std::string::npos) << mpi.out;
  }
}

}  // namespace
}  // namespace lossless::test
