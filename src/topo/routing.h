// Shortest-path forwarding tables with ECMP: per switch and destination host, the egress ports that lie on a
// shortest path. A flow picks one by a hash of its 5-tuple mixed with a per-switch seed.
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

class RoutingTable {
 public:
  RoutingTable() = default;
  RoutingTable(const Topology& topo, const std::vector<NodePorts>& ports);

  // Candidate egress ports of switch `s` (index among switches) toward host `dst`.
  const std::uint16_t* candidates(std::uint32_t s, std::uint32_t dst, std::uint32_t& count) const {
    std::size_t row = std::size_t{s} * hosts_ + dst;
    count = offsets_[row + 1] - offsets_[row];
    return &ports_[offsets_[row]];
  }
  std::uint32_t hops(std::uint32_t node, std::uint32_t dst) const {
    return dist_[std::size_t{dst} * nodes_ + node];
  }

 private:
  std::uint32_t hosts_ = 0;
  std::uint32_t nodes_ = 0;
  std::vector<std::uint32_t> offsets_;  // (switch, dst) -> range in ports_
  std::vector<std::uint16_t> ports_;
  std::vector<std::uint32_t> dist_;  // dst-major hop distances
};

}  // namespace lossless
