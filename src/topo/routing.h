// Shortest-path forwarding tables with ECMP: per switch and destination host, the egress ports that lie on a
// shortest path. A flow picks one by a hash of its 5-tuple mixed with a per-switch seed.
//
// Every host has one link, to a switch (check_topology), so the hosts behind one switch (its "group") share
// every switch's candidate ports and hop distances except at that switch itself, where the candidate is the
// host's own port. The table therefore keeps one row per (switch, group) — a 32-bit index into a pool of
// distinct candidate lists, which on a fat tree or leaf-spine is a handful (the uplinks, one port down) — and
// one hop distance per (group, switch): ~10 MB at k = 32 (8,192 hosts, 1,280 switches) where a row per
// (switch, host) and a distance per (host, node) pair took ~550 MB. The lists are, port for port, those of
// the per-host table (routing_test.cc compares the two on fat trees, leaf-spines and irregular graphs).
#pragma once
#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "topo/topology.h"

namespace lossless {

// The ECMP choice among `n` equal-cost ports: a hash of the flow's 5-tuple mixed with the switch's seed, so
// different switches split the same flows differently.
inline std::uint32_t ecmp_pick(std::uint32_t flow_hash, std::uint64_t switch_seed, std::uint32_t n) {
  return static_cast<std::uint32_t>(mix64(flow_hash ^ switch_seed) % n);
}

inline std::uint64_t switch_ecmp_seed(std::uint64_t run_seed, std::uint32_t switch_index) {
  return mix64(run_seed ^ (0x5157u + std::uint64_t{switch_index} * 0x9e3779b97f4a7c15ull));
}

struct NodePorts {  // port index -> (peer node, link index)
  std::vector<std::uint32_t> peer;
  std::vector<std::uint32_t> link;
};

// Every node's ports, in the order of the topology's links (port i of a node is its i-th link).
std::vector<NodePorts> node_ports_of(const Topology& topo);
// A numbering of every port of the fabric: node n's ports are [first[n], first[n + 1]) (size nodes() + 1).
std::vector<std::uint32_t> first_port_of_nodes(const Topology& topo);

class RoutingTable {
 public:
  static constexpr std::uint32_t kUnreachable = ~std::uint32_t{0};

  RoutingTable() = default;
  RoutingTable(const Topology& topo, const std::vector<NodePorts>& ports);

  // Candidate egress ports of switch `s` (index among switches) toward host `dst`, in port order.
  const std::uint16_t* candidates(std::uint32_t s, std::uint32_t dst, std::uint32_t& count) const {
    if (attach_[dst] == s) {  // the destination's own switch: its port to the host
      count = 1;
      return &attach_port_[dst];
    }
    const std::uint32_t list = rows_[std::size_t{s} * groups_ + group_[dst]];
    count = list_start_[list + 1] - list_start_[list];
    return &ports_[list_start_[list]];
  }
  // Hops from `node` (host or switch) to host `dst` along a shortest path that crosses no other host;
  // kUnreachable when there is none.
  std::uint32_t hops(std::uint32_t node, std::uint32_t dst) const {
    if (node == dst) return 0;
    const std::uint32_t sw = node < hosts_ ? attach_[node] : node - hosts_;
    const std::uint32_t d = dist_[std::size_t{group_[dst]} * switches_ + sw];
    return node < hosts_ && d != kUnreachable ? d + 1 : d;
  }
  // The switch (index among switches) host `h` is attached to.
  std::uint32_t attachment(std::uint32_t h) const { return attach_[h]; }
  // Bytes held (README "Limits", docs/performance.md).
  std::size_t bytes() const;

 private:
  std::uint32_t hosts_ = 0;
  std::uint32_t switches_ = 0;
  std::uint32_t groups_ = 0;                // switches with hosts attached
  std::vector<std::uint32_t> attach_;       // host -> its switch
  std::vector<std::uint16_t> attach_port_;  // host -> that switch's port to it
  std::vector<std::uint32_t> group_;        // host -> its switch's group
  std::vector<std::uint32_t> rows_;         // (switch, group) -> candidate list
  std::vector<std::uint32_t> list_start_;   // list -> range in ports_
  std::vector<std::uint16_t> ports_;
  std::vector<std::uint32_t> dist_;  // (group, switch) -> hops to a host of the group
};

}  // namespace lossless
