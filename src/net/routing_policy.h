// The routing hook of a switch (`switch.routing`, or a mechanism's own): which of the shortest-path next hops
// a packet takes. ECMP and packet spraying are the first two policies; adaptive routing is another.
#pragma once
#include <cstdint>
#include <memory>

#include "core/scheme_registry.h"
#include "net/packet.h"
#include "net/scheme_factory.h"

namespace lossless {

class Switch;
class Network;

class RoutingPolicy {
 public:
  virtual ~RoutingPolicy() = default;
  // True when every packet of a flow takes the same path, the one `choose` gives for the flow's first packet:
  // the network then computes each flow's path once, at flow set-up, and its packets carry it, so switches
  // decide nothing per packet. False: `choose` runs for every packet at every switch.
  virtual bool per_flow() const { return false; }
  // True when `choose`, for a packet of no flow (flow_id Network::kNoFlow, ecmp_hash 0), reads neither the
  // packet's source nor its destination beyond the switch the destination hangs off: the network then finds
  // the largest base RTT over host pairs from one pair per (source switch, destination switch, host links).
  virtual bool nominal_by_switches() const { return false; }
  // The egress port among the shortest-path candidates toward `p.dst` (n >= 2). `p` carries the flow's
  // 5-tuple hash (ecmp_hash), its id and kind.
  virtual std::uint16_t choose(const Packet& p, const std::uint16_t* candidates, std::uint32_t n) = 0;
};

// Which switch a router serves, for routers that need nothing else of it.
struct SwitchId {
  std::uint32_t index;  // among switches
  std::uint32_t node;   // global node id
};

class RoutingFactory : public SchemeFactory {
 public:
  virtual ~RoutingFactory() = default;
  virtual std::unique_ptr<RoutingPolicy> create(Switch& sw, Network& net) const = 0;
  // A router that only computes flows' paths at set-up, for a switch another process builds (a run over
  // several ranks, net/network.h): it must choose as the switch's own router would. Null when the policy
  // needs its switch (then its paths cannot be computed elsewhere).
  virtual std::unique_ptr<RoutingPolicy> create_for_paths(SwitchId sw, Network& net) const {
    (void)sw, (void)net;
    return nullptr;
  }
  // True when packets of one flow may take different paths and so arrive out of order (spraying).
  virtual bool reorders() const { return false; }
};

using RoutingScheme = SchemeEntry<RoutingFactory>;
using RoutingRegistry = SchemeRegistry<RoutingScheme>;

}  // namespace lossless
