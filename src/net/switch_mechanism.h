// The switch-side hook (congestion point): one instance per switch, created by the scheme named in
// `switch.mechanism`. A mechanism sees its switch's ports and queues, runs its own timers, and sends feedback
// packets to the sources of flows (Switch::send_feedback): real packets, routed back at priority 0.
#pragma once
#include <cstdio>
#include <memory>

#include "core/scheme_registry.h"

namespace lossless {

class Switch;
class Network;
class YamlMap;

class SwitchMechanism {
 public:
  virtual ~SwitchMechanism() = default;
  // Called once the fabric is built, before any flow starts.
  virtual void start() {}
  // Appends the scheme's own trace rows (if it keeps any) to `out`, a CSV the runner opened.
  virtual void write_trace(std::FILE* out) const { (void)out; }
  // The header of that CSV, or null when the scheme writes none; its file is <scheme>.csv.
  virtual const char* trace_header() const { return nullptr; }
};

class MechanismFactory {
 public:
  virtual ~MechanismFactory() = default;
  virtual std::unique_ptr<SwitchMechanism> create(Switch& sw, Network& net) const = 0;
};

using MechanismScheme = SchemeEntry<MechanismFactory>;
using MechanismRegistry = SchemeRegistry<MechanismScheme>;

}  // namespace lossless
