// The grouped routing table against the per-(switch, host) table it replaced: same candidate ports in the
// same order and the same hop distances, on the standard shapes and on irregular graphs (parallel links,
// switches without hosts, an unreachable part).
#include "topo/routing.h"

#include <gtest/gtest.h>

#include <limits>

#include "core/rng.h"

namespace lossless {
namespace {

// The table as it was (c6847b6): a BFS from every host over all nodes, hosts other than the destination not
// forwarding; a switch's candidates are its ports to neighbours one hop closer.
struct PerHostTable {
  std::vector<std::uint32_t> dist;                            // dst-major
  std::vector<std::vector<std::vector<std::uint16_t>>> cand;  // [switch][dst]
};

PerHostTable per_host_table(const Topology& topo, const std::vector<NodePorts>& ports) {
  constexpr std::uint32_t kInf = std::numeric_limits<std::uint32_t>::max();
  const std::uint32_t nodes = topo.nodes();
  PerHostTable t;
  t.dist.assign(std::size_t{topo.hosts} * nodes, kInf);
  std::vector<std::uint32_t> frontier, next;
  for (std::uint32_t dst = 0; dst < topo.hosts; ++dst) {
    std::uint32_t* d = &t.dist[std::size_t{dst} * nodes];
    d[dst] = 0;
    frontier.assign(1, dst);
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
  t.cand.resize(topo.switches);
  for (std::uint32_t s = 0; s < topo.switches; ++s) {
    const std::uint32_t node = topo.switch_node(s);
    t.cand[s].resize(topo.hosts);
    for (std::uint32_t dst = 0; dst < topo.hosts; ++dst) {
      const std::uint32_t* d = &t.dist[std::size_t{dst} * nodes];
      if (d[node] == kInf) continue;
      for (std::uint32_t p = 0; p < ports[node].peer.size(); ++p) {
        const std::uint32_t v = ports[node].peer[p];
        if (d[v] + 1 == d[node] && (v == dst || !topo.is_host(v)))
          t.cand[s][dst].push_back(static_cast<std::uint16_t>(p));
      }
    }
  }
  return t;
}

void expect_same(const Topology& topo) {
  const auto ports = node_ports_of(topo);
  const RoutingTable r(topo, ports);
  const PerHostTable ref = per_host_table(topo, ports);
  for (std::uint32_t dst = 0; dst < topo.hosts; ++dst) {
    for (std::uint32_t node = 0; node < topo.nodes(); ++node)
      ASSERT_EQ(r.hops(node, dst), ref.dist[std::size_t{dst} * topo.nodes() + node])
          << "node " << node << " dst " << dst;
    for (std::uint32_t s = 0; s < topo.switches; ++s) {
      std::uint32_t n = 0;
      const std::uint16_t* c = r.candidates(s, dst, n);
      ASSERT_EQ(std::vector<std::uint16_t>(c, c + n), ref.cand[s][dst]) << "switch " << s << " dst " << dst;
    }
  }
}

TEST(Routing, GroupedTableMatchesPerHostTableOnStandardShapes) {
  const LinkSpec l{};
  expect_same(make_star(5, l));
  expect_same(make_dumbbell(3, 4, l, l));
  expect_same(make_leaf_spine(6, 3, 4, l, l));
  expect_same(make_fat_tree_k(4, l, l));
  expect_same(make_fat_tree_k(8, l, l));
  expect_same(make_fat_tree(5, 4, 4, 16, 16, l, l));
}

TEST(Routing, GroupedTableMatchesPerHostTableOnIrregularGraphs) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    RngStream rng(seed, "routing_test");
    Topology t;
    t.hosts = 4 + static_cast<std::uint32_t>(rng.below(12));
    t.switches = 3 + static_cast<std::uint32_t>(rng.below(10));
    // Hosts on the first half of the switches (some switches carry none), random switch links with repeats
    // (parallel links), possibly leaving some switches apart.
    for (std::uint32_t h = 0; h < t.hosts; ++h)
      t.links.push_back(
          {h, t.switch_node(static_cast<std::uint32_t>(rng.below((t.switches + 1) / 2))), 1, 1});
    const std::uint32_t extra = t.switches + static_cast<std::uint32_t>(rng.below(2 * t.switches));
    for (std::uint32_t i = 0; i < extra; ++i) {
      const std::uint32_t a = static_cast<std::uint32_t>(rng.below(t.switches));
      const std::uint32_t b = static_cast<std::uint32_t>(rng.below(t.switches));
      if (a != b) t.links.push_back({t.switch_node(a), t.switch_node(b), 1, 1});
    }
    SCOPED_TRACE("seed " + std::to_string(seed));
    expect_same(t);
  }
}

TEST(Routing, TableStaysSmallOnLargeFatTrees) {
  const Topology t = make_fat_tree_k(16, {}, {});  // 1,024 hosts, 320 switches
  const RoutingTable r(t, node_ports_of(t));
  EXPECT_LT(r.bytes(), 2u << 20);  // the per-host table took ~11 MB
}

}  // namespace
}  // namespace lossless
