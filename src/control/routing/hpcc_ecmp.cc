// The HPCC simulator's ECMP (alibaba-edu/High-Precision-Congestion-Control, SwitchNode::GetOutDev), so that
// `lossless hpcc` puts every flow on the path the simulator gives it: a 32-bit MurmurHash3 of (source IP,
// destination IP, source port | destination port << 16), seeded with the switch's node id, modulo the number
// of next hops, over the next hops in the order the simulator's routing set-up (third.cc, CalculateRoute)
// lists them. Checked against the simulator's per-hop trace of 65 flows on the 320-host fat tree, data and
// ACK paths (tests/hpcc_ecmp_test.cc).
#include <algorithm>
#include <unordered_map>
#include <vector>

#include "control/switch_schemes.h"
#include "net/network.h"

namespace lossless {
namespace {

std::uint32_t rotl32(std::uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

// MurmurHash3 (x86, 32 bit) of three 32-bit words, as SwitchNode::EcmpHash computes it on a 12-byte key.
std::uint32_t murmur3_words(const std::uint32_t (&key)[3], std::uint32_t seed) {
  std::uint32_t h = seed;
  for (std::uint32_t k : key) {
    k *= 0xcc9e2d51u;
    k = rotl32(k, 15);
    k *= 0x1b873593u;
    h ^= k;
    h = rotl32(h, 13);
    h = h * 5 + 0xe6546b64u;
  }
  h ^= 12u;
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

class HpccEcmpRouting final : public RoutingPolicy {
 public:
  HpccEcmpRouting(const NoParams&, SwitchId sw, Network& net) : net_(net), node_(sw.node) {}
  bool per_flow() const override { return true; }
  // No flow: the first of the ordered candidates, whose order depends on the destination's switch only.
  bool nominal_by_switches() const override { return true; }

  std::uint16_t choose(const Packet& p, const std::uint16_t* candidates, std::uint32_t n) override {
    const std::uint16_t* ordered = in_simulator_order(p.dst, candidates, n);
    // A path of no flow (the largest base RTT over host pairs): every shortest path is as long.
    if (p.flow_id == Network::kNoFlow) return ordered[0];
    const Flow& f = net_.flow(p.flow_id);
    const std::uint16_t sport = simulator_sport(p.flow_id);
    // Data carries (sport, dport); the receiver's ACK/NACK/CNP swaps them (RdmaHw::ReceiveUdp).
    const bool data = p.src == f.src;
    const std::uint32_t ports =
        data ? sport | std::uint32_t{f.dport} << 16 : f.dport | std::uint32_t{sport} << 16;
    const std::uint32_t key[3] = {hpcc_node_ip(external(p.src)), hpcc_node_ip(external(p.dst)), ports};
    return ordered[murmur3_words(key, external(node_)) % n];
  }

 private:
  std::uint32_t external(std::uint32_t node) const { return net_.topology().external(node); }

  // The simulator numbers a flow's source port per (source, destination) pair from 10000, in flow-file order
  // (third.cc, portNumder).
  std::uint16_t simulator_sport(std::uint32_t flow_id) {
    if (sport_.empty()) {
      const auto& flows = net_.flows();
      sport_.resize(flows.size());
      std::unordered_map<std::uint64_t, std::uint16_t> next;
      next.reserve(flows.size());
      for (const Flow& f : flows) {
        auto [it, fresh] = next.try_emplace(std::uint64_t{f.src} << 32 | f.dst, std::uint16_t{10000});
        sport_[f.id] = it->second++;
      }
    }
    return sport_[flow_id];
  }

  // The simulator lists a switch's next hops toward `dst` in the order a breadth-first search from `dst`
  // reaches them, visiting each node's neighbours in the order of its neighbour map, keyed by object address:
  // hosts (small objects, ascending heap addresses) before switches, and switches (each several MB, mapped
  // one below the other) by descending id. Only switches are searched through.
  //
  // The destination's only neighbour is its switch, so the search from any host of that switch reaches the
  // switches in one order, and the candidates (n >= 2: not at that switch) are one list: one entry per
  // destination switch.
  const std::uint16_t* in_simulator_order(std::uint32_t dst, const std::uint16_t* candidates,
                                          std::uint32_t n) {
    const std::uint32_t key = net_.routes().attachment(dst);
    auto it = order_.find(key);
    if (it != order_.end()) return it->second.data();
    const Topology& t = net_.topology();
    if (neighbours_.empty()) {
      neighbours_.resize(t.nodes());
      for (const TopoLink& l : t.links) {
        neighbours_[l.a].push_back(l.b);
        neighbours_[l.b].push_back(l.a);
      }
      for (auto& v : neighbours_)
        std::sort(v.begin(), v.end(), [&](std::uint32_t a, std::uint32_t b) {
          if (t.is_host(a) != t.is_host(b)) return t.is_host(a);
          return t.is_host(a) ? external(a) < external(b) : external(a) > external(b);
        });
    }
    std::vector<std::uint32_t> rank(t.nodes(), ~std::uint32_t{0});
    std::vector<std::uint32_t> queue{dst};
    rank[dst] = 0;
    for (std::size_t i = 0; i < queue.size(); ++i)
      for (std::uint32_t next : neighbours_[queue[i]])
        if (rank[next] == ~std::uint32_t{0} && !t.is_host(next)) {
          rank[next] = static_cast<std::uint32_t>(queue.size());
          queue.push_back(next);
        }
    std::vector<std::uint16_t> v(candidates, candidates + n);
    std::stable_sort(v.begin(), v.end(), [&](std::uint16_t a, std::uint16_t b) {
      return rank[net_.peer_node(node_, a)] < rank[net_.peer_node(node_, b)];
    });
    return order_.emplace(key, std::move(v)).first->second.data();
  }

  const Network& net_;
  std::uint32_t node_;
  std::vector<std::uint16_t> sport_;
  std::vector<std::vector<std::uint32_t>> neighbours_;
  std::unordered_map<std::uint32_t, std::vector<std::uint16_t>> order_;
};

}  // namespace

LOSSLESS_REGISTER_ROUTING(NoParams, HpccEcmpRouting, "hpcc_ecmp",
                          "the HPCC simulator's ECMP: MurmurHash3 of (IPs, ports) seeded by switch id");

}  // namespace lossless
