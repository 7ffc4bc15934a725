#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "core/error.h"
#include "core/units.h"
#include "topo/topology.h"

namespace lossless {
namespace {

// HPCC files write "1000ns", "100Gbps" (ns-3 style): our parsers accept both.
std::string line_where(const std::string& path, int line) { return path + ":" + std::to_string(line); }

}  // namespace

Topology read_hpcc_topology(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path, "", "cannot open topology file");
  std::string line;
  int lineno = 0;
  auto next_line = [&](std::istringstream& ss) {
    while (std::getline(in, line)) {
      ++lineno;
      if (line.find_first_not_of(" \t\r") != std::string::npos) {
        ss = std::istringstream(line);
        return true;
      }
    }
    return false;
  };
  std::istringstream ss;
  if (!next_line(ss)) throw ConfigError(path, "", "empty topology file");
  long long n = -1, s = -1, l = -1;
  if (!(ss >> n >> s >> l) || n <= 0 || s < 0 || l <= 0 || s > n)
    throw ConfigError(line_where(path, lineno), "",
                      "first line must be 'nodes switches links' with positive counts");
  std::vector<bool> is_switch(static_cast<std::size_t>(n), false);
  if (s > 0) {
    if (!next_line(ss)) throw ConfigError(path, "", "missing the line of switch ids");
    for (long long i = 0; i < s; ++i) {
      long long id;
      if (!(ss >> id) || id < 0 || id >= n)
        throw ConfigError(
            line_where(path, lineno), "",
            "switch id list must hold " + std::to_string(s) + " ids in [0, " + std::to_string(n) + ")");
      is_switch[static_cast<std::size_t>(id)] = true;
    }
  }
  // Global numbering: hosts in ascending file id, then switches in ascending file id.
  Topology t;
  std::vector<std::uint32_t> global(static_cast<std::size_t>(n));
  for (std::uint32_t id = 0; id < n; ++id)
    if (!is_switch[id]) {
      global[id] = t.hosts++;
      t.external_id.push_back(id);
    }
  for (std::uint32_t id = 0; id < n; ++id)
    if (is_switch[id]) {
      global[id] = t.hosts + t.switches++;
      t.external_id.push_back(id);
    }
  for (long long i = 0; i < l; ++i) {
    if (!next_line(ss))
      throw ConfigError(path, "", "expected " + std::to_string(l) + " links, found " + std::to_string(i));
    long long a, b;
    std::string rate_text, delay_text;
    if (!(ss >> a >> b >> rate_text >> delay_text))
      throw ConfigError(line_where(path, lineno), "", "link line must be 'src dst rate delay [error_rate]'");
    double err = 0;
    if (ss >> err && err != 0)
      throw ConfigError(line_where(path, lineno), "", "link error rates are not supported (must be 0)");
    if (a < 0 || a >= n || b < 0 || b >= n || a == b)
      throw ConfigError(line_where(path, lineno), "",
                        "link endpoints must be two different node ids in [0, " + std::to_string(n) + ")");
    auto rate = parse_rate(rate_text);
    if (!rate || *rate == 0)
      throw ConfigError(line_where(path, lineno), "", "malformed rate '" + rate_text + "'");
    auto delay = parse_time(delay_text);
    if (!delay) throw ConfigError(line_where(path, lineno), "", "malformed delay '" + delay_text + "'");
    t.links.push_back(
        {global[static_cast<std::size_t>(a)], global[static_cast<std::size_t>(b)], *rate, *delay});
  }
  return t;
}

void check_topology(const Topology& topo, const std::string& where, const std::string& key) {
  if (topo.hosts < 2) throw ConfigError(where, key, "a topology needs at least 2 hosts");
  std::vector<std::uint32_t> degree(topo.nodes(), 0);
  std::vector<std::vector<std::uint32_t>> adj(topo.nodes());
  for (const auto& l : topo.links) {
    if (l.a >= topo.nodes() || l.b >= topo.nodes() || l.a == l.b)
      throw ConfigError(where, key, "link between invalid nodes");
    if (l.rate_bps == 0) throw ConfigError(where, key, "link rate must be positive");
    if (topo.is_host(l.a) && topo.is_host(l.b))
      throw ConfigError(where, key,
                        "link " + topo.node_name(l.a) + "-" + topo.node_name(l.b) +
                            " joins two hosts; hosts attach to switches");
    ++degree[l.a];
    ++degree[l.b];
    adj[l.a].push_back(l.b);
    adj[l.b].push_back(l.a);
  }
  for (std::uint32_t h = 0; h < topo.hosts; ++h)
    if (degree[h] != 1)
      throw ConfigError(where, key,
                        "host " + topo.node_name(h) + " has " + std::to_string(degree[h]) +
                            " links; every host has exactly one NIC port");
  // Connectivity among hosts (switches may not be transit through hosts, which have one port anyway).
  std::vector<bool> seen(topo.nodes(), false);
  std::vector<std::uint32_t> stack{0};
  seen[0] = true;
  while (!stack.empty()) {
    auto u = stack.back();
    stack.pop_back();
    for (auto v : adj[u])
      if (!seen[v]) {
        seen[v] = true;
        stack.push_back(v);
      }
  }
  for (std::uint32_t h = 0; h < topo.hosts; ++h)
    if (!seen[h])
      throw ConfigError(where, key, "topology is disconnected: " + topo.node_name(h) + " cannot reach h0");
}

}  // namespace lossless
