// The switch-side hook (congestion point): one instance per switch, created by the scheme named in
// `switch.mechanism`. A mechanism sees its switch's ports and queues, runs its own timers, and sends feedback
// packets to the sources of flows (Switch::send_feedback): real packets, routed back at priority 0.
#pragma once
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace lossless {

class Switch;
class Network;
class YamlMap;

class SwitchMechanism {
 public:
  virtual ~SwitchMechanism() = default;
  // Called once the fabric is built, before any flow starts.
  virtual void start() {}
};

class MechanismFactory {
 public:
  virtual ~MechanismFactory() = default;
  virtual std::unique_ptr<SwitchMechanism> create(Switch& sw, Network& net) const = 0;
};

struct MechanismScheme {
  std::string name;
  std::string summary;
  std::function<std::unique_ptr<MechanismFactory>(YamlMap& params)> make;
  std::function<void(std::ostream&)> print_params;
};

class MechanismRegistry {
 public:
  static bool add(MechanismScheme scheme);
  static const MechanismScheme* find(const std::string& name);
  static const std::vector<MechanismScheme>& all();
};

}  // namespace lossless
