// Every registered scheme, found through `lossless list` (so that schemes added later are covered without
// editing this file): its resolved scenario.yaml validates and re-runs to identical outputs, and every
// numeric parameter set to zero is either rejected (exit 2) or runs to its end (no division by zero, no timer
// that re-arms without simulated time passing).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>

#include "core/params.h"
#include "core/units.h"
#include "fuzz/fuzz_util.h"
#include "net/congestion_control.h"
#include "net/switch_mechanism.h"
#include "test_util.h"

namespace lossless::test {
namespace {

// Standard output of `lossless ARGS`.
std::string cli_stdout(const std::string& args) {
  std::string out;
  std::FILE* p = ::popen((std::string(LOSSLESS_BINARY) + " " + args).c_str(), "r");
  if (!p) return out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  ::pclose(p);
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A resolved scenario file, keys sorted, without the output folder (each run names its own).
std::string scenario_values(const std::string& path) {
  YAML::Node n = YAML::LoadFile(path);
  if (n["output"].IsMap()) n["output"].remove("dir");
  return fuzz::canonical_yaml(n);
}

// Without the lines that measure this process (wall time, memory) or name the output folder (or depend on its
// name: the size of scenario.yaml in summary.json's list of outputs).
std::string without_measurements(const std::string& text) {
  std::istringstream in(text);
  std::string out;
  for (std::string line; std::getline(in, line);)
    if (line.find("\"wall_seconds\"") == std::string::npos && line.find("\"memory\"") == std::string::npos &&
        line.find("  dir: ") == std::string::npos && line.find("\"outputs\"") == std::string::npos)
      out += line + "\n";
  return out;
}

struct Param {
  std::string name, def;
  std::vector<std::string> choices;  // from a trailing "(a | b)"
};
struct Scheme {
  std::string name;
  std::vector<Param> params;
};

// The schemes of one part of `lossless list` output: "  NAME — summary" lines, each followed by its
// "    key  default  doc" lines, from the line starting with `from` to the next line starting with `until`.
std::vector<Scheme> parse_list(const std::string& text, const std::string& from, const std::string& until) {
  std::vector<Scheme> schemes;
  std::istringstream in(text);
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(from, 0) == 0) {
      inside = true;
      continue;
    }
    if (!inside) continue;
    if (!until.empty() && line.rfind(until, 0) == 0) break;
    if (line.rfind("    ", 0) == 0 && !schemes.empty()) {
      std::istringstream ss(line);
      Param p;
      ss >> p.name >> p.def;
      if (!line.empty() && line.back() == ')' && line.find(" | ") != std::string::npos) {
        std::string opts = line.substr(line.rfind('(') + 1);
        opts.pop_back();
        std::istringstream os(opts);
        for (std::string o; os >> o;)
          if (o != "|") p.choices.push_back(o);
      }
      schemes.back().params.push_back(p);
    } else if (line.rfind("  ", 0) == 0 && line.find(" — ") != std::string::npos) {
      std::istringstream ss(line);
      Scheme s;
      ss >> s.name;
      schemes.push_back(s);
    }
  }
  return schemes;
}

std::vector<Scheme> cc_schemes() {
  auto s = parse_list(cli_stdout("list cc"), "congestion control", "");
  EXPECT_GE(s.size(), 6u) << "lossless list cc";
  return s;
}

// The switch mechanism a congestion control needs (RoCC's reaction point needs its congestion point).
std::string required_mechanism(const std::string& cc) {
  const CcScheme* scheme = CcRegistry::find(cc);
  if (!scheme) return "";
  DefaultParams none;
  return scheme->make(none)->hints().required_mechanism;
}

// The switch architecture a mechanism needs (RCM works on the VOQ switch); empty: any.
std::string required_architecture(const std::string& mechanism) {
  const MechanismScheme* scheme = MechanismRegistry::find(mechanism);
  if (!scheme) return "";
  DefaultParams none;
  const char* arch = scheme->make(none)->required_architecture();
  return arch ? arch : "";
}

// Three senders into one receiver with low ECN thresholds: marks, CNPs, pauses and every scheme's timers.
std::string congested_scenario(const std::string& cc_block, const std::string& switch_extra) {
  return "name: every\nseed: 7\nstop: 3ms\n"
         "topology: {type: star, hosts: 4, host_link: {rate: 25Gbps, delay: 1us}}\n"
         "workload:\n"
         "  - {type: incast, receiver: 0, senders: 1-3, size: 60KB, count: 2, period: 100us}\n"
         "  - {type: flows, flows: [{src: 0, dst: 2, size: 3KB, start: 5us}]}\n"
         "switch: {buffer: 2MB, ecn: {kmin: 4KB, kmax: 40KB, pmax: 0.5}" +
         switch_extra + "}\n" + cc_block +
         "monitor: {queues: {interval: 20us, where: [\"s0:0\", \"s0:*\"]}, flow_rates: {interval: 50us}}\n";
}

TEST(EveryScheme, ResolvedScenarioValidatesAndReRunsIdentically) {
  int runs = 0;
  for (const Scheme& s : cc_schemes()) {
    const std::string mech = required_mechanism(s.name);
    // The scheme with its defaults, then each other value of its variant and preset.
    std::vector<std::string> settings{""};
    for (const Param& p : s.params)
      if (p.name == "variant" || p.name == "preset")
        for (const auto& c : p.choices)
          if (c != p.def) settings.push_back(p.name + ": " + c);
    for (const std::string& setting : settings) {
      const std::string tag = "resolved_" + s.name + std::to_string(runs++);
      const std::string dir = temp_dir(tag);
      std::ofstream(dir + "/s.yaml") << congested_scenario(
          "cc: {algorithm: " + s.name + ", params: {" + setting + "}}\n",
          mech.empty() ? "" : ", mechanism: " + mech);
      std::string err;
      ASSERT_EQ(run_cli("run " + dir + "/s.yaml --quiet -o " + dir + "/a", &err), 0) << tag << ": " << err;
      EXPECT_EQ(run_cli("validate " + dir + "/a/scenario.yaml", &err), 0) << tag << ": " << err;
      ASSERT_EQ(run_cli("run " + dir + "/a/scenario.yaml --quiet -o " + dir + "/b", &err), 0)
          << tag << ": " << err;
      EXPECT_EQ(scenario_values(dir + "/a/scenario.yaml"), scenario_values(dir + "/b/scenario.yaml")) << tag;
      for (const char* file : {"fct.csv", "pfc.csv", "queues.csv", "flow_rates.csv", "summary.json"}) {
        const std::string a = without_measurements(read_file(dir + "/a/" + file));
        EXPECT_FALSE(a.empty()) << tag << " " << file;
        EXPECT_EQ(a, without_measurements(read_file(dir + "/b/" + file))) << tag << " " << file;
      }
    }
  }
}

// `lossless hpcc` writes the scenario it translated the config into; that scenario re-runs identically too.
TEST(EveryScheme, HpccConfigResolvedScenarioReRunsIdentically) {
  for (const char* mode : {"1", "3", "7", "8"}) {
    const std::string dir = temp_dir(std::string("resolved_hpcc_") + mode);
    std::ofstream(dir + "/topo.txt") << "4 1 3\n3\n0 3 100Gbps 1000ns 0\n1 3 100Gbps 1000ns 0\n"
                                        "2 3 100Gbps 1000ns 0\n";
    std::ofstream(dir + "/flow.txt") << "2\n0 2 3 100 200000 2.0\n1 2 3 100 200000 2.0\n";
    std::ofstream(dir + "/config.txt")
        << "ENABLE_QCN 1\nUSE_DYNAMIC_PFC_THRESHOLD 1\nPACKET_PAYLOAD_SIZE 1000\nTOPOLOGY_FILE topo.txt\n"
           "FLOW_FILE flow.txt\nSIMULATOR_STOP_TIME 2.01\nCC_MODE "
        << mode
        << "\nHAS_WIN 1\nVAR_WIN 1\nRATE_AI 40Mb/s\nMIN_RATE 1000Mb/s\nALPHA_RESUME_INTERVAL 1\nRP_TIMER "
           "300\n"
           "KMAX_MAP 1 100000000000 160\nKMIN_MAP 1 100000000000 40\nPMAX_MAP 1 100000000000 0.2\n"
           "BUFFER_SIZE 32\n";
    std::string err;
    ASSERT_EQ(run_cli("hpcc " + dir + "/config.txt --quiet -o " + dir + "/a", &err), 0) << mode << err;
    EXPECT_EQ(run_cli("validate " + dir + "/a/scenario.yaml", &err), 0) << mode << ": " << err;
    ASSERT_EQ(run_cli("run " + dir + "/a/scenario.yaml --quiet -o " + dir + "/b", &err), 0) << mode << err;
    EXPECT_EQ(scenario_values(dir + "/a/scenario.yaml"), scenario_values(dir + "/b/scenario.yaml")) << mode;
    for (const char* file : {"fct.csv", "pfc.csv", "summary.json", "fct.txt"})
      EXPECT_EQ(without_measurements(read_file(dir + "/a/" + file)),
                without_measurements(read_file(dir + "/b/" + file)))
          << "CC_MODE " << mode << " " << file;
  }
}

// Zero for a parameter's type: "0bps" for a rate, "0" otherwise (a time, size, count, number or table).
std::optional<std::string> zero_of(const std::string& def) {
  if (parse_rate(def)) return std::string("0bps");
  if (!def.empty() && def[0] == '{') return std::string("0");  // a per-rate table: one value for every rate
  if (parse_time(def) || parse_size(def)) return std::string("0");
  char* end = nullptr;
  std::strtod(def.c_str(), &end);
  if (!def.empty() && *end == '\0') return std::string("0");
  return std::nullopt;  // a choice or a flag
}

TEST(EveryScheme, EveryNumericParameterAtZeroIsRejectedOrRunsToItsEnd) {
  struct Target {
    std::string scheme, cc_block, switch_extra, key;
  };
  std::vector<Target> targets;
  for (const Scheme& s : cc_schemes()) {
    const std::string mech = required_mechanism(s.name);
    for (const Param& p : s.params)
      if (auto zero = zero_of(p.def))
        targets.push_back({s.name,
                           "cc: {algorithm: " + s.name + ", params: {" + p.name + ": " + *zero + "}}\n",
                           mech.empty() ? "" : ", mechanism: " + mech, "cc.params." + p.name});
  }
  for (const Scheme& m :
       parse_list(cli_stdout("list mechanisms"), "switch mechanisms", "switch flow control")) {
    if (m.name == "none") continue;
    // A congestion control that works with the mechanism (the one that requires it, else the default).
    std::string cc = "dcqcn";
    for (const Scheme& s : cc_schemes())
      if (required_mechanism(s.name) == m.name) cc = s.name;
    const std::string arch = required_architecture(m.name);
    for (const Param& p : m.params)
      if (auto zero = zero_of(p.def))
        targets.push_back({m.name, "cc: {algorithm: " + cc + "}\n",
                           (arch.empty() ? "" : ", architecture: " + arch) + ", mechanism: " + m.name +
                               ", params: {" + p.name + ": " + *zero + "}",
                           "switch.params." + p.name});
  }
  EXPECT_GE(targets.size(), 30u);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const Target& t = targets[i];
    const std::string dir = temp_dir("zero_" + std::to_string(i));
    std::ofstream(dir + "/s.yaml") << congested_scenario(t.cc_block, t.switch_extra);
    std::string err;
    // A hang shows as timeout's status 124; a crash as a signal; both fail the test.
    const int code = run_cli("run " + dir + "/s.yaml --quiet -o " + dir + "/out", &err, 120);
    EXPECT_TRUE(code == 0 || code == 2) << t.key << " = 0 (" << t.scheme << "): exit " << code << "\n" << err;
    if (code == 2) {
      EXPECT_NE(err.find(t.key), std::string::npos) << err;
    }
    EXPECT_EQ(err.find("internal error"), std::string::npos) << t.key << ": " << err;
  }
}

}  // namespace
}  // namespace lossless::test
