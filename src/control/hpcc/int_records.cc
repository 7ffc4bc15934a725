#include "control/hpcc/int_records.h"

#include <string>

#include "core/error.h"
#include "net/network.h"

namespace lossless {

namespace {

std::vector<std::uint64_t> rate_tags_of(const Switch& sw, const LinkRates& rates) {
  if (rates.size() > LinkRates::kMaxRates)
    throw ConfigError("", "topology",
                      "HPCC's INT records name a link's rate by a 16-bit index: the topology has " +
                          std::to_string(rates.size()) + " distinct link rates (at most " +
                          std::to_string(LinkRates::kMaxRates) + ")");
  std::vector<std::uint64_t> tags;
  for (const Port& port : sw.ports) {
    const std::size_t index = rates.index_of(port.rate_bps());
    LOSSLESS_CHECK(index < rates.size(), "a switch port's rate is not one of the topology's link rates");
    tags.push_back(static_cast<std::uint64_t>(index) << IntHop::kRateShift);
  }
  return tags;
}

}  // namespace

IntStamper::IntStamper(const HpccParams&, Switch& sw, Network& net)
    : sim_(sw.sim()),
      rate_tags_(rate_tags_of(sw, net.link_rates())),
      stamp_{net.slots().bind(kIntRecords), static_cast<std::uint32_t>(net.nic_config().int_hop_bytes),
             rate_tags_.data()} {}

}  // namespace lossless
