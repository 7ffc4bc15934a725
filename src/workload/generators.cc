#include "workload/generators.h"

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>

#include "core/error.h"
#include "core/units.h"

namespace lossless {

std::vector<Flow> generate_poisson(const PoissonSpec& spec, const SizeCdf& cdf,
                                   const std::vector<RateBps>& host_rate_bps, std::uint64_t seed,
                                   std::uint32_t entry_index, std::uint64_t max_flows) {
  std::vector<Flow> flows;
  // Destinations: dst_hosts, else the other senders (at least one besides each sender).
  if (spec.load <= 0 || spec.hosts.empty() || (spec.dst_hosts.empty() && spec.hosts.size() < 2)) return flows;
  const double mean_bits = cdf.mean_bytes(spec.sampling) * 8.0;
  const TimePs end = spec.start_ps + spec.duration_ps;
  for (std::uint32_t src : spec.hosts) {
    if (spec.dst_hosts.size() == 1 && spec.dst_hosts[0] == src) continue;  // no destination but itself
    RngStream rng(seed, "poisson", (std::uint64_t{entry_index} << 32) | src);
    double mean_gap_ps =
        mean_bits / (spec.load * static_cast<double>(host_rate_bps[src])) * static_cast<double>(kPsPerSec);
    double t = static_cast<double>(spec.start_ps) + rng.exponential(mean_gap_ps);
    while (t < static_cast<double>(end)) {
      if (flows.size() > max_flows) return flows;
      Flow f;
      f.src = src;
      if (spec.dst_hosts.empty()) {
        std::uint32_t pick = static_cast<std::uint32_t>(rng.below(spec.hosts.size() - 1));
        f.dst = spec.hosts[pick];
        if (f.dst == src) f.dst = spec.hosts.back();  // uniform over the others
      } else {
        do {
          f.dst = spec.dst_hosts[rng.below(spec.dst_hosts.size())];
        } while (f.dst == src);
      }
      f.size_bytes = cdf.sample(rng, spec.sampling);
      f.start_ps = static_cast<TimePs>(t);
      f.priority = spec.priority;
      flows.push_back(f);
      t += rng.exponential(mean_gap_ps);
    }
  }
  std::stable_sort(flows.begin(), flows.end(), [](const Flow& a, const Flow& b) {
    return a.start_ps < b.start_ps || (a.start_ps == b.start_ps && a.src < b.src);
  });
  return flows;
}

std::vector<Flow> generate_incast(const IncastSpec& spec) {
  std::vector<Flow> flows;
  for (std::uint32_t round = 0; round < spec.count; ++round)
    for (std::uint32_t s : spec.senders) {
      Flow f;
      f.src = s;
      f.dst = spec.receiver;
      f.size_bytes = spec.size_bytes;
      f.start_ps = spec.start_ps + round * spec.period_ps;
      f.priority = spec.priority;
      flows.push_back(f);
    }
  return flows;
}

bool parse_decimal_seconds(const std::string& text, TimePs& out) {
  std::size_t dot = text.find('.');
  std::string whole = text.substr(0, dot);
  std::string frac = dot == std::string::npos ? "" : text.substr(dot + 1);
  if (whole.empty() && frac.empty()) return false;
  for (char c : whole + frac)
    if (c < '0' || c > '9') return false;
  if (whole.size() > 6) return false;  // below 10^6 s (kMaxTimePs)
  if (frac.size() > 12) {
    if (frac.find_first_not_of('0', 12) != std::string::npos) return false;  // finer than 1 ps
    frac.resize(12);
  }
  frac.resize(12, '0');
  out = (whole.empty() ? 0 : *parse_uint(whole)) * kPsPerSec + *parse_uint(frac);
  return true;
}

std::vector<Flow> read_hpcc_flow_file(const std::string& path,
                                      const std::unordered_map<std::uint32_t, std::uint32_t>& host_of,
                                      std::uint64_t max_flows) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path, "", "cannot open flow file");
  std::string line;
  std::uint64_t lineno = 0, declared_line = 0;
  std::optional<std::uint64_t> declared;
  std::vector<Flow> flows;
  while (std::getline(in, line)) {
    ++lineno;
    std::istringstream ss(line);
    std::vector<std::string> tok;
    for (std::string t; ss >> t;) tok.push_back(t);
    if (tok.empty()) continue;
    std::string where = path + ":" + std::to_string(lineno);
    if (!declared) {
      declared = tok.size() == 1 ? parse_uint(tok[0]) : std::nullopt;
      if (!declared) throw ConfigError(where, "", "first line must be the number of flows (one integer)");
      if (*declared > max_flows)
        throw ConfigError(where, "",
                          "declares " + tok[0] + " flows: at most " + std::to_string(max_flows) +
                              " flows in the run (README \"Limits\")");
      declared_line = lineno;
      continue;
    }
    if (flows.size() == *declared)
      throw ConfigError(where, "",
                        "a line after the " + std::to_string(*declared) + " flows the first line declares");
    if (tok.size() != 6)
      throw ConfigError(where, "",
                        "flow line must be 'src dst pg dport size start_seconds' (six fields, it has " +
                            std::to_string(tok.size()) + ")");
    std::optional<std::uint64_t> src = parse_uint(tok[0]), dst = parse_uint(tok[1]), pg = parse_uint(tok[2]),
                                 dport = parse_uint(tok[3]), size = parse_uint(tok[4]);
    auto host = [&](const std::optional<std::uint64_t>& id, const char* what, const std::string& text) {
      auto it = id && *id <= 0xffffffffu ? host_of.find(static_cast<std::uint32_t>(*id)) : host_of.end();
      if (it == host_of.end())
        throw ConfigError(where, "", std::string(what) + " '" + text + "' is not a host of the topology");
      return it->second;
    };
    Flow f;
    f.src = host(src, "src", tok[0]);
    f.dst = host(dst, "dst", tok[1]);
    if (f.src == f.dst) throw ConfigError(where, "", "flow has src == dst (" + tok[0] + ")");
    if (!pg || *pg < 1 || *pg > 7)
      throw ConfigError(where, "", "priority group must be in 1..7 (0 is reserved for control)");
    if (!size || *size == 0 || *size > kMaxBytes)
      throw ConfigError(where, "",
                        "flow size must be a positive integer of bytes up to " + format_size(kMaxBytes));
    if (!dport || *dport > 65535) throw ConfigError(where, "", "dport must be an integer in 0..65535");
    f.priority = static_cast<std::uint8_t>(*pg);
    f.dport = static_cast<std::uint16_t>(*dport);
    f.size_bytes = *size;
    if (!parse_decimal_seconds(tok[5], f.start_ps))
      throw ConfigError(where, "", "malformed start time '" + tok[5] + "' (seconds)");
    flows.push_back(f);
  }
  if (!declared) throw ConfigError(path, "", "empty flow file");
  if (flows.size() != *declared)
    throw ConfigError(
        path + ":" + std::to_string(declared_line), "",
        "declares " + std::to_string(*declared) + " flows but lists " + std::to_string(flows.size()));
  std::stable_sort(flows.begin(), flows.end(),
                   [](const Flow& a, const Flow& b) { return a.start_ps < b.start_ps; });
  return flows;
}

}  // namespace lossless
