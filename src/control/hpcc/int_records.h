// HPCC's in-band telemetry: every switch stamps a record into each data packet leaving a data-priority queue
// (the records and the stamping: net/int_stamp.h), echoed back by the ACK. Only HPCC runs carry them: other
// schemes pay nothing.
#pragma once
#include <cstdint>
#include <vector>

#include "core/simulator.h"
#include "net/int_stamp.h"
#include "net/switch_mechanism.h"

namespace lossless {

class Switch;
class Network;
struct HpccParams;

// The packet grows by nic.int_hop_size on the wire per record. The switch compiles the stamping into its
// packet path when it is the switch's only dequeue hook (kStampsInt); on_dequeue does the same otherwise.
class IntStamper final : public SwitchMechanism {
 public:
  IntStamper(const HpccParams&, Switch& sw, Network& net);
  unsigned packet_hooks() const override { return kOnDequeue | kStampsInt; }
  const IntStamping* int_stamping() const override { return &stamp_; }
  void on_dequeue(const Port& egress, Packet& p) override { stamp_int(stamp_, egress, p, sim_.now()); }

 private:
  Simulator& sim_;
  std::vector<std::uint64_t> rate_tags_;  // by port: its rate's index, shifted into place
  IntStamping stamp_;
};

}  // namespace lossless
