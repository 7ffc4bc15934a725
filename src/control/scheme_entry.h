// The registry entry of any scheme: it parses the scheme's Params (defaults from `Params::initial` when it
// exists, then every key through `visit`, unknown keys rejected) into a factory, and prints the parameters
// for `lossless list`.
#pragma once
#include <memory>
#include <ostream>

#include "core/params.h"
#include "core/scheme_registry.h"
#include "net/packet_slot.h"

namespace lossless {

// Params must provide `template <class V> void visit(V&)`; it may provide `static Params
// initial(ParamSource&)` to pick defaults from a key read first (a variant or preset).
template <class Params>
concept HasInitial = requires(ParamSource& m) {
  {Params::initial(m)};
};

template <class Base, class Params, class Concrete>
SchemeEntry<Base> make_scheme_entry(const char* name, const char* summary, const char* section = "") {
  SchemeEntry<Base> s;
  s.name = name;
  s.summary = summary;
  s.section = section;
  s.make = [name](ParamSource& m) -> std::unique_ptr<Base> {
    Params p{};
    if constexpr (HasInitial<Params>) p = Params::initial(m);
    ParamReader v(m);
    p.visit(v);
    m.finish();
    auto factory = std::make_unique<Concrete>(p);
    factory->set_scheme_name(name);
    return factory;
  };
  s.print_params = [](std::ostream& os) {
    Params p{};
    ParamPrinter printer(os);
    p.visit(printer);
  };
  s.print_keys = [](std::ostream& os, bool markdown, const std::string& prefix) {
    Params p{};
    ParamPrinter printer(os, "    ", markdown, prefix);
    p.visit(printer);
  };
  return s;
}

// The packet slots a scheme class lists (`static constexpr const SlotSpec* kSlots[] = {&kMySlot};`,
// net/packet_slot.h); none when it lists none.
template <class T>
SlotList slots_of() {
  if constexpr (requires { T::kSlots; }) {
    return SlotList(T::kSlots);
  } else {
    return {};
  }
}

// Parameters of a scheme that has none.
struct NoParams {
  template <class V>
  void visit(V&) {}
};

#define LOSSLESS_CONCAT2(a, b) a##b
#define LOSSLESS_CONCAT(a, b) LOSSLESS_CONCAT2(a, b)

}  // namespace lossless
