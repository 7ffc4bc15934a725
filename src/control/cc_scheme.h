// Registration helper: a scheme file ends with one LOSSLESS_REGISTER_CC line (STYLE P8).
#pragma once
#include "control/congestion_control.h"
#include "core/params.h"
#include "scenario/yaml_map.h"

namespace lossless {

// Params must provide `template <class V> void visit(V&)`; it may provide `static Params initial(YamlMap&)`
// to pick defaults from a key read first (a variant or preset).
template <class Params>
concept HasInitial = requires(YamlMap& m) {
  {Params::initial(m)};
};

// The factory of every scheme: one Sender per QP built from the shared parameters; the substrate hints come
// from `Params::hints()` when the scheme has any.
template <class Params, class Sender>
class CcFactoryOf final : public CcFactory {
 public:
  explicit CcFactoryOf(const Params& p) : p_(p) {}
  std::unique_ptr<CongestionControl> create(SenderQp& qp, const CcEnv& env) const override {
    return std::make_unique<Sender>(p_, qp, env);
  }
  std::size_t state_bytes() const override { return sizeof(Sender); }
  SubstrateHints hints() const override {
    if constexpr (requires(const Params& p) { p.hints(); }) {
      return p_.hints();
    } else {
      return {};
    }
  }

 private:
  Params p_;
};

// The registry entry of a scheme: parses Params (defaults from `initial` when it exists, then every key
// through `visit`, unknown keys rejected) into a Concrete factory, and prints the parameters for `lossless
// list`.
template <class Base, class Params, class Concrete>
SchemeEntry<Base> make_scheme_entry(const char* name, const char* summary) {
  SchemeEntry<Base> s;
  s.name = name;
  s.summary = summary;
  s.make = [](YamlMap& m) -> std::unique_ptr<Base> {
    Params p{};
    if constexpr (HasInitial<Params>) p = Params::initial(m);
    YamlParamVisitor v(m);
    p.visit(v);
    m.finish();
    return std::make_unique<Concrete>(p);
  };
  s.print_params = [](std::ostream& os) {
    Params p{};
    ParamPrinter printer(os);
    p.visit(printer);
  };
  return s;
}

#define LOSSLESS_CC_CONCAT2(a, b) a##b
#define LOSSLESS_CC_CONCAT(a, b) LOSSLESS_CC_CONCAT2(a, b)
#define LOSSLESS_REGISTER_CC(Params, Sender, name, summary)                                                  \
  static const bool                                                                                          \
  LOSSLESS_CC_CONCAT(kRegisteredCc, __LINE__) [[maybe_unused]] = ::lossless::CcRegistry::add(                \
      ::lossless::make_scheme_entry<::lossless::CcFactory, Params, ::lossless::CcFactoryOf<Params, Sender>>( \
          name, summary))

}  // namespace lossless
