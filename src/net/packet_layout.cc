#include "net/packet_layout.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "net/packet_kinds.h"

namespace lossless {
namespace {

bool shares_kind(const std::array<std::uint64_t, 4>& a, const std::array<std::uint64_t, 4>& b) {
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] & b[i]) return true;
  return false;
}

std::string kinds_text(const std::array<std::uint64_t, 4>& kinds) {
  std::string s;
  for (unsigned k = 0; k < 256; ++k)
    if ((kinds[k >> 6] >> (k & 63)) & 1)
      s += (s.empty() ? "" : ", ") + PacketKinds::name(static_cast<PacketType>(k));
  return s;
}

std::string owners_text(const std::vector<std::string>& owners) {
  std::string s;
  for (const auto& o : owners) s += (s.empty() ? "" : " and ") + o;
  return s;
}

}  // namespace

void PacketLayout::add(const std::string& role, const SchemeFactory& factory) {
  try {
    add(factory.scheme_name().empty() ? role : factory.scheme_name() + " (" + role + ")", factory.slots());
  } catch (const ConfigError& e) {
    throw ConfigError("", role, e.reason());
  }
}

void PacketLayout::add(const std::string& owner, SlotList slots) {
  for (const SlotSpec* spec : slots) {
    auto same = std::find_if(placed_.begin(), placed_.end(), [&](const Placed& p) { return p.spec == spec; });
    if (same != placed_.end()) {
      if (std::find(same->owners.begin(), same->owners.end(), owner) == same->owners.end())
        same->owners.push_back(owner);
      continue;
    }
    for (const Placed& p : placed_)
      LOSSLESS_CHECK(std::string(p.spec->name) != spec->name,
                     "two declarations of the packet slot '" + std::string(spec->name) +
                         "': declare a slot once, as an inline constexpr PacketSlot");
    LOSSLESS_CHECK(placed_.size() < 64, "more than 64 packet slots in one run");
    Placed n{spec, 0, {}, {owner}, {}};
    for (const char* k : spec->kinds) {
      if (!k) break;
      const auto kind = PacketKinds::find(k);
      LOSSLESS_CHECK(kind.has_value(), "the packet slot '" + std::string(spec->name) + "' names the kind '" +
                                           k + "', which no scheme registered");
      const auto v = static_cast<std::uint8_t>(*kind);
      n.kinds[v >> 6] |= std::uint64_t{1} << (v & 63);
    }
    // First fit: the lowest aligned offset clear of every placed slot that a common kind carries.
    std::uint32_t offset = 0;
    for (bool moved = true; moved;) {
      moved = false;
      for (const Placed& p : placed_) {
        const std::uint32_t end = p.offset + p.spec->size;
        if (shares_kind(p.kinds, n.kinds) && offset < end && p.offset < offset + spec->size) {
          offset = (end + spec->align - 1) / spec->align * spec->align;
          moved = true;
        }
      }
    }
    if (offset + spec->size > kPacketExtBytes) {
      std::vector<std::string> others;
      std::string fields;
      for (const Placed& p : placed_)
        if (shares_kind(p.kinds, n.kinds)) {
          for (const auto& o : p.owners)
            if (o != owner && std::find(others.begin(), others.end(), o) == others.end()) others.push_back(o);
          fields += std::string(", '") + p.spec->name + "' (" + std::to_string(p.spec->size) + " B)";
        }
      const std::string who = others.empty() ? owner : owner + " and " + owners_text(others);
      const std::string area = std::to_string(kPacketExtBytes) + "-byte extension area";
      const std::string field = std::string("'") + spec->name + "' (" + std::to_string(spec->size) +
                                " B on " + kinds_text(n.kinds) + ")";
      throw ConfigError("", "",
                        who + " cannot run together: their packet fields do not fit in the " + area +
                            " of the packets that carry them all (" + field + fields + ")");
    }
    n.offset = offset;
    n.check.name = spec->name;
    n.check.kinds = n.kinds;
    n.check.bit = std::uint64_t{1} << placed_.size();
    for (Placed& p : placed_)
      if (offset < p.offset + p.spec->size && p.offset < offset + spec->size) {
        p.check.overlaps |= n.check.bit;
        n.check.overlaps |= p.check.bit;
      }
    placed_.push_back(std::move(n));
  }
}

std::uint32_t PacketLayout::used_bytes() const {
  std::uint32_t end = 0;
  for (const Placed& p : placed_) end = std::max<std::uint32_t>(end, p.offset + p.spec->size);
  return end;
}

bool PacketLayout::has(const SlotSpec& spec) const {
  for (const Placed& p : placed_)
    if (p.spec == &spec) return true;
  return false;
}

const PacketLayout::Placed& PacketLayout::placed_for(const SlotSpec& spec) const {
  for (const Placed& p : placed_)
    if (p.spec == &spec) return p;
  throw InternalError("the packet slot '" + std::string(spec.name) +
                      "' is not laid out in this run: the scheme that binds it must list it in its kSlots");
}

void slot_violation(const SlotCheck* c, unsigned kind, bool not_written) {
  const std::string k = PacketKinds::name(static_cast<PacketType>(kind));
  if (!c) {
    std::fprintf(stderr, "lossless: a packet slot that was never bound accessed on a %s packet\n", k.c_str());
  } else if (not_written) {
    std::fprintf(stderr,
                 "lossless: packet slot '%s' read on a %s packet where its owner did not write it "
                 "(ext_init), or another slot was written over its bytes since\n",
                 c->name, k.c_str());
  } else {
    std::fprintf(stderr,
                 "lossless: packet slot '%s' accessed on a %s packet: its owner did not declare it on that "
                 "kind, so those bytes may be another scheme's\n",
                 c->name, k.c_str());
  }
  std::abort();
}

}  // namespace lossless
