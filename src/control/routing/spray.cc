// Packet spraying: every packet picks a shortest-path next hop at random, from the switch's random stream.
#include "control/switch_schemes.h"
#include "net/network.h"

namespace lossless {
namespace {

class SprayRouting final : public RoutingPolicy {
 public:
  static constexpr bool kReorders = true;
  SprayRouting(const NoParams&, Switch& sw, Network&) : rng_(sw.rng()) {}
  std::uint16_t choose(const Packet&, const std::uint16_t* candidates, std::uint32_t n) override {
    return candidates[rng_.below(n)];
  }

 private:
  RngStream& rng_;
};

}  // namespace

LOSSLESS_REGISTER_ROUTING(NoParams, SprayRouting, "spray", "a random shortest-path next hop per packet");

}  // namespace lossless
