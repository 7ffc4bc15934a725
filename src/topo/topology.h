// A fabric as a graph: hosts 0..H-1, switches H..H+S-1 (named h<i> and s<j>), full-duplex links.
// Builders for the standard shapes live in builders.cc; routing.h computes forwarding from this graph.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/time.h"

namespace lossless {

struct TopoLink {
  std::uint32_t a;  // global node ids
  std::uint32_t b;
  RateBps rate_bps;
  TimePs delay_ps;
};

struct Topology {
  std::uint32_t hosts = 0;
  std::uint32_t switches = 0;
  std::vector<TopoLink> links;
  // Ids used by an imported file for each global node (hpcc_file); empty when names are ours.
  std::vector<std::uint32_t> external_id;
  // Where each link was given, for error messages: the file and, per link, its line (empty for built shapes).
  std::string source;
  std::vector<std::uint32_t> link_line;

  std::uint32_t nodes() const { return hosts + switches; }
  bool is_host(std::uint32_t node) const { return node < hosts; }
  std::string node_name(std::uint32_t node) const {
    return is_host(node) ? "h" + std::to_string(node) : "s" + std::to_string(node - hosts);
  }
  std::uint32_t switch_node(std::uint32_t s) const { return hosts + s; }
  // The id an imported file gives `node` (our global id when the names are ours).
  std::uint32_t external(std::uint32_t node) const { return external_id.empty() ? node : external_id[node]; }
};

struct LinkSpec {
  RateBps rate_bps = 100'000'000'000;
  TimePs delay_ps = kPsPerUs;
};

Topology make_star(std::uint32_t hosts, LinkSpec host_link);
Topology make_dumbbell(std::uint32_t left, std::uint32_t right, LinkSpec host_link, LinkSpec core_link);
Topology make_leaf_spine(std::uint32_t leaves, std::uint32_t spines, std::uint32_t hosts_per_leaf,
                         LinkSpec host_link, LinkSpec fabric_link);
// Three-tier Clos: every ToR to every agg of its pod; agg j of a pod to cores [j*c/a, (j+1)*c/a).
Topology make_fat_tree(std::uint32_t pods, std::uint32_t tors_per_pod, std::uint32_t aggs_per_pod,
                       std::uint32_t cores, std::uint32_t hosts_per_tor, LinkSpec host_link,
                       LinkSpec fabric_link);
// The k-ary fat tree: k pods of k/2 ToRs and k/2 aggs, (k/2)^2 cores, k/2 hosts per ToR.
Topology make_fat_tree_k(std::uint32_t k, LinkSpec host_link, LinkSpec fabric_link);

// The largest fabric accepted (README "Limits"): routing keeps a candidate-list index and a hop distance per
// (switch, switch with hosts) pair, 8 bytes together, so switches x min(hosts, switches) is capped at 2^27
// (1 GiB of table); forwarding tables number ports in 16 bits; node and link counts are capped so that every
// id fits 32 bits and nothing is allocated by a count the input merely claims.
constexpr std::uint64_t kMaxHosts = 100'000;
constexpr std::uint64_t kMaxSwitches = 100'000;
constexpr std::uint64_t kMaxLinks = 1'000'000;
constexpr std::uint64_t kMaxPortsPerNode = 65'535;
constexpr std::uint64_t kMaxSwitchPairs = std::uint64_t{1} << 27;
// Throws ConfigError naming `where` and `key` when a fabric of this size is beyond the limits.
void check_topology_size(std::uint64_t hosts, std::uint64_t switches, std::uint64_t links,
                         const std::string& where, const std::string& key);

// The IPv4 address the HPCC simulator gives node `id` (third.cc, node_id_to_ip).
inline std::uint32_t hpcc_node_ip(std::uint32_t id) {
  return 0x0b000001u + ((id / 256) << 16) + ((id % 256) << 8);
}

// Reads an HPCC-simulator topology file ("N S L", the switch ids, then "a b rate delay error" lines).
// Throws ConfigError naming the file and line.
Topology read_hpcc_topology(const std::string& path);

// Checks the structural rules every topology must meet (one link per host, connected, positive rates).
void check_topology(const Topology& topo, const std::string& where, const std::string& key);

}  // namespace lossless
