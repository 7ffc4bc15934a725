// What every scheme's factory tells the substrate besides building the scheme's parts: the name it is
// registered under and the packet slots its parts use (net/packet_slot.h). The factories of congestion
// controls, switch mechanisms, marking schemes, flow-control policies, routing policies and architectures
// all derive from it, so any of them can own slots.
#pragma once
#include <string>
#include <utility>

#include "net/packet_slot.h"

namespace lossless {

class SchemeFactory {
 public:
  virtual ~SchemeFactory() = default;
  // The slots the scheme's parts bind (its registration's `kSlots`); the run lays them out at start-up.
  virtual SlotList slots() const { return {}; }
  // The registered name ("hpcc"); set by the registry entry that made the factory (empty for one a test
  // builds by hand).
  const std::string& scheme_name() const { return scheme_name_; }
  void set_scheme_name(std::string name) { scheme_name_ = std::move(name); }

 private:
  std::string scheme_name_;
};

}  // namespace lossless
