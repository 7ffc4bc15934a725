// Registration helper for switch-side schemes: one LOSSLESS_REGISTER_MECHANISM line per scheme.
#pragma once
#include "control/cc_scheme.h"
#include "net/switch_mechanism.h"

namespace lossless {

// Mechanism(const Params&, Switch&, Network&) per switch.
template <class Params, class Mechanism>
class MechanismFactoryOf final : public MechanismFactory {
 public:
  explicit MechanismFactoryOf(const Params& p) : p_(p) {}
  std::unique_ptr<SwitchMechanism> create(Switch& sw, Network& net) const override {
    return std::make_unique<Mechanism>(p_, sw, net);
  }

 private:
  Params p_;
};

template <class Params, class Mechanism>
MechanismScheme make_mechanism_scheme(const char* name, const char* summary) {
  MechanismScheme s;
  s.name = name;
  s.summary = summary;
  s.make = [](YamlMap& m) -> std::unique_ptr<MechanismFactory> {
    Params p{};
    YamlParamVisitor v(m);
    p.visit(v);
    m.finish();
    return std::make_unique<MechanismFactoryOf<Params, Mechanism>>(p);
  };
  s.print_params = [](std::ostream& os) {
    Params p{};
    ParamPrinter printer(os);
    p.visit(printer);
  };
  return s;
}

#define LOSSLESS_REGISTER_MECHANISM(Params, Mechanism, name, summary)                     \
  static const bool LOSSLESS_CC_CONCAT(kRegisteredMechanism, __LINE__) [[maybe_unused]] = \
      ::lossless::MechanismRegistry::add(                                                 \
          ::lossless::make_mechanism_scheme<Params, Mechanism>(name, summary))

}  // namespace lossless
