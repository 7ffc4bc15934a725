#include "test_util.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace lossless::test {

namespace {

// This process's scratch folder: ctest runs every test as a process of its own, so a folder per pid.
std::filesystem::path scratch_base() {
  return std::filesystem::temp_directory_path() / ("lossless-test-" + std::to_string(::getpid()));
}

// Removes the scratch folder when the test program ends, unless a test failed: then its outputs are what the
// failure is about, and the folder stays, named on stderr. Without this every test run left one folder per
// test in $TMPDIR (9,596 of them, 8.8 GB, on the project's machine).
class ScratchCleanup : public ::testing::EmptyTestEventListener {
  void OnTestProgramEnd(const ::testing::UnitTest& unit) override {
    const std::filesystem::path base = scratch_base();
    std::error_code ec;
    if (!std::filesystem::exists(base, ec)) return;
    if (unit.Passed())
      std::filesystem::remove_all(base, ec);
    else
      std::fprintf(stderr, "lossless tests: a test failed; its scratch folder is kept: %s\n", base.c_str());
  }
};

// Registered before main (gtest_main) runs the tests; GoogleTest owns and deletes the listener.
[[maybe_unused]] const bool kScratchCleanupRegistered = [] {
  ::testing::UnitTest::GetInstance()->listeners().Append(new ScratchCleanup);
  return true;
}();

}  // namespace

std::string scratch_path(const std::string& tag) { return (scratch_base() / tag).string(); }

std::string mpirun_line(int ranks) {
  const std::string session = scratch_path("mpi-session");
  std::filesystem::create_directories(session);
  return "OMPI_MCA_orte_tmpdir_base=" + session + " mpirun -n " + std::to_string(ranks) +
         " --oversubscribe --allow-run-as-root ";
}

std::string temp_dir(const std::string& tag) {
  auto dir = scratch_base() / tag;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

RunOutput run_yaml(const std::string& yaml, const std::string& tag,
                   const std::vector<std::pair<std::string, std::string>>& sets, unsigned threads) {
  std::string dir = temp_dir(tag);
  std::string file = dir + "/scenario.in.yaml";
  std::ofstream(file) << yaml;
  ScenarioOverrides ov;
  ov.sets = sets;
  ov.out_dir = dir + "/out";
  Scenario sc = load_scenario(file, ov);
  RunOptions opts;
  opts.quiet = true;
  opts.threads = threads;
  opts.check = true;  // every invariant every check.interval (README "Invariants")
  RunOutput out;
  out.result = run_scenario(sc, opts);
  out.dir = ov.out_dir;
  return out;
}

std::string RunOutput::read(const std::string& name) const { return slurp(dir + "/" + name); }

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

ShellResult shell_in(const std::string& cwd, const std::string& line, int timeout_s,
                     const std::string& capture) {
  const std::string to = capture.empty() ? cwd : capture;
  const std::string run = timeout_s > 0
                              ? "timeout -s KILL " + std::to_string(timeout_s) + " sh -c '" + line + "'"
                              : "(" + line + ")";
  const std::string cmd =
      "cd '" + cwd + "' && " + run + " > '" + to + "/stdout.txt' 2> '" + to + "/stderr.txt'";
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(to + "/stdout.txt"), slurp(to + "/stderr.txt")};
}

std::vector<std::map<std::string, std::string>> RunOutput::csv(const std::string& name) const {
  std::ifstream in(dir + "/" + name);
  std::vector<std::map<std::string, std::string>> rows;
  std::string line;
  std::vector<std::string> header;
  auto split = [](const std::string& s) {
    std::vector<std::string> v;
    std::stringstream ss(s);
    std::string x;
    while (std::getline(ss, x, ',')) v.push_back(x);
    if (!s.empty() && s.back() == ',') v.push_back("");
    return v;
  };
  if (std::getline(in, line)) header = split(line);
  while (std::getline(in, line)) {
    auto v = split(line);
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < header.size() && i < v.size(); ++i) row[header[i]] = v[i];
    rows.push_back(row);
  }
  return rows;
}

int run_cli(const std::string& args, std::string* err, int timeout_s) {
  std::string errfile = temp_dir("cli") + "/stderr.txt";
  std::string cmd = (timeout_s > 0 ? "timeout -k 5 " + std::to_string(timeout_s) + " " : std::string()) +
                    std::string(LOSSLESS_BINARY) + " " + args + " > /dev/null 2> " + errfile;
  int status = std::system(cmd.c_str());
  if (err) *err = slurp(errfile);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace lossless::test
