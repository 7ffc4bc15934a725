#include "net/packet_kinds.h"

#include <array>

#include "core/error.h"

namespace lossless {
namespace {

struct KindTable {
  std::array<std::string, 256> names;
  unsigned next_end_to_end = kFirstSchemeKind;
  unsigned next_link_local = kFirstLinkLocalSchemeKind;
  KindTable() {
    names[0] = "data";
    names[1] = "ack";
    names[2] = "nack";
    names[3] = "cnp";
    names[128] = "pfc";
  }
};

KindTable& table() {
  static KindTable t;
  return t;
}

}  // namespace

PacketType PacketKinds::add(const std::string& name, Scope scope) {
  KindTable& t = table();
  for (const auto& n : t.names) LOSSLESS_CHECK(n != name, "packet kind '" + name + "' registered twice");
  unsigned& next = scope == kEndToEnd ? t.next_end_to_end : t.next_link_local;
  LOSSLESS_CHECK(next < (scope == kEndToEnd ? 128u : 256u), "too many packet kinds");
  t.names[next] = name;
  return static_cast<PacketType>(next++);
}

std::string PacketKinds::name(PacketType kind) {
  const std::string& n = table().names[static_cast<std::uint8_t>(kind)];
  return n.empty() ? "kind " + std::to_string(static_cast<unsigned>(kind)) : n;
}

std::optional<PacketType> PacketKinds::find(const std::string& name) {
  const KindTable& t = table();
  for (std::size_t i = 0; i < t.names.size(); ++i)
    if (!name.empty() && t.names[i] == name) return static_cast<PacketType>(i);
  return std::nullopt;
}

}  // namespace lossless
