// Bad input: exit status 2 and one message naming the file, key and reason; never a crash or a hang.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_util.h"

namespace lossless::test {
namespace {

constexpr const char* kGood = R"(name: good
topology: {type: star, hosts: 4}
workload: [{type: flows, flows: [{src: 1, dst: 0, size: 10KB, start: 0}]}]
)";

std::string write(const std::string& tag, const std::string& text) {
  std::string path = temp_dir("err_" + tag) + "/s.yaml";
  std::ofstream(path) << text;
  return path;
}

struct Case {
  const char* tag;
  std::string yaml;
  std::string args;
  const char* expect;  // substring of the message
};

TEST(BadInput, ExitTwoWithClearMessage) {
  std::string base = kGood;
  auto with = [&](const std::string& from, const std::string& to) {
    std::string s = base;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  std::vector<Case> cases = {
      {"unknown_key", base + "colour: blue\n", "", "colour: unknown key"},
      {"unknown_nested", with("hosts: 4", "hosts: 4, hostz: 3"), "", "topology.hostz: unknown key"},
      {"bad_unit", with("type: star, hosts: 4", "type: star, hosts: 4, host_link: {rate: 100Gbs}"), "",
       "malformed rate '100Gbs'"},
      {"yaml_syntax", "topology: {type: star\nworkload: [\n", "", "YAML syntax error"},
      {"negative_load",
       with("{type: flows, flows: [{src: 1, dst: 0, size: 10KB, start: 0}]}", "{type: poisson, load: -0.1}"),
       "", "workload.0.load"},
      {"load_above_one",
       with("{type: flows, flows: [{src: 1, dst: 0, size: 10KB, start: 0}]}", "{type: poisson, load: 1.5}"),
       "", "must be in (0, 1]"},
      {"src_eq_dst", with("src: 1, dst: 0", "src: 1, dst: 1"), "", "equals src"},
      {"host_range", with("src: 1, dst: 0", "src: 1, dst: 9"), "", "out of range"},
      {"mtu_zero", base + "nic: {mtu: 0B}\n", "", "nic.mtu: must be at least 1 byte"},
      {"small_buffer", base + "switch: {buffer: 100KB}\n", "", "switch.buffer"},
      // Resume is below xon: with 0 B every pause lasted the whole run and every flow stalled.
      {"static_xon_zero", base + "switch: {pfc: {threshold: static, xoff: 100KB, xon: 0B}}\n", "",
       "switch.pfc.xon: must be above 0B"},
      {"disconnected",
       "topology: {type: custom, hosts: 2, switches: 2, links: [[h0, s0, 100Gbps, 1us], [h1, s1, 100Gbps, "
       "1us]]}\nworkload: [{type: flows, flows: [{src: 1, dst: 0, size: 1KB}]}]\n",
       "", "disconnected"},
      {"unknown_cc", with("topology:", "cc: {algorithm: tcp_reno}\ntopology:"), "",
       "unknown scheme 'tcp_reno'"},
      {"unknown_cc_param", with("topology:", "cc: {algorithm: dcqcn, params: {gain: 2}}\ntopology:"), "",
       "cc.params.gain: unknown key"},
      {"bad_set", base, "--set workload.5.load=0.3", "--set"},
      // The --set made the unknown level: named as typed, not blamed on the file.
      {"set_unknown_path", base, "--set nope.x=1", "--set nope.x=1: nope: unknown key"},
      // A misspelt required key is named as the typo, not as the missing key.
      {"typo_of_required", with("workload:", "workloads:"), "",
       "workloads: unknown key (did you mean 'workload'?)"},
      {"typo_of_type", with("{type: flows,", "{typ: flows,"), "",
       "workload.0.typ: unknown key (did you mean 'type'?)"},
      {"bad_option", base, "--frobnicate", "unknown option"},
      // The name makes out/NAME: a path in it wrote the outputs outside out/.
      {"name_with_path", with("name: good", "name: ../../escape"), "",
       "name: '../../escape' is not a plain name"},
      // validate writes nothing: an output folder or --quiet would be silently ignored.
      {"validate_output", base, "-o somewhere", "unknown option '-o'"},
      {"validate_quiet", base, "--quiet", "unknown option '--quiet'"},
  };
  for (const auto& c : cases) {
    std::string path = write(c.tag, c.yaml);
    std::string err;
    int code = run_cli("validate " + path + " " + c.args, &err);
    EXPECT_EQ(code, 2) << c.tag << ": " << err;
    EXPECT_NE(err.find(c.expect), std::string::npos) << c.tag << ": " << err;
    EXPECT_EQ(err.find("internal error"), std::string::npos) << c.tag;
  }
}

// What only the built fabric checks (two schemes that each give every port its own queue set): `run` said
// "switch: ... cannot be combined" without the file and left an empty output folder behind.
TEST(BadInput, RunNamesTheFileForFabricErrorsAndCreatesNoOutputFolder) {
  std::string base = kGood;
  const std::string path = write("homa_bfc", base + "cc: {algorithm: homa}\nswitch: {flow_control: bfc}\n");
  const std::string out = temp_dir("homa_bfc_run") + "/out";
  std::string err;
  EXPECT_EQ(run_cli("run " + path + " -o " + out + " --quiet", &err), 2) << err;
  EXPECT_NE(err.find(path + ": switch: "), std::string::npos) << err;
  EXPECT_NE(err.find("cannot be combined"), std::string::npos) << err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

// `lossless run --help` was "unknown option '--help'" (exit 2).
TEST(BadInput, HelpAfterACommandIsTheUsageNotAnError) {
  for (const char* args : {"run --help", "sweep -h", "validate s.yaml --help", "reproduce --help"}) {
    std::string err;
    EXPECT_EQ(run_cli(args, &err), 0) << args << ": " << err;
    EXPECT_EQ(err.find("unknown option"), std::string::npos) << args << ": " << err;
  }
}

TEST(BadInput, MissingFileAndNonMonotonicCdf) {
  std::string err;
  EXPECT_EQ(run_cli("run /nonexistent/scenario.yaml", &err), 2);
  EXPECT_NE(err.find("no such file"), std::string::npos) << err;

  std::string dir = temp_dir("err_cdf");
  std::ofstream(dir + "/bad.txt") << "100 0.5\n50 0.7\n200 1\n";
  std::ofstream(dir + "/s.yaml") << "topology: {type: star, hosts: 3}\nworkload: [{type: poisson, cdf: "
                                 << dir << "/bad.txt, load: 0.3}]\n";
  EXPECT_EQ(run_cli("validate " + dir + "/s.yaml", &err), 2);
  EXPECT_NE(err.find("bad.txt:2"), std::string::npos) << err;
  EXPECT_NE(err.find("not monotonic"), std::string::npos) << err;
}

TEST(BadInput, ThreadCountMustBeOneToSixtyFour) {
  const std::string path = write("threads", kGood);
  for (const char* bad : {"0", "65", "two", "-1"}) {
    std::string err;
    EXPECT_EQ(run_cli("run " + path + " --threads " + bad, &err), 2) << bad;
    EXPECT_NE(err.find("--threads takes an integer from 1 to 64"), std::string::npos) << bad << ": " << err;
  }
  std::string err;
  EXPECT_EQ(run_cli("run " + path + " --quiet --threads 2 -o " + temp_dir("threads_ok"), &err), 0) << err;
  EXPECT_EQ(run_cli("sweep " + path + " --threads 2", &err), 2);  // sweeps take -j, not --threads
}

TEST(BadInput, GoodScenarioValidates) {
  std::string err;
  EXPECT_EQ(run_cli("validate " + write("good", kGood), &err), 0) << err;
  EXPECT_EQ(run_cli("list cc", &err), 0) << err;
  EXPECT_EQ(run_cli("list switch", &err), 0) << err;
  EXPECT_EQ(run_cli("list nic", &err), 0) << err;
  EXPECT_EQ(run_cli("list bogus", &err), 2) << err;
  EXPECT_EQ(run_cli("plot /nonexistent/run", &err), 2) << err;
}

TEST(BadInput, SweepsValidateEveryCase) {
  const std::string dir = temp_dir("err_sweep");
  std::ofstream(dir + "/base.yaml") << kGood;
  std::ofstream(dir + "/good.yaml")
      << "scenario: base.yaml\ncases:\n  - {name: a, set: {cc.algorithm: dcqcn}}\n";
  std::ofstream(dir + "/bad.yaml")
      << "scenario: base.yaml\ncases:\n  - {name: a}\n  - {name: b, set: {cc.algorithm: nope}}\n";
  std::ofstream(dir + "/typo.yaml") << "scenario: base.yaml\ncases: [{name: a, sett: {}}]\n";
  std::string err;
  EXPECT_EQ(run_cli("validate " + dir + "/good.yaml", &err), 0) << err;
  EXPECT_EQ(run_cli("validate " + dir + "/bad.yaml", &err), 2);
  EXPECT_NE(err.find("cases.b"), std::string::npos) << err;
  EXPECT_NE(err.find("cc.algorithm=nope: unknown scheme 'nope'"), std::string::npos) << err;
  EXPECT_EQ(run_cli("sweep " + dir + "/bad.yaml", &err), 2) << err;
  EXPECT_EQ(run_cli("validate " + dir + "/typo.yaml", &err), 2);
  EXPECT_NE(err.find("sett: unknown key"), std::string::npos) << err;
}

}  // namespace
}  // namespace lossless::test
