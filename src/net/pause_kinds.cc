#include "net/pause_kinds.h"

#include <algorithm>
#include <array>

#include "core/error.h"
#include "net/packet_layout.h"

namespace lossless {
namespace {

struct KindTable {
  std::array<std::string, PauseKinds::kMax> names;
  std::size_t count = 1;
  KindTable() { names[PauseKinds::kStandard] = "standard"; }
};

KindTable& table() {
  static KindTable t;
  return t;
}

}  // namespace

std::uint8_t PauseKinds::add(const std::string& name) {
  KindTable& t = table();
  for (std::size_t k = 0; k < t.count; ++k)
    LOSSLESS_CHECK(t.names[k] != name, "pause kind '" + name + "' registered twice");
  LOSSLESS_CHECK(t.count < kMax, "too many pause kinds");
  t.names[t.count] = name;
  return static_cast<std::uint8_t>(t.count++);
}

const std::string& PauseKinds::name(std::uint8_t kind) {
  const KindTable& t = table();
  LOSSLESS_CHECK(kind < t.count, "unregistered pause kind " + std::to_string(unsigned{kind}));
  return t.names[kind];
}

std::size_t PauseKinds::count() { return table().count; }

std::vector<std::uint8_t> PauseKinds::output_order() {
  std::vector<std::uint8_t> order;
  for (std::size_t k = 0; k < count(); ++k) order.push_back(static_cast<std::uint8_t>(k));
  std::sort(order.begin() + 1, order.end(), [](std::uint8_t a, std::uint8_t b) { return name(a) < name(b); });
  return order;
}

void PauseKindTag::bind(const PacketLayout& layout) {
  bound_ = layout.has(kPauseKindSlot);
  if (bound_) slot_ = layout.bind(kPauseKindSlot);
}

void PauseKindTag::write(Packet& f, std::uint8_t kind) const {
  if (bound_) {
    f.ext_init(slot_).kind = kind;
    return;
  }
  LOSSLESS_CHECK(kind == PauseKinds::kStandard, "a pause frame of kind '" + PauseKinds::name(kind) +
                                                    "' from a policy that does not list the slot pfc.kind");
}

}  // namespace lossless
