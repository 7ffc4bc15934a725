#include "topo/routing.h"

#include <map>

#include "core/error.h"

namespace lossless {

std::vector<NodePorts> node_ports_of(const Topology& topo) {
  std::vector<NodePorts> p(topo.nodes());
  for (std::uint32_t i = 0; i < topo.links.size(); ++i) {
    const TopoLink& l = topo.links[i];
    p[l.a].peer.push_back(l.b);
    p[l.a].link.push_back(i);
    p[l.b].peer.push_back(l.a);
    p[l.b].link.push_back(i);
  }
  return p;
}

std::vector<std::uint32_t> first_port_of_nodes(const Topology& topo) {
  std::vector<std::uint32_t> first(topo.nodes() + 1, 0);
  for (const TopoLink& l : topo.links) {
    ++first[l.a + 1];
    ++first[l.b + 1];
  }
  for (std::uint32_t n = 0; n < topo.nodes(); ++n) first[n + 1] += first[n];
  return first;
}

RoutingTable::RoutingTable(const Topology& topo, const std::vector<NodePorts>& ports)
    : hosts_(topo.hosts), switches_(topo.switches) {
  constexpr std::uint32_t kInf = kUnreachable;
  attach_.assign(hosts_, kInf);
  attach_port_.assign(hosts_, 0);
  group_.assign(hosts_, 0);
  std::vector<std::uint32_t> group_of_switch(switches_, kInf);
  std::vector<std::uint32_t> group_switch;  // group -> its switch
  for (std::uint32_t h = 0; h < hosts_; ++h) {
    LOSSLESS_CHECK(ports[h].peer.size() == 1 && !topo.is_host(ports[h].peer[0]),
                   "every host has one link, to a switch");
    const std::uint32_t s = ports[h].peer[0] - hosts_;
    attach_[h] = s;
    const NodePorts& sp = ports[topo.switch_node(s)];
    std::uint32_t p = 0;
    while (sp.peer[p] != h) ++p;
    attach_port_[h] = static_cast<std::uint16_t>(p);
    if (group_of_switch[s] == kInf) {
      group_of_switch[s] = static_cast<std::uint32_t>(group_switch.size());
      group_switch.push_back(s);
    }
    group_[h] = group_of_switch[s];
  }
  groups_ = static_cast<std::uint32_t>(group_switch.size());

  // Hop distances from each group's switch over switches only (hosts other than the destination never
  // forward), plus the last hop to the host.
  dist_.assign(std::size_t{groups_} * switches_, kInf);
  std::vector<std::uint32_t> frontier, next;
  for (std::uint32_t g = 0; g < groups_; ++g) {
    std::uint32_t* d = &dist_[std::size_t{g} * switches_];
    d[group_switch[g]] = 1;
    frontier.assign(1, group_switch[g]);
    for (std::uint32_t level = 2; !frontier.empty(); ++level) {
      next.clear();
      for (const std::uint32_t u : frontier)
        for (const std::uint32_t v : ports[topo.switch_node(u)].peer)
          if (!topo.is_host(v) && d[v - hosts_] == kInf) {
            d[v - hosts_] = level;
            next.push_back(v - hosts_);
          }
      frontier.swap(next);
    }
  }

  // Candidate lists, each distinct list stored once.
  std::map<std::vector<std::uint16_t>, std::uint32_t> lists;
  list_start_.push_back(0);
  auto intern = [&](const std::vector<std::uint16_t>& l) {
    auto [it, fresh] = lists.try_emplace(l, static_cast<std::uint32_t>(list_start_.size() - 1));
    if (fresh) {
      ports_.insert(ports_.end(), l.begin(), l.end());
      list_start_.push_back(static_cast<std::uint32_t>(ports_.size()));
    }
    return it->second;
  };
  const std::uint32_t empty = intern({});
  rows_.assign(std::size_t{switches_} * groups_, empty);
  std::vector<std::uint16_t> cand;
  for (std::uint32_t s = 0; s < switches_; ++s) {
    const NodePorts& sp = ports[topo.switch_node(s)];
    for (std::uint32_t g = 0; g < groups_; ++g) {
      const std::uint32_t* d = &dist_[std::size_t{g} * switches_];
      if (group_switch[g] == s || d[s] == kInf) continue;  // the group's own switch: the host's port
      cand.clear();
      for (std::uint32_t p = 0; p < sp.peer.size(); ++p) {
        const std::uint32_t v = sp.peer[p];
        if (!topo.is_host(v) && d[v - hosts_] + 1 == d[s]) cand.push_back(static_cast<std::uint16_t>(p));
      }
      rows_[std::size_t{s} * groups_ + g] = intern(cand);
    }
  }
}

std::size_t RoutingTable::bytes() const {
  return attach_.size() * sizeof(std::uint32_t) + attach_port_.size() * sizeof(std::uint16_t) +
         group_.size() * sizeof(std::uint32_t) + rows_.size() * sizeof(std::uint32_t) +
         list_start_.size() * sizeof(std::uint32_t) + ports_.size() * sizeof(std::uint16_t) +
         dist_.size() * sizeof(std::uint32_t);
}

}  // namespace lossless
