// Registration helper for switch-side schemes: one LOSSLESS_REGISTER_MECHANISM line per scheme.
#pragma once
#include "control/scheme_entry.h"
#include "net/switch_mechanism.h"

namespace lossless {

// Mechanism(const Params&, Switch&, Network&) per switch. A mechanism that only works on one switch
// architecture names it: `static constexpr const char* kRequiredArchitecture = "voq";`.
template <class Params, class Mechanism>
class MechanismFactoryOf final : public MechanismFactory {
 public:
  explicit MechanismFactoryOf(const Params& p) : p_(p) {}
  std::unique_ptr<SwitchMechanism> create(Switch& sw, Network& net) const override {
    return std::make_unique<Mechanism>(p_, sw, net);
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

#define LOSSLESS_REGISTER_MECHANISM(Params, Mechanism, name, summary)                  \
  static const bool LOSSLESS_CONCAT(kRegisteredMechanism, __LINE__) [[maybe_unused]] = \
      ::lossless::MechanismRegistry::add(                                              \
          ::lossless::make_scheme_entry<::lossless::MechanismFactory, Params,          \
                                        ::lossless::MechanismFactoryOf<Params, Mechanism>>(name, summary))

}  // namespace lossless
