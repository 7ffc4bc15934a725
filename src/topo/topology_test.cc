#include "topo/topology.h"

#include <gtest/gtest.h>

#include "core/error.h"
#include "topo/partitioning.h"
#include "topo/routing.h"

namespace lossless {
namespace {

TEST(Topology, HpccFatTreeExplicitForm) {
  Topology t = make_fat_tree(5, 4, 4, 16, 16, {100'000'000'000, kPsPerUs}, {400'000'000'000, kPsPerUs});
  EXPECT_EQ(t.hosts, 320u);
  EXPECT_EQ(t.switches, 56u);
  EXPECT_EQ(t.links.size(), 480u);
  check_topology(t, "t", "");
  RoutingTable r(t, node_ports_of(t));
  EXPECT_EQ(r.hops(0, 1), 2u);    // same ToR
  EXPECT_EQ(r.hops(0, 16), 4u);   // same pod
  EXPECT_EQ(r.hops(0, 300), 6u);  // across the core
  std::uint32_t n = 0;
  r.candidates(0, 300, n);  // ToR 0 toward another pod: any of its 4 aggs
  EXPECT_EQ(n, 4u);
}

TEST(Topology, KaryFatTree) {
  Topology t = make_fat_tree_k(8, {}, {});
  EXPECT_EQ(t.hosts, 128u);
  EXPECT_EQ(t.switches, 80u);
  Topology t16 = make_fat_tree_k(16, {}, {});
  EXPECT_EQ(t16.hosts, 1024u);
  EXPECT_EQ(t16.switches, 320u);
}

TEST(Topology, ChecksStructure) {
  Topology t;
  t.hosts = 2;
  t.switches = 2;
  t.links = {{0, 2, 1, 0}, {1, 3, 1, 0}};
  EXPECT_THROW(check_topology(t, "f", "topology"), ConfigError);
  t.links.push_back({2, 3, 1, 0});
  EXPECT_NO_THROW(check_topology(t, "f", "topology"));
  t.links.push_back({0, 3, 1, 0});
  EXPECT_THROW(check_topology(t, "f", "topology"), ConfigError);  // host with two links
}

TEST(Topology, EcmpSpreadsFlowsAcrossCandidates) {
  std::vector<int> hits(4, 0);
  for (std::uint32_t h = 0; h < 4000; ++h) ++hits[ecmp_pick(static_cast<std::uint32_t>(mix64(h)), 12345, 4)];
  for (int c : hits) EXPECT_NEAR(c, 1000, 150);
}

}  // namespace
}  // namespace lossless

namespace lossless {
namespace {

TEST(Partitioning, FatTreeSplitsEveryTierEvenlyAndKeepsToRsWithTheirHosts) {
  const Topology t = make_fat_tree(5, 4, 4, 16, 16, {100'000'000'000, kPsPerUs}, {400'000'000'000, kPsPerUs});
  const auto part = split_nodes(t, 2);
  ASSERT_EQ(part.size(), t.nodes());
  // Hosts in two contiguous halves.
  for (std::uint32_t h = 0; h < t.hosts; ++h) EXPECT_EQ(part[h], h < t.hosts / 2 ? 0 : 1) << h;
  // Every host shares its ToR's partition.
  for (const TopoLink& l : t.links)
    if (t.is_host(l.a) != t.is_host(l.b)) {
      EXPECT_EQ(part[l.a], part[l.b]);
    }
  // ToRs (20), aggregation (20) and core (16) switches: half of each tier per partition.
  auto count = [&](std::uint32_t first_switch, std::uint32_t n) {
    std::uint32_t in_one = 0;
    for (std::uint32_t s = first_switch; s < first_switch + n; ++s) in_one += part[t.switch_node(s)];
    return in_one;
  };
  EXPECT_EQ(count(0, 20), 10u);
  EXPECT_EQ(count(20, 20), 10u);
  EXPECT_EQ(count(40, 16), 8u);
}

TEST(Partitioning, OnePartOrNoLinksKeepsEverythingTogether) {
  const Topology t = make_star(4, {100'000'000'000, kPsPerUs});
  for (auto p : split_nodes(t, 1)) EXPECT_EQ(p, 0);
  EXPECT_EQ(min_link_delay(t), kPsPerUs);
  Topology mixed = make_dumbbell(2, 2, {100'000'000'000, 2 * kPsPerUs}, {100'000'000'000, 500 * kPsPerNs});
  EXPECT_EQ(min_link_delay(mixed), 500 * kPsPerNs);
}

}  // namespace
}  // namespace lossless

namespace lossless {
namespace {

// Over ranks (groups of partitions), a fat tree is split into whole pods: every link that crosses between
// ranks goes to a core switch, and each rank gets its share of hosts and switches.
TEST(Partitioning, RanksTakeWholePodsOfAFatTree) {
  const Topology t = make_fat_tree_k(8, {100'000'000'000, kPsPerUs}, {400'000'000'000, kPsPerUs});
  for (const auto& [ranks, threads] : {std::pair{2u, 1u}, std::pair{4u, 2u}}) {
    const std::vector<std::uint8_t> part = split_nodes(t, ranks * threads, ranks);
    auto rank_of = [&](std::uint32_t node) { return part[node] / threads; };
    std::vector<std::uint32_t> hosts(ranks, 0), switches(ranks, 0);
    for (std::uint32_t n = 0; n < t.nodes(); ++n) ++(t.is_host(n) ? hosts : switches)[rank_of(n)];
    for (std::uint32_t r = 0; r < ranks; ++r) {
      EXPECT_EQ(hosts[r], t.hosts / ranks) << ranks << " ranks, rank " << r;
      EXPECT_EQ(switches[r], t.switches / ranks) << ranks << " ranks, rank " << r;
    }
    // Core switches: the last k^2/4 = 16 switches of make_fat_tree_k (tier 3). Only links to them cross.
    std::uint32_t crossing = 0;
    for (const TopoLink& l : t.links) {
      if (rank_of(l.a) == rank_of(l.b)) continue;
      ++crossing;
      const std::uint32_t sw = std::max(l.a, l.b) - t.hosts;
      EXPECT_GE(sw, t.switches - 16) << "a link below the core crosses ranks: " << l.a << "-" << l.b;
    }
    EXPECT_GT(crossing, 0u);
  }
}

}  // namespace
}  // namespace lossless
