#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "core/error.h"
#include "core/units.h"
#include "topo/topology.h"

namespace lossless {
namespace {

// HPCC files write "1000ns", "100Gbps" (ns-3 style): our parsers accept both.
std::string line_where(const std::string& path, std::uint64_t line) {
  return path + ":" + std::to_string(line);
}

std::vector<std::string> tokens(const std::string& line) {
  std::istringstream ss(line);
  std::vector<std::string> out;
  for (std::string t; ss >> t;) out.push_back(t);
  return out;
}

}  // namespace

void check_topology_size(std::uint64_t hosts, std::uint64_t switches, std::uint64_t links,
                         const std::string& where, const std::string& key) {
  auto fail = [&](const std::string& what) { throw ConfigError(where, key, what + " (README \"Limits\")"); };
  if (hosts > kMaxHosts) fail(std::to_string(hosts) + " hosts: at most " + std::to_string(kMaxHosts));
  if (switches > kMaxSwitches)
    fail(std::to_string(switches) + " switches: at most " + std::to_string(kMaxSwitches));
  if (links > kMaxLinks) fail(std::to_string(links) + " links: at most " + std::to_string(kMaxLinks));
  if (switches * std::min(hosts, switches) > kMaxSwitchPairs)
    fail(std::to_string(switches) + " switches x " + std::to_string(std::min(hosts, switches)) +
         " switches with hosts (at most): routing tables hold at most " + std::to_string(kMaxSwitchPairs) +
         " (switch, switch) pairs");
}

Topology read_hpcc_topology(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path, "", "cannot open topology file");
  std::string line;
  std::uint64_t lineno = 0;
  std::vector<std::string> tok;
  auto next_line = [&]() {
    while (std::getline(in, line)) {
      ++lineno;
      tok = tokens(line);
      if (!tok.empty()) return true;
    }
    return false;
  };
  auto uint_at = [&](std::size_t i, std::uint64_t& v) {
    auto n = parse_uint(tok[i]);
    if (n) v = *n;
    return n.has_value();
  };
  if (!next_line()) throw ConfigError(path, "", "empty topology file");
  std::uint64_t n = 0, s = 0, l = 0;
  if (tok.size() != 3 || !uint_at(0, n) || !uint_at(1, s) || !uint_at(2, l) || n == 0 || l == 0 || s > n)
    throw ConfigError(line_where(path, lineno), "",
                      "first line must be 'nodes switches links': three integers, positive node and link "
                      "counts, at most as many switches as nodes");
  check_topology_size(n - s, s, l, line_where(path, lineno), "");
  const std::uint64_t header_line = lineno;
  std::vector<bool> is_switch(n, false);
  if (s > 0) {
    if (!next_line()) throw ConfigError(path, "", "missing the line of switch ids");
    if (tok.size() != s)
      throw ConfigError(line_where(path, lineno), "",
                        "the line of switch ids must hold exactly " + std::to_string(s) + " ids (it has " +
                            std::to_string(tok.size()) + ")");
    for (std::size_t i = 0; i < s; ++i) {
      std::uint64_t id = 0;
      if (!uint_at(i, id) || id >= n)
        throw ConfigError(line_where(path, lineno), "",
                          "switch id '" + tok[i] + "' is not an integer in [0, " + std::to_string(n) + ")");
      if (is_switch[id])
        throw ConfigError(line_where(path, lineno), "", "switch id " + tok[i] + " is listed twice");
      is_switch[id] = true;
    }
  }
  // Global numbering: hosts in ascending file id, then switches in ascending file id.
  Topology t;
  t.source = path;
  std::vector<std::uint32_t> global(n);
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
  for (std::uint64_t i = 0; i < l; ++i) {
    if (!next_line())
      throw ConfigError(line_where(path, header_line), "",
                        "declares " + std::to_string(l) + " links but the file lists " + std::to_string(i));
    const std::string where = line_where(path, lineno);
    std::uint64_t a = 0, b = 0;
    if ((tok.size() != 4 && tok.size() != 5) || !uint_at(0, a) || !uint_at(1, b))
      throw ConfigError(where, "",
                        "link line must be 'src dst rate delay [error_rate]' with integer node ids");
    if (tok.size() == 5) {
      char* end = nullptr;
      const double err = std::strtod(tok[4].c_str(), &end);
      if (end != tok[4].c_str() + tok[4].size() || !std::isfinite(err))
        throw ConfigError(where, "", "malformed error rate '" + tok[4] + "'");
      if (err != 0) throw ConfigError(where, "", "link error rates are not supported (must be 0)");
    }
    if (a >= n || b >= n || a == b)
      throw ConfigError(where, "",
                        "link endpoints must be two different node ids in [0, " + std::to_string(n) + ")");
    auto rate = parse_rate(tok[2]);
    if (!rate || *rate == 0) throw ConfigError(where, "", "malformed rate '" + tok[2] + "'");
    auto delay = parse_time(tok[3]);
    if (!delay) throw ConfigError(where, "", "malformed delay '" + tok[3] + "'");
    t.links.push_back({global[a], global[b], *rate, *delay});
    t.link_line.push_back(static_cast<std::uint32_t>(lineno));
  }
  if (next_line())
    throw ConfigError(line_where(path, lineno), "",
                      "a line after the " + std::to_string(l) + " links the first line declares");
  return t;
}

void check_topology(const Topology& topo, const std::string& where, const std::string& key) {
  // A link's own line when the input gave one; else the topology as a whole.
  auto at = [&](std::size_t link) {
    return link < topo.link_line.size() && topo.link_line[link] > 0
               ? topo.source + ":" + std::to_string(topo.link_line[link])
               : where;
  };
  check_topology_size(topo.hosts, topo.switches, topo.links.size(), where, key);
  if (topo.hosts < 2) throw ConfigError(where, key, "a topology needs at least 2 hosts");
  std::vector<std::uint32_t> degree(topo.nodes(), 0);
  std::vector<std::size_t> first_link(topo.nodes(), 0);
  std::vector<std::vector<std::uint32_t>> adj(topo.nodes());
  for (std::size_t i = 0; i < topo.links.size(); ++i) {
    const auto& l = topo.links[i];
    if (l.a >= topo.nodes() || l.b >= topo.nodes() || l.a == l.b)
      throw ConfigError(at(i), key, "link between invalid nodes");
    if (l.rate_bps == 0) throw ConfigError(at(i), key, "link rate must be positive");
    if (topo.is_host(l.a) && topo.is_host(l.b))
      throw ConfigError(at(i), key,
                        "link " + topo.node_name(l.a) + "-" + topo.node_name(l.b) +
                            " joins two hosts; hosts attach to switches");
    for (std::uint32_t node : {l.a, l.b}) {
      if (degree[node]++ == 0) first_link[node] = i;
      if (topo.is_host(node) && degree[node] > 1)
        throw ConfigError(
            at(i), key,
            "host " + topo.node_name(node) + " has a second link; every host has exactly one NIC port");
      if (degree[node] > kMaxPortsPerNode)
        throw ConfigError(at(i), key,
                          topo.node_name(node) + " has more than " + std::to_string(kMaxPortsPerNode) +
                              " ports (README \"Limits\")");
    }
    adj[l.a].push_back(l.b);
    adj[l.b].push_back(l.a);
  }
  for (std::uint32_t h = 0; h < topo.hosts; ++h)
    if (degree[h] != 1)
      throw ConfigError(where, key,
                        "host " + topo.node_name(h) + " has no link; every host has exactly one NIC port");
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
      throw ConfigError(at(first_link[h]), key,
                        "topology is disconnected: " + topo.node_name(h) + " cannot reach h0");
}

}  // namespace lossless
