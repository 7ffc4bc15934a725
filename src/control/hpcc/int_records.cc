#include "control/hpcc/int_records.h"

#include "net/network.h"

namespace lossless {

IntStamper::IntStamper(const HpccParams&, Switch& sw, Network& net)
    : sim_(sw.sim()),
      stamp_{net.slots().bind(kIntRecords), static_cast<std::uint32_t>(net.nic_config().int_hop_bytes)} {}

}  // namespace lossless
