#include "scenario/hpcc_config.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

#include "core/error.h"
#include "core/units.h"
#include "scenario/yaml_map.h"

namespace lossless {
namespace {

struct Entry {
  std::vector<std::string> values;
  int line;
};

// What a key of the format holds, as the HPCC simulator reads it (third.cc): unsigned integers, 0/1 flags,
// real numbers, ns-3 rates, paths, per-rate maps and LINK_DOWN's three integers.
enum class Kind { kInt, kFlag, kReal, kRate, kPath, kMap, kTriple };

struct KeySpec {
  const char* key;
  Kind kind;
  double lo = 0, hi = 0;  // kInt, kReal: the accepted range
};

// Every key of the format. Each is checked whatever CC_MODE uses, so a typo in a key the mode ignores is
// still an error.
const std::vector<KeySpec>& key_specs() {
  static const std::vector<KeySpec> specs = {
      {"ENABLE_QCN", Kind::kFlag},
      {"USE_DYNAMIC_PFC_THRESHOLD", Kind::kFlag},
      {"PACKET_PAYLOAD_SIZE", Kind::kInt, 1, 65536},
      {"TOPOLOGY_FILE", Kind::kPath},
      {"FLOW_FILE", Kind::kPath},
      {"TRACE_FILE", Kind::kPath},
      {"TRACE_OUTPUT_FILE", Kind::kPath},
      {"FCT_OUTPUT_FILE", Kind::kPath},
      {"PFC_OUTPUT_FILE", Kind::kPath},
      {"SIMULATOR_STOP_TIME", Kind::kReal, 1e-12, 1e6},
      {"CC_MODE", Kind::kInt, 0, 100},
      {"ALPHA_RESUME_INTERVAL", Kind::kReal, 1e-6, 1e12},
      {"RATE_DECREASE_INTERVAL", Kind::kReal, 1e-6, 1e12},
      {"CLAMP_TARGET_RATE", Kind::kFlag},
      {"RP_TIMER", Kind::kReal, 1e-6, 1e12},
      {"EWMA_GAIN", Kind::kReal, 0, 1},
      {"FAST_RECOVERY_TIMES", Kind::kInt, 0, 1000},
      {"RATE_AI", Kind::kRate},
      {"RATE_HAI", Kind::kRate},
      {"MIN_RATE", Kind::kRate},
      {"DCTCP_RATE_AI", Kind::kRate},
      {"ERROR_RATE_PER_LINK", Kind::kReal, 0, 1},
      {"L2_CHUNK_SIZE", Kind::kInt, 0, 1e15},
      {"L2_ACK_INTERVAL", Kind::kInt, 1, 1e15},
      {"L2_BACK_TO_ZERO", Kind::kFlag},
      {"HAS_WIN", Kind::kFlag},
      {"GLOBAL_T", Kind::kFlag},
      {"VAR_WIN", Kind::kFlag},
      {"FAST_REACT", Kind::kFlag},
      {"U_TARGET", Kind::kReal, 0.01, 1},
      {"MI_THRESH", Kind::kInt, 0, 1000},
      {"INT_MULTI", Kind::kInt, 1, 1e9},
      {"MULTI_RATE", Kind::kFlag},
      {"SAMPLE_FEEDBACK", Kind::kFlag},
      {"PINT_LOG_BASE", Kind::kReal, 1e-9, 1e9},
      {"PINT_PROB", Kind::kReal, 0, 1},
      {"RATE_BOUND", Kind::kFlag},
      {"ACK_HIGH_PRIO", Kind::kFlag},
      {"LINK_DOWN", Kind::kTriple},
      {"ENABLE_TRACE", Kind::kFlag},
      {"KMAX_MAP", Kind::kMap},
      {"KMIN_MAP", Kind::kMap},
      {"PMAX_MAP", Kind::kMap},
      {"BUFFER_SIZE", Kind::kInt, 1, 1e9},  // MiB
      {"QLEN_MON_FILE", Kind::kPath},
      {"QLEN_MON_START", Kind::kInt, 0, 1e18},
      {"QLEN_MON_END", Kind::kInt, 0, 1e18},
  };
  return specs;
}

// A real number written in full: no trailing junk, finite.
std::optional<double> parse_real(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

class Config {
 public:
  explicit Config(std::string path) : path_(std::move(path)) {}
  std::map<std::string, Entry> entries;

  std::string where(const std::string& key) const {
    auto it = entries.find(key);
    return it == entries.end() ? path_ : path_ + ":" + std::to_string(it->second.line);
  }
  [[noreturn]] void fail(const std::string& key, const std::string& reason) const {
    throw ConfigError(where(key), key, reason);
  }
  bool has(const std::string& key) const { return entries.count(key) > 0; }
  const std::string& text(const std::string& key) const {
    auto it = entries.find(key);
    if (it == entries.end()) fail(key, "is required");
    if (it->second.values.size() != 1)
      fail(key, "expects one value (it has " + std::to_string(it->second.values.size()) + ")");
    return it->second.values[0];
  }
  // The value of a key checked by validate(), or `def` when absent.
  double number(const std::string& key, double def) const { return has(key) ? *parse_real(text(key)) : def; }
  std::uint64_t integer(const std::string& key, std::uint64_t def) const {
    return has(key) ? *parse_uint(text(key)) : def;
  }
  bool flag(const std::string& key, bool def) const { return has(key) ? text(key) == "1" : def; }
  // ns-3 DataRate text such as 20Mb/s, as our rate text (20Mbps).
  std::string rate(const std::string& key) const {
    auto r = ns3_rate(text(key));
    if (!r) fail(key, "malformed rate '" + text(key) + "' (e.g. 20Mb/s)");
    return format_rate(*r);
  }
  static std::optional<RateBps> ns3_rate(std::string s) {
    for (auto [from, to] : {std::pair<const char*, const char*>{"Gb/s", "Gbps"},
                            {"Mb/s", "Mbps"},
                            {"Kb/s", "Kbps"},
                            {"b/s", "bps"}})
      if (auto pos = s.find(from); pos != std::string::npos && pos + std::string(from).size() == s.size()) {
        s = s.substr(0, pos) + to;
        break;
      }
    return parse_rate(s);
  }
  // Every key against its kind and range.
  void validate() const {
    for (const auto& entry : entries) {
      const std::string& key =
          entry.first;  // a named variable: lambdas capture no structured bindings in clang 14
      const auto& specs = key_specs();
      auto spec = std::find_if(specs.begin(), specs.end(), [&](const KeySpec& k) { return key == k.key; });
      if (spec == specs.end()) fail(key, "unknown key of the HPCC config format");
      if (spec->kind == Kind::kMap || spec->kind == Kind::kTriple) continue;  // read where they are used
      const std::string& v = text(key);
      switch (spec->kind) {
        case Kind::kInt: {
          auto n = parse_uint(v);
          if (!n) fail(key, "'" + v + "' is not a non-negative integer");
          if (static_cast<double>(*n) < spec->lo || static_cast<double>(*n) > spec->hi)
            fail(key,
                 v + " is out of range [" + format_double(spec->lo) + ", " + format_double(spec->hi) + "]");
          break;
        }
        case Kind::kFlag:
          if (v != "0" && v != "1") fail(key, "'" + v + "' is not 0 or 1");
          break;
        case Kind::kReal: {
          auto x = parse_real(v);
          if (!x) fail(key, "'" + v + "' is not a number");
          if (*x < spec->lo || *x > spec->hi)
            fail(key,
                 v + " is out of range [" + format_double(spec->lo) + ", " + format_double(spec->hi) + "]");
          break;
        }
        case Kind::kRate:
          if (!ns3_rate(v) || *ns3_rate(v) == 0) fail(key, "malformed rate '" + v + "' (e.g. 20Mb/s)");
          break;
        default:
          break;
      }
    }
  }
  // Accepts the key only with one of the listed values (features lossless does not model otherwise).
  void only(const std::string& key, std::initializer_list<double> allowed, const std::string& why) const {
    if (!has(key)) return;
    double v = number(key, 0);
    for (double a : allowed)
      if (v == a) return;
    fail(key, "value " + text(key) + " is not supported: " + why);
  }
  std::string path_;
};

// `N rate1 value1 ... rateN valueN`, rates in bits per second (integers, as the simulator reads them), values
// in KB (kilobytes) or plain numbers in [0, 1].
YAML::Node rate_map(const Config& c, const std::string& key, bool kilobytes) {
  const auto& v = c.entries.at(key).values;
  const std::string form = "expects 'N rate1 value1 ... rateN valueN' with rates in bits per second";
  auto n = v.empty() ? std::nullopt : parse_uint(v[0]);
  if (!n || *n == 0 || *n > 1000 || v.size() != 1 + 2 * *n) c.fail(key, form);
  YAML::Node m(YAML::NodeType::Map);
  std::vector<RateBps> seen;
  for (std::size_t i = 0; i < *n; ++i) {
    const std::string& rate_text = v[1 + 2 * i];
    const std::string& value_text = v[2 + 2 * i];
    auto bps = parse_uint(rate_text);
    if (!bps || *bps == 0 || *bps > kMaxRateBps)
      c.fail(key, "malformed rate '" + rate_text + "' (an integer of bits per second)");
    if (std::find(seen.begin(), seen.end(), *bps) != seen.end())
      c.fail(key, "rate " + rate_text + " is given twice");
    seen.push_back(*bps);
    auto val = parse_real(value_text);
    if (!val || *val < 0 || (kilobytes ? *val * 1000 > static_cast<double>(kMaxBytes) : *val > 1))
      c.fail(key, "malformed value '" + value_text + "'" +
                      (kilobytes ? " (kilobytes)" : " (a probability in [0, 1])"));
    const std::string rate = format_rate(*bps);
    if (kilobytes)
      m[rate] = format_size(static_cast<Bytes>(std::llround(*val * 1000)));
    else
      m[rate] = format_double(*val);
  }
  return m;
}

}  // namespace

HpccConfig read_hpcc_config(const std::string& path) {
  namespace fs = std::filesystem;
  check_path_length(path, path, "");
  std::error_code ec;
  if (!fs::exists(path, ec)) throw ConfigError(path, "", "no such file");
  if (fs::is_directory(path, ec)) throw ConfigError(path, "", "is a directory, not a config file");
  if (!fs::is_regular_file(path, ec)) throw ConfigError(path, "", "is not a regular file");
  std::ifstream in(path);
  if (!in) throw ConfigError(path, "", "cannot open the file");
  Config c(path);
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    std::istringstream ss(line);
    std::string key;
    if (!(ss >> key) || key[0] == '#') continue;
    const std::string where = path + ":" + std::to_string(lineno);
    // A YAML file (a lossless scenario or sweep given to `hpcc` instead of `run`): its list items were
    // reported as '-: given twice'.
    if (key == "-" || key == "---" || key.back() == ':' || key[0] == '{' || key[0] == '[')
      throw ConfigError(where, "",
                        "reads as YAML ('" + key +
                            "'), not as an HPCC config file ('KEY value' lines, the HPCC simulator's "
                            "mix/config.txt format): a lossless scenario runs with 'lossless run', a sweep "
                            "with 'lossless sweep'");
    const auto& specs = key_specs();
    if (std::none_of(specs.begin(), specs.end(), [&](const KeySpec& k) { return key == k.key; }))
      throw ConfigError(where, key, "unknown key of the HPCC config format");
    Entry e{{}, lineno};
    for (std::string v; ss >> v;) e.values.push_back(v);
    if (c.entries.count(key))
      throw ConfigError(where, key,
                        "given twice (first on line " + std::to_string(c.entries.at(key).line) + ")");
    c.entries[key] = e;
  }
  c.validate();

  // Features the HPCC simulator has but lossless does not model: accepted only when switched off.
  c.only("ERROR_RATE_PER_LINK", {0}, "random link errors are not modelled");
  c.only("L2_BACK_TO_ZERO", {0}, "lossless retransmits go-back-N from the NACKed sequence");
  c.only("GLOBAL_T", {1}, "T is the network-wide max base RTT");
  c.only("MULTI_RATE", {0}, "per-hop HPCC rates are not modelled");
  c.only("RATE_BOUND", {1}, "the NIC always paces at the QP rate");
  c.only("ENABLE_TRACE", {0}, "packet traces are not written");
  c.only("USE_DYNAMIC_PFC_THRESHOLD", {1},
         "use a lossless scenario with switch.pfc.threshold: static instead");
  if (c.has("LINK_DOWN") && c.entries.at("LINK_DOWN").values != std::vector<std::string>{"0", "0", "0"})
    c.fail("LINK_DOWN", "link failures are not modelled (only '0 0 0')");
  if (c.integer("QLEN_MON_START", 0) < c.integer("QLEN_MON_END", 0))
    c.fail("QLEN_MON_END",
           "queue-length histograms are not written; use a lossless scenario's monitor.queues");

  const fs::path dir = fs::path(path).parent_path();
  auto resolve = [&](const std::string& key) {
    fs::path p = c.text(key);
    std::string full = fs::absolute(p.is_relative() ? dir / p : p).lexically_normal().string();
    check_path_length(full, c.where(key), key);
    return full;
  };
  HpccConfig out;
  out.file = path;
  // Each scenario key written from a config key remembers it: errors found in the scenario name the config's.
  auto from = [&](const std::string& scenario_key, const std::string& config_key) {
    if (c.has(config_key)) out.origin[scenario_key] = {config_key, c.entries.at(config_key).line};
  };
  YAML::Node s(YAML::NodeType::Map);
  s["name"] = fs::path(path).stem().string();
  s["seed"] = 1;
  s["topology"]["type"] = "hpcc_file";
  s["topology"]["path"] = resolve("TOPOLOGY_FILE");
  from("topology.path", "TOPOLOGY_FILE");
  YAML::Node wl(YAML::NodeType::Sequence);
  YAML::Node flows(YAML::NodeType::Map);
  flows["type"] = "hpcc_flow_file";
  flows["path"] = resolve("FLOW_FILE");
  from("workload.0.path", "FLOW_FILE");
  wl.push_back(flows);
  s["workload"] = wl;
  if (c.has("SIMULATOR_STOP_TIME")) {
    const double stop = c.number("SIMULATOR_STOP_TIME", 0);
    s["stop"] = format_time(static_cast<TimePs>(std::llround(stop * 1e12)));
    from("stop", "SIMULATOR_STOP_TIME");
  }

  YAML::Node sw(YAML::NodeType::Map);
  // BUFFER_SIZE is in MiB: the simulator configures buffer_size * 1024 * 1024 bytes (third.cc).
  if (c.has("BUFFER_SIZE")) sw["buffer"] = format_size(c.integer("BUFFER_SIZE", 0) * 1024 * 1024);
  from("switch.buffer", "BUFFER_SIZE");
  sw["pfc"]["threshold"] = "dynamic";
  // Every flow on the simulator's own path (its hash, seeds and next-hop order).
  sw["routing"] = "hpcc_ecmp";
  sw["ecn"]["enabled"] = c.flag("ENABLE_QCN", true);
  if (c.has("KMIN_MAP")) sw["ecn"]["kmin"] = rate_map(c, "KMIN_MAP", true);
  if (c.has("KMAX_MAP")) sw["ecn"]["kmax"] = rate_map(c, "KMAX_MAP", true);
  if (c.has("PMAX_MAP")) sw["ecn"]["pmax"] = rate_map(c, "PMAX_MAP", false);
  from("switch.ecn.kmin", "KMIN_MAP");
  from("switch.ecn.kmax", "KMAX_MAP");
  from("switch.ecn.pmax", "PMAX_MAP");
  s["switch"] = sw;

  YAML::Node nic(YAML::NodeType::Map);
  const std::uint64_t mtu = c.integer("PACKET_PAYLOAD_SIZE", 1000);
  nic["mtu"] = format_size(mtu);
  from("nic.mtu", "PACKET_PAYLOAD_SIZE");
  // L2_ACK_INTERVAL is in bytes: an ACK each time that many bytes have arrived, i.e. every ceil(x/mtu)
  // packets.
  const std::uint64_t ack_packets = (c.integer("L2_ACK_INTERVAL", 1) + mtu - 1) / mtu;
  nic["ack_interval"] = ack_packets;
  from("nic.ack_interval", "L2_ACK_INTERVAL");
  if (ack_packets > 1 && c.has("L2_CHUNK_SIZE"))
    c.fail("L2_CHUNK_SIZE",
           "extra ACKs at chunk boundaries are not modelled; use L2_ACK_INTERVAL <= PACKET_PAYLOAD_SIZE");
  // ACK_HIGH_PRIO raises ACK/NACK only in the sending NIC (its ACK queue is then checked against the pause of
  // priority 0, never set): the simulator's switches never get the setting (SwitchNode's AckHighPrio
  // attribute keeps its default 0), so they queue ACKs at the data packet's priority, FIFO with data.
  nic["ack_priority"] = c.flag("ACK_HIGH_PRIO", false) ? "data_unpaused" : "data";
  nic["cnp_interval"] = "0";  // the HPCC code marks the ACK of each CE packet as a CNP
  // ACK/NACK on the wire in the simulator: padded to 60 B (RdmaHw::ReceiveUdp) without an INT stack, i.e. in
  // every mode but HPCC's (CC_MODE 3), whose ACK carries the fixed 42-B INT header (lossless: ack_size + 8 B
  // per INT record).
  if (c.integer("CC_MODE", 0) != 3) nic["ack_size"] = "60B";
  // TIMELY's data packets carry an 8-B timestamp (IntHeader in TS mode: 1056 B on the wire for 1000 B of
  // payload), which the simulator's standalone FCT leaves out.
  if (c.integer("CC_MODE", 0) == 7) nic["data_extra"] = "8B";
  s["nic"] = nic;

  YAML::Node cc(YAML::NodeType::Map);
  YAML::Node params(YAML::NodeType::Map);
  if (!c.has("CC_MODE")) c.fail("CC_MODE", "is required");
  const std::uint64_t mode = c.integer("CC_MODE", 0);
  const bool has_win = c.flag("HAS_WIN", false);
  std::string window = !has_win ? "none" : (c.flag("VAR_WIN", false) ? "bdp" : "bdp_fixed");
  // Each copies a config key, when present, into a cc parameter in that parameter's unit.
  auto copy_us = [&](const char* key, const char* param) {
    if (!c.has(key)) return;
    const double ps = c.number(key, 0) * 1e6;
    if (std::llround(ps) == 0) c.fail(key, "must be at least 1 ps (the value is in microseconds)");
    params[param] = format_time(static_cast<TimePs>(std::llround(ps)));
    from(std::string("cc.params.") + param, key);
  };
  auto copy_rate = [&](const char* key, const char* param) {
    if (!c.has(key)) return;
    params[param] = c.rate(key);
    from(std::string("cc.params.") + param, key);
  };
  auto copy_real = [&](const char* key, const char* param) {
    if (!c.has(key)) return;
    params[param] = format_double(c.number(key, 0));
    from(std::string("cc.params.") + param, key);
  };
  auto copy_count = [&](const char* key, const char* param) {
    if (!c.has(key)) return;
    params[param] = c.integer(key, 0);
    from(std::string("cc.params.") + param, key);
  };
  auto copy_flag = [&](const char* key, const char* param) {
    if (!c.has(key)) return;
    params[param] = c.flag(key, false);
    from(std::string("cc.params.") + param, key);
  };
  switch (mode) {
    case 1:
      cc["algorithm"] = "dcqcn";
      params["variant"] = "hpcc";
      copy_us("ALPHA_RESUME_INTERVAL", "alpha_timer");
      copy_us("RATE_DECREASE_INTERVAL", "rate_decrease_interval");
      copy_flag("CLAMP_TARGET_RATE", "clamp_target_rate");
      copy_us("RP_TIMER", "rate_increase_timer");
      copy_real("EWMA_GAIN", "g");
      copy_count("FAST_RECOVERY_TIMES", "fast_recovery_steps");
      copy_rate("RATE_AI", "rate_ai");
      copy_rate("RATE_HAI", "rate_hai");
      break;
    case 3:
      cc["algorithm"] = "hpcc";
      copy_real("U_TARGET", "eta");
      copy_count("MI_THRESH", "max_stage");
      copy_flag("FAST_REACT", "fast_react");
      copy_flag("SAMPLE_FEEDBACK", "sample_feedback");
      // The HPCC code: one RATE_AI for every flow and its NIC-scaled queue term.
      params["queue_term"] = "nic_scaled";
      copy_rate("RATE_AI", "rate_ai");
      if (!c.has("RATE_AI")) params["expected_flows"] = 0;
      break;
    case 7:
      cc["algorithm"] = "timely";
      params["variant"] = "hpcc";
      copy_rate("RATE_AI", "rate_ai");
      copy_rate("RATE_HAI", "rate_hai");
      break;
    case 8:
      cc["algorithm"] = "dctcp";
      copy_real("EWMA_GAIN", "g");
      copy_rate("DCTCP_RATE_AI", "rate_ai");
      // The HPCC code's DCTCP uses the configured ECN maps as they are; keep them rather than the K hint.
      break;
    default:
      c.fail("CC_MODE",
             "mode " + c.text("CC_MODE") + " is not supported (1 DCQCN, 3 HPCC, 7 TIMELY, 8 DCTCP)");
  }
  copy_rate("MIN_RATE", "min_rate");
  params["window"] = window;
  from("cc.params.window", "HAS_WIN");
  cc["params"] = params;
  s["cc"] = cc;
  // Keys with no effect in the chosen mode are checked (validate) but otherwise ignored, as the HPCC
  // simulator ignores them: the DCQCN knobs outside mode 1, PINT_* outside mode 10, INT_MULTI (lossless
  // records INT values exactly, without the simulator's fixed-width encoding), TRACE_FILE/TRACE_OUTPUT_FILE
  // with tracing off, QLEN_MON_FILE with the monitor window empty.
  s["output"]["hpcc_fct"] = true;
  s["monitor"]["pfc"] = true;
  out.scenario = s;
  if (c.has("FCT_OUTPUT_FILE")) out.fct_output = resolve("FCT_OUTPUT_FILE");
  if (c.has("PFC_OUTPUT_FILE")) out.pfc_output = resolve("PFC_OUTPUT_FILE");
  return out;
}

Scenario parse_hpcc_scenario(const HpccConfig& cfg, const ScenarioOverrides& overrides) {
  try {
    return parse_scenario(cfg.scenario, cfg.file, overrides);
  } catch (const ConfigError& e) {
    // The scenario key came from a config key: name that key and its line, and the value as translated.
    for (std::string key = e.key(); !key.empty();) {
      auto it = cfg.origin.find(key);
      if (it != cfg.origin.end())
        throw ConfigError(cfg.file + ":" + std::to_string(it->second.second), it->second.first,
                          e.reason() + " (read as the scenario's " + e.key() + ")");
      const auto dot = key.rfind('.');
      key.resize(dot == std::string::npos ? 0 : dot);
    }
    throw;
  }
}

}  // namespace lossless
