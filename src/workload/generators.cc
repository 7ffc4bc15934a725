#include "workload/generators.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/error.h"

namespace lossless {

std::vector<Flow> generate_poisson(const PoissonSpec& spec, const SizeCdf& cdf,
                                   const std::vector<RateBps>& host_rate_bps, std::uint64_t seed,
                                   std::uint32_t entry_index) {
  std::vector<Flow> flows;
  if (spec.load <= 0 || spec.hosts.size() < 2) return flows;
  const double mean_bits = cdf.mean_bytes(spec.sampling) * 8.0;
  const TimePs end = spec.start_ps + spec.duration_ps;
  for (std::uint32_t src : spec.hosts) {
    RngStream rng(seed, "poisson", (std::uint64_t{entry_index} << 32) | src);
    double mean_gap_ps =
        mean_bits / (spec.load * static_cast<double>(host_rate_bps[src])) * static_cast<double>(kPsPerSec);
    double t = static_cast<double>(spec.start_ps) + rng.exponential(mean_gap_ps);
    while (t < static_cast<double>(end)) {
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
  if (whole.size() > 6) return false;
  if (frac.size() > 12) {
    if (frac.find_first_not_of('0', 12) != std::string::npos) return false;  // finer than 1 ps
    frac.resize(12);
  }
  frac.resize(12, '0');
  out = (whole.empty() ? 0 : std::stoull(whole)) * kPsPerSec + std::stoull(frac);
  return true;
}

std::vector<Flow> read_hpcc_flow_file(const std::string& path,
                                      const std::unordered_map<std::uint32_t, std::uint32_t>& host_of) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path, "", "cannot open flow file");
  std::string line;
  int lineno = 0;
  long long declared = -1;
  std::vector<Flow> flows;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::string where = path + ":" + std::to_string(lineno);
    std::istringstream ss(line);
    if (declared < 0) {
      if (!(ss >> declared) || declared < 0)
        throw ConfigError(where, "", "first line must be the number of flows");
      continue;
    }
    long long src, dst, pg, dport, size;
    std::string start;
    if (!(ss >> src >> dst >> pg >> dport >> size >> start))
      throw ConfigError(where, "", "flow line must be 'src dst pg dport size start_seconds'");
    auto s = host_of.find(static_cast<std::uint32_t>(src));
    auto d = host_of.find(static_cast<std::uint32_t>(dst));
    if (src < 0 || s == host_of.end())
      throw ConfigError(where, "", "src " + std::to_string(src) + " is not a host of the topology");
    if (dst < 0 || d == host_of.end())
      throw ConfigError(where, "", "dst " + std::to_string(dst) + " is not a host of the topology");
    if (src == dst) throw ConfigError(where, "", "flow has src == dst (" + std::to_string(src) + ")");
    if (pg < 1 || pg > 7)
      throw ConfigError(where, "", "priority group must be in 1..7 (0 is reserved for control)");
    if (size <= 0) throw ConfigError(where, "", "flow size must be positive");
    if (dport < 0 || dport > 65535) throw ConfigError(where, "", "dport must be in 0..65535");
    Flow f;
    f.src = s->second;
    f.dst = d->second;
    f.priority = static_cast<std::uint8_t>(pg);
    f.dport = static_cast<std::uint16_t>(dport);
    f.size_bytes = static_cast<Bytes>(size);
    if (!parse_decimal_seconds(start, f.start_ps))
      throw ConfigError(where, "", "malformed start time '" + start + "' (seconds)");
    flows.push_back(f);
  }
  if (declared < 0) throw ConfigError(path, "", "empty flow file");
  if (static_cast<long long>(flows.size()) != declared)
    throw ConfigError(
        path, "",
        "declares " + std::to_string(declared) + " flows but lists " + std::to_string(flows.size()));
  std::stable_sort(flows.begin(), flows.end(),
                   [](const Flow& a, const Flow& b) { return a.start_ps < b.start_ps; });
  return flows;
}

}  // namespace lossless
