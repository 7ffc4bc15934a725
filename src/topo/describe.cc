#include "topo/describe.h"

#include <vector>

#include "core/units.h"

namespace lossless {

bool describe_topology(const Topology& topo, std::ostream& os, const std::string& only) {
  struct PortEnd {
    std::uint32_t peer, peer_port;
    const TopoLink* link;
  };
  std::vector<std::vector<PortEnd>> ports(topo.nodes());
  // Both ends of a link get their next port number, end a first (as the fabric numbers them).
  for (const TopoLink& l : topo.links) {
    const auto pa = static_cast<std::uint32_t>(ports[l.a].size());
    const auto pb = static_cast<std::uint32_t>(ports[l.b].size()) + (l.a == l.b ? 1 : 0);
    ports[l.a].push_back({l.b, pb, &l});
    ports[l.b].push_back({l.a, pa, &l});
  }
  bool found = only.empty();
  std::size_t width = 0;
  for (std::uint32_t n = 0; n < topo.nodes(); ++n)
    for (std::uint32_t p = 0; p < ports[n].size(); ++p)
      width = std::max(width, (topo.node_name(n) + ":" + std::to_string(p)).size());
  for (std::uint32_t n = 0; n < topo.nodes(); ++n) {
    const std::string name = topo.node_name(n);
    if (!only.empty() && name != only) continue;
    found = true;
    for (std::uint32_t p = 0; p < ports[n].size(); ++p) {
      const PortEnd& e = ports[n][p];
      const std::string here = name + ":" + std::to_string(p);
      const std::string there = topo.node_name(e.peer) + ":" + std::to_string(e.peer_port);
      os << here << std::string(width - here.size() + 2, ' ') << "->  " << there
         << std::string(width - there.size() + 2, ' ') << format_rate(e.link->rate_bps) << ' '
         << format_time(e.link->delay_ps);
      if (!topo.external_id.empty())
        os << "   (file ids " << topo.external(n) << " -> " << topo.external(e.peer) << ")";
      os << '\n';
    }
  }
  return found;
}

}  // namespace lossless
