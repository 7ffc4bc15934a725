#include "scenario/hpcc_config.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "core/error.h"
#include "core/units.h"

namespace lossless {
namespace {

struct Entry {
  std::vector<std::string> values;
  int line;
};

class Config {
 public:
  explicit Config(std::string path) : path_(std::move(path)) {}
  std::map<std::string, Entry> entries;

  [[noreturn]] void fail(const std::string& key, const std::string& reason) const {
    auto it = entries.find(key);
    std::string where = it == entries.end() ? path_ : path_ + ":" + std::to_string(it->second.line);
    throw ConfigError(where, key, reason);
  }
  bool has(const std::string& key) const { return entries.count(key) > 0; }
  const std::string& text(const std::string& key) const {
    auto it = entries.find(key);
    if (it == entries.end()) fail(key, "is required");
    if (it->second.values.size() != 1) fail(key, "expects one value");
    return it->second.values[0];
  }
  double number(const std::string& key, double def) const {
    if (!has(key)) return def;
    const std::string& s = text(key);
    char* end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v))
      fail(key, "'" + s + "' is not a number");
    return v;
  }
  // ns-3 DataRate text such as 20Mb/s.
  std::string rate(const std::string& key) const {
    std::string s = text(key);
    for (auto [from, to] : {std::pair<const char*, const char*>{"Gb/s", "Gbps"},
                            {"Mb/s", "Mbps"},
                            {"Kb/s", "Kbps"},
                            {"b/s", "bps"}})
      if (auto pos = s.find(from); pos != std::string::npos && pos + std::string(from).size() == s.size()) {
        s = s.substr(0, pos) + to;
        break;
      }
    if (!parse_rate(s)) fail(key, "malformed rate '" + text(key) + "'");
    return s;
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

YAML::Node rate_map(const Config& c, const std::string& key, bool kilobytes) {
  const auto& v = c.entries.at(key).values;
  if (v.empty()) c.fail(key, "expects 'N rate1 value1 ... rateN valueN'");
  int n = std::atoi(v[0].c_str());
  if (n <= 0 || v.size() != static_cast<std::size_t>(1 + 2 * n))
    c.fail(key, "expects 'N rate1 value1 ... rateN valueN'");
  YAML::Node m(YAML::NodeType::Map);
  for (int i = 0; i < n; ++i) {
    char* end = nullptr;
    double bps = std::strtod(v[1 + 2 * i].c_str(), &end);
    if (bps <= 0) c.fail(key, "malformed rate '" + v[1 + 2 * i] + "' (bits per second)");
    double val = std::strtod(v[2 + 2 * i].c_str(), &end);
    if (val < 0 || *end) c.fail(key, "malformed value '" + v[2 + 2 * i] + "'");
    std::string rate = format_rate(static_cast<RateBps>(bps));
    if (kilobytes)
      m[rate] = format_size(static_cast<Bytes>(std::llround(val * 1000)));
    else
      m[rate] = format_double(val);
  }
  return m;
}

}  // namespace

HpccConfig read_hpcc_config(const std::string& path) {
  namespace fs = std::filesystem;
  std::ifstream in(path);
  if (!in) throw ConfigError(path, "", "no such file");
  Config c(path);
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    std::istringstream ss(line);
    std::string key;
    if (!(ss >> key) || key[0] == '#') continue;
    Entry e{{}, lineno};
    for (std::string v; ss >> v;) e.values.push_back(v);
    if (c.entries.count(key)) throw ConfigError(path + ":" + std::to_string(lineno), key, "given twice");
    c.entries[key] = e;
  }
  static const std::vector<std::string> known = {"ENABLE_QCN",
                                                 "USE_DYNAMIC_PFC_THRESHOLD",
                                                 "PACKET_PAYLOAD_SIZE",
                                                 "TOPOLOGY_FILE",
                                                 "FLOW_FILE",
                                                 "TRACE_FILE",
                                                 "TRACE_OUTPUT_FILE",
                                                 "FCT_OUTPUT_FILE",
                                                 "PFC_OUTPUT_FILE",
                                                 "SIMULATOR_STOP_TIME",
                                                 "CC_MODE",
                                                 "ALPHA_RESUME_INTERVAL",
                                                 "RATE_DECREASE_INTERVAL",
                                                 "CLAMP_TARGET_RATE",
                                                 "RP_TIMER",
                                                 "EWMA_GAIN",
                                                 "FAST_RECOVERY_TIMES",
                                                 "RATE_AI",
                                                 "RATE_HAI",
                                                 "MIN_RATE",
                                                 "DCTCP_RATE_AI",
                                                 "ERROR_RATE_PER_LINK",
                                                 "L2_CHUNK_SIZE",
                                                 "L2_ACK_INTERVAL",
                                                 "L2_BACK_TO_ZERO",
                                                 "HAS_WIN",
                                                 "GLOBAL_T",
                                                 "VAR_WIN",
                                                 "FAST_REACT",
                                                 "U_TARGET",
                                                 "MI_THRESH",
                                                 "INT_MULTI",
                                                 "MULTI_RATE",
                                                 "SAMPLE_FEEDBACK",
                                                 "PINT_LOG_BASE",
                                                 "PINT_PROB",
                                                 "RATE_BOUND",
                                                 "ACK_HIGH_PRIO",
                                                 "LINK_DOWN",
                                                 "ENABLE_TRACE",
                                                 "KMAX_MAP",
                                                 "KMIN_MAP",
                                                 "PMAX_MAP",
                                                 "BUFFER_SIZE",
                                                 "QLEN_MON_FILE",
                                                 "QLEN_MON_START",
                                                 "QLEN_MON_END"};
  for (const auto& [key, e] : c.entries)
    if (std::find(known.begin(), known.end(), key) == known.end())
      throw ConfigError(path + ":" + std::to_string(e.line), key, "unknown key of the HPCC config format");

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
  if (c.number("QLEN_MON_START", 0) < c.number("QLEN_MON_END", 0))
    c.fail("QLEN_MON_END",
           "queue-length histograms are not written; use a lossless scenario's monitor.queues");

  const fs::path dir = fs::path(path).parent_path();
  auto resolve = [&](const std::string& key) {
    fs::path p = c.text(key);
    return fs::absolute(p.is_relative() ? dir / p : p).lexically_normal().string();
  };
  HpccConfig out;
  YAML::Node s(YAML::NodeType::Map);
  s["name"] = fs::path(path).stem().string();
  s["seed"] = 1;
  s["topology"]["type"] = "hpcc_file";
  s["topology"]["path"] = resolve("TOPOLOGY_FILE");
  YAML::Node wl(YAML::NodeType::Sequence);
  YAML::Node flows(YAML::NodeType::Map);
  flows["type"] = "hpcc_flow_file";
  flows["path"] = resolve("FLOW_FILE");
  wl.push_back(flows);
  s["workload"] = wl;
  if (c.has("SIMULATOR_STOP_TIME")) {
    double stop = c.number("SIMULATOR_STOP_TIME", 0);
    if (stop <= 0) c.fail("SIMULATOR_STOP_TIME", "must be positive (seconds)");
    s["stop"] = format_time(static_cast<TimePs>(std::llround(stop * 1e12)));
  }

  YAML::Node sw(YAML::NodeType::Map);
  // BUFFER_SIZE is in MiB: the simulator configures buffer_size * 1024 * 1024 bytes (third.cc).
  if (c.has("BUFFER_SIZE"))
    sw["buffer"] = format_size(static_cast<Bytes>(std::llround(c.number("BUFFER_SIZE", 0) * 1024 * 1024)));
  sw["pfc"]["threshold"] = "dynamic";
  sw["ecn"]["enabled"] = c.number("ENABLE_QCN", 1) != 0;
  if (c.has("KMIN_MAP")) sw["ecn"]["kmin"] = rate_map(c, "KMIN_MAP", true);
  if (c.has("KMAX_MAP")) sw["ecn"]["kmax"] = rate_map(c, "KMAX_MAP", true);
  if (c.has("PMAX_MAP")) sw["ecn"]["pmax"] = rate_map(c, "PMAX_MAP", false);
  s["switch"] = sw;

  YAML::Node nic(YAML::NodeType::Map);
  double mtu = c.number("PACKET_PAYLOAD_SIZE", 1000);
  if (mtu < 1) c.fail("PACKET_PAYLOAD_SIZE", "must be at least 1");
  nic["mtu"] = format_size(static_cast<Bytes>(mtu));
  // L2_ACK_INTERVAL is in bytes: an ACK each time that many bytes have arrived, i.e. every ceil(x/mtu)
  // packets.
  double ack_bytes = c.number("L2_ACK_INTERVAL", 1);
  if (ack_bytes < 1) c.fail("L2_ACK_INTERVAL", "must be at least 1 byte");
  auto ack_packets = static_cast<long long>(std::ceil(ack_bytes / mtu));
  nic["ack_interval"] = ack_packets;
  if (ack_packets > 1 && c.has("L2_CHUNK_SIZE"))
    c.fail("L2_CHUNK_SIZE",
           "extra ACKs at chunk boundaries are not modelled; use L2_ACK_INTERVAL <= PACKET_PAYLOAD_SIZE");
  // ACK_HIGH_PRIO raises ACK/NACK only in the sending NIC (its ACK queue is then checked against the pause of
  // priority 0, never set): the simulator's switches never get the setting (SwitchNode's AckHighPrio
  // attribute keeps its default 0), so they queue ACKs at the data packet's priority, FIFO with data.
  nic["ack_priority"] = c.number("ACK_HIGH_PRIO", 0) != 0 ? "data_unpaused" : "data";
  nic["cnp_interval"] = "0";  // the HPCC code marks the ACK of each CE packet as a CNP
  // ACK/NACK on the wire in the simulator: padded to 60 B (RdmaHw::ReceiveUdp) without an INT stack, i.e. in
  // every mode but HPCC's (CC_MODE 3), whose ACK carries the fixed 42-B INT header (lossless: ack_size + 8 B
  // per INT record).
  if (c.number("CC_MODE", -1) != 3) nic["ack_size"] = "60B";
  s["nic"] = nic;

  YAML::Node cc(YAML::NodeType::Map);
  YAML::Node params(YAML::NodeType::Map);
  int mode = static_cast<int>(c.number("CC_MODE", -1));
  if (!c.has("CC_MODE")) c.fail("CC_MODE", "is required");
  bool has_win = c.number("HAS_WIN", 0) != 0;
  std::string window = !has_win ? "none" : (c.number("VAR_WIN", 0) != 0 ? "bdp" : "bdp_fixed");
  // Each copies a config key, when present, into a cc parameter in that parameter's unit.
  auto copy_us = [&](const char* key, const char* param) {
    if (c.has(key)) params[param] = format_time(static_cast<TimePs>(std::llround(c.number(key, 0) * 1e6)));
  };
  auto copy_rate = [&](const char* key, const char* param) {
    if (c.has(key)) params[param] = c.rate(key);
  };
  auto copy_real = [&](const char* key, const char* param) {
    if (c.has(key)) params[param] = format_double(c.number(key, 0));
  };
  auto copy_count = [&](const char* key, const char* param) {
    if (c.has(key)) params[param] = static_cast<long long>(c.number(key, 0));
  };
  auto copy_flag = [&](const char* key, const char* param) {
    if (c.has(key)) params[param] = c.number(key, 0) != 0;
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
  cc["params"] = params;
  s["cc"] = cc;
  // Keys with no effect in the chosen mode are accepted, as the HPCC simulator ignores them too: the DCQCN
  // knobs outside mode 1, PINT_* outside mode 10, INT_MULTI (lossless records INT values exactly, without the
  // simulator's fixed-width encoding), TRACE_FILE/TRACE_OUTPUT_FILE with tracing off, QLEN_MON_FILE with the
  // monitor window empty.
  s["output"]["hpcc_fct"] = true;
  s["monitor"]["pfc"] = true;
  out.scenario = s;
  if (c.has("FCT_OUTPUT_FILE")) out.fct_output = resolve("FCT_OUTPUT_FILE");
  if (c.has("PFC_OUTPUT_FILE")) out.pfc_output = resolve("PFC_OUTPUT_FILE");
  return out;
}

}  // namespace lossless
