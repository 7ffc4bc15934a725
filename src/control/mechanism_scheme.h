// Registration helper for switch-side schemes: one LOSSLESS_REGISTER_MECHANISM line per scheme.
#pragma once
#include <concepts>

#include "control/scheme_entry.h"
#include "net/switch_mechanism.h"

namespace lossless {

// Mechanism(const Params&, Switch&, Network&) per switch. A mechanism that only works on one switch
// architecture names it: `static constexpr const char* kRequiredArchitecture = "voq";`; one that carries
// packet fields lists its slots: `static constexpr const SlotSpec* kSlots[] = {...};` (net/packet_slot.h).
template <class Params, class Mechanism>
class MechanismFactoryOf final : public MechanismFactory {
 public:
  explicit MechanismFactoryOf(const Params& p) : p_(p) {}
  std::unique_ptr<SwitchMechanism> create(Switch& sw, Network& net) const override {
    return std::make_unique<Mechanism>(p_, sw, net);
  }
  SlotList slots() const override { return slots_of<Mechanism>(); }
  // Params may give `MechanismHints hints() const` (a congestion-control scheme's own Params, used for its
  // switch part, give SubstrateHints instead: those are the scheme's).
  MechanismHints hints() const override {
    if constexpr (requires(const Params& p) {
                    { p.hints() } -> std::same_as<MechanismHints>;
                  }) {
      return p_.hints();
    } else {
      return {};
    }
  }
  const char* required_architecture() const override {
    if constexpr (requires { Mechanism::kRequiredArchitecture; }) {
      return Mechanism::kRequiredArchitecture;
    } else {
      return nullptr;
    }
  }

 private:
  Params p_;
};

// Mechanism(const Params&, Switch&, Network&) per switch, selected by switch.ecn.marking.
template <class Params, class Mechanism>
class MarkingFactoryOf final : public MarkingFactory {
 public:
  explicit MarkingFactoryOf(const Params& p) : p_(p) {}
  std::unique_ptr<SwitchMechanism> create(Switch& sw, Network& net) const override {
    return std::make_unique<Mechanism>(p_, sw, net);
  }
  SlotList slots() const override { return slots_of<Mechanism>(); }

 private:
  Params p_;
};

#define LOSSLESS_REGISTER_MARKING(Params, Mechanism, name, summary)                  \
  static const bool LOSSLESS_CONCAT(kRegisteredMarking, __LINE__) [[maybe_unused]] = \
      ::lossless::MarkingRegistry::add(                                              \
          ::lossless::make_scheme_entry<::lossless::MarkingFactory, Params,          \
                                        ::lossless::MarkingFactoryOf<Params, Mechanism>>(name, summary))

#define LOSSLESS_REGISTER_MECHANISM(Params, Mechanism, name, summary)                  \
  static const bool LOSSLESS_CONCAT(kRegisteredMechanism, __LINE__) [[maybe_unused]] = \
      ::lossless::MechanismRegistry::add(                                              \
          ::lossless::make_scheme_entry<::lossless::MechanismFactory, Params,          \
                                        ::lossless::MechanismFactoryOf<Params, Mechanism>>(name, summary))

}  // namespace lossless
