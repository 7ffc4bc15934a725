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

template <class Params, class Factory>
CcScheme make_cc_scheme(const char* name, const char* summary) {
  CcScheme s;
  s.name = name;
  s.summary = summary;
  s.make = [](YamlMap& m) -> std::unique_ptr<CcFactory> {
    Params p{};
    if constexpr (HasInitial<Params>) p = Params::initial(m);
    YamlParamVisitor v(m);
    p.visit(v);
    m.finish();
    return std::make_unique<Factory>(p);
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
#define LOSSLESS_REGISTER_CC(Params, Factory, name, summary)                       \
  static const bool LOSSLESS_CC_CONCAT(kRegisteredCc, __LINE__) [[maybe_unused]] = \
      ::lossless::CcRegistry::add(::lossless::make_cc_scheme<Params, Factory>(name, summary))

}  // namespace lossless
