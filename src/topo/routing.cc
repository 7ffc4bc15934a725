#include "topo/routing.h"

#include <limits>

namespace lossless {

RoutingTable::RoutingTable(const Topology& topo, const std::vector<NodePorts>& ports)
    : hosts_(topo.hosts), nodes_(topo.nodes()) {
  constexpr std::uint32_t kInf = std::numeric_limits<std::uint32_t>::max();
  dist_.assign(std::size_t{hosts_} * nodes_, kInf);
  std::vector<std::uint32_t> frontier, next;
  for (std::uint32_t dst = 0; dst < hosts_; ++dst) {
    std::uint32_t* d = &dist_[std::size_t{dst} * nodes_];
    d[dst] = 0;
    frontier.assign(1, dst);
    // BFS backwards from the destination; hosts other than dst never forward.
    for (std::uint32_t level = 1; !frontier.empty(); ++level) {
      next.clear();
      for (auto u : frontier) {
        if (u != dst && topo.is_host(u)) continue;
        for (auto v : ports[u].peer)
          if (d[v] == kInf) {
            d[v] = level;
            next.push_back(v);
          }
      }
      frontier.swap(next);
    }
  }
  offsets_.reserve(std::size_t{topo.switches} * hosts_ + 1);
  offsets_.push_back(0);
  for (std::uint32_t s = 0; s < topo.switches; ++s) {
    std::uint32_t node = topo.switch_node(s);
    for (std::uint32_t dst = 0; dst < hosts_; ++dst) {
      const std::uint32_t* d = &dist_[std::size_t{dst} * nodes_];
      if (d[node] != kInf) {
        for (std::uint32_t p = 0; p < ports[node].peer.size(); ++p) {
          std::uint32_t v = ports[node].peer[p];
          if (d[v] + 1 == d[node] && (v == dst || !topo.is_host(v)))
            ports_.push_back(static_cast<std::uint16_t>(p));
        }
      }
      offsets_.push_back(static_cast<std::uint32_t>(ports_.size()));
    }
  }
}

}  // namespace lossless
