#include "topo/partitioning.h"

#include <algorithm>
#include <deque>
#include <numeric>

namespace lossless {
namespace {

constexpr std::uint32_t kUnreached = ~0u;

// Connected components of the hosts and the switches of tier below `below` (a host's component: its pod,
// or its rack); the component of each host, named by its smallest host id.
std::vector<std::uint32_t> host_components(const Topology& topo,
                                           const std::vector<std::vector<std::uint32_t>>& adj,
                                           const std::vector<std::uint32_t>& tier, std::uint32_t below) {
  const std::uint32_t n = topo.nodes();
  std::vector<std::uint32_t> comp(n, kUnreached);
  std::deque<std::uint32_t> frontier;
  for (std::uint32_t h = 0; h < topo.hosts; ++h) {
    if (comp[h] != kUnreached) continue;
    comp[h] = h;
    frontier.push_back(h);
    while (!frontier.empty()) {
      const std::uint32_t v = frontier.front();
      frontier.pop_front();
      for (std::uint32_t w : adj[v])
        if (comp[w] == kUnreached && (topo.is_host(w) || (tier[w] != kUnreached && tier[w] < below))) {
          comp[w] = h;
          frontier.push_back(w);
        }
    }
  }
  comp.resize(topo.hosts);
  return comp;
}

// Where the host sequence `order` is cut into `groups` ranges: at each equal share's end, moved to the
// nearest boundary of `units` (unit of each host) within `tolerance` hosts, where that leaves every range at
// least `min_size` hosts; the first level of `levels` that allows it wins.
std::vector<std::uint32_t> group_cuts(const std::vector<std::uint32_t>& order,
                                      const std::vector<const std::vector<std::uint32_t>*>& levels,
                                      unsigned groups, std::uint32_t min_size) {
  const auto hosts = static_cast<std::uint32_t>(order.size());
  const std::uint32_t tolerance = hosts / (8 * groups);
  std::vector<std::uint32_t> cuts(groups + 1, 0);
  cuts[groups] = hosts;
  for (unsigned g = 1; g < groups; ++g) {
    const auto target = static_cast<std::uint32_t>(std::uint64_t{g} * hosts / groups);
    const std::uint32_t lo = cuts[g - 1] + min_size;
    const std::uint32_t hi = hosts - (groups - g) * min_size;
    if (lo > hi) {  // fewer hosts than groups x min_size: equal shares
      cuts[g] = target;
      continue;
    }
    std::uint32_t cut = std::clamp(target, lo, hi);
    for (const auto* unit : levels) {
      std::uint32_t best = kUnreached, best_dist = kUnreached;
      for (std::uint32_t i = lo; i <= hi && i < hosts; ++i) {
        if ((*unit)[order[i]] == (*unit)[order[i - 1]]) continue;  // not a boundary
        const std::uint32_t dist = i > target ? i - target : target - i;
        if (dist < best_dist) best = i, best_dist = dist;
      }
      if (best != kUnreached && best_dist <= tolerance) {
        cut = best;
        break;
      }
    }
    cuts[g] = cut;
  }
  return cuts;
}

}  // namespace

std::vector<std::uint8_t> split_nodes(const Topology& topo, unsigned partitions, unsigned groups) {
  const std::uint32_t n = topo.nodes();
  std::vector<std::uint8_t> partition(n, 0);
  if (partitions <= 1 || n == 0) return partition;
  groups = std::max(1u, groups);
  std::vector<std::vector<std::uint32_t>> adj(n);
  for (const TopoLink& l : topo.links) {
    adj[l.a].push_back(l.b);
    adj[l.b].push_back(l.a);
  }
  // Tier of each node: hops from the nearest host (ToRs 1, aggregation 2, core 3 in a fat tree).
  std::vector<std::uint32_t> tier(n, kUnreached);
  std::deque<std::uint32_t> frontier;
  for (std::uint32_t h = 0; h < topo.hosts; ++h) {
    tier[h] = 0;
    frontier.push_back(h);
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
  std::uint32_t top = 0;
  for (std::uint32_t v = topo.hosts; v < n; ++v)
    if (tier[v] != kUnreached) top = std::max(top, tier[v]);
  // Hosts: contiguous ranges; over groups (ranks), whole pods or racks per group where the balance allows.
  std::vector<std::uint32_t> share(partitions, 0);  // hosts per partition
  if (groups == 1) {
    for (std::uint32_t h = 0; h < topo.hosts; ++h) {
      partition[h] = static_cast<std::uint8_t>(std::uint64_t{h} * partitions / topo.hosts);
      ++share[partition[h]];
    }
  } else {
    const std::vector<std::uint32_t> pod = host_components(topo, adj, tier, std::max(top, 1u));
    const std::vector<std::uint32_t> rack = host_components(topo, adj, tier, 2);
    std::vector<std::uint32_t> order(topo.hosts);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      return pod[a] != pod[b] ? pod[a] < pod[b] : rack[a] < rack[b];
    });
    const unsigned per_group = partitions / groups;
    const std::vector<std::uint32_t> cuts = group_cuts(order, {&pod, &rack}, groups, per_group);
    for (unsigned g = 0; g < groups; ++g) {
      const std::uint32_t size = cuts[g + 1] - cuts[g];
      for (std::uint32_t i = cuts[g]; i < cuts[g + 1]; ++i) {
        const auto p =
            static_cast<std::uint8_t>(g * per_group + std::uint64_t{i - cuts[g]} * per_group / size);
        partition[order[i]] = p;
        ++share[p];
      }
    }
  }
  // Switches tier by tier: each goes where most of its neighbours one tier down are (traffic stays within a
  // thread), but no partition takes more than its share of a tier (every tier's work is split evenly).
  for (std::uint32_t t = 1; t <= top + 1; ++t) {
    std::vector<std::uint32_t> members;
    for (std::uint32_t v = topo.hosts; v < n; ++v)
      if (tier[v] == t || (t == top + 1 && tier[v] == kUnreached)) members.push_back(v);
    if (members.empty()) continue;
    std::vector<std::size_t> cap(partitions, (members.size() + partitions - 1) / partitions);
    if (groups > 1)
      for (unsigned p = 0; p < partitions; ++p)
        cap[p] = static_cast<std::size_t>((std::uint64_t{members.size()} * share[p] + topo.hosts - 1) /
                                          topo.hosts);
    std::vector<std::size_t> taken(partitions, 0);
    for (std::uint32_t v : members) {
      std::vector<std::uint32_t> votes(partitions, 0);
      for (std::uint32_t w : adj[v])
        if (tier[w] != kUnreached && tier[w] + 1 == t) ++votes[partition[w]];
      unsigned best = partitions;
      for (unsigned p = 0; p < partitions; ++p) {
        if (taken[p] >= cap[p]) continue;
        if (best == partitions || votes[p] > votes[best] ||
            (votes[p] == votes[best] && taken[p] < taken[best]))
          best = p;
      }
      partition[v] = static_cast<std::uint8_t>(best);
      ++taken[best];
    }
  }
  return partition;
}

TimePs min_link_delay(const Topology& topo) {
  TimePs d = kTimeNever;
  for (const TopoLink& l : topo.links) d = std::min(d, l.delay_ps);
  return topo.links.empty() ? 0 : d;
}

}  // namespace lossless
