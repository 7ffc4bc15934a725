// Packet extension slots: the fields a scheme carries in packets, each owned by the scheme that declares it.
//
// A scheme declares each struct it carries, once, as a namespace-scope constant in its own folder: its name,
// and the packet kinds that carry it (by their registered names, net/packet_kinds.h: "data", "ack", "nack",
// "cnp", or a scheme kind such as "rocc.fair_rate"), e.g.
//   struct IntRecords { ... };                                   // trivially copyable
//   inline constexpr PacketSlot<IntRecords> kIntRecords{"hpcc.int", {"data", "ack"}};
// and lists the slots its parts use on the class its registration names (the congestion control's parts
// struct or sender, the mechanism, the flow-control policy, the router, the architecture):
//   static constexpr const SlotSpec* kSlots[] = {&kIntRecords};
// At start-up the run lays out the slots of the schemes it selects (net/packet_layout.h): every slot gets an
// offset in the packet's extension area, once, such that two slots carried by a common packet kind never
// share a byte (slots on disjoint kinds may). Schemes that cannot fit together are refused (exit 2, naming
// both). A part binds its slot when it is built (`Slot<IntRecords> int_ = env.slots.bind(kIntRecords)`) and
// reaches the fields only through it: p.ext_init(int_) where the packet is made, p.ext(int_) after.
//
// Release builds pay an offset add per access. Builds with LOSSLESS_SLOT_CHECKS (Debug, the sanitizer and
// fuzz builds; CMakeLists.txt) check every access: the packet's kind is one the slot was declared for, and
// the slot's bytes in this packet were written by its owner (ext_init) and not overwritten since by a slot
// that shares them; a violation aborts with the slot's name and the packet's kind.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <type_traits>

namespace lossless {

// Bytes of a packet that hold the schemes' slots (Packet::kExtBytes).
constexpr std::size_t kPacketExtBytes = 192;
// Packet kinds one slot may name.
constexpr std::size_t kMaxSlotKinds = 8;

#ifdef LOSSLESS_SLOT_CHECKS
constexpr bool kSlotChecks = true;
#else
constexpr bool kSlotChecks = false;
#endif

// A slot as the layout sees it. Declare one through PacketSlot<T>.
struct SlotSpec {
  const char* name;  // "scheme.field", unique
  std::uint16_t size;
  std::uint16_t align;
  std::array<const char*, kMaxSlotKinds> kinds;  // registered kind names; unused entries null
};

using SlotList = std::span<const SlotSpec* const>;

// The typed declaration of a slot: a namespace-scope `inline constexpr` (one object for the whole program).
template <class T>
struct PacketSlot : SlotSpec {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "packet slot fields must be plain data");
  static_assert(sizeof(T) <= kPacketExtBytes, "packet slot larger than the packet's extension area");
  static_assert(alignof(T) <= 8, "packet slot over-aligned");
  consteval PacketSlot(const char* slot_name, std::initializer_list<const char*> kind_names)
      : SlotSpec{
            slot_name, static_cast<std::uint16_t>(sizeof(T)), static_cast<std::uint16_t>(alignof(T)), {}} {
    if (kind_names.size() == 0 || kind_names.size() > kMaxSlotKinds) throw "a slot names 1 to 8 packet kinds";
    std::size_t i = 0;
    for (const char* k : kind_names) kinds[i++] = k;
  }
};

// What a check build knows of a placed slot (owned by the run's PacketLayout).
struct SlotCheck {
  const char* name = nullptr;
  std::array<std::uint64_t, 4> kinds{};  // bit per PacketType value
  std::uint64_t bit = 0;                 // this slot's bit in Packet's live set
  std::uint64_t overlaps = 0;            // bits of the other slots that share any of its bytes
};

// Check builds: prints what was violated — `c`'s slot accessed on a packet of kind `kind` that it was not
// declared for (or never bound: c null), or (`not_written`) whose bytes its owner did not write or another
// slot has written over since — and aborts.
[[noreturn]] void slot_violation(const SlotCheck* c, unsigned kind, bool not_written);

// A slot bound to the run's layout: what a scheme's part keeps and passes to Packet::ext / ext_init.
template <class T>
class Slot {
 public:
  Slot() = default;
  std::uint32_t offset() const { return offset_; }

 private:
  friend class PacketLayout;
  friend struct Packet;
  std::uint32_t offset_ = 0;
#ifdef LOSSLESS_SLOT_CHECKS
  const SlotCheck* check_ = nullptr;  // null: never bound
#endif
};

}  // namespace lossless
