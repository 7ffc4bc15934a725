// ECMP: each switch hashes a flow's 5-tuple with its own seed over the shortest-path next hops, so every
// packet of a flow takes one path (computed once per flow and carried by its packets).
#include "control/switch_schemes.h"
#include "net/network.h"
#include "topo/routing.h"

namespace lossless {
namespace {

class EcmpRouting final : public RoutingPolicy {
 public:
  EcmpRouting(const NoParams&, SwitchId sw, Network& net) : seed_(switch_ecmp_seed(net.seed(), sw.index)) {}
  bool per_flow() const override { return true; }
  bool nominal_by_switches() const override { return true; }  // the hash and the candidates only
  std::uint16_t choose(const Packet& p, const std::uint16_t* candidates, std::uint32_t n) override {
    return candidates[ecmp_pick(p.ecmp_hash, seed_, n)];
  }

 private:
  std::uint64_t seed_;
};

}  // namespace

LOSSLESS_REGISTER_ROUTING(NoParams, EcmpRouting, "ecmp",
                          "per-switch-seeded 5-tuple hash over shortest paths (one path per flow)");

}  // namespace lossless
