// The run's packet layout: the offset of every packet slot (net/packet_slot.h) of the schemes the run
// selects, assigned once at start-up. The network builds it from the switch configuration's schemes, then the
// mechanism, then the congestion control (the scenario reader builds the same to refuse schemes that cannot
// fit together before anything runs), and the schemes' parts bind their slots from it as they are built.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "core/error.h"
#include "net/packet_slot.h"
#include "net/scheme_factory.h"

namespace lossless {

class PacketLayout {
 public:
  PacketLayout() = default;
  // Bound slots point into the layout.
  PacketLayout(const PacketLayout&) = delete;
  PacketLayout& operator=(const PacketLayout&) = delete;

  // Places the slots of `factory`, selected by the scenario key `role` ("cc.algorithm"), beside those placed
  // so far, in the order the scheme lists them: each at the lowest offset (a multiple of its alignment) where
  // it shares no byte with a placed slot that a common packet kind carries. A slot placed already (a second
  // scheme lists it: TCD's mark is read by dcqcn_tcd) stays where it is. Throws ConfigError (key `role`)
  // naming the schemes whose slots cannot fit together.
  void add(const std::string& role, const SchemeFactory& factory);
  // The same for slots owned by `owner` (as error messages name it).
  void add(const std::string& owner, SlotList slots);

  // The slot `spec` as placed in this run. Throws InternalError when no selected scheme lists it.
  template <class T>
  Slot<T> bind(const PacketSlot<T>& spec) const {
    const Placed& p = placed_for(spec);
    Slot<T> s;
    s.offset_ = p.offset;
#ifdef LOSSLESS_SLOT_CHECKS
    s.check_ = &p.check;
#endif
    return s;
  }

  // Whether a selected scheme lists `spec` (a slot that only some runs lay out).
  bool has(const SlotSpec& spec) const;

  struct Placed {
    const SlotSpec* spec;
    std::uint32_t offset;
    std::array<std::uint64_t, 4> kinds;  // bit per PacketType value
    std::vector<std::string> owners;     // "hpcc (cc.algorithm)"
    SlotCheck check;
  };
  // In the order they were placed.
  const std::deque<Placed>& placed() const { return placed_; }
  // The highest end of any placed slot (bytes of the extension area in use).
  std::uint32_t used_bytes() const;

 private:
  const Placed& placed_for(const SlotSpec& spec) const;
  std::deque<Placed> placed_;  // stable addresses: bound slots point at their check
};

}  // namespace lossless
