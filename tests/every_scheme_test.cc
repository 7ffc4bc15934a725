// Every registered scheme, found through `lossless list` (so that schemes added later are covered without
// editing this file): congestion controls, switch mechanisms, flow-control policies, routing, switch
// architectures, ECN marking, topologies, workloads and monitors. Its resolved scenario.yaml validates and
// re-runs to identical outputs, and every numeric parameter set to zero is either rejected (exit 2) or runs
// to its end (no division by zero, no timer that re-arms without simulated time passing).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
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
// The lines of `lossless list` output after the first line starting with `from`.
std::vector<std::string> lines_after(const std::string& text, const std::string& from) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (inside) lines.push_back(line);
    inside = inside || line.rfind(from, 0) == 0;
  }
  return lines;
}

std::vector<Scheme> parse_list(const std::string& text, const std::string& from, const std::string& until) {
  std::vector<Scheme> schemes;
  for (const std::string& line : lines_after(text, from)) {
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

constexpr const char* kStar = "{type: star, hosts: 4, host_link: {rate: 25Gbps, delay: 1us}}";
constexpr const char* kIncast =
    "  - {type: incast, receiver: 0, senders: 1-3, size: 60KB, count: 2, period: 100us}\n"
    "  - {type: flows, flows: [{src: 0, dst: 2, size: 3KB, start: 5us}]}\n";

// Three senders into one receiver with low ECN thresholds: marks, CNPs, pauses and every scheme's timers
// (`ecn_extra`: more keys of switch.ecn; `topology`, `workload`: in place of the star and the incast).
std::string congested_scenario(const std::string& cc_block, const std::string& switch_extra,
                               const std::string& ecn_extra = "", const std::string& topology = kStar,
                               const std::string& workload = kIncast) {
  return "name: every\nseed: 7\nstop: 3ms\n"
         "topology: " +
         topology +
         "\n"
         "workload:\n" +
         workload + "switch: {buffer: 2MB, ecn: {kmin: 4KB, kmax: 40KB, pmax: 0.5" + ecn_extra + "}" +
         switch_extra + "}\n" + cc_block +
         "monitor: {queues: {interval: 20us, where: [\"s0:0\", \"s0:*\"]}, " +
         "flow_rates: {interval: 50us}}\n";
}

// Runs `scenario`, then its resolved scenario.yaml, in temp_dir(tag): both exit 0 with the same values and
// outputs. False (with the test failed) when the first run does not exit 0.
bool runs_and_reruns_identically(const std::string& tag, const std::string& scenario,
                                 const std::string& extra_files_dir = "") {
  const std::string dir = extra_files_dir.empty() ? temp_dir(tag) : extra_files_dir;
  std::ofstream(dir + "/s.yaml") << scenario;
  std::string err;
  const int code = run_cli("run " + dir + "/s.yaml --quiet -o " + dir + "/a", &err);
  EXPECT_EQ(code, 0) << tag << ": " << err << "\n" << scenario;
  if (code != 0) return false;
  EXPECT_EQ(run_cli("validate " + dir + "/a/scenario.yaml", &err), 0) << tag << ": " << err;
  const int rerun = run_cli("run " + dir + "/a/scenario.yaml --quiet -o " + dir + "/b", &err);
  EXPECT_EQ(rerun, 0) << tag << ": " << err;
  if (rerun != 0) return true;
  EXPECT_EQ(scenario_values(dir + "/a/scenario.yaml"), scenario_values(dir + "/b/scenario.yaml")) << tag;
  for (const char* file : {"fct.csv", "pfc.csv", "queues.csv", "flow_rates.csv", "summary.json"}) {
    const std::string a = without_measurements(read_file(dir + "/a/" + file));
    EXPECT_FALSE(a.empty()) << tag << " " << file;
    EXPECT_EQ(a, without_measurements(read_file(dir + "/b/" + file))) << tag << " " << file;
  }
  return true;
}

// The switch's registries as `lossless list` prints them: the section's first line, the next section's, and
// where a scheme's parameters go (`name` stands for the scheme's name) and how it is selected.
struct SwitchRegistry {
  const char* from;
  const char* until;
  std::string select;  // switch_extra selecting `name`
  bool params_in_ecn;  // parameters under switch.ecn.<name> (else switch.<name>)
};

const std::vector<SwitchRegistry>& switch_registries() {
  static const std::vector<SwitchRegistry> r{
      {"switch flow control", "switch routing", ", flow_control: ", false},
      {"switch routing", "switch architectures", ", routing: ", false},
      {"switch architectures", "ECN marking", ", architecture: ", false},
      {"ECN marking", "switch keys", "", true},
  };
  return r;
}

// The names of the entries of a part of the scenario as `lossless list` prints them from its table
// (scenario/part_types.h): topology types, workload types, monitors.
std::vector<std::string> part_names(const std::string& text, const std::string& from,
                                    const std::string& until) {
  std::vector<std::string> names;
  for (const Scheme& s : parse_list(text, from, until)) names.push_back(s.name);
  return names;
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

// Every flow-control policy, routing, switch architecture and ECN marking scheme with its defaults (DCQCN,
// which reads the marks): the resolved scenario re-runs identically; and each of their numeric parameters at
// zero is rejected or runs to its end.
TEST(EveryScheme, EverySwitchSchemeReRunsIdenticallyAndTakesZeroOrRejectsIt) {
  const std::string text = cli_stdout("list");
  int schemes = 0, zeros = 0;
  for (const SwitchRegistry& reg : switch_registries()) {
    const std::vector<Scheme> listed = parse_list(text, reg.from, reg.until);
    EXPECT_GE(listed.size(), 2u) << reg.from;
    for (const Scheme& s : listed) {
      ++schemes;
      const std::string select = reg.params_in_ecn ? "" : reg.select + s.name;
      const std::string ecn_select = reg.params_in_ecn ? ", marking: " + s.name : "";
      const std::string tag = "switch_" + s.name;
      runs_and_reruns_identically(tag, congested_scenario("cc: {algorithm: dcqcn}\n", select, ecn_select));
      for (const Param& p : s.params) {
        auto zero = zero_of(p.def);
        if (!zero) continue;
        const std::string params = s.name + ": {" + p.name + ": " + *zero + "}";
        const std::string key = (reg.params_in_ecn ? "switch.ecn." : "switch.") + s.name + "." + p.name;
        const std::string scenario =
            congested_scenario("cc: {algorithm: dcqcn}\n", select + (reg.params_in_ecn ? "" : ", " + params),
                               ecn_select + (reg.params_in_ecn ? ", " + params : ""));
        const std::string dir = temp_dir("switch_zero_" + std::to_string(zeros++));
        std::ofstream(dir + "/s.yaml") << scenario;
        std::string err;
        const int code = run_cli("run " + dir + "/s.yaml --quiet -o " + dir + "/out", &err, 120);
        EXPECT_TRUE(code == 0 || code == 2) << key << " = 0: exit " << code << "\n" << err;
        if (code == 2) {
          EXPECT_NE(err.find(key), std::string::npos) << err;
        }
        EXPECT_EQ(err.find("internal error"), std::string::npos) << key << ": " << err;
      }
    }
  }
  EXPECT_GE(schemes, 10);
  EXPECT_GE(zeros, 10);
}

// Every topology type and workload type `lossless list` prints from its table runs (a small instance of each)
// and re-runs identically from its resolved scenario. A type added without an instance here fails, naming it.
TEST(EveryScheme, EveryTopologyAndWorkloadTypeReRunsIdentically) {
  const std::string text = cli_stdout("list");
  const std::string hpcc_topology =
      "4 1 3\n3\n0 3 25Gbps 1000ns 0\n1 3 25Gbps 1000ns 0\n2 3 25Gbps 1000ns 0\n";
  const std::map<std::string, std::string> topologies{
      {"star", kStar},
      {"dumbbell", "{type: dumbbell, left: 2, right: 2}"},
      {"leaf_spine", "{type: leaf_spine, leaves: 2, spines: 2, hosts_per_leaf: 2}"},
      {"fat_tree", "{type: fat_tree, k: 4}"},
      {"hpcc_file", "{type: hpcc_file, path: topo.txt}"},
      {"custom",
       "{type: custom, hosts: 4, switches: 1, links: [[h0, s0, 25Gbps, 1us], [h1, s0, 25Gbps, 1us], "
       "[h2, s0, 25Gbps, 1us], [h3, s0, 25Gbps, 1us]]}"},
  };
  const std::map<std::string, std::string> workloads{
      {"poisson", "  - {type: poisson, cdf: WebSearch, load: 0.8, duration: 2ms, hosts: 0-3}\n"},
      {"incast", "  - {type: incast, receiver: 0, senders: 1-3, size: 60KB}\n"},
      {"flows", "  - {type: flows, flows: [{src: 0, dst: 2, size: 30KB, start: 5us}]}\n"},
      {"hpcc_flow_file", "  - {type: hpcc_flow_file, path: flows.txt}\n"},
  };
  // The input files relative to the scenario's folder: the resolved scenario.yaml names them by absolute path
  // and re-runs from the output folder.
  auto with_inputs = [&](const std::string& tag) {
    const std::string dir = temp_dir(tag);
    std::ofstream(dir + "/topo.txt") << hpcc_topology;
    std::ofstream(dir + "/flows.txt") << "2\n1 0 3 100 50000 0.00001\n2 0 3 100 50000 0.00002\n";
    return dir;
  };
  const std::vector<std::string> listed_topologies = part_names(text, "topologies (", "monitors (");
  const std::vector<std::string> listed_workloads = part_names(text, "workloads (", "topologies (");
  EXPECT_GE(listed_topologies.size(), 6u);
  EXPECT_GE(listed_workloads.size(), 4u);
  for (const std::string& t : listed_topologies) {
    auto it = topologies.find(t);
    if (it == topologies.end()) {
      ADD_FAILURE() << "topology type '" << t << "' has no instance in this test";
      continue;
    }
    const bool hpcc_file = t == "hpcc_file";
    // The HPCC topology file names hosts 0-2 only: its incast has two senders.
    const std::string workload =
        hpcc_file ? "  - {type: incast, receiver: 0, senders: 1-2, size: 60KB}\n" : std::string(kIncast);
    const std::string dir = with_inputs("topology_" + t);
    runs_and_reruns_identically(
        "topology_" + t, congested_scenario("cc: {algorithm: dcqcn}\n", "", "", it->second, workload), dir);
  }
  for (const std::string& w : listed_workloads) {
    auto it = workloads.find(w);
    if (it == workloads.end()) {
      ADD_FAILURE() << "workload type '" << w << "' has no instance in this test";
      continue;
    }
    const std::string dir = with_inputs("workload_" + w);
    runs_and_reruns_identically(
        "workload_" + w, congested_scenario("cc: {algorithm: dcqcn}\n", "", "", kStar, it->second), dir);
  }
}

// Every monitor `lossless list monitors` prints from its table records what it names (or, for pfc, leaves it
// out when off) and re-runs identically from its resolved scenario. A monitor added without an instance here
// fails, naming it.
TEST(EveryScheme, EveryMonitorReRunsIdentically) {
  // (instance under monitor:, the file it writes, whether that file is written)
  struct Instance {
    std::string monitor, file;
    bool written;
  };
  const std::map<std::string, Instance> monitors{
      {"queues", {"{queues: {interval: 20us, where: [\"s0:1\"]}, pfc: true}", "queues.csv", true}},
      {"flow_rates", {"{flow_rates: {interval: 50us, flows: [0, 2]}}", "flow_rates.csv", true}},
      {"fabric", {"{fabric: {interval: 50us}}", "fabric.json", true}},
      {"pfc", {"{pfc: false}", "pfc.csv", false}},
  };
  const std::vector<std::string> listed = part_names(cli_stdout("list monitors"), "monitors (", "");
  EXPECT_GE(listed.size(), 4u);
  for (const std::string& name : listed) {
    auto it = monitors.find(name);
    if (it == monitors.end()) {
      ADD_FAILURE() << "monitor '" << name << "' has no instance in this test";
      continue;
    }
    const std::string tag = "monitor_" + name;
    const std::string dir = temp_dir(tag);
    std::string scenario = congested_scenario("cc: {algorithm: dcqcn}\n", "");
    scenario = scenario.substr(0, scenario.find("monitor: ")) + "monitor: " + it->second.monitor + "\n";
    std::ofstream(dir + "/s.yaml") << scenario;
    std::string err;
    ASSERT_EQ(run_cli("run " + dir + "/s.yaml --quiet -o " + dir + "/a", &err), 0) << tag << ": " << err;
    ASSERT_EQ(run_cli("run " + dir + "/a/scenario.yaml --quiet -o " + dir + "/b", &err), 0)
        << tag << ": " << err;
    EXPECT_EQ(scenario_values(dir + "/a/scenario.yaml"), scenario_values(dir + "/b/scenario.yaml")) << tag;
    EXPECT_EQ(std::ifstream(dir + "/a/" + it->second.file).good(), it->second.written) << tag;
    for (const char* file :
         {"fct.csv", "pfc.csv", "queues.csv", "flow_rates.csv", "fabric.json", "summary.json"})
      EXPECT_EQ(without_measurements(read_file(dir + "/a/" + file)),
                without_measurements(read_file(dir + "/b/" + file)))
          << tag << " " << file;
  }
}

}  // namespace
}  // namespace lossless::test
