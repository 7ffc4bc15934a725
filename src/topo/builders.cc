#include "topo/topology.h"

namespace lossless {

Topology make_star(std::uint32_t hosts, LinkSpec host_link) {
  Topology t;
  t.hosts = hosts;
  t.switches = 1;
  for (std::uint32_t h = 0; h < hosts; ++h)
    t.links.push_back({h, t.switch_node(0), host_link.rate_bps, host_link.delay_ps});
  return t;
}

Topology make_dumbbell(std::uint32_t left, std::uint32_t right, LinkSpec host_link, LinkSpec core_link) {
  Topology t;
  t.hosts = left + right;
  t.switches = 2;
  for (std::uint32_t h = 0; h < t.hosts; ++h)
    t.links.push_back({h, t.switch_node(h < left ? 0 : 1), host_link.rate_bps, host_link.delay_ps});
  t.links.push_back({t.switch_node(0), t.switch_node(1), core_link.rate_bps, core_link.delay_ps});
  return t;
}

Topology make_leaf_spine(std::uint32_t leaves, std::uint32_t spines, std::uint32_t hosts_per_leaf,
                         LinkSpec host_link, LinkSpec fabric_link) {
  Topology t;
  t.hosts = leaves * hosts_per_leaf;
  t.switches = leaves + spines;
  for (std::uint32_t h = 0; h < t.hosts; ++h)
    t.links.push_back({h, t.switch_node(h / hosts_per_leaf), host_link.rate_bps, host_link.delay_ps});
  for (std::uint32_t l = 0; l < leaves; ++l)
    for (std::uint32_t s = 0; s < spines; ++s)
      t.links.push_back(
          {t.switch_node(l), t.switch_node(leaves + s), fabric_link.rate_bps, fabric_link.delay_ps});
  return t;
}

Topology make_fat_tree(std::uint32_t pods, std::uint32_t tors_per_pod, std::uint32_t aggs_per_pod,
                       std::uint32_t cores, std::uint32_t hosts_per_tor, LinkSpec host_link,
                       LinkSpec fabric_link) {
  Topology t;
  std::uint32_t tors = pods * tors_per_pod;
  std::uint32_t aggs = pods * aggs_per_pod;
  t.hosts = tors * hosts_per_tor;
  t.switches = tors + aggs + cores;
  auto tor = [&](std::uint32_t i) { return t.switch_node(i); };
  auto agg = [&](std::uint32_t i) { return t.switch_node(tors + i); };
  auto core = [&](std::uint32_t i) { return t.switch_node(tors + aggs + i); };
  for (std::uint32_t h = 0; h < t.hosts; ++h)
    t.links.push_back({h, tor(h / hosts_per_tor), host_link.rate_bps, host_link.delay_ps});
  for (std::uint32_t p = 0; p < pods; ++p)
    for (std::uint32_t r = 0; r < tors_per_pod; ++r)
      for (std::uint32_t a = 0; a < aggs_per_pod; ++a)
        t.links.push_back({tor(p * tors_per_pod + r), agg(p * aggs_per_pod + a), fabric_link.rate_bps,
                           fabric_link.delay_ps});
  // Each agg position j owns an equal slice of the cores (the HPCC fat tree's wiring).
  for (std::uint32_t p = 0; p < pods; ++p)
    for (std::uint32_t a = 0; a < aggs_per_pod; ++a) {
      std::uint32_t lo = a * cores / aggs_per_pod;
      std::uint32_t hi = (a + 1) * cores / aggs_per_pod;
      if (hi == lo) hi = lo + 1;
      for (std::uint32_t c = lo; c < hi && c < cores; ++c)
        t.links.push_back({agg(p * aggs_per_pod + a), core(c), fabric_link.rate_bps, fabric_link.delay_ps});
    }
  return t;
}

Topology make_fat_tree_k(std::uint32_t k, LinkSpec host_link, LinkSpec fabric_link) {
  return make_fat_tree(k, k / 2, k / 2, (k / 2) * (k / 2), k / 2, host_link, fabric_link);
}

}  // namespace lossless
