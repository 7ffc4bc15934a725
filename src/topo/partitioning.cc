#include "topo/partitioning.h"

#include <algorithm>
#include <deque>

namespace lossless {

std::vector<std::uint8_t> split_nodes(const Topology& topo, unsigned parts) {
  const std::uint32_t n = topo.nodes();
  std::vector<std::uint8_t> part(n, 0);
  if (parts <= 1 || n == 0) return part;
  std::vector<std::vector<std::uint32_t>> adj(n);
  for (const TopoLink& l : topo.links) {
    adj[l.a].push_back(l.b);
    adj[l.b].push_back(l.a);
  }
  // Tier of each node: hops from the nearest host (ToRs 1, aggregation 2, core 3 in a fat tree).
  constexpr std::uint32_t kUnreached = ~0u;
  std::vector<std::uint32_t> tier(n, kUnreached);
  std::deque<std::uint32_t> frontier;
  for (std::uint32_t h = 0; h < topo.hosts; ++h) {
    tier[h] = 0;
    frontier.push_back(h);
    part[h] = static_cast<std::uint8_t>(std::uint64_t{h} * parts / topo.hosts);
  }
  while (!frontier.empty()) {
    const std::uint32_t v = frontier.front();
    frontier.pop_front();
    for (std::uint32_t w : adj[v])
      if (tier[w] == kUnreached) {
        tier[w] = tier[v] + 1;
        frontier.push_back(w);
      }
  }
  // Switches tier by tier: each goes where most of its neighbours one tier down are (traffic stays within a
  // thread), but no partition takes more than its share of a tier (every tier's work is split evenly).
  std::uint32_t top = 0;
  for (std::uint32_t v = topo.hosts; v < n; ++v)
    if (tier[v] != kUnreached) top = std::max(top, tier[v]);
  for (std::uint32_t t = 1; t <= top + 1; ++t) {
    std::vector<std::uint32_t> members;
    for (std::uint32_t v = topo.hosts; v < n; ++v)
      if (tier[v] == t || (t == top + 1 && tier[v] == kUnreached)) members.push_back(v);
    if (members.empty()) continue;
    const std::size_t cap = (members.size() + parts - 1) / parts;
    std::vector<std::size_t> taken(parts, 0);
    for (std::uint32_t v : members) {
      std::vector<std::uint32_t> votes(parts, 0);
      for (std::uint32_t w : adj[v])
        if (tier[w] != kUnreached && tier[w] + 1 == t) ++votes[part[w]];
      unsigned best = parts;
      for (unsigned p = 0; p < parts; ++p) {
        if (taken[p] == cap) continue;
        if (best == parts || votes[p] > votes[best] || (votes[p] == votes[best] && taken[p] < taken[best]))
          best = p;
      }
      part[v] = static_cast<std::uint8_t>(best);
      ++taken[best];
    }
  }
  return part;
}

TimePs min_link_delay(const Topology& topo) {
  TimePs d = kTimeNever;
  for (const TopoLink& l : topo.links) d = std::min(d, l.delay_ps);
  return topo.links.empty() ? 0 : d;
}

}  // namespace lossless
